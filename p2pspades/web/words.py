"""Every sentence and label the page shows that the game's own words (`ui/words.py`, `ui/text.py`,
`describe/`) do not already make: one place, so the page's script holds no words at all, in any language.

`labels()` goes to the page once, when it is served (the script looks its labels up by key), in the language
the program speaks; the sentences that depend on the game are made here, on the peer's side, and sent in each
snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pspades.describe.game import card_glyph
from p2pspades.i18n import N_, _, ngettext
from p2pspades.rules import Card, RuleSet, Trick
from p2pspades.ui.screens import quit_question as _quit_question
from p2pspades.ui.screens import stop_question as _stop_question

LABELS: dict[str, str] = {
    "app": "p2pspades",
    "connecting": N_("Connecting to your p2pspades program…"),
    "reconnecting": N_("The connection to your p2pspades program was lost: trying again…"),
    "ended": N_("Your p2pspades program has ended. You can close this tab."),
    "restarting": N_("Starting the next game…"),
    "refused": N_("This page's address is not valid any more: open the address your p2pspades program "
                  "printed."),
    "watching": N_("You are watching: another tab of this page plays. Close it to play here."),
    "playing_here": N_("This tab plays."),
    "your_hand": N_("Your hand"),
    "table": N_("The table"),
    "seats": N_("Seats"),
    "events": N_("Events"),
    "scores": N_("Score sheet"),
    "tracker": N_("Cards played"),
    "last_trick": N_("Last trick"),
    "help": N_("Keys"),
    "coach": N_("Coach"),
    "wait_longer": N_("Wait longer"),
    "leave": N_("Leave"),
    "close": N_("Close"),
    "continue": N_("Continue"),
    "records": N_("Hand records"),
    "records_hint": N_("the whole game, hand by hand, as the verifier proves it (opens in a new tab)"),
    "confirm_card": N_("Ask before a card is played"),
    "four_colours": N_("Four-colour suits"),
    "play_card": N_("Play it"),
    "choose_again": N_("Choose again"),
    "pass_cards": N_("Pass the marked cards"),
    "clear_marks": N_("Clear the marks"),
    "yes_leave": N_("Leave"),
    "no_stay": N_("Keep playing"),
    "stop_here": N_("Stop here"),
    "propose": N_("Propose"),
    "agree": N_("Agree"),
    "play_on": N_("Play on"),
    "later": N_("Later"),
    "dealer": N_("dealer"),
    "your_turn_mark": N_("to play"),
    "thinking": N_("thinking…"),
    "you": N_("You"),
    "won": N_("won"),
    "bid": N_("bid"),
    "player": N_("player"),
    "side": N_("side"),
    "hand": N_("hand"),
    "total": N_("total"),
    "bags": N_("bags"),
    "points": N_("points"),
    "made": N_("made"),
    "set": N_("set"),
    "per_hand": N_("points per hand"),
    "nils": N_("nils made / failed"),
    "blind_nils": N_("blind nils made / failed"),
    "played": N_("played"),
    "still_out": N_("still out (not in your hand)"),
    "no_cards": N_("no cards"),
    "nothing_yet": N_("nothing yet"),
    "no_trick_yet": N_("No trick has been completed yet."),
    "no_hand_yet": N_("No hand has finished yet."),
    "not_dealt": N_("No hand has been dealt yet."),
    "led": N_("led"),
    "takes": N_("took the trick"),
    "seat": N_("seat"),
    "name": N_("name"),
    "fingerprint": N_("key fingerprint"),
    "state": N_("state"),
    "free": N_("free"),
    "rules": N_("Rules"),
    "seated": N_("Seated players"),
    "start": N_("Start"),
    "accept": N_("Accept"),
    "decline": N_("Decline"),
    "seat_bot": N_("Seat a bot here"),
    "remove": N_("Remove"),
    "level": N_("Level"),
    "switch_side": N_("Switch side"),
    "lobby_keys": N_("↑/↓ seat · b bot · x out · l level · s side"),
    "menu": N_("Windows"),
    "options": N_("Options"),
    "top_card": N_("Top card of the pile"),
    "marked": N_("marked for the pass"),
    "legal": N_("may be played"),
    "again": N_("Play again"),
    "in_tab": N_("in this tab"),
    "big_joker": N_("big joker"),
    "little_joker": N_("little joker"),
    "joker_mark": "★",
}
"""The page's fixed labels, by the key the script uses, marked for the catalogs (`labels()` translates)."""
UNTRANSLATED = frozenset({"app", "joker_mark"})
"""Labels that are no words: the program's name, a mark."""


