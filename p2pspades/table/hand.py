"""One hand, entry by entry: commit → (blind nil) → shuffle → lock → keys → bids → play → reveal, then the
audit of the whole hand and the next hand or the end of the game (PROTOCOL.md §4).

Each function registered with `@effect` checks one message type against the cryptography (`deal.HandDeal`)
and the rules engine (`Game`), records it, and moves the table on. A proof check goes through the table's
proof runner, so the offline verifier may run it in another process.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2pspades import crypto
from p2pspades.checks import Check
from p2pspades.crypto import passing
from p2pspades.errors import LocalError, RemoteError
from p2pspades.rules import (
    Bid,
    BlindBid,
    BlindNil,
    Card,
    Deal,
    Game,
    IllegalAction,
    Pass,
    Phase,
    Play,
    Reveal,
)
from p2pspades.table import messages as msg
from p2pspades.table.deal import DealFault, HandDeal, PassRecord, check_scalar
from p2pspades.table.effects import effect
from p2pspades.table.events import (
    CardVerified,
    ChallengeRaised,
    DecisionKind,
    HandAudited,
    PassShown,
    Violation,
)
from p2pspades.table.stages import ANY_SEAT, Stage, Step

if TYPE_CHECKING:
    from p2pspades.table.machine import Table

#: One proof check of an entry: returns if the proof verifies, raises `crypto.BadProof` if it does not.
ProofCheck = Callable[[], None]
#: How a table runs its proof checks. The default, `check_now`, runs each one at once. The offline verifier
#: may hand them to other processes and settle their outcomes later (`audit/parallel.py`); the table stays
#: pure either way.
ProofRunner = Callable[[ProofCheck], None]


def check_now(check: ProofCheck) -> None:
    """Run a proof check at once: a proof that does not verify raises while its entry is applied."""
    check()


@contextlib.contextmanager
def proof_of(seat: int) -> Iterator[None]:
    """A proof that does not verify is a violation by its sender, under the step's name (shuffle, lock,
    void)."""
    try:
        yield
    except crypto.BadProof as exc:
        raise RemoteError(exc.kind, f"bad {exc.kind} proof: {exc.detail}", seat) from None


@dataclass
class LeadClaim:
    """Rule "low_club": seat `signer` challenged (entry `entry`) because nobody led the lowest club within
    `limit` seconds of `since` on its clock. Until the last reveal its holder may still lead it, which makes
    the challenge a violation by its signer."""

    step: Step
    entry: int
    since: float
    limit: float
    signer: int
    answered: int | None = None  # the sequence number of the lead that refuted the challenge


def engine_or_shuffle(t: Table) -> None:
    """After the commitments or a blind-nil answer: the engine's next blind-nil question, or the shuffle."""
    if t.game_now().phase is Phase.BLIND:
        t.to_engine()
    else:
        t.enter(Stage.SHUFFLE, t.hand_deal().order)


@effect(msg.Commit)
def on_commit(t: Table, m: msg.Commit, seat: int, seq: int) -> None:
    g, d = t.game_now(), t.hand_deal()
    if seat == t.seat:
        seed = t.secrets.get(g.hand_number)
        if seed is None or crypto.commitment(d.context(seat), seed) != m.commitment:
            raise LocalError(f"the secret of hand {g.hand_number} is lost; this peer cannot go on")
        t.hand_secrets = crypto.HandSecrets.derive(seed, d.context(seat), d.n)
    if isinstance(m, msg.CommitV2):
        try:
            d.shuffle_commits[seat] = crypto.check_point(m.shuffle_commitment)
        except RemoteError as exc:
            raise RemoteError(Check.COMMIT, f"S is not a valid point: {exc.detail}", seat) from None
    if isinstance(m, msg.CommitPass):
        try:
            d.pass_publics[seat] = crypto.check_point(m.pass_public)
        except RemoteError as exc:
            raise RemoteError(Check.COMMIT, f"E is not a valid point: {exc.detail}", seat) from None
    d.commits[seat] = m.commitment
    d.commit_entries[seat] = seq
    if t.next_turn():
        engine_or_shuffle(t)


@effect(msg.Blind)
def on_blind(t: Table, m: msg.Blind, seat: int, seq: int) -> None:
    t.game_now().apply(BlindNil(m.declare))
    engine_or_shuffle(t)


@effect(msg.BlindBid)
def on_blind_bid(t: Table, m: msg.BlindBid, seat: int, seq: int) -> None:
    t.game_now().apply(BlindBid(m.tricks))  # a bid below 1 is refused by BlindBid itself (IllegalAction)
    engine_or_shuffle(t)


