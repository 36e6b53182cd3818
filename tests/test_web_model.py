"""The page's view of the terminal game's model, and what the page's clicks and keys do to it: the page
lights exactly the cards and offers exactly the bids the decision allows, a click the rules refuse is
refused with the model's own reason, a click meant for a decision that has passed is not applied to the
next, and the keys do what the terminal's keys do. Driven by the engine's real decisions, with no screen."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.games import dealt, decision, shuffled
from hypothesis import given
from hypothesis import strategies as st

from p2pspades import crypto
from p2pspades.net.lobby_seats import LobbySeat
from p2pspades.rules import (
    Action,
    Bid,
    BlindBid,
    BlindNil,
    Card,
    Draw,
    Game,
    Pass,
    Phase,
    Play,
    RuleSet,
    deal_from_order,
    parse_cards,
    preset,
)
from p2pspades.table import Decision, DecisionKind
from p2pspades.table.harness import Wire
from p2pspades.ui.lobby_model import LobbyModel
from p2pspades.ui.overlays import Overlay
from p2pspades.ui.state import UiState
from p2pspades.web import snapshot, words
from p2pspades.web.actions import Refused, card_clicked, game_message, lobby_message, parse, press
from p2pspades.web.snapshot import action_code, action_of

pytestmark = pytest.mark.timeout(60)
STATIC = Path(words.__file__).with_name("static")


def screen(seat: int, game: Game, finished_game: Wire) -> UiState:
    setup = dataclasses.replace(finished_game.tables[0].setup, rules=game.rules)
    return UiState(seat, setup)


def to_our_play(seed: bytes = b"web") -> Game:
    """A classic hand, dealer Ann (seat 0): Bob leads, and Ann is last to the first trick."""
    game = shuffled_hand(seed, dealer=0)
    while game.current_seat != 0 or game.phase is not Phase.PLAY:
        if game.phase is Phase.BID and game.current_seat == 0:
            game.apply(Bid(3))
        else:
            game.apply(game.legal_actions()[0])
    return game


def shuffled_hand(seed: bytes, rules: RuleSet | None = None, dealer: int = 3) -> Game:
    """A hand dealt from a shuffle of `seed` (classic, dealer Dan: Ann bids first)."""
    rules = rules or preset("classic")
    game = Game(rules, dealer)
    game.apply(deal_from_order(rules, dealer, shuffled(rules, seed)))
    return game


def our_turn(game: Game, finished_game: Wire,
             kind: DecisionKind | None = None) -> tuple[UiState, Decision, asyncio.Future[Action]]:
    """Ann's screen with the decision (of `kind`) on it: the screen, the decision, its answer to come."""
    state = screen(0, game, finished_game)
    turn = decision(game)
    assert kind is None or turn.kind is kind, turn.kind
    return state, turn, state.publish(turn)


def json_round_trip(state: UiState) -> dict[str, Any]:
    shown = snapshot.game(state)
    assert json.loads(json.dumps(shown)) == shown
    return shown


async def test_the_bids_offered_are_the_decisions_own_and_a_refused_one_says_why(finished_game: Wire) -> None:
    state, turn, answer = our_turn(shuffled_hand(b"bids"), finished_game, DecisionKind.BID)
    shown = json_round_trip(state)
    dialog = shown["dialog"]
    assert isinstance(dialog, dict)
    choices = dialog["choices"]
    assert {action_of(c["a"]) for c in choices} == set(turn.legal)
    assert [c["label"] for c in choices] == ["nil", *map(str, range(1, 14))]
    assert [c["selected"] for c in choices].index(True) == 1, "the lowest real bid, as on the terminal"
    assert shown["hand"]["mode"] == "" and len(shown["hand"]["cards"]) == 13
    # a bid the rules do not allow is refused with the model's reason; a click meant for an earlier decision
    # is refused as stale; neither answers
    game_message(state, {"do": "choose", "a": "bid:14"}, current=True)
    assert not answer.done()
    assert state.message is not None and state.message.level == "warn"
    assert state.message.text == "a bid of 14 is not allowed: bid nil to 13"
    game_message(state, {"do": "choose", "a": "bid:4"}, current=False)
    assert not answer.done() and state.message is not None and state.message.text == words.stale()
    with pytest.raises(Refused):
        game_message(state, {"do": "choose", "a": "bid:four"}, current=True)
    game_message(state, {"do": "choose", "a": "bid:4"}, current=True)
    assert answer.done() and answer.result() == Bid(4)


async def test_digits_and_n_bid_as_on_the_terminal(finished_game: Wire) -> None:
    for keys, wanted in ((["1", "0", "Enter"], Bid(10)), (["n"], Bid(0)), (["ArrowRight", "Enter"], Bid(2))):
        state, _, answer = our_turn(shuffled_hand(b"keys"), finished_game)
        for key in keys:
            press(state, key)
        assert answer.done() and answer.result() == wanted, keys


