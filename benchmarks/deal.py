"""The cost of dealing without a dealer, in-process (no network), beside the bare cost of its group work.

For 4 seats playing `classic` in memory (every peer a full table machine: signatures, chain, checks):
- setup: from the first commitment of a hand until every seat knows its cards, beside the bare cost of the
  scalar multiplications the deal needs (each seat shuffles and locks 52 points, and opens its 13 cards);
- audit: from the first reveal until every peer has checked the deal and scored the hand, beside the bare
  cost of the multiplications it needs (each peer checks the deck after all shuffles and after all locks);
- verification throughput of a generated log (the offline verifier, with its proofs checked on every core),
  and log bytes per hand.

New games are protocol version 2 (every step of the deal proven and checked live, protocol/crypto.md
§12-18), so the table figures above are measured with the proofs; the same figures of version 1 (no proofs)
are printed beside them with the suffix `_v1`. In particular, all measured:
- `setup_with_proofs_s`: the 4-seat hand setup of the table machines in memory (the best of the hands
  timed, `setup_best_ms`, in seconds): every seat commits with S, shuffles and proves, locks with its P_j
  and proves, verifies the 3 other seats' proofs, checks every deal key it receives against its P_j and
  opens its cards;
  `setup_with_proofs_ratio`, its ratio to a bare replay of the group operations those steps need (counted in
  `setup_with_proofs_crypto`, the same steps on the crypto layer alone, `setup_with_proofs_ops`);
- `cut_and_choose_speedup`: the same shuffle proven and verified by 80 rounds of cut-and-choose, over ours;
- `verify_hands_per_s` and `log_bytes_per_hand`: the offline verifier on a version 2 log (every proof, key
  and void claim verified), as `p2pspades verify` runs it (the proofs checked by `verify_jobs` worker
  processes, one per core unless `--jobs` says otherwise), and that log's size per hand;
  `verify_hands_per_s_serial`: the same verifier in one process, measured alternately with it;
- `void_proof_ms`: proving and verifying one void claim over a 13-card suit, by cards held (12, 6, 1).

The bare cost is the count of operations times the cost of one, measured in the same run. Ratios matter;
the absolute times move with the load on a shared machine. Prints one JSON object.

    python benchmarks/deal.py [--hands 4] [--verify-hands 6] [--jobs N] [--verify-repeat 2] [--proof-repeat 3]
                              [--proofs-only]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

import nacl.bindings as sodium

from p2pspades import crypto
from p2pspades.audit import read_game
from p2pspades.audit.parallel import available_jobs
from p2pspades.bots import RandomBot
from p2pspades.crypto import deal as deal_module
from p2pspades.crypto import group, proofs
from p2pspades.rules import Phase, preset
from p2pspades.rules.cards import FULL_DECK, Suit
from p2pspades.rules.chance import ByteStream
from p2pspades.table import Accepted, Table
from p2pspades.table.harness import Wire, new_game, seeded_entropy


def mul_cost(samples: int = 3000) -> float:
    """Seconds for one `crypto_scalarmult_ed25519_noclamp` through our `mul` (best of 5 runs)."""
    p = crypto.card_point("AS")
    s = crypto.scalar_from_int(123456789)
    return min(timeit.repeat(lambda: crypto.mul(s, p), number=samples, repeat=5)) / samples


def measure_hands(hands: int, seed: bytes, version: int = 2) -> dict[str, list[float]]:
    """Play `hands` hands of 4 seats in memory, timing each hand's setup and audit."""
    rules = preset("classic", target=10_000)
    ids = [crypto.Identity.from_seed(crypto.H("bench", seed, bytes([i]))[:32]) for i in range(4)]
    genesis = new_game(rules, ids, game_id=crypto.H("bench game", seed)[:16], version=version)
    tables = [Table(genesis, ids[i], entropy=seeded_entropy(seed + bytes([i]))) for i in range(4)]
    wire = Wire(tables, [RandomBot(i) for i in range(4)])
    for seat in range(4):
        wire._record(seat, [])
    setups: list[float] = []
    audits: list[float] = []
    setup_start = audit_start = None
    seen = [0] * 4
    done_hands = 0
    started = 0  # the hand every table has begun: its setup is timed from then
    while done_hands < hands:
        if not wire.step():
            break
        for seat in range(4):
            new = wire.events[seat][seen[seat] :]
            seen[seat] = len(wire.events[seat])
            for ev in new:
                if isinstance(ev, Accepted) and ev.type == "reveal" and audit_start is None:
                    audit_start = time.perf_counter()
        number = min(t.hand_number for t in tables)
        if number > started:
            # every table has audited the last hand and begun this one: the setup clock starts
            started, setup_start = number, time.perf_counter()
            if audit_start is not None:
                audits.append(setup_start - audit_start)
                audit_start = None
                done_hands += 1
        if setup_start is not None and all(t.game is not None and t.game.phase is Phase.BID for t in tables):
            setups.append(time.perf_counter() - setup_start)
            setup_start = None
    return {"setup": setups, "audit": audits}