@effect(msg.Shuffle)
def on_shuffle(t: Table, m: msg.Shuffle, seat: int, seq: int) -> None:
    d = t.hand_deal()
    d.check_deck(seat, m.deck, m.TYPE)
    if isinstance(m, msg.ShuffleV2) and seat != t.seat:
        step = crypto.shuffle_step(len(d.shuffles))
        check = functools.partial(
            crypto.verify_shuffle,
            d.context(seat), step, tuple(d.shuffle_input()), tuple(m.deck), d.shuffle_commits[seat], m.proof,
        )
        with proof_of(seat):
            t.check_proof(check)
    d.shuffles.append((seat, list(m.deck)))
    d.shuffle_entries.append(seq)
    if t.next_turn():
        t.enter(Stage.LOCK, d.order)


@effect(msg.Lock)
def on_lock(t: Table, m: msg.Lock, seat: int, seq: int) -> None:
    d = t.hand_deal()
    d.check_deck(seat, m.deck, m.TYPE)
    if isinstance(m, msg.LockV2):
        if seat != t.seat:
            step = crypto.lock_step(t.seats, len(d.locks))
            check = functools.partial(
                crypto.verify_lock,
                d.context(seat), step, tuple(d.lock_input()), tuple(m.deck), d.shuffle_commits[seat],
                tuple(m.commitments), m.proof,
            )
            with proof_of(seat):
                t.check_proof(check)
        d.key_commits[seat] = m.commitments
    d.locks.append((seat, list(m.deck)))
    d.lock_entries.append(seq)
    if not t.next_turn():
        return
    if t.rules.deal == "all":
        t.enter(Stage.KEYS, d.order)
    else:
        t.pile.dealt(t)


@effect(msg.Keys)
def on_keys(t: Table, m: msg.Keys, seat: int, seq: int) -> None:
    d = t.hand_deal()
    whole = t.rules.deal == "all"
    d.add_keys(seat, m.positions, m.keys, d.keys_due(seat) if whole else t.pile.keys_due())
    if t.version >= 2 and seat != t.seat:
        d.check_keys(seat, m.positions, m.keys)
    d.key_entries.update(((j, seat), seq) for j in m.positions)
    if not t.next_turn():
        return
    if whole:
        deal_all(t)
    else:
        t.pile.keys_in(t)


def open_own_cards(t: Table) -> tuple[Card | None, ...] | None:
    """Our own cards, opened with every deal key, in the order of our positions; None if one does not open
    (an invalid point at one of our positions: a lock or a deal key is wrong)."""
    d, my = t.hand_deal(), t.hand_secrets
    assert my is not None and t.seat is not None
    positions = d.positions_of(t.seat)
    try:
        mine = d.open_own(t.seat, my, positions)
    except RemoteError:  # an invalid point at one of our positions: a lock was poisoned
        return None
    return None if mine is None else tuple(mine[j] for j in positions)


def deal_all(t: Table) -> None:
    """Every deal key is out: our own cards open (as our makers tell our engine), others' stay unknown."""
    d = t.hand_deal()
    hands: list[tuple[Card | None, ...]] = [tuple(None for _ in d.positions_of(s)) for s in range(t.seats)]
    if t.seat is not None:
        mine = t.makers.own_cards(t)
        if mine is None:
            t.challenge_next("some of my cards do not open: a lock or a deal key is wrong")
        else:
            hands[t.seat] = mine
    t.game_now().apply(Deal(tuple(hands)))
    t.to_engine()


@effect(msg.Bid)
def on_bid(t: Table, m: msg.Bid, seat: int, seq: int) -> None:
    t.game_now().apply(Bid(m.tricks))
    t.to_engine()


@effect(msg.Pass)
def on_pass(t: Table, m: msg.Pass, seat: int, seq: int) -> None:
    """Rule `nil_pass` (PROTOCOL.md §7.6): the positions move to the partner; the partner alone opens them."""
    g, d = t.game_now(), t.hand_deal()
    size, positions = t.rules.nil_pass, list(m.positions)
    if len(positions) != size or len(m.keys) != size:
        why = f"{len(positions)} positions and {len(m.keys)} keys; the rule is {size}"
        raise RemoteError(Check.PASS, why, seat)
    for j in positions:
        if not 0 <= j < d.n or d.owner[j] != seat:
            raise RemoteError(Check.OWNERSHIP, f"passes position {j}, which was not dealt to it", seat)
    if positions != sorted(set(positions)):
        raise RemoteError(Check.OWNERSHIP, f"the positions {positions} are not strictly ascending", seat)
    for sealed in m.keys:
        try:
            passing.check_sealed(sealed)
        except RemoteError as exc:
            raise RemoteError(Check.PASS, exc.detail, seat) from None
    partner = (seat + 2) % 4
    cards: list[Card | None] = [None] * size
    if t.seat == seat:
        cards = [d.opened.get(j) for j in positions]
    elif t.seat == partner:
        cards = receive_pass(t, d, seat, positions, m.keys)
    g.apply(Pass(tuple(cards)), seat)
    d.passes.append(PassRecord(seat, partner, tuple(positions), tuple(m.keys), seq))
    d.moved.update((j, partner) for j in positions)
    t.to_engine()


