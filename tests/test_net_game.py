"""Whole games between separate `p2pspades` processes on 127.0.0.1, started the way people start them.

Each peer is `python -m p2pspades host|join|resume ... --auto` with its own data and config directories, as
if on its own machine: play to the end, crash and resume, keep strangers and garbage out, abandon a seat
that vanished. Every log is compared byte for byte and verified.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest
import zmq
from helpers.lan import Lan
from helpers.net import loopback_multicast_works
from helpers.terminal import Terminal
from zmq.utils.monitor import parse_monitor_message

from p2pspades import log
from p2pspades.audit.verify import Status, verify_file
from p2pspades.net.auth import curve_public_key
from p2pspades.net.store import GameStore

pytestmark = [pytest.mark.net, pytest.mark.slow, pytest.mark.timeout(150)]



def assert_identical_and_valid(lan: Lan, names: list[str]) -> list[bytes]:
    logs = [log.read_log(lan.log(n)).frames for n in names]
    assert all(entries == logs[0] for entries in logs), "every peer holds the same chain, byte for byte"
    for name in names:
        verdict = verify_file(lan.log(name))
        assert verdict.status is Status.VALID, f"{name}: {verdict.summary}"
    return logs[0]


@pytest.mark.parametrize("players", [4, 3, 2])
def test_separate_processes_play_a_whole_game_and_every_log_is_the_same(lan: Lan, players: int) -> None:
    names = [f"p{i}" for i in range(players)]
    lan.host(players)
    lan.wait_for("p0", "lobby: ")
    by_name = players == 3 and loopback_multicast_works()
    for i in range(1, players):
        if by_name and i == 1:  # found on the LAN with zeroconf, by the table's name
            listing = subprocess.run([sys.executable, "-m", "p2pspades", "tables", "--timeout", "2",
                                      "--interface", "127.0.0.1", "--json"], env=lan.env("p1"),
                                     capture_output=True, text=True, timeout=30)
            ads = [json.loads(line) for line in listing.stdout.splitlines()]
            ours = [a for a in ads if a["address"] == lan.lobby]
            assert ours and ours[0]["name"] == lan.table and ours[0]["free"] == 2, listing.stdout
            lan.join("p1", "--interface", "127.0.0.1", table=lan.table)
        else:
            lan.join(f"p{i}")
    codes = lan.finish(*names)
    assert codes == dict.fromkeys(names, 0), {n: lan.out(n)[-2000:] for n in names}
    chain = assert_identical_and_valid(lan, names)
    assert log.open_envelope(chain[-1]).payload["t"] == "end"
    for name in names:
        out = lan.out(name)
        assert "game over: complete" in out and "final score:" in out and "valid and complete" in out
        assert f"seat {lan.seat_of(name)}" in out
    if by_name:
        assert f"found {lan.table}" in lan.out("p1")


def test_a_suicide_game_with_deuces_high_is_played_over_zeromq_and_verifies(lan: Lan) -> None:
    """A new preset and a house option end to end, in separate processes: the logs the same and valid, every
    hand's bids held to suicide."""
    names = [f"p{i}" for i in range(4)]
    lan.host(4, "--rules", "suicide", "--option", "deuces_high=true")
    lan.wait_for("p0", "lobby: ")
    for i in range(1, 4):
        lan.join(f"p{i}")
    codes = lan.finish(*names)
    assert codes == dict.fromkeys(names, 0), {n: lan.out(n)[-2000:] for n in names}
    chain = assert_identical_and_valid(lan, names)
    rules = log.open_envelope(chain[0]).payload["rules"]
    assert (rules["bid_mode"], rules["deuces_high"], rules["preset"]) == ("suicide", True, "suicide")
    hands = verify_file(lan.log("p0")).hands
    assert hands
    for h in hands:
        nils = [sorted(h.bids[seat] == 0 for seat in side) for side in ((0, 2), (1, 3))]
        assert nils == [[False, True]] * 2