async def test_the_cards_lit_are_the_legal_ones_and_a_click_on_another_says_why(finished_game: Wire) -> None:
    state, turn, answer = our_turn(to_our_play(), finished_game, DecisionKind.PLAY)
    shown = json_round_trip(state)
    hand = shown["hand"]
    assert isinstance(hand, dict) and hand["mode"] == "play"
    legal = {a.card for a in turn.legal if isinstance(a, Play)}
    assert {Card.parse(c["card"]["c"]) for c in hand["cards"] if c["legal"]} == legal
    assert {c["card"]["g"] for c in hand["cards"]} == {c.glyph for c in turn.view.hand}
    assert len(legal) < 13, "the deal makes some cards unplayable"
    # the trick on the table: three cards, the leader's first, each at its place round the table
    trick = shown["trick"]
    assert isinstance(trick, dict) and trick["mode"] == "live"
    assert [p["at"] for p in trick["plays"]] == [1, 2, 3]
    assert trick["caption"].startswith("led by Bob")
    illegal = next(c for c in turn.view.hand if c not in legal)
    card_clicked(state, illegal)
    assert not answer.done()
    led = turn.view.trick.led_suit
    assert led is not None and state.message is not None
    assert state.message.text == f"you must follow {led.noun}: you hold {led.noun}"
    chosen = sorted(legal, key=lambda c: c.index)[-1]
    card_clicked(state, chosen)
    assert answer.done() and answer.result() == Play(chosen)


async def test_the_arrows_move_over_the_legal_cards_and_a_typed_code_plays(finished_game: Wire) -> None:
    state, turn, answer = our_turn(to_our_play(), finished_game)
    legal = [c for c in state.hand_cards() if Play(c) in turn.legal]
    assert state.selected == legal[0]
    press(state, "ArrowRight")
    assert state.selected == legal[min(1, len(legal) - 1)]
    press(state, "End")
    assert state.selected == legal[-1]
    for key in "zz":  # not a card code: nothing typed
        press(state, key)
    assert state.typed == ""
    code = legal[0].code.lower().replace("t", "10")
    for key in code:
        press(state, key)
    assert state.typed == code
    press(state, "Enter")
    assert answer.done() and answer.result() == Play(legal[0])


async def test_with_the_confirm_option_a_card_asks_first(finished_game: Wire) -> None:
    state, turn, answer = our_turn(to_our_play(), finished_game)
    game_message(state, {"do": "confirm_card", "on": True}, current=True)
    assert state.confirm_card
    legal = [c for c in state.hand_cards() if Play(c) in turn.legal]
    card_clicked(state, legal[-1])
    assert not answer.done() and state.confirming == legal[-1]
    shown = json_round_trip(state)
    assert shown["confirming"] == snapshot.card(legal[-1])
    asked = f"play {legal[-1].glyph}? Enter plays, Esc chooses again"
    assert shown["prompt"] == {"text": asked, "level": "status"}
    game_message(state, {"do": "cancel"}, current=True)
    assert state.confirming is None and not answer.done()
    card_clicked(state, legal[0])
    game_message(state, {"do": "confirm"}, current=True)
    assert answer.done() and answer.result() == Play(legal[0])


async def test_the_keys_open_the_windows_the_terminal_opens(finished_game: Wire) -> None:
    game = to_our_play()
    state, _, _ = our_turn(game, finished_game)
    for key, window in (("s", "scores"), ("p", "played"), ("l", "last"), ("?", "help")):
        press(state, key)
        shown = json_round_trip(state)
        assert shown["overlay"] == window and shown["window"] is not None and shown["dialog"] is None
        press(state, "Escape")
        assert state.top_overlay is None
    press(state, "p")
    tracker = json_round_trip(state)["window"]
    assert isinstance(tracker, dict)
    assert [r["suit"] for r in tracker["rows"]] == ["S", "H", "C", "D"]
    played = [c["c"] for r in tracker["rows"] for c in r["played"]]
    assert sorted(played) == sorted(c.code for _, c in game.view(0).trick.plays)
    game_message(state, {"do": "window", "name": "played"}, current=True)
    assert state.top_overlay is None
    with pytest.raises(Refused):
        game_message(state, {"do": "window", "name": "quit"}, current=True)
    press(state, "q")
    assert state.typed == "q", "q begins a queen's code, as on the terminal"
    press(state, "Backspace")
    assert state.typed == ""
    idle = screen(0, game, finished_game)
    press(idle, "q")
    assert idle.message is not None and idle.message.text == words.queen_key()
    game_message(state, {"do": "leave"}, current=True)
    assert json_round_trip(state)["overlay"] == "quit"
    press(state, "n")
    assert state.top_overlay is None and not state.leave_requested