def receive_pass(t: Table, d: HandDeal, sender: int, positions: Sequence[int],
                 sealed: Sequence[bytes]) -> list[Card | None]:
    """The partner opens each sealed key and the card under it; a key that fails is challenged at our next
    turn (the audit names the passer), and its card stays unknown to our engine."""
    my = t.hand_secrets
    assert my is not None and t.seat is not None
    own = passing.pass_key(my.seed, my.context)
    cards: list[Card | None] = []
    try:
        shared: bytes | None = passing.shared_point(own, d.pass_publics[sender])
    except RemoteError:  # cannot happen: the commit check refused an invalid E
        shared = None
    for j, box in zip(positions, sealed, strict=True):
        card = None
        if shared is not None:
            key = passing.open_sealed(box, shared, d.context(sender), t.seat, j)
            if crypto.check_key(key, d.key_commits[sender][j]):
                card = d.open_position(j, {sender: key})
                if card is not None:
                    d.received_keys[j] = key
                    d.opened[j] = card
        if card is None:
            t.challenge_next(f"the key that seat {sender} passed me for position {j} does not open it")
        cards.append(card)
    return cards


def opened_card(t: Table, d: HandDeal, m: msg.Play, seat: int) -> Card:
    """The card that the key of a play opens at its position, if the position is the seat's to play. The
    key is the position's key seat's: the seat's own, or its partner's for a card passed to it."""
    j = m.position
    if not 0 <= j < d.n or d.holder(j) != seat:
        raise RemoteError(Check.OWNERSHIP, f"position {j} is not one of seat {seat}'s cards", seat)
    if j in d.played:
        raise RemoteError(Check.REPLAY, f"position {j} was already played", seat)
    check_scalar(seat, m.key)
    key_seat = d.owner[j]
    assert key_seat is not None
    if t.version >= 2 and seat != t.seat:
        try:
            d.check_keys(key_seat, [j], [m.key])
        except RemoteError as exc:
            raise RemoteError(exc.check, exc.detail, seat) from None
    card = d.open_position(j, {key_seat: m.key})
    if card is None:
        raise RemoteError(Check.FORGED_CARD, f"the key for position {j} does not open a card", seat)
    return card


@effect(msg.Play)
def on_play(t: Table, m: msg.Play, seat: int, seq: int) -> None:
    g, d = t.game_now(), t.hand_deal()
    card = opened_card(t, d, m, seat)
    if isinstance(m, msg.PlayV2):
        check_void(t, g, d, m, seat, card)
    try:
        g.apply(Play(card), seat)
    except IllegalAction:
        if t.seat is None or seat == t.seat:
            raise
        public = g.public_clone()  # the engine as every other peer holds it: no hidden card known
        public.apply(Play(card), seat)  # refused there too: the rules refuse it, for everyone
        # only what we alone know refuses it (say, one of our cards): go on with the public record as
        # every other peer does, and challenge at our next turn, so that the reveal names the culprit
        g = t.game = public
        t.challenge_next(f"seat {seat} played {card.code}, which my own cards say it cannot hold")
    j = m.position
    key_seat = d.owner[j]
    assert key_seat is not None
    d.keys[j][key_seat] = m.key
    d.key_entries[(j, key_seat)] = seq
    if key_seat != seat:
        d.key_publishers[(j, key_seat)] = seat
    d.played.add(j)
    d.opened[j] = card
    t.report(CardVerified(seat, card))
    if g.phase is Phase.REVEAL:
        t.enter(Stage.REVEAL, d.order)
    else:
        t.to_engine()


def check_void(t: Table, g: Game, d: HandDeal, m: msg.PlayV2, seat: int, card: Card) -> None:
    """Version 2: a play that does not follow the led suit carries a proof that the seat holds no card of
    that suit in its other positions (rule `void_proofs`); every other play carries none."""
    positions, cards = d.void_claim(seat, m.position, card, g.hand.trick.led_suit)
    if not (t.rules.void_proofs and positions and cards):
        if m.void:
            raise RemoteError(Check.VOID, "a void proof where no void claim is due", seat)
        return
    if not m.void:
        led = g.hand.trick.led_suit
        raise RemoteError(Check.VOID, f"plays {card.code} on a {led} lead without a void proof", seat)
    if seat == t.seat:
        return
    step = crypto.void_step(t.seats, len(d.played))
    with proof_of(seat):
        points = tuple(crypto.card_point(c.code) for c in cards)
        where = tuple(d.void_positions(seat, positions))
        t.check_proof(functools.partial(crypto.verify_void, d.context(seat), step, where, points, m.void))