def labels() -> dict[str, str]:
    """The page's fixed labels in the language spoken."""
    return {key: text if key in UNTRANSLATED else _(text) for key, text in LABELS.items()}


def help_keys() -> list[tuple[str, str]]:
    """The keys the page knows, as the help window lists them (the terminal's, less what a browser keeps)."""
    return [
        (_("click, or ←/→ and Enter"), _("play a card (only the cards you may play are lit)")),
        (_("qh, 10s, as, bj…"), _("type a card code, then Enter, to play that card")),
        (_("Backspace / Esc"), _("correct / clear a typed code; Esc: choose again")),
        (_("bids"), _("click a bid, or ←/→ and Enter, or type a number; n = nil")),
        (_("blind nil"), _("y declares blind nil, n says no (asked before the deal)")),
        (_("draw pile"), _("k keeps the top card, d discards it")),
        (_("nil card pass"), _("click (or Space) marks a card, Enter passes them, Esc clears")),
        ("s, l, p", _("the score sheet; the last trick; the cards played and still out")),
        ("h", _("the coach's choice, from your cards; h again: its numbers")),
        (_("any key or click"), _("after a trick: go on at once (it stays a moment)")),
        ("w", _("wait longer for a seat that stopped answering")),
        (_("x, Stop here"), _("propose to stop here, the scores standing (every player must agree)")),
        ("?", _("this help · Esc closes a window")),
    ]


AGAIN: dict[str, tuple[str, str]] = {
    "rematch": (N_("Rematch"), N_("the same table, rules and bots; each player back in their seat")),
    "carry_on": (N_("Carry on"),
                 N_("a new game from this one's scores, a bot of yours in each seat left empty")),
    "join": (N_("Join again"), N_("sit down again once the host opens the table again")),
    "new": (N_("New game"), N_("another game against the bots, with the same options")),
}
"""The page's buttons for playing again, by the kind of command the terminal prints for it (`again` says
them)."""


def again(kind: str) -> tuple[str, str]:
    """A play-again button's label and hint, in the language spoken."""
    label, hint = AGAIN.get(kind, (kind, ""))
    return (_(label), _(hint)) if kind in AGAIN else (label, hint)


def tabs(open_tabs: int) -> str:
    """The terminal's status line: how many tabs show the page."""
    if not open_tabs:
        return _("no page open")
    return ngettext("page open in {n} tab", "page open in {n} tabs", open_tabs).format(n=open_tabs)


def status_line(url: str, open_tabs: int, prompt: str) -> str:
    """The one line the terminal keeps while the page plays."""
    where = tabs(open_tabs) if open_tabs else _("no page open: {url}").format(url=url)
    return " · ".join(part for part in (where, prompt, _("Ctrl-C leaves")) if part)


def url_lines(url: str, opened: bool) -> list[str]:
    """What the command prints about the page when it starts."""
    first = _("the game is in your browser: {url}").format(url=url)
    if opened:
        return [first, _("(a browser tab was opened for it; Ctrl-C here leaves the game)")]
    return [first, _("(open it in your browser; only this machine can; Ctrl-C here leaves the game)")]


def queen_key() -> str:
    return _("q is the rank of a queen: the Leave button leaves the game")


def watching_refused() -> str:
    return _("this tab watches: the game is played in the tab that opened first")


def stale() -> str:
    return _("that moment has passed: choose again")


def confirm_card(on: bool) -> str:
    """The option to ask before a card is played, switched on or off."""
    said = _("{option}: on") if on else _("{option}: off")
    return said.format(option=_(LABELS["confirm_card"]))