async def test_the_nil_pass_marks_by_click_and_passes_exactly_the_rules_count(finished_game: Wire) -> None:
    hands = ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
             "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D", "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C")
    game = dealt(preset("classic", nil_pass=2), 3, hands)
    for tricks in (0, 3, 4, 3):
        game.apply(Bid(tricks))
    state, _, answer = our_turn(game, finished_game, DecisionKind.PASS)
    shown = json_round_trip(state)
    hand = shown["hand"]
    assert isinstance(hand, dict) and hand["mode"] == "pass" and hand["pass"]["ready"] is False
    assert {c["card"]["c"] for c in hand["cards"] if c["legal"]} == {c.code for c in state.passable_cards()}
    ace, two = parse_cards("AS 2S")
    card_clicked(state, ace)
    card_clicked(state, two)
    game_message(state, {"do": "pass"}, current=False)
    assert not answer.done(), "a stale pass is not made"
    hand = json_round_trip(state)["hand"]
    assert isinstance(hand, dict) and hand["pass"] == {"label": words.pass_button(2, 2), "ready": True}
    assert [c["card"]["c"] for c in hand["cards"] if c["marked"]] == ["AS", "2S"]
    card_clicked(state, ace)  # a second click unmarks
    assert state.marked == [two]
    card_clicked(state, ace)
    game_message(state, {"do": "pass"}, current=True)
    assert answer.done() and answer.result() == Pass((two, ace))


def test_the_end_of_a_hand_and_of_the_game_as_the_page_shows_them(finished_game: Wire) -> None:
    table = finished_game.tables[0]
    state = UiState(0, table.setup)
    state.on_events(finished_game.events[0])
    state.refresh(table)
    shown = json_round_trip(state)
    assert shown["overlay"] == "over" and shown["over"] is True
    over = shown["window"]
    assert isinstance(over, dict) and over["text"] == state.result.text  # type: ignore[union-attr]
    assert [s["label"] for s in over["sides"]] == ["Ann+Cat", "Bob+Dan"]
    assert [s["won"] for s in over["sides"]] == [k in state.result.winners for k in (0, 1)]  # type: ignore[union-attr]
    assert [s["total"] for s in over["sides"]] == [t.score for t in state.totals]
    state.summary_hand = state.history[-1].number
    summary = snapshot.window(state, Overlay.SUMMARY)
    assert summary is not None and summary["title"] == f"Hand {state.history[-1].number} is over"
    assert [p["name"] for p in summary["players"]] == ["Ann", "Bob", "Cat", "Dan"]
    assert summary["verdict"]["level"] == "good"
    sheet = snapshot.score_sheet(state)
    assert [r["hand"] for r in sheet["rows"]] == [h.number for h in state.history]
    assert sheet["rows"][-1]["cells"][0]["total"] == state.totals[0].score


@given(st.sampled_from([Bid(n) for n in range(14)] + [BlindBid(n) for n in range(4, 14)]
                       + [BlindNil(True), BlindNil(False), Draw(True), Draw(False)]))
def test_a_choice_survives_the_trip_to_the_page(action: Action) -> None:
    assert action_of(action_code(action)) == action


@given(st.text(max_size=12))
def test_any_code_from_a_page_is_a_choice_or_nothing(code: str) -> None:
    found = action_of(code)
    assert found is None or isinstance(found, Bid | BlindBid | BlindNil | Draw)


@given(st.binary(max_size=64) | st.text(max_size=64))
def test_any_message_is_parsed_or_refused(data: bytes | str) -> None:
    try:
        message = parse(data)
    except Refused:
        return
    assert isinstance(message["do"], str)


def lobby_seat(seat: int, name: str, owner: bytes | None = None) -> LobbySeat:
    key = crypto.Identity.from_seed(bytes([seat]) * 32).public
    return LobbySeat(seat, name, key, f"tcp://127.0.0.1:{4000 + seat}", owner)