def log_for_verification(seed: bytes, hands: int, version: int = 2) -> tuple[list[bytes], int, list[Any]]:
    """A complete signed log of a game of about `hands` hands (individual rules never go below zero)."""
    rules = preset("individual", target=10 * hands + 40)
    ids = [crypto.Identity.from_seed(crypto.H("verify", seed, bytes([i]))[:32]) for i in range(4)]
    genesis = new_game(rules, ids, game_id=crypto.H("verify game", seed)[:16], version=version)
    tables = [Table(genesis, ids[i], entropy=seeded_entropy(seed + bytes([i]))) for i in range(4)]
    wire = Wire(tables, [RandomBot(100 + i) for i in range(4)])
    wire.run()
    table = tables[0]
    assert table.game is not None
    return table.entries, len(table.game.history), list(table.game.history)


# --- protocol version 2: the proofs ---

_DECK = FULL_DECK  # 2S..AS first: the first 13 cards are the spades

#: the functions whose calls are the group operations of the deal and its proofs, by module
_OPS = {
    "var": [
        (proofs, "_mul"),
        (deal_module, "crypto_scalarmult_ed25519_noclamp"),
        (group, "crypto_scalarmult_ed25519_noclamp"),
    ],
    "base": [(proofs, "_base")],
    "add": [(proofs, "_add"), (proofs, "_sub")],
}


def op_costs(samples: int = 2000) -> dict[str, float]:
    """Seconds for one variable-base multiplication, one fixed-base multiplication and one addition."""
    p, q = crypto.card_point("AS"), crypto.card_point("KD")
    s = crypto.scalar_from_int(2**251 + 123456789)
    cases = {
        "var": lambda: sodium.crypto_scalarmult_ed25519_noclamp(s, p),
        "base": lambda: sodium.crypto_scalarmult_ed25519_base_noclamp(s),
        "add": lambda: sodium.crypto_core_ed25519_add(p, q),
    }
    return {k: min(timeit.repeat(f, number=samples, repeat=5)) / samples for k, f in cases.items()}


class OpCounter:
    """Counts the group operations done inside a `with` block (by wrapping the library calls we make)."""

    def __init__(self) -> None:
        self.counts = {kind: 0 for kind in _OPS}
        self._saved: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> OpCounter:
        for kind, places in _OPS.items():
            for module, name in places:
                original = getattr(module, name)
                self._saved.append((module, name, original))
                setattr(module, name, self._wrap(kind, original))
        return self

    def _wrap(self, kind: str, original: Callable[..., bytes]) -> Callable[..., bytes]:
        def counted(*args: bytes) -> bytes:
            self.counts[kind] += 1
            return original(*args)

        return counted

    def __exit__(self, *exc: object) -> None:
        for module, name, original in reversed(self._saved):
            setattr(module, name, original)


def _secrets(seed: bytes, seat: int, context: bytes, n: int) -> crypto.HandSecrets:
    return crypto.HandSecrets.derive(crypto.H("seed", seed, bytes([seat]))[:32], context, n)