def refused_stranger(endpoint: str, host_key: bytes) -> bool:
    """A CURVE client whose key no seat allowed tries to talk to a peer: is its handshake refused?"""
    context = zmq.Context()
    try:
        public, secret = zmq.curve_keypair()
        stranger = context.socket(zmq.DEALER)
        stranger.setsockopt(zmq.LINGER, 0)
        stranger.setsockopt(zmq.CURVE_PUBLICKEY, public)
        stranger.setsockopt(zmq.CURVE_SECRETKEY, secret)
        stranger.setsockopt(zmq.CURVE_SERVERKEY, curve_public_key(host_key))  # raw 32 bytes will do
        monitor = stranger.get_monitor_socket(zmq.EVENT_HANDSHAKE_FAILED_AUTH | zmq.EVENT_HANDSHAKE_SUCCEEDED)
        stranger.connect(endpoint)
        stranger.send(b"\x81\xa1k\xa4ping", zmq.NOBLOCK)
        if not monitor.poll(10_000):
            return False
        event = parse_monitor_message(monitor.recv_multipart())["event"]
        monitor.close(linger=0)
        stranger.close(linger=0)
        return bool(event == zmq.EVENT_HANDSHAKE_FAILED_AUTH)
    finally:
        context.destroy(linger=0)


def throw_garbage(endpoint: str) -> None:
    """Raw bytes on TCP, and a ZeroMQ socket without CURVE: neither gets as far as a frame."""
    host, port = endpoint[len("tcp://"):].rsplit(":", 1)
    for size in (1, 64, 10_000):
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            raw.sendall(secrets.token_bytes(size))
    context = zmq.Context()
    try:
        plain = context.socket(zmq.DEALER)
        plain.setsockopt(zmq.LINGER, 0)
        refused = zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
        monitor = plain.get_monitor_socket(refused | zmq.EVENT_HANDSHAKE_SUCCEEDED)
        plain.connect(endpoint)
        for _ in range(20):
            plain.send(secrets.token_bytes(200), zmq.NOBLOCK)
        # it has knocked once the peer has turned its handshake down
        assert monitor.poll(10_000), "the peer never answered the plain socket's handshake"
        event = parse_monitor_message(monitor.recv_multipart())["event"]
        assert event & refused, f"the plain socket's handshake ended with {zmq.Event(event)!r}"
        monitor.close(linger=0)
        plain.close(linger=0)
    finally:
        context.destroy(linger=0)


def test_kill_9_mid_hand_then_resume_loses_nothing_and_strangers_stay_out(lan: Lan) -> None:
    names = ["p0", "p1", "p2", "p3"]
    lan.start(4)
    held = lan.kill_when("p2", 40)  # deep in the first hand: the deal is done, cards are being played
    seat = lan.seat_of("p2")
    before = log.read_log(lan.log("p2")).frames
    assert len(before) >= held
    # the others wait for the vanished seat and say so
    lan.wait_for("p0" if seat != 0 else "p1", f"waiting for seat {seat} (disconnected")
    # meanwhile, a stranger and some garbage knock at the host's door
    peers_file = next((lan.root / "p0" / "data" / "games").glob("*/seat-0/peers.json"))
    seats = json.loads(peers_file.read_text())["seats"]
    host_endpoint, host_key = seats[0]["endpoint"], bytes.fromhex(seats[0]["public_key"])
    assert refused_stranger(host_endpoint, host_key)
    throw_garbage(host_endpoint)
    # the crashed peer comes back from its log, secrets and seat map
    lan.p2pspades("p2", "resume", "--auto", key="p2-again")
    codes = lan.finish("p0", "p1", "p3", "p2-again")
    assert set(codes.values()) == {0}, {n: lan.out(n)[-2000:] for n in names}
    chain = assert_identical_and_valid(lan, names)
    assert chain[: len(before)] == before  # nothing the crashed peer had written was lost or rewritten
    assert "resuming game" in lan.out("p2") and "syncing with the other seats" in lan.out("p2")
    assert "not a seated player" in lan.out("p0")  # the host's ZAP handler refused the stranger
    assert "Traceback" not in "".join(lan.out(n) for n in names)