def trick_title(rules: RuleSet, phase: str, number: int | None) -> str:
    """The table's caption: "Trick 3 of 13", "Bidding", "Blind nil", "Draw pile", "Table"."""
    if number is not None:
        return _("Trick {number} of {of}").format(number=number, of=rules.tricks_per_hand)
    titles = {"bid": N_("Bidding"), "blind": N_("Blind nil"), "draw": N_("Draw pile"),
              "pass": N_("Nil card pass")}
    return _(titles.get(phase, N_("Table")))


def trick_caption(names: Sequence[str], me: int, trick: Trick | None, mode: str, turn: int | None) -> str:
    """Under the trick: who led and who is winning, who leads next, or who took the last trick."""
    def who(seat: int) -> str:
        return _("You") if seat == me else names[seat]

    if trick is None:
        if turn is None:
            return ""
        return _("your turn") if turn == me else _("{who}'s turn").format(who=names[turn])
    if mode == "last":
        return _("last trick to {who}").format(who=who(trick.winner)) if trick.winner is not None else ""
    led = _("led by {who}").format(who=who(trick.leader))
    if trick.winner is None or len(trick.plays) < 2:
        return led
    return _("{led} · {who} winning").format(led=led, who=who(trick.winner))


def lead_caption(names: Sequence[str], me: int, leader: int | None) -> str:
    if leader is None:
        return ""
    return _("You lead") if leader == me else _("{who} leads").format(who=names[leader])


def trick_told(names: Sequence[str], me: int, trick: Trick, number: int) -> str:
    """The live region's words for a completed trick: "trick 3 to West: West A♥, North 2♥, …"."""
    def who(seat: int) -> str:
        return _("you") if seat == me else names[seat]

    winner = _("nobody") if trick.winner is None else who(trick.winner)
    plays = ", ".join(f"{who(seat)} {card_glyph(card)}" for seat, card in trick.plays)
    return _("trick {number} to {who}: {plays}").format(number=number, who=winner, plays=plays)


def title(table: str, rules: str, hand: int | None, spades_broken: bool) -> str:
    """The page's title: "p2pspades · Kitchen table · classic to 500 · hand 3 · ♠ broken"."""
    parts = ["p2pspades", *([table] if table.strip().lower() not in ("", "p2pspades") else []), rules]
    if hand is not None:
        parts.append(_("hand {number}").format(number=hand))
        if spades_broken:
            parts.append(_("♠ broken"))
    return " · ".join(parts)


def bot_of(owner: str | None) -> str:
    """A bot's seat: whose machine runs it (None: ours), the player who can read its cards."""
    return _("your bot") if owner is None else _("bot of {owner}").format(owner=owner)


def side_word(ours: bool) -> str:
    return _("us") if ours else _("them")


def no_contract(label: str, bidding: bool) -> str:
    """A side's contract line before every bid is in."""
    return f"{label}: " + (_("bidding…") if bidding else "-")


def over_title() -> str:
    return _("Game over")


def leaving() -> str:
    """The terminal's line when Ctrl-C leaves the game the page shows."""
    return _("^C: leaving")


def seat_line(bid: str, won: int | None) -> str:
    """Under a seat's name: "bid 4 · won 1", "bid …" while it bids."""
    if bid == "-" and won is None:
        return ""
    if won is None:
        return _("bid {bid}").format(bid=bid)
    return _("bid {bid} · won {won}").format(bid=bid, won=won)


def your_turn(kind: str) -> str:
    """Whose turn it is when it is ours, for the live region (the decision's kind)."""
    said = {"bid": N_("Your turn to bid"), "play": N_("Your turn to play a card"),
            "pass": N_("Your turn to pass cards"), "blind": N_("Blind nil? Decide before you see your cards"),
            "draw": N_("Your turn to draw")}.get(kind, N_("Your turn"))
    return _(said)


def hand_title(cards: int, passing: bool) -> str:
    if not cards:
        return _("Your hand")
    if passing:
        return _("Your hand ({n}) · click the cards to pass, then pass them").format(n=cards)
    return _("Your hand ({n})").format(n=cards)