@effect(msg.Challenge)
def on_challenge(t: Table, m: msg.Challenge, seat: int, seq: int) -> None:
    d = t.hand_deal()
    if not 0 <= m.entry < seq:
        raise RemoteError(Check.CHALLENGE, f"challenges entry {m.entry}, which is not an earlier entry", seat)
    if t.stage is Stage.LEAD:  # nobody led the lowest club: the reveal will name its holder
        step = Step(ANY_SEAT, (msg.Play,), DecisionKind.PLAY)
        t.lead_claim = LeadClaim(step, seq, t.last_progress, t.timeouts["decision"], seat)
    d.challenge = (seat, seq, m.why)  # `e` is informative: the audit covers the whole hand
    t.report(ChallengeRaised(seat, m.why))
    t.enter(Stage.REVEAL, d.order)


@effect(msg.Reveal)
def on_reveal(t: Table, m: msg.Reveal, seat: int, seq: int) -> None:
    d = t.hand_deal()
    if crypto.commitment(d.context(seat), m.seed) != d.commits[seat]:
        raise RemoteError(Check.REVEAL, "the revealed seed does not match the commitment", seat)
    d.seeds[seat] = m.seed
    if t.next_turn():
        audit_hand(t, seq)


@effect(msg.End)
def on_end(t: Table, m: msg.End, seat: int, seq: int) -> None:
    g = t.game_now()
    assert g.outcome is not None
    winners, totals = list(g.outcome.winners), [side.score for side in g.totals]
    if list(m.winners) != winners or list(m.totals) != totals:
        claimed = f"claims winners {list(m.winners)} totals {list(m.totals)}"
        raise RemoteError(Check.END, f"{claimed}; the game gave {winners} {totals}", seat)
    if t.next_turn():
        t.complete()


def fault_violation(t: Table, fault: DealFault, fallback: int) -> Violation:
    """The audit's verdict: at the offending entry, with that entry as evidence."""
    if fault.entry is None:
        return Violation(fault.seat, fault.check, fault.detail, fallback)
    return Violation(fault.seat, fault.check, fault.detail, fault.entry, (t.entries[fault.entry],))


def challenge_verdict(t: Table, d: HandDeal, fault: DealFault | None, cards: Sequence[Card]) -> Violation:
    """Who a challenge names once every seed is out: the culprit it found, or its own signer."""
    assert d.challenge is not None
    challenger, challenged, why = d.challenge  # the challenge's own entry
    evidence = (t.entries[challenged],)
    low = t.rules.low_club
    if fault is None and t.lead_claim is not None and low is not None:
        holder = next(s for s in range(t.seats) if low in (cards[j] for j in d.positions_of(s)))
        # (in words every table says alike: not its own timeout, which is local)
        detail = f"seat {holder} held {low.code} and did not lead it before seat {challenger} challenged"
        return Violation(holder, Check.LEAD, detail, challenged, evidence)
    if fault is not None:
        return fault_violation(t, fault, challenged)
    detail = f"false challenge ({why}): every step checks out"
    return Violation(challenger, Check.CHALLENGE, detail, challenged, evidence)


def audit_hand(t: Table, seq: int) -> None:
    """Every seat revealed: recompute the whole deal, then let the engine audit the play and score."""
    g, d = t.game_now(), t.hand_deal()
    fault, cards = d.recompute(skip=t.seat if d.challenge is None else None)
    number = g.hand_number
    if d.challenge is not None:
        t.halt(challenge_verdict(t, d, fault, cards))
        return
    if fault is not None:
        t.halt(fault_violation(t, fault, seq))
        return
    dealt = tuple(tuple(cards[j] for j in d.positions_of(s)) for s in range(t.seats))
    try:
        g.apply(Reveal(dealt))
    except IllegalAction as exc:  # the crypto checked out, so the plays cannot contradict the hands
        t.halt(Violation(d.order[-1], Check.REVEAL, str(exc), seq))
        return
    found = tuple(Violation(v.seat, v.kind, v.detail, seq, halts=False) for v in g.history[-1].violations)
    passes = tuple(PassShown(p.seat, p.partner, tuple(cards[j] for j in p.positions)) for p in d.passes)
    t.report(HandAudited(number, found, passes))
    if found and t.rules.renege == "stop":  # the game ends with the violation: a fault, as any other
        t.halt(dataclasses.replace(found[0], halts=True))
        return
    for v in found:
        t.report(v)
    if g.phase is Phase.GAME_OVER:
        assert g.outcome is not None
        t.enter(Stage.END, range(t.seats))
    else:
        t.start_hand()