def test_a_vanished_peer_is_voted_out_by_certificate_and_verify_names_it(lan: Lan) -> None:
    quick = ("--timeout-auto", "2", "--timeout-decision", "2")
    lan.start(3, *quick)
    lan.kill_when("p1", 30)
    gone = lan.seat_of("p1")
    codes = lan.finish("p0", "p2")
    assert codes == {"p0": 3, "p2": 3}, lan.out("p0")[-2000:]
    verdicts = [verify_file(lan.log(n)) for n in ("p0", "p2")]
    chains = [v.table.entries for v in verdicts if v.table is not None]
    assert len(chains) == 2 and chains[0] == chains[1], "both survivors hold the same chain"
    last = log.open_envelope(chains[0][-1]).payload
    assert last["t"] == "certificate" and last["s"] == gone
    votes = [log.open_envelope(vote).payload for vote in last["v"]]
    assert [(v["s"], v["a"], v["w"]) for v in votes] == [(s, gone, 2) for s in range(3) if s != gone]
    verify = subprocess.run([sys.executable, "-m", "p2pspades", "verify", str(lan.log("p0"))],
                            capture_output=True, text=True, timeout=60)
    assert verify.returncode == 3, verify.stdout + verify.stderr
    # in the first hand of cutthroat every total is 0, so each of the two signers wins by the forfeit: their
    # certificate is a claim, no more, and the game ends contested
    voters = ", ".join(str(s) for s in range(3) if s != gone)
    assert f"seats {voters} claimed that seat {gone} kept them waiting" in verify.stdout, verify.stdout
    assert "past the timeout in force (2 s)" in verify.stdout, verify.stdout
    assert "that only seats who win by it signed" in verify.stdout, verify.stdout
    assert "contested: every seat that signed the certificate wins by it, so nobody wins" in verify.stdout
    assert "game over: abandoned" in lan.out("p2") and "timeout in force (2 s)" in lan.out("p2")
    # nothing left to resume for a survivor: the game is over there
    again = subprocess.run([sys.executable, "-m", "p2pspades", "resume", "--auto"], env=lan.env("p0"),
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "the game is over (abandoned)" in again.stderr


def seat_logs(lan: Lan, name: str) -> list[Path]:
    """The logs of every seat the process `name` ran (its own and its bots')."""
    home = lan.root / name / "data"
    return [GameStore(bytes.fromhex(d.parent.name), int(d.name.removeprefix("seat-")), home).log_path
            for d in sorted(home.glob("games/*/seat-*"))]


def dialog_text(screen: str, title: str) -> str:
    """The words of the dialog titled `title` on a screen, its lines joined (a long sentence wraps)."""
    rows = screen.splitlines()
    top = next(n for n, row in enumerate(rows) if f"┌─ {title}" in row)
    left = rows[top].index(f"┌─ {title}")
    right = rows[top].index("┐", left)
    words = []
    for row in rows[top + 1 :]:
        inside = row[left : right + 1]
        if inside.startswith("└"):
            break
        words.append(inside.strip("│ "))
    return " ".join(" ".join(words).split())


@pytest.mark.timeout(300)
def test_a_joiner_killed_in_its_turn_resumes_after_the_certificate_and_ends_as_everyone_did(lan: Lan) -> None:
    """A host with two bots (a decision timeout of 4 s) and bo, who joins in a terminal and is killed with
    kill -9 while the screen asks for its bid. The host's seats vote that bo stopped answering and their votes
    make the certificate that ends the game. `p2pspades resume --profile bo`, run after that, syncs before it
    acts: its screen shows the end and why (never "Your turn"), and its log ends the way the others do."""
    quick = ("--timeout-decision", "4")
    lan.host(4, "--bots", "2", "--no-advertise", *quick)
    lan.wait_for("p0", "lobby: ")
    bo = Terminal(lan.env("bo"), "bo", "join", lan.lobby, "--name", "bo", "--profile", "bo", "--address",
                  "127.0.0.1", "--log", str(lan.log("bo")), *quick)
    try:
        bo.expect(r"accept \(a\) or decline \(d\)", 60)
        bo.proc.send("a")
        bo.expect(r"Your (turn|bid)|Blind nil\?", 120)
        os.kill(bo.proc.pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while bo.proc.isalive():
            assert time.monotonic() < deadline, "bo did not die"
            time.sleep(0.05)
    finally:
        bo.close()
    before = log.read_log(lan.log("bo")).frames
    seat = [s["n"] for s in log.open_envelope(before[0]).payload["seats"]].index("bo")
    lan.wait_for("p0", "game over: abandoned", 90)
    again = Terminal(lan.env("bo"), "bo", "resume", "--profile", "bo", rows=40, cols=200)
    try:
        deadline = time.monotonic() + 90
        while "Game over" not in (screen := again.text()):
            assert not re.search(r"Your (turn|bid)", screen), f"the resumed seat was asked to act:\n{screen}"
            assert time.monotonic() < deadline, f"the end never shown:\n{screen}"
            again.pump()
        said = dialog_text(screen, "Game over")
        assert "signed that you stopped answering" in said, screen
        assert "timeout in force: 4 s" in said and "forfeit by bo" in said, screen
        again.proc.send("q")
        again.proc.expect(pexpect.EOF, timeout=60)
        after = again.proc.before.decode(errors="replace")
        again.proc.close()
        assert again.proc.exitstatus == 3, after
    finally:
        again.close()
    assert lan.finish("p0") == {"p0": 3}, lan.out("p0")[-2000:]
    assert "Traceback" not in lan.out("p0") + after, lan.out("p0")[-2000:] + after
    logs = [*seat_logs(lan, "p0"), lan.log("bo")]
    assert len(logs) == 4, logs
    frames = log.read_log(lan.log("bo")).frames
    assert frames[: len(before)] == before, "the resumed log kept everything it held"
    runs = [subprocess.run([sys.executable, "-m", "p2pspades", "verify", str(path)], capture_output=True,
                           text=True, timeout=60) for path in logs]
    assert {run.returncode for run in runs} == {3}, [run.stdout + run.stderr for run in runs]
    assert len({run.stdout for run in runs}) == 1, [run.stdout for run in runs]
    assert f"signed that seat {seat} kept the table waiting" in runs[0].stdout, runs[0].stdout
    assert f"forfeit by seat {seat}" in runs[0].stdout, runs[0].stdout
    chains = [verify_file(path).table for path in logs]
    assert all(t is not None and t.entries == chains[0].entries for t in chains if chains[0] is not None)
    assert log.open_envelope(frames[-1]).payload["t"] == "certificate", "bo's log ends with the certificate"


def test_host_join_join_with_three_profiles_and_a_joiners_bot_complete_a_game(
        lan: Lan, monkeypatch: pytest.MonkeyPatch) -> None:
    """One machine, three data directories (as three profiles would be): the host, a joiner bringing its own
    bot, and a second joiner. Both joiners keep the default name (the user's), which the table makes
    distinct."""
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.setenv(variable, "ana")
    lan.host(4, name="p0")
    lan.wait_for("p0", "lobby: ")
    lan.p2pspades("p1", "join", lan.lobby, "--auto", "--bots", "1", "--log", str(lan.log("p1")))
    lan.wait_for("p1", f"table '{lan.table}': 3 of 4 seats taken")  # p1 and the bot it runs are seated
    lan.p2pspades("p2", "join", lan.lobby, "--auto", "--log", str(lan.log("p2")))
    names = ["p0", "p1", "p2"]
    codes = lan.finish(*names)
    assert codes == dict.fromkeys(names, 0), {n: lan.out(n)[-2000:] for n in names}
    assert_identical_and_valid(lan, names)
    genesis = log.open_envelope(log.read_log(lan.log("p0")).frames[0]).payload
    assert [s["n"] for s in genesis["seats"]] == ["p0", "ana", "ana (2)", "ana's bot"]
    assert lan.seat_of("p1") == 1 and lan.seat_of("p2") == 2, "the bot sits opposite its owner, at seat 3"
    assert "bot run by ana, who can see its cards" in lan.out("p2")
    assert "bringing 1 bot of ours: it runs on this machine, so you can see its cards" in lan.out("p1")
    assert "waiting for p0 to accept you" in lan.out("p2")


def plays(path: Path) -> list[bytes]:
    """The play entries of the log at `path` so far (none while there is no log yet)."""
    if not path.exists():
        return []
    return [raw for raw in log.read_log(path).frames if log.open_envelope(raw).payload.get("t") == "play"]


def until_goodbye(frames: list[bytes]) -> list[bytes]:
    """The frames of a log before the first goodbye (or stop) in it: how the game ended is each peer's own."""
    kinds = [log.open_envelope(raw).payload.get("t") for raw in frames]
    return frames[:next((i for i, t in enumerate(kinds) if t in ("leave", "stop", "left")), len(frames))]


CARD = r"(?:10|[2-9JQKA])[♠♥♣♦]|[BL]J"
TAKES = re.compile(r"^ *(.+?) takes? trick (\d+) · any key continues", re.M)


TO_ANSWER = re.compile(r"^ Your (turn|bid)|Enter continues|Blind nil\?", re.M)
"""The screen waits for this person's key (and so holds no completed trick)."""


Held = tuple[int, str, frozenset[tuple[str, str]]]
"""A completed trick as a screen shows it: its number, its winner, and each seat's card by name."""


def completed_trick(terminal: Terminal, names: list[str]) -> Held | None:
    """The completed trick the screen holds while it pauses: its number, its winner and each seat's card (by
    name: "You" read as the terminal's own, a clipped one as the one of `names` it shortens), as the trick
    panel draws it; None when it shows none."""
    screen = terminal.text()
    held = TAKES.search(screen)
    if held is None:
        return None
    lines = screen.splitlines()
    title = next((i for i, line in enumerate(lines) if line.startswith(f"┌─ Trick {held[2]} of")), None)
    if title is None:  # a frame read half drawn: the panel is at the next trick already
        return None
    below = title + 1
    panel = [line.split("│")[1] for line in lines[below:] if line.count("│") >= 2]
    start = next(i for i, line in enumerate(panel) if line.strip())  # the seat at the top
    top, top_card, middle, bottom_card, bottom = (panel[start + k].strip() for k in range(5))
    left = re.fullmatch(rf"(.+?) ({CARD})\s+({CARD}) (.+)", middle)
    if left is None or not re.fullmatch(CARD, top_card) or not re.fullmatch(CARD, bottom_card):
        return None  # half drawn

    def named(name: str) -> str:
        name = name.lstrip("▶")
        if name == "You":
            return terminal.name
        if name.endswith("…"):
            (name,) = (n for n in names if n.startswith(name[:-1]) and len(n) >= len(name))
        return name

    cards = {(named(top), top_card), (named(left[1]), left[2]), (named(left[4]), left[3]),
             (named(bottom), bottom_card)}
    return int(held[2]), named(held[1]), frozenset(cards)


@pytest.mark.pty
@pytest.mark.timeout(300)
def test_two_people_in_terminals_and_a_host_that_takes_20_s_to_accept_play_a_hand(lan: Lan) -> None:
    """Two people, each in a pseudo-terminal with a data directory of their own, and the host's two bots:
    the host reads the fingerprints for 20 s and the joiner waits; then both play a whole hand by keys."""
    host = Terminal(lan.env("ana"), "ana", "host", "--name", "ana", "--rules", "partnership", "--target",
                    "10", "--address", "127.0.0.1", "--port", str(lan.port), "--no-advertise", "--table",
                    "Kitchen", "--log", str(lan.log("ana")))
    joiner: Terminal | None = None
    try:
        host.expect("4 seats free|3 seats free")
        host.proc.send("b")  # a bot: on the host's side, opposite the host
        screen = host.expect(r"2\s+A\s+ana's bot .*normal bot · you see its cards")
        assert "Enter starts once every seat is taken" in screen
        host.proc.send("\x1b[B" * 3 + "l")  # the free seat 3: the next bot plays at expert
        host.expect(r"b seats a bot \(expert")
        host.proc.send("b")
        host.expect(r"3\s+B\s+ana's bot 2 .*expert bot · you see its cards")
        joiner = Terminal(lan.env("bo"), "bo", "join", lan.lobby, "--name", "bo", "--log", str(lan.log("bo")))
        screen = joiner.expect("waiting for ana to accept you", others=(host,))
        assert "bot · ana sees its cards" in screen
        host.expect("press Enter to start", others=(joiner,))
        waited = time.monotonic() + 20  # the host reads every fingerprint out loud, slowly
        while time.monotonic() < waited:
            host.pump(0.05)
            joiner.pump(0.05)
        assert "waiting for ana to accept you" in joiner.text(), joiner.text()
        host.proc.send("\r")
        joiner.expect(r"accept \(a\) or decline \(d\)", others=(host,))
        joiner.proc.send("a")
        for terminal, other in ((joiner, host), (host, joiner)):
            # the screen shows "Your hand" from the start; the scores only once the first hand is dealt
            terminal.expect(r"(?s)(?=.*Your hand)(?=.*ana\+ana's bot 0)(?=.*bo\+ana's bot 2 0)", 60,
                            others=(other,))
        # Enter bids each dialog's default and plays the selected (first legal) card: a hand is 52 plays.
        # While a screen holds a completed trick, nobody presses a key there: the trick is read off it.
        # Keys are pressed only when the screen asks this person, so none cuts a completed trick short.
        names = ["ana", "bo", "ana's bot", "ana's bot 2"]
        seen: dict[str, dict[int, tuple[str, frozenset[tuple[str, str]]]]] = {"ana": {}, "bo": {}}
        deadline = time.monotonic() + 150
        while len(plays(lan.log("ana"))) < 52 or len(plays(lan.log("bo"))) < 52:
            assert time.monotonic() < deadline, f"the hand did not finish:\n{host.text()}\n{joiner.text()}"
            for terminal in (host, joiner):
                terminal.pump(0.1)
                trick = completed_trick(terminal, names)
                if trick is not None:
                    seen[terminal.name].setdefault(trick[0], trick[1:])
                elif TO_ANSWER.search(before := terminal.text()):
                    terminal.proc.send("\r")
                    answered = time.monotonic() + 5
                    while terminal.text() == before and time.monotonic() < answered:
                        terminal.pump(0.05)  # the key is taken before the next one is sent
        held = time.monotonic() + 15  # each screen holds the last trick: read it, however loaded the machine
        while any(13 not in seen[t.name] for t in (host, joiner)) and time.monotonic() < held:
            for terminal in (host, joiner):
                terminal.pump(0.05)
                if (trick := completed_trick(terminal, names)) is not None:
                    seen[terminal.name].setdefault(trick[0], trick[1:])
    finally:
        host.close()
        if joiner is not None:
            joiner.close()
    # closing a terminal is leaving: each log holds the same chain up to the first goodbye in it
    chains = [until_goodbye(log.read_log(lan.log(name)).frames) for name in ("ana", "bo")]
    shorter = min(len(c) for c in chains)
    assert chains[0][:shorter] == chains[1][:shorter], "both logs hold the same chain"
    assert plays(lan.log("ana"))[:52] == plays(lan.log("bo"))[:52]
    # both screens showed every completed trick, each with all four cards and its winner, and the same ones
    assert sorted(seen["ana"]) == sorted(seen["bo"]) == list(range(1, 14)), seen
    assert seen["ana"] == seen["bo"]
    assert all(len(cards) == 4 and len({name for name, _ in cards}) == 4 for _, cards in seen["ana"].values())
    for name in ("ana", "bo"):
        verdict = verify_file(lan.log(name))
        assert verdict.status in (Status.VALID, Status.INCOMPLETE), f"{name}: {verdict.summary}"


@pytest.mark.pty
def test_join_says_it_is_connecting_and_tables_shows_progress(lan: Lan) -> None:
    joiner = Terminal(lan.env("cy"), "cy", "join", lan.lobby, "--name", "cy")
    listing = Terminal(lan.env("cy"), "cy", "tables", "--timeout", "2", "--interface", "127.0.0.1")
    try:
        joiner.expect(f"connecting to {lan.lobby}")
        listing.expect(r"listening for tables on the LAN\s+\d\.\d / 2 s")
        screen = joiner.expect(f"p2pspades join: no table answers at {lan.lobby}", 15)
        assert "Traceback" not in screen
        joiner.proc.expect(pexpect.EOF, timeout=10)
        joiner.proc.close()
        assert joiner.proc.exitstatus == 2
    finally:
        joiner.close()
        listing.close()


@pytest.mark.pty
def test_a_host_that_leaves_the_lobby_tells_its_joiner(lan: Lan) -> None:
    host = Terminal(lan.env("ana"), "ana", "host", "--name", "ana", "--rules", "two", "--address",
                    "127.0.0.1", "--port", str(lan.port), "--no-advertise")
    try:
        host.expect("1 seat free")
        lan.join("bo")
        host.expect(r"1\s+bo\s+\S+\s+joined")
        lan.wait_for("bo", "waiting for ana to accept you")
        host.proc.send("q")
        host.proc.expect(pexpect.EOF, timeout=30)
        host.proc.close()
        assert host.proc.exitstatus == 0, "leaving is the person's choice, not a failure"
        assert lan.finish("bo") == {"bo": 2}
        assert "p2pspades join: the host closed the table: the host left" in lan.out("bo")
    finally:
        host.close()
