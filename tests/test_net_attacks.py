"""Attacks over real sockets: a modified peer (helpers/cheater.py, a process of its own) joins a real
`p2pspades host` table, with its bots and, where it applies, a `p2pspades join` process, on 127.0.0.1.

Each attack must be refused or pinned on the cheater: the honest seats' logs (the host's, its bots', the
joiner's) hold the same chain and verify to a violation by the cheater, whose side forfeits, or to an end the
cheater does not win by; the victim is never blamed; no process, honest or not, prints a traceback.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.lan import Lan

from p2pspades import log
from p2pspades.audit import Status, hand_record
from p2pspades.audit.verify import verify_file
from p2pspades.exits import ExitCode
from p2pspades.net.store import GameStore

pytestmark = [pytest.mark.net, pytest.mark.slow, pytest.mark.timeout(300)]


def seats_run_by(lan: Lan, name: str) -> dict[int, Path]:
    """The log of every seat the process `name` ran (its own and its bots'), by seat."""
    home = lan.root / name / "data"
    logs = {}
    for seat_dir in home.glob("games/*/seat-*"):
        game_id, seat = bytes.fromhex(seat_dir.parent.name), int(seat_dir.name.removeprefix("seat-"))
        logs[seat] = GameStore(game_id, seat, home).log_path
    return logs


def cheater_seat(lan: Lan) -> int:
    match = re.search(r"^cheater: \S+ at seat (\d)", lan.out("cheater"), re.M)
    assert match is not None, lan.out("cheater")[-3000:]
    return int(match.group(1))


def seat_cheater(lan: Lan, attack: str, *timeouts: str, bots: int = 1) -> int:
    """A host with `bots` bots and, with one bot, a joiner, both with these step timeouts; the cheater running
    `attack` takes the last seat. Its seat number."""
    lan.host(4, "--bots", str(bots), "--no-advertise", *timeouts)
    lan.wait_for("p0", "lobby: ")
    if bots == 1:
        lan.join("p1", *timeouts)
    lan.cheater(attack)
    lan.wait_for("cheater", f"cheater: {attack} at seat")
    return cheater_seat(lan)


def finish_honest(lan: Lan, honest: list[str]) -> tuple[dict[str, int], dict[str, str]]:
    """The honest processes' exit codes once they end, and every process's output, in none of which is a
    traceback."""
    codes = lan.finish(*honest, timeout=240)
    try:  # the cheater may still wait for a seat that stopped on its cheat; it need not finish
        lan.finish("cheater", timeout=15)
    except subprocess.TimeoutExpired:
        lan.procs["cheater"].kill()
    outs = {name: lan.out(name) for name in [*honest, "cheater"]}
    for name, out in outs.items():
        assert "Traceback" not in out, f"{name}:\n{out[-3000:]}"
    return codes, outs


def assert_pinned_on(lan: Lan, cheater: int, honest: list[str], checks: tuple[str, ...]) -> list[bytes]:
    """Every honest process ended on the violation, its seats' logs agree, verify to a violation by
    `cheater` for one of `checks`, and rank the other side first; nobody printed a traceback. Returns the
    chain."""
    codes, outs = finish_honest(lan, honest)
    assert codes == dict.fromkeys(honest, ExitCode.VIOLATION), {n: o[-2000:] for n, o in outs.items()}
    logs = {seat: path for name in honest for seat, path in seats_run_by(lan, name).items()}
    assert sorted(logs) == sorted({0, 1, 2, 3} - {cheater}), logs
    chains = {seat: log.read_log(path).frames for seat, path in logs.items()}
    first = next(iter(chains.values()))
    assert all(chain == first for chain in chains.values()), {s: kinds(c[-4:]) for s, c in chains.items()}
    honest_side = 1 - cheater % 2
    for seat, path in logs.items():
        verdict = verify_file(path)
        assert verdict.status is Status.VIOLATION, f"seat {seat}: {verdict.summary}"
        assert verdict.violation is not None and verdict.violation.seat == cheater, verdict.summary
        assert verdict.violation.check in checks, verdict.summary
        assert f"forfeit by seat {cheater}" in verdict.summary, verdict.summary
        result = hand_record(verdict)["result"]
        assert result["winners"] == [honest_side] and result["forfeit"]["seat"] == cheater, result
    for name in honest:
        assert f"seat {cheater} failed the" in outs[name], outs[name][-2000:]
    return first


def kinds(chain: list[bytes]) -> list[tuple[int, str]]:
    """(signer, type) of every entry."""
    return [(p["s"], p["t"]) for p in (log.open_envelope(raw).payload for raw in chain)]


def honest_logs(lan: Lan, honest: list[str], cheater: int, players: int = 4) -> dict[int, Path]:
    """The log of every honest seat (every seat but the cheater's), by seat."""
    logs = {seat: path for name in honest for seat, path in seats_run_by(lan, name).items()}
    assert sorted(logs) == sorted(set(range(players)) - {cheater}), logs
    return logs


def frames_of(path: Path, kind: str) -> list[dict[str, Any]]:
    """The payloads of the frames of type `kind` in the log at `path` (on the chain or off it)."""
    payloads = (log.open_envelope(raw).payload for raw in log.read_log(path).frames)
    return [p for p in payloads if p["t"] == kind]


def test_a_withheld_answer_released_after_a_vote_buys_a_delay_never_a_win(lan: Lan) -> None:
    """The cheater stays silent at its first bid past every honest timeout (3 s here) and bids, a properly
    signed entry chained to the one before, the moment it sees a vote that it stopped answering. Whichever
    way it crosses the votes, every honest table ends the same: either every seat voted before it took the
    bid (a certificate: the cheater's side forfeits) or one took it first and refused the claim (the claim is
    void and the game plays on). No honest seat is ever named, and every honest log gets the same verdict."""
    cheater = seat_cheater(lan, "withhold-answer", "--timeout-decision", "3")
    codes, outs = finish_honest(lan, ["p0", "p1"])
    assert "cheater: answer released after the vote" in outs["cheater"], outs["cheater"][-2000:]
    tails = {n: o[-2000:] for n, o in outs.items()}
    assert len(set(codes.values())) == 1, (codes, tails)
    assert set(codes.values()) <= {ExitCode.OK, ExitCode.INCOMPLETE}, (codes, tails)
    logs = honest_logs(lan, ["p0", "p1"], cheater)
    verdicts = {seat: verify_file(path) for seat, path in logs.items()}
    summaries = {v.summary for v in verdicts.values()}
    assert len(summaries) == 1, summaries
    chains = [v.table.entries for v in verdicts.values() if v.table is not None]
    assert len(chains) == len(logs) and all(chain == chains[0] for chain in chains), "one chain everywhere"
    votes = [p for path in logs.values() for p in frames_of(path, "abandon")]
    assert votes and all(p["a"] == cheater and p["w"] == 3 for p in votes), votes
    refusals = [p for path in logs.values() for p in frames_of(path, "answered")]
    for seat, verdict in verdicts.items():
        assert verdict.violation is None, f"seat {seat}: {verdict.summary}"
        table = verdict.table
        assert table is not None and table.result is not None, verdict.summary
        if verdict.status is Status.INCOMPLETE:  # the certificate came first: the staller's side forfeits
            assert table.abandoned_by == cheater and not refusals, verdict.summary
            assert table.result.forfeit and cheater % 2 not in table.result.winners, verdict.summary
            assert f"forfeit by seat {cheater}" in verdict.summary, verdict.summary
        else:  # a seat took the bid before it voted: the claim is void, the game was played to its end
            assert verdict.status is Status.VALID and refusals, verdict.summary
            assert table.abandoned_by is None and not table.result.forfeit, verdict.summary


def test_a_two_player_vote_at_once_makes_a_contested_certificate_that_nobody_wins(lan: Lan) -> None:
    """With two players, one vote is a whole certificate: the cheater votes that the host stopped answering
    the moment it is the host's turn (a timeout of 0 s). The certificate ends the game on both tables, the
    host's own included, but its only signer wins by it, which proves nothing: contested, nobody wins, in
    either log."""
    lan.host(2, "--no-advertise")
    lan.wait_for("p0", "lobby: ")
    lan.cheater("impatient")
    lan.wait_for("cheater", "cheater: impatient at seat")
    cheater = cheater_seat(lan)
    codes, outs = finish_honest(lan, ["p0"])
    assert codes == {"p0": ExitCode.INCOMPLETE}, {n: o[-2000:] for n, o in outs.items()}
    assert "claimed that" in outs["p0"] and "contested, nobody wins" in outs["p0"], outs["p0"][-2000:]
    match = re.search(r"^cheater: log (.+)$", outs["cheater"], re.M)
    assert match is not None, outs["cheater"][-2000:]
    paths = [honest_logs(lan, ["p0"], cheater, players=2)[1 - cheater], Path(match[1])]
    for path in paths:
        verdict = verify_file(path)
        assert verdict.status is Status.INCOMPLETE and verdict.violation is None, verdict.summary
        assert verdict.table is not None and verdict.table.abandoned_by == 1 - cheater, verdict.summary
        result = hand_record(verdict)["result"]
        assert result["winners"] == [] and "forfeit" not in result, result
        assert result["abandonment"]["contested"] and result["abandonment"]["claimed_by"] == [cheater], result
        assert result["abandonment"]["waits_s"] == [0], result
        assert "contested" in verdict.summary and "nobody wins" in verdict.summary, verdict.summary


def test_a_withheld_reveal_is_an_abandonment_and_the_withholder_forfeits(lan: Lan) -> None:
    """The cheater keeps its hand seed: its first reveal never leaves its process. The honest processes vote
    after their own timeout (3 s here); their votes make the certificate that ends the game, abandoned by the
    cheater, whose side forfeits, and every honest log holds the same chain and verifies to that."""
    cheater = seat_cheater(lan, "withhold-reveal", "--timeout-auto", "3")
    codes, outs = finish_honest(lan, ["p0", "p1"])
    assert "cheater: reveal withheld" in outs["cheater"], outs["cheater"][-2000:]
    tails = {n: o[-2000:] for n, o in outs.items()}
    assert codes == {"p0": ExitCode.INCOMPLETE, "p1": ExitCode.INCOMPLETE}, (codes, tails)
    logs = honest_logs(lan, ["p0", "p1"], cheater)
    verdicts = {seat: verify_file(path) for seat, path in logs.items()}
    chains = [v.table.entries for v in verdicts.values() if v.table is not None]
    assert len(chains) == len(logs) and all(chain == chains[0] for chain in chains), "one chain everywhere"
    certificate = log.open_envelope(chains[0][-1]).payload
    assert certificate["t"] == "certificate" and certificate["s"] == cheater, certificate
    signers = [log.open_envelope(vote).payload for vote in certificate["v"]]
    assert [(p["s"], p["a"], p["w"]) for p in signers] == [(seat, cheater, 3) for seat in sorted(logs)]
    for seat, verdict in verdicts.items():
        assert verdict.status is Status.INCOMPLETE, f"seat {seat}: {verdict.summary}"
        assert verdict.table is not None and verdict.table.abandoned_by == cheater, verdict.summary
        assert f"forfeit by seat {cheater}" in verdict.summary and "for its reveal" in verdict.summary, (
            verdict.summary
        )
        assert "(3 s)" in verdict.summary, verdict.summary


def test_an_open_cheat_by_a_wrong_lock_ends_in_a_forfeit_by_the_cheater_not_a_void(lan: Lan) -> None:
    cheater = seat_cheater(lan, "wrong-lock")
    assert_pinned_on(lan, cheater, ["p0", "p1"], ("lock", "forged card", "proof"))


def test_a_poisoned_lock_neither_kills_the_host_nor_its_bots_and_the_poisoner_is_named(lan: Lan) -> None:
    """The identity point at a position of the seat after the poisoner, which the host process runs (its own
    seat or one of its bots): the host process and both its bots stop the game on it together, and the
    poisoner forfeits."""
    cheater = seat_cheater(lan, "poison", bots=2)
    assert_pinned_on(lan, cheater, ["p0"], ("lock", "proof"))
    assert "failed and leaves the game" not in lan.out("p0"), "every seat of the host process played on"


def test_a_challenge_at_a_shuffle_turn_names_the_challenger_and_the_logs_verify_and_export(lan: Lan) -> None:
    cheater = seat_cheater(lan, "shuffle-challenge")
    chain = assert_pinned_on(lan, cheater, ["p0", "p1"], ("challenge",))
    assert (cheater, "challenge") in kinds(chain) and (cheater, "shuffle") not in kinds(chain)
    for path in (lan.log("p0"), lan.log("p1")):
        verify = subprocess.run([sys.executable, "-m", "p2pspades", "verify", str(path)], capture_output=True,
                                text=True, timeout=60)
        assert verify.returncode == ExitCode.VIOLATION, verify.stdout + verify.stderr
        assert f"forfeit by seat {cheater}" in verify.stdout and "Traceback" not in verify.stderr
        for form in ("text", "json"):
            export = subprocess.run([sys.executable, "-m", "p2pspades", "export", "--format", form,
                                     str(path)], capture_output=True, text=True, timeout=60)
            assert "Traceback" not in export.stderr, export.stderr
            assert export.returncode in (0, ExitCode.VIOLATION), export.stdout[-2000:] + export.stderr
            assert f"seat {cheater}" in export.stdout
            if form == "json":
                json.loads(export.stdout)


def test_a_stranger_without_a_key_is_refused_and_the_hosted_table_plays_on(lan: Lan) -> None:
    """The identity point as a key: every "signature" R = identity, S = 0 would pass a lax check. The host
    drops such frames unanswered and says why, and stays up; a real joiner then takes the seat and the game
    completes."""
    lan.host(4, "--bots", "2", "--no-advertise")
    lan.wait_for("p0", "lobby: ")
    lan.cheater("keyless")
    assert lan.finish("cheater", timeout=60) == {"cheater": 0}, lan.out("cheater")[-2000:]
    assert "cheater: refused: " in lan.out("cheater"), lan.out("cheater")[-2000:]
    assert "weak-key: public key 0100000000000000… is refused: the identity" in lan.out("p0"), lan.out("p0")
    assert lan.procs["p0"].poll() is None, "the host is still up"
    lan.join("p1")
    codes = lan.finish("p0", "p1", timeout=240)
    outs = {name: lan.out(name) for name in ("p0", "p1", "cheater")}
    assert codes == {"p0": 0, "p1": 0}, {n: o[-2000:] for n, o in outs.items()}
    assert all("Traceback" not in out for out in outs.values()), outs
    chains = [log.read_log(lan.log(name)).frames for name in ("p0", "p1")]
    assert chains[0] == chains[1]
    assert verify_file(lan.log("p0")).status is Status.VALID


def test_a_peer_flooding_the_host_with_bad_signatures_is_cut_off_and_the_game_completes(lan: Lan) -> None:
    """The cheater plays fairly but floods the host's seat with entries whose signatures fail, all game
    long. The host process ignores its entries for a while and says why; its own seat and bot, the joiner
    and the cheater finish the game, and every log is the same and valid."""
    cheater = seat_cheater(lan, "flood")
    codes = lan.finish("p0", "p1", "cheater", timeout=240)
    outs = {name: lan.out(name) for name in ("p0", "p1", "cheater")}
    assert codes == {"p0": 0, "p1": 0, "cheater": 0}, {n: o[-2000:] for n, o in outs.items()}
    assert all("Traceback" not in out for out in outs.values()), outs
    assert f"seat {cheater} sent more than" in outs["p0"] and "entries are ignored" in outs["p0"], outs["p0"]
    logs = [path for name in ("p0", "p1") for path in seats_run_by(lan, name).values()]
    chains = [log.read_log(path).frames for path in logs]
    assert len(logs) == 3 and all(chain == chains[0] for chain in chains)
    assert all(verify_file(path).status is Status.VALID for path in logs)
    assert cheater in {signer for signer, _ in kinds(chains[0])}, "the cheater's own entries are in"


def test_junk_votes_cost_their_signer_and_never_mute_an_honest_seat(lan: Lan) -> None:
    """The cheater plays fairly, but every 50 ms sends every other seat 40 votes it signed properly for the
    slots after the next one. A table keeps a few of one signer's early notes, refuses the rest, and drops
    those it kept once the chain passes their slot: each of these refusals counts against the signer, never
    against the seat whose entry moved the chain (a real host once muted its own honest bot for this). Every
    honest process mutes the cheater, and nobody else; muted, the cheater's own entries come late, so the game
    either completes or ends with the cheater abandoning it (its side forfeits): the honest logs are the same,
    valid, and hold no junk vote."""
    cheater = seat_cheater(lan, "junk-votes", "--timeout-decision", "3", "--timeout-auto", "3")
    codes, outs = finish_honest(lan, ["p0", "p1"])
    for name in ("p0", "p1"):
        muted = {int(seat) for seat in re.findall(r"seat (\d) sent more than", outs[name])}
        assert muted <= {cheater}, f"{name} muted an honest seat: {outs[name][-3000:]}"
    assert f"seat {cheater} sent more than" in outs["p0"] + outs["p1"], "the flood is charged to its signer"
    logs = honest_logs(lan, ["p0", "p1"], cheater)
    assert set(codes.values()) <= {ExitCode.OK, ExitCode.INCOMPLETE}, codes
    verdicts = {seat: verify_file(path) for seat, path in logs.items()}
    # The notes of an ending (the votes) are logged as they came, so only the chain and the result must agree.
    ends = [v.table and (list(v.table.entries), v.table.result, v.table.abandoned_by)
            for v in verdicts.values()]
    tails = {seat: kinds(log.read_log(path).frames[-6:]) for seat, path in logs.items()}
    assert all(end == ends[0] for end in ends), tails
    for seat, path in logs.items():
        verdict = verdicts[seat]
        assert verdict.violation is None, f"seat {seat}: {verdict.summary}"
        table = verdict.table
        assert table is not None and table.result is not None, verdict.summary
        if verdict.status is Status.INCOMPLETE:
            assert table.abandoned_by == cheater and table.result.forfeit, verdict.summary
        else:
            assert verdict.status is Status.VALID, verdict.summary
        chain = [log.entry_hash(raw) for raw in table.entries]
        junk = [p for p in frames_of(path, "abandon") if p["n"] > len(chain) or p["p"] != chain[p["n"] - 1]]
        assert not junk, "no junk vote is in an honest log"


def test_a_goodbye_held_back_a_hand_is_void_names_its_signer_and_the_game_goes_on(lan: Lan) -> None:
    """The modified peer signs a goodbye early in the first hand, plays on, and sends it a hand later (or at
    the end): it would take the game back to where it signed. It signed entries after that slot: every
    honest seat keeps it, voids it and names its signer; the game ends as it would have, on one chain, and
    every honest log says so and names the cheater (a fault that ends nothing)."""
    cheater = seat_cheater(lan, "held-goodbye")
    codes, outs = finish_honest(lan, ["p0", "p1"])
    assert "cheater: goodbye sent" in outs["cheater"], outs["cheater"][-2000:]
    logs = honest_logs(lan, ["p0", "p1"], cheater)
    chains = []
    for seat, path in logs.items():
        verdict = verify_file(path)
        assert verdict.table is not None and verdict.table.status.value == "complete", verdict.summary
        assert verdict.violation is not None and verdict.violation.seat == cheater, verdict.summary
        assert verdict.violation.check == "leave" and not verdict.violation.halts, verdict.summary
        assert frames_of(path, "leave"), f"seat {seat} kept the goodbye it named its signer for"
        chains.append(verdict.table.entries)
    assert all(chain == chains[0] for chain in chains), "one chain"
    shown = {n: o[-1500:] for n, o in outs.items()}
    assert codes == {"p0": ExitCode.VIOLATION, "p1": ExitCode.VIOLATION}, shown


def test_a_goodbye_forged_for_another_seat_changes_nothing(lan: Lan) -> None:
    """The modified peer sends every seat a goodbye in the name of the seat after it, signed with its own key:
    a bad signature for that seat. Every honest seat drops it, nobody leaves, and the game plays on to its
    end, complete on every honest log."""
    cheater = seat_cheater(lan, "forged-goodbye")
    codes, outs = finish_honest(lan, ["p0", "p1"])
    assert "cheater: goodbye forged for seat" in outs["cheater"], outs["cheater"][-2000:]
    assert codes == {"p0": ExitCode.OK, "p1": ExitCode.OK}, {n: o[-1500:] for n, o in outs.items()}
    for seat, path in honest_logs(lan, ["p0", "p1"], cheater).items():
        verdict = verify_file(path)
        assert verdict.status is Status.VALID, f"seat {seat}: {verdict.summary}"
        assert not frames_of(path, "leave") and not frames_of(path, "left"), f"seat {seat} took a forgery"