def setup_with_proofs(seed: bytes, seats: int = 4, n: int = 52) -> None:
    """One 4-seat hand setup in one process, every seat proving and verifying everything.

    Commit (the seed's commitment and S = s·B); shuffle with its proof, verified by every other seat; lock
    with its proof and the P_j, verified by every other seat; every seat publishes the deal keys of the
    positions it does not own, and every other seat checks each against its P_j; every seat opens its cards.
    """
    game_id = crypto.H("bench proofs", seed)[:16]
    contexts = [crypto.hand_context(game_id, 1, i) for i in range(seats)]
    secrets = [_secrets(seed, i, contexts[i], n) for i in range(seats)]
    commits = [
        (crypto.commitment(c, s.seed), proofs.shuffle_commitment(s))
        for c, s in zip(contexts, secrets, strict=True)
    ]
    deck = crypto.card_points(_DECK[:n])
    for i in range(seats):
        out, proof = proofs.prove_shuffle(contexts[i], i, deck, secrets[i])
        for verifier in range(seats):
            if verifier != i:
                proofs.verify_shuffle(contexts[i], i, deck, out, commits[i][1], proof)
        deck = out
    lock_commitments = []
    for i in range(seats):
        out, commitments, proof = proofs.prove_lock(contexts[i], seats + i, deck, secrets[i])
        for verifier in range(seats):
            if verifier != i:
                proofs.verify_lock(contexts[i], seats + i, deck, out, commits[i][1], commitments, proof)
        lock_commitments.append(commitments)
        deck = out
    owner = [j % seats for j in range(n)]
    for i in range(seats):  # seat i publishes its keys; every other seat checks them
        for j in range(n):
            if owner[j] != i:
                for receiver in range(seats):
                    key, commitment = secrets[i].lock_keys[j], lock_commitments[i][j]
                    if receiver != i and not proofs.check_key(key, commitment):
                        raise AssertionError("a key failed its check")
    table = crypto.card_table(_DECK[:n])
    for i in range(seats):
        mine = [j for j in range(n) if owner[j] == i]
        keys = [[s.lock_keys[j] for s in secrets] for j in mine]
        cards = crypto.open_cards([deck[j] for j in mine], keys, table)
        if None in cards:
            raise AssertionError("a card failed to open")


def cut_and_choose(seed: bytes, rounds: int = 80, n: int = 52) -> None:
    """The baseline: the same shuffle proven by cut-and-choose with `rounds` rounds, then verified once.

    Each round the prover publishes an intermediate deck mid = s'·π'(in); one challenge bit per round (from a
    hash of everything) asks for (s', π') or for (s·s'⁻¹, the permutation from mid to out); the verifier
    recomputes the asked step. Soundness 2^-rounds; n multiplications per round on each side.
    """
    context = crypto.hand_context(crypto.H("bench cc", seed)[:16], 1, 0)
    sec = crypto.HandSecrets.derive(crypto.H("seed", seed)[:32], context, n)
    deck = crypto.card_points(_DECK[:n])
    out = crypto.shuffle(deck, sec)
    s = crypto.scalar_to_int(sec.shuffle_scalar)
    stream = ByteStream(crypto.H("bench cc nonces", seed))
    mids, openings = [], []
    for _ in range(rounds):
        s_r = int.from_bytes(stream.read(64), "little") % crypto.L
        perm_r = stream.permutation(n)
        mids.append(crypto.mul_many([crypto.scalar_from_int(s_r)] * n, [deck[k] for k in perm_r]))
        openings.append((s_r, perm_r))
    bits = ByteStream(crypto.H("bench cc challenge", context, *[b"".join(m) for m in mids])).read(rounds)
    answers = []
    for (s_r, perm_r), bit in zip(openings, bits, strict=True):
        if bit & 1 == 0:
            answers.append((s_r, perm_r))
        else:  # out[i] = s·in[π[i]] = (s/s_r)·mid[σ[i]] with mid[m] = s_r·in[perm_r[m]]
            where = {k: m for m, k in enumerate(perm_r)}
            answers.append((s * pow(s_r, -1, crypto.L) % crypto.L, tuple(where[k] for k in sec.permutation)))
    for mid, (factor, perm), bit in zip(mids, answers, bits, strict=True):
        source = deck if bit & 1 == 0 else mid
        target = mid if bit & 1 == 0 else out
        if crypto.mul_many([crypto.scalar_from_int(factor)] * n, [source[k] for k in perm]) != target:
            raise AssertionError("cut-and-choose round failed")


