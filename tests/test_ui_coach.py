"""The coach as a person uses it: `h` on the game screen, and `p2pspades review` on a finished game's log."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.lan import Lan
from helpers.logs import write_log
from helpers.terminal import Terminal

from p2pspades.audit.files import verify_log
from p2pspades.bots import HeuristicBot, Player, RandomBot
from p2pspades.bots.review import Judged, Position, positions, review, summed, weighable
from p2pspades.bots.search import equivalent
from p2pspades.cli import review as review_command
from p2pspades.describe.coaching import action_text
from p2pspades.rules import PRESETS, Action, Bid, Play, bid_notation, mask_of, preset
from p2pspades.rules.cards import FULL_DECK
from p2pspades.table import TableStatus
from p2pspades.table.events import Decision, DecisionKind
from p2pspades.table.harness import play_in_memory

SUIT_LETTER = {"♠": "s", "♥": "h", "♣": "c", "♦": "d"}


def status_line(term: Terminal) -> str:
    return term.screen.display[-2]


def chosen_card(screen: str) -> str | None:
    lines = screen.splitlines()
    row = lines[next(i for i, line in enumerate(lines) if "─ Your hand" in line) + 1]
    found = re.search(r"\[\s*(10|[2-9JQKA])([♠♥♣♦])\s*\]", row)
    return None if found is None else found.group(1) + found.group(2)


@pytest.mark.pty
@pytest.mark.slow
@pytest.mark.timeout(240)
def test_h_shows_the_coachs_choice_for_the_bid_and_the_card_and_puts_the_cursor_on_it(tmp_path: Path) -> None:
    env = Lan(tmp_path).env("me")
    term = Terminal(env, "play", "play", "--local", "--seed", "5", "--trick-pause", "0", "--target", "300",
                    "--think", "fast", rows=24, cols=80)
    try:
        term.expect("Your bid", timeout=60)
        term.proc.send("h")
        screen = term.expect(r"coach: bid (nil|\d+) \([+-]\d+ net, (contract made|nil holds) \d+%\)", 60)
        line = status_line(term).rstrip()
        assert line.endswith(" · h: meaning") or len(line) > 66, screen  # the pointer, where there is room
        term.proc.send("h")  # again: what the numbers mean, in one line
        screen = term.expect(r"net: your side's points this hand less theirs, with bags; %: of \d+ deals", 30)
        term.proc.send("\r")  # the cursor is on the coach's bid: Enter bids it
        weighed = r"coach: (10|[2-9JQKA])[♠♥♣♦] \([+-]\d+ net, (contract made|nil holds) \d+%\)"
        # the deal is random: a turn with one legal card, or with cards all as good as each other (under a
        # trick already won), has nothing to weigh
        only = "coach: there is only one thing you may do|coach: there is nothing to weigh here"
        for held in range(13, 1, -1):
            term.expect(rf"Your hand \({held}\)[\s\S]*Your turn: play a card", timeout=60)
            term.proc.send("h")
            screen = term.expect(f"{weighed}|{only}", 60)
            if not re.search(only, status_line(term)):
                break
            term.proc.send("\r")  # play the card the cursor is on and weigh the next turn
        screen = term.expect(weighed, 5)
        named = re.search(r"coach: (10|[2-9JQKA]|)([♠♥♣♦])", status_line(term))
        assert named is not None, screen
        assert chosen_card(screen) == named.group(1) + named.group(2), screen  # the cursor is on it
        term.proc.send("?")
        assert "the coach" in term.expect("Keys")
    finally:
        term.close()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_review_lists_the_costliest_decisions_of_the_logs_seat(tmp_path: Path) -> None:
    log = tmp_path / "g.p2plog"
    env = Lan(tmp_path).env("me")
    run = [sys.executable, "-m", "p2pspades"]
    # the easy bot makes deliberate mistakes: a whole game of it gives the review something to find
    made = subprocess.run([*run, "play", "--auto", "--bot", "easy", "--target", "250", "--seed", "3",
                           "--log", str(log)], env=env, capture_output=True, text=True, timeout=240)
    assert made.returncode == 0, made.stderr
    text = subprocess.run([*run, "review", str(log), "--think", "fast", "--top", "3"], env=env,
                          capture_output=True, text=True, timeout=240)
    assert text.returncode == 0, text.stderr
    assert re.search(r"seat 0 \(.+\): \d+ decisions weighed", text.stdout), text.stdout
    assert "weighed hand 1 of" in text.stderr  # progress, on stderr
    listed = re.findall(r"^ *\d+\. hand \d+, (the bid|trick \d+|blind nil\?): you (bid|played|answered) ",
                        text.stdout, re.M)
    assert 1 <= len(listed) <= 3, text.stdout
    assert "your cards:" in text.stdout and "the expert would" in text.stdout
    given_up = r"^    your side expected [+-]\d+ net this hand with .+; the expert's .+ expected [+-]\d+"
    assert re.search(given_up, text.stdout, re.M), text.stdout
    assert "net: your side's points this hand less theirs" in text.stdout
    german = subprocess.run([*run, "--lang", "de", "review", str(log), "--think", "fast", "--top", "3"],
                            env=env, capture_output=True, text=True, timeout=240)
    assert german.returncode == 0, german.stderr
    assert "Die teuersten Entscheidungen:" in german.stdout and "Runde 1 von" in german.stderr
    assert re.search(r"^    deine Partei erwartete mit .+ [+-]\d+ netto", german.stdout, re.M), german.stdout
    # JSON is for tools: the same words whatever the language spoken
    as_json = subprocess.run([*run, "--lang", "de", "review", str(log), "--think", "fast", "--seat", "2",
                              "--json"], env=env, capture_output=True, text=True, timeout=240)
    assert as_json.returncode == 0, as_json.stderr
    found = json.loads(as_json.stdout)
    assert found["seat"] == 2 and found["decisions"] > 0
    assert all(d["cost"] > 0 and d["chosen"] != d["expert"] for d in found["costliest"])
    assert all(d["given_up"].startswith("your side expected ") for d in found["costliest"])
    costs = [d["cost"] for d in found["costliest"]]
    assert costs == sorted(costs, reverse=True)


@pytest.fixture(scope="module")
def finished_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished game's log: one hand of four random bots, played in memory (the options are refused before
    a decision is weighed; the games `play` writes are reviewed above)."""
    rules = preset("classic", target=50, losing_threshold=-50)
    wire = play_in_memory(rules, [RandomBot(i) for i in range(4)], seed=b"review options")
    assert wire.tables[0].status is TableStatus.COMPLETE
    return write_log(tmp_path_factory.mktemp("review") / "g.p2plog", wire.tables[0].records)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--seat", "7"], "there is no seat 7"),
        (["--top", "0"], "--top must be at least 1"),
    ],
)
def test_review_refuses_bad_options_in_one_line(tmp_path: Path, finished_log: Path, args: list[str],
                                                says: str) -> None:
    env = Lan(tmp_path).env("me")
    done = subprocess.run([sys.executable, "-m", "p2pspades", "review", str(finished_log), *args], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_review_hands_the_workers_only_decisions_with_something_to_choose(finished_log: Path) -> None:
    """A decision with one legal action (a hand's last card, say) is judged where the log is read, not sent
    to a worker: it is still told in the progress, neither weighed nor counted, and the review is the one
    the seat's decisions weighed one by one make."""
    sent: list[Position] = []

    def submit(weigh: review_command.Judge, position: Position, think: str) -> review_command.Weighed:
        sent.append(position)
        future: review_command.Weighed = concurrent.futures.Future()
        future.set_result(weigh(position, think))
        return future

    progress = review_command.Progress(io.StringIO())
    weighing = review_command.Weighing(0, "fast", submit, progress)
    verdict = verify_log(finished_log, weighing)
    assert verdict.table is not None
    rules = verdict.table.rules
    seen = list(positions(rules, verdict.hands, 0))
    assert sent == [p for p in seen if weighable(p)]
    assert 0 < len(sent) < len(seen)  # a hand's last card at least has no choice
    assert progress.total == len(seen)
    judged = weighing.results()
    assert progress.done == len(seen)
    assert all(j is None for p, j in zip(seen, judged, strict=True) if not weighable(p))
    done = summed(0, judged)
    assert done.decisions <= len(sent) and done == review(rules, verdict.hands, 0, "fast")
    assert all(isinstance(j, Judged) and weighable(j.position) for j in done.weighed)


def test_review_of_something_that_is_not_a_log_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.p2plog"
    junk.write_bytes(b"\x00\x01 not a log")
    done = subprocess.run([sys.executable, "-m", "p2pspades", "review", str(junk)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("p2pspades review:")


class HighOfRun:
    """A person's habits that the bots lack: it plays the highest card of a run of touching cards (the bots
    play the lowest, so a game of bots alone cannot show a review that names the lowest), and bids a trick
    under its count (its side collects bags)."""

    def __init__(self, seed: int) -> None:
        self.bot = HeuristicBot(seed)

    def __call__(self, decision: Decision) -> Action:
        action = self.bot(decision)
        view = decision.view
        if decision.kind is DecisionKind.PLAY and isinstance(action, Play):
            gone = mask_of(view.hand)
            for trick in (*view.tricks, view.trick):
                gone |= mask_of(trick.cards)
            cards = [a.card.index for a in decision.legal if isinstance(a, Play)]
            run = next(g for g in equivalent(cards, gone) if action.card.index in g)
            return Play(FULL_DECK[max(run)])
        if decision.kind is DecisionKind.BID and isinstance(action, Bid) and action.tricks > 1:
            under = Bid(action.tricks - 1)
            return under if under in decision.legal else action
        return action


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_review_names_every_card_and_bid_as_the_log_has_it(tmp_path: Path) -> None:
    """A real game, signed and verified, where seat 0 plays like a person: every card and bid the review
    names for it is the one its log holds, cards from the top of a run included."""
    rules = dataclasses.replace(PRESETS["classic"], target=300)
    players: list[Player] = [HighOfRun(0), HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)]
    wire = play_in_memory(rules, players, seed=b"review-names-the-card")
    log = write_log(tmp_path / "g.p2plog", wire.tables[0].entries)
    hands = verify_log(log).hands
    assert len(hands) >= 3
    made = {(h.number, 0): f"bid {bid_notation(h.bids[0], False, rules)}" for h in hands}
    for h in hands:
        for t, trick in enumerate(h.tricks, 1):
            made[(h.number, t)] = next(c.glyph for s, c in trick.plays if s == 0)
    done = subprocess.run([sys.executable, "-m", "p2pspades", "review", str(log), "--seat", "0", "--json",
                           "--top", "999", "--think", "fast"], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)["costliest"]
    assert listed
    for d in listed:
        assert d["chosen"] == made[(d["hand"], d["trick"])], d
        taken = next(o for o in d["options"] if d["chosen"] in o["as_good"])
        assert d["net_chosen"] == taken["net"] and d["cost"] > 0
    # every decision weighed, listed or not, shows the action the log holds
    weighed = review(rules, hands, 0, "fast").weighed
    assert {(w.position.hand, w.position.trick) for w in weighed} <= set(made)
    shown = {(w.position.hand, w.position.trick): action_text(w.position.chosen, rules) for w in weighed}
    assert all(made[key] == text for key, text in shown.items())
    # the top of a run was played and named as such, where the search tried the run by its lowest card
    high = [w for w in weighed if isinstance(w.position.chosen, Play) and w.taken.action != w.position.chosen]
    assert high