def no_cards(phase: str) -> str:
    if phase == "blind":
        return _("not dealt yet: blind nil is decided before anybody sees a card")
    if phase == "draw":
        return _("no cards yet: draw from the pile")
    return _("no cards")


def bid_question(rules: RuleSet) -> str:
    return _("How many tricks will you take? (nil: none at all)") if rules.nil else _(
        "How many tricks will you take?")


def blind_question(trails_by: int, rules: RuleSet, blind_bids: Sequence[int]) -> list[str]:
    lines = [_("Your side trails by {points}. Bid blind nil, before you see your cards?").format(
                 points=trails_by),
             _("Blind nil scores +{points} if you take no trick, -{points} if you take one.").format(
                 points=rules.blind_nil_value)]
    if blind_bids:
        lines.append(_("Or bid {n} or more tricks blind: your side's contract then scores double, made or "
                       "failed.").format(n=blind_bids[0]))
    return lines


def draw_question(top: Card | None, left: int) -> list[str]:
    return [ngettext("{n} card left in the pile", "{n} cards left in the pile", left).format(n=left),
            _("keep: the next card is discarded unseen · discard: you get the next one unseen")]


def dialog_title(kind: str, hand: int | None) -> str:
    label = {"bid": N_("Your bid"), "blind": N_("Blind nil?"), "draw": N_("Draw pile")}.get(kind)
    said = _(label) if label else ""
    return said if hand is None else _("{title} (hand {number})").format(title=said, number=hand)


def pass_button(size: int, marked: int) -> str:
    return ngettext("Pass {n} card ({marked} marked)", "Pass {n} cards ({marked} marked)", size).format(
        n=size, marked=marked)


def confirm_question(card: Card) -> str:
    return _("Play {card}?").format(card=card_glyph(card))


def summary_title(number: int | None) -> str:
    return _("Hand {number} is over").format(number=number) if number is not None else _("Hand summary")


def scored(won: int, scored: int) -> str:
    return f"{won} " + _("(scored {n})").format(n=scored) if scored != won else str(won)


def side_total(total: int, bags: int | None) -> str:
    if bags is None:
        return _("total {total}").format(total=total)
    return ngettext("total {total}, {n} bag", "total {total}, {n} bags", bags).format(total=total, n=bags)


def audited(hands: int, failed: int) -> str:
    said = (ngettext("{n} hand audited: {passed} passed", "{n} hands audited: {passed} passed", hands)
            if not failed else
            ngettext("{n} hand audited: {passed} passed, {failed} with violations",
                     "{n} hands audited: {passed} passed, {failed} with violations", hands))
    return said.format(n=hands, passed=hands - failed, failed=failed)


def ended_by(termination: str) -> str:
    return _("ended by: {how}").format(how=termination)


def target(points: int) -> str:
    return _("target {target}").format(target=points)


def penalty(name: str, what: str, renege: str) -> str:
    return _("{who}: {what} (penalty: {penalty})").format(who=name, what=what, penalty=renege)


def quit_question(only_bots: bool, resumable: bool) -> list[str]:
    """The question before leaving a game, in the page's words (the terminal's own, less its keys)."""
    return [_quit_question(only_bots, resumable, page=True)]


def stop_question(proposing: bool, who: str, totals: str, lapses_in: float | None) -> list[str]:
    """The question of a stop by agreement, in the page's words (the terminal's own, less its keys)."""
    return [_stop_question(proposing, who, totals, lapses_in)]


def page_closed(seconds: int) -> str:
    """The terminal's line while no tab shows the game: when we leave it, unless a tab opens again."""
    return _("the page was closed: you leave the game in {seconds} s unless it is opened again (Ctrl-C "
             "leaves now)").format(seconds=seconds)


def left_with_the_page() -> str:
    return _("the page stayed closed: you leave the game")


def rules_help(described: str, target_points: int) -> str:
    return _("Rules: {rules}, to {target}. Every card is verified as it is played; every hand is audited at "
             "its end.").format(rules=described, target=target_points)


def starting(kind: str) -> str:
    label = again(kind)[0] or kind
    return _("Starting: {what}…").format(what=label)


def web_only(option: str) -> str:
    return _("{option} goes with --web").format(option=option)