def shuffle_prove_and_verify(seed: bytes, n: int = 52) -> None:
    """Our shuffle proof for the same statement as `cut_and_choose`: proven once, verified once."""
    context = crypto.hand_context(crypto.H("bench cc", seed)[:16], 1, 0)
    sec = crypto.HandSecrets.derive(crypto.H("seed", seed)[:32], context, n)
    deck = crypto.card_points(_DECK[:n])
    out, proof = proofs.prove_shuffle(context, 0, deck, sec)
    proofs.verify_shuffle(context, 0, deck, out, proofs.shuffle_commitment(sec), proof)


def void_costs(seed: bytes, held: int, suit_cards: int = 13, n: int = 52, seats: int = 4) -> dict[str, float]:
    """Milliseconds to prove and verify one void claim by a seat holding `held` cards, over a whole suit."""
    game_id = crypto.H("bench void", seed)[:16]
    contexts = [crypto.hand_context(game_id, 1, i) for i in range(seats)]
    secrets = [_secrets(seed, i, contexts[i], n) for i in range(seats)]
    deck = crypto.card_points(_DECK[:n])
    for sec in secrets:
        deck = crypto.shuffle(deck, sec)
    for sec in secrets:
        deck = crypto.lock(deck, sec)
    order = crypto.deal_order(n, secrets)
    # the owner's positions that hold no spade (the suit it claims to be void in), `held` of them
    mine = [j for j in range(n) if order[j] >= suit_cards][:held]
    commitments = proofs.lock_commitments(secrets[0])
    residues = [proofs.void_residue(deck[j], [s.lock_keys[j] for s in secrets[1:]]) for j in mine]
    positions = [proofs.VoidPosition(j, commitments[j], z) for j, z in zip(mine, residues, strict=True)]
    suit = crypto.card_points(_DECK[:suit_cards])
    start = time.perf_counter()
    proof = proofs.prove_void(contexts[0], 100, secrets[0], positions, suit)
    middle = time.perf_counter()
    proofs.verify_void(contexts[0], 100, positions, suit, proof)
    end = time.perf_counter()
    prove_ms, verify_ms = round((middle - start) * 1e3, 1), round((end - middle) * 1e3, 1)
    return {"prove": prove_ms, "verify": verify_ms, "bytes": len(proof)}


def replay_ops(counts: dict[str, int]) -> None:
    """The bare group operations: `counts` multiplications and additions on fixed inputs, nothing else."""
    p, q = crypto.card_point("AS"), crypto.card_point("KD")
    s = crypto.scalar_from_int(2**251 + 987654321)
    var, base, add = (
        sodium.crypto_scalarmult_ed25519_noclamp,
        sodium.crypto_scalarmult_ed25519_base_noclamp,
        sodium.crypto_core_ed25519_add,
    )
    for _ in range(counts["var"]):
        var(s, p)
    for _ in range(counts["base"]):
        base(s)
    for _ in range(counts["add"]):
        add(p, q)