async def test_the_lobby_as_the_page_shows_it(finished_game: Wire) -> None:
    ana = lobby_seat(0, "ana")
    seats = [ana, lobby_seat(1, "ana's bot", owner=ana.public_key), lobby_seat(3, "bo")]
    model = LobbyModel("ana's table", preset("classic"), seats, you=3)
    shown = snapshot.lobby(model)
    assert json.loads(json.dumps(shown)) == shown
    rows = shown["seats"]
    assert [r.get("name") for r in rows] == ["ana", "ana's bot", None, "bo"]
    assert rows[1]["state"] == "bot · ana sees its cards" and rows[3]["you"] is True
    assert [r["side"] for r in rows] == ["A", "B", "A", "B"]
    assert rows[0]["fingerprint"] == ana.fingerprint
    assert shown["warnings"] == ["! ana's bot is run by ana but partners bo: ana can see its cards"]
    assert all(r["controls"] == [] for r in rows), "a joiner changes no seat"
    with pytest.raises(Refused):
        lobby_message(model, {"do": "seat", "seat": 2, "what": "b"})
    assert [b["do"] for b in shown["buttons"]] == ["accept", "decline"]
    asking = asyncio.ensure_future(model.ask())
    await asyncio.sleep(0)
    lobby_message(model, {"do": "accept"})
    assert await asking is True


def test_the_page_script_knows_every_label_it_uses_and_holds_no_sentence_of_its_own() -> None:
    scripts = {path.name: path.read_text() for path in STATIC.glob("*.js")}
    used = {name for text in scripts.values() for name in re.findall(r"\b(?:L|labels|this\.L)\.(\w+)", text)}
    assert used and used <= set(words.LABELS), used - set(words.LABELS)
    classes = set(re.findall(r"\.([a-zA-Z][\w-]*)", (STATIC / "page.css").read_text()))

    tags = {"a", "button", "summary", "input", "select", "textarea", "li", "ul", "ol", "div", "span", "p"}

    def a_class(token: str) -> bool:  # "tool", a tag in a selector, or a class's start: "suit-" + the suit
        return token in classes or token in tags or (token.endswith("-") and any(c.startswith(token)
                                                                                 for c in classes))

    for name, text in scripts.items():
        for literal in re.findall(r'"([^"\n]*)"|`([^`\n]*)`', text):
            value = re.sub(r"\$\{[^}]*\}", "0", literal[0] or literal[1])  # "n${n}": a class made in code
            tokens = [token.strip("()[]:,.?!") for token in value.split()]
            words_in_it = [token for token in tokens if re.fullmatch(r"[A-Za-z][a-z]*-?", token)]
            if len(words_in_it) > 1:  # two words or more: a phrase, unless every one is a style class
                assert all(a_class(token) for token in words_in_it), (name, literal)


async def test_blind_nil_and_the_draw_pile_are_dialogs_of_their_own(finished_game: Wire) -> None:
    rules = preset("classic", blind_nil_margin=0)  # every side "trails" by 0: blind nil is offered at once
    state, turn, answer = our_turn(Game(rules, 3), finished_game, DecisionKind.BLIND_NIL)
    dialog = json_round_trip(state)["dialog"]
    assert dialog["kind"] == "blind" and dialog["title"] == "Blind nil? (hand 1)"
    assert [c["label"] for c in dialog["choices"]] == ["no, see my cards", "blind nil"]
    assert dialog["lines"][0] == "Your side trails by 0. Bid blind nil, before you see your cards?"
    assert json_round_trip(state)["hand"]["empty"] == words.no_cards("blind")
    press(state, "y")
    assert answer.done() and answer.result() == BlindNil(True)
    two = preset("two")
    game = shuffled_hand(b"draw", two, dealer=1)
    while game.phase is not Phase.DRAW or game.current_seat != 0:
        game.apply(game.legal_actions()[0])
    setup = finished_game.tables[0].setup
    state = UiState(0, dataclasses.replace(setup, rules=two, seats=setup.seats[:2]))
    turn = decision(game)
    answer = state.publish(turn)
    dialog = json_round_trip(state)["dialog"]
    assert dialog["kind"] == "draw" and [c["label"] for c in dialog["choices"]] == ["keep it", "discard it"]
    top = game.view(0).draw_card
    assert top is not None and dialog["top"] == snapshot.card(top)
    game_message(state, {"do": "choose", "a": "draw:discard"}, current=True)
    assert answer.done() and answer.result() == Draw(False)


async def test_waiting_for_a_silent_seat_offers_to_wait_longer(finished_game: Wire) -> None:
    game = to_our_play()
    state = screen(0, game, finished_game)
    state.update_view(game.view(0))
    asked: list[int] = []

    def wait_longer() -> int:  # the peer's: it adds one more timeout, and says how long
        asked.append(1)
        return 60

    state.on_wait_longer = wait_longer
    state.waiting = (1, "play")
    state.set_countdown(1, 25)
    shown = json_round_trip(state)
    assert shown["waiting"] is True
    assert "stopped answering in 25 s (w: wait longer)" in shown["prompt"]["text"]
    game_message(state, {"do": "wait"}, current=True)
    assert asked == [1]
    assert state.events[-1].text == "you wait 60 s longer for Bob before claiming it stopped answering"
    state.set_countdown(None, None)
    state.waiting = None
    assert json_round_trip(state)["waiting"] is False