def _best_cpu(f: Callable[[], object], repeat: int) -> float:
    """The least CPU time of this process over `repeat` calls of f."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        f()
        best = min(best, time.process_time() - start)
    return best


def _best(f: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def void_claims(history: list[Any]) -> list[tuple[int, int]]:
    """(positions, cards) of every void claim the hands of `history` would carry: each play that does not
    follow suit claims that the seat's remaining positions hold none of the led suit's unplayed cards."""
    claims: list[tuple[int, int]] = []
    for result in history:
        suit_size = {suit: sum(1 for hand in result.hands for c in hand if c.suit is suit) for suit in Suit}
        seen = dict.fromkeys(Suit, 0)
        for number, trick in enumerate(result.tricks):
            led = trick.plays[0][1].suit
            for seat, card in trick.plays:
                if card.suit is not led:
                    held = len(result.hands[seat]) - number  # before this play
                    claims.append((held, suit_size[led] - seen[led]))
                seen[card.suit] += 1
    return claims


def measure_proofs(repeat: int, history: list[Any]) -> dict[str, Any]:
    """The figures of the proofs themselves (the table's figures with proofs are measured in `main`)."""
    costs = op_costs()
    with OpCounter() as counter:
        setup_with_proofs(b"count")
    counts = dict(counter.counts)
    # the setup and the bare replay of its group operations alternate, so both see the same machine load
    setup = bare = setup_cpu = bare_cpu = float("inf")
    for _ in range(repeat):
        cpu_start = time.process_time()
        setup = min(setup, _best(lambda: setup_with_proofs(b"setup"), 1))
        setup_cpu = min(setup_cpu, time.process_time() - cpu_start)
        cpu_start = time.process_time()
        bare = min(bare, _best(lambda: replay_ops(counts), 1))
        bare_cpu = min(bare_cpu, time.process_time() - cpu_start)
    ours = _best(lambda: shuffle_prove_and_verify(b"cc"), repeat)
    baseline = _best(lambda: cut_and_choose(b"cc"), 1)
    context = crypto.hand_context(bytes(16), 1, 0)
    sec = crypto.HandSecrets.derive(bytes(32), context, 52)
    deck = crypto.card_points(_DECK[:52])
    out, s_proof = proofs.prove_shuffle(context, 0, deck, sec)
    locked, commitments, l_proof = proofs.prove_lock(context, 4, out, sec)
    big_s = proofs.shuffle_commitment(sec)
    t_shuffle = _best(lambda: proofs.verify_shuffle(context, 0, deck, out, big_s, s_proof), repeat)
    t_lock = _best(lambda: proofs.verify_lock(context, 4, out, locked, big_s, commitments, l_proof), repeat)
    claims = void_claims(history)
    hands = max(1, len(history))
    return {
        "op_us": {k: round(v * 1e6, 1) for k, v in costs.items()},
        "setup_with_proofs_ops": counts,
        "setup_with_proofs_crypto_s": round(setup, 3),
        # CPU time of this process: close to the wall time on an idle machine, whatever the load now
        "setup_with_proofs_crypto_cpu_s": round(setup_cpu, 3),
        "setup_with_proofs_crypto_cpu_ratio": round(setup_cpu / bare_cpu, 3),
        "setup_with_proofs_bare_s": round(bare, 3),
        "setup_with_proofs_bare_estimate_s": round(sum(counts[k] * costs[k] for k in counts), 3),
        "setup_with_proofs_crypto_ratio": round(setup / bare, 3),
        "shuffle_proof_bytes": len(s_proof),
        "lock_proof_bytes": len(l_proof),
        "shuffle_verify_ms": round(t_shuffle * 1e3, 1),
        "lock_verify_ms": round(t_lock * 1e3, 1),
        "cut_and_choose_s": round(baseline, 3),
        "proven_shuffle_s": round(ours, 3),
        "cut_and_choose_speedup": round(baseline / ours, 2),
        "void_proof_ms": {str(held): void_costs(b"void", held) for held in (12, 6, 1)},
        "void_claims_per_hand": round(len(claims) / hands, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4, help="hands timed for setup and audit")
    ap.add_argument(
        "--verify-hands", type=int, default=6, help="about how many hands the verified log holds"
    )
    ap.add_argument(
        "--jobs", type=int, default=None, help="worker processes of the verifier (default: one per core)"
    )
    ap.add_argument("--verify-repeat", type=int, default=2, help="runs of the verifier (best kept)")
    ap.add_argument("--proof-repeat", type=int, default=3, help="runs of each proof measurement (best kept)")
    ap.add_argument("--proofs-only", action="store_true", help="only the figures of protocol version 2")
    args = ap.parse_args()
    if args.proofs_only:
        print(json.dumps(measure_proofs(args.proof_repeat, []), indent=2))
        return
    print("measuring the cost of one multiplication...", file=sys.stderr)
    mul = mul_cost()
    n, seats = 52, 4
    setup_muls = crypto.mul_count_setup(seats, n)
    # the audit checks the decks after all shuffles and after all locks at once: 2n multiplications a peer
    audit_muls = seats * 2 * n
    jobs = available_jobs(args.jobs)
    out: dict[str, Any] = {"seats": seats, "deck": n, "mul_us": round(mul * 1e6, 1), "verify_jobs": jobs}
    history: list[Any] = []
    for version, suffix in ((2, ""), (1, "_v1")):
        print(f"version {version}: playing {args.hands} hands in memory...", file=sys.stderr)
        timings = measure_hands(args.hands, b"deal benchmark", version)
        setup = statistics.median(timings["setup"])
        audit = statistics.median(timings["audit"])
        print(f"version {version}: generating and verifying a log...", file=sys.stderr)
        frames, hands, game_history = log_for_verification(b"verify benchmark", args.verify_hands, version)
        if version == 2:
            history = game_history
        # the verifier as `p2pspades verify` runs it (proofs checked by --jobs workers) and serially,
        # alternated so that both see the same machine load
        best = serial = float("inf")
        for _ in range(args.verify_repeat):
            start = time.perf_counter()
            verdict = read_game(frames, jobs=jobs)
            best = min(best, time.perf_counter() - start)
            start = time.perf_counter()
            serial_verdict = read_game(frames, jobs=1)
            serial = min(serial, time.perf_counter() - start)
            if serial_verdict.status is not verdict.status:
                raise SystemExit(f"serial and parallel verdicts differ: {serial_verdict.summary}")
        log_bytes = 8 + sum(4 + len(f) for f in frames)
        out.update({
            f"setup_ms{suffix}": round(setup * 1e3, 1),
            f"setup_best_ms{suffix}": round(min(timings["setup"]) * 1e3, 1),
            f"audit_ms{suffix}": round(audit * 1e3, 1),
            f"verify_hands{suffix}": hands,
            f"verify_status{suffix}": verdict.status.name,
            f"verify_hands_per_s{suffix}": round(hands / best, 2),
            f"verify_hands_per_s_serial{suffix}": round(hands / serial, 2),
            f"log_bytes_per_hand{suffix}": round(log_bytes / hands),
        })
    # version 1 against the bare cost of its multiplications, as before the proofs
    out.update({
        "setup_bare_ms_v1": round(setup_muls * mul * 1e3, 1),
        "setup_muls_v1": setup_muls,
        "setup_ratio_v1": round(out["setup_ms_v1"] / 1e3 / (setup_muls * mul), 3),
        "audit_bare_ms": round(audit_muls * mul * 1e3, 1),
        "audit_muls": audit_muls,
        "audit_ratio_v1": round(out["audit_ms_v1"] / 1e3 / (audit_muls * mul), 3),
        "goals": {
            "setup_ratio_max": 1.5,
            "setup_with_proofs_s_max": 1.5,
            "setup_with_proofs_ratio_max": 1.5,
            "verify_hands_per_s_min": 5,
            "log_bytes_per_hand_max": 80_000,
        },
    })
    print("measuring the proofs of protocol version 2...", file=sys.stderr)
    out.update(measure_proofs(args.proof_repeat, history))
    # the table's setup with every proof, against the bare group operations those steps need
    # (the best hand, as the bare replay is the best of its runs: both see the least machine load)
    out["setup_with_proofs_s"] = round(out["setup_best_ms"] / 1e3, 3)
    out["setup_with_proofs_ratio"] = round(out["setup_with_proofs_s"] / out["setup_with_proofs_bare_s"], 3)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
