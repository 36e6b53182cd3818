"""One hand, entry by entry: commit → (blind nil) → shuffle → lock → keys → bids → play → reveal, then the
audit of the whole hand and the next hand or the end of the game (PROTOCOL.md §4).

A machine that knows no table. Each effect (`receiving.EFFECTS` lists them) checks one message type against
the cryptography (the hand's `deal.HandDeal`) and the rules engine (`Game`), both of which it keeps up to
date, and returns where the table goes next and what it reports (`outputs.py`). It sees only the narrow
`HandView`. A proof check goes through the view to the table's proof runner, so the offline verifier may run
it in another process.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from p2pspades import crypto
from p2pspades.checks import Check
from p2pspades.crypto import passing
from p2pspades.errors import N_, Detail, LocalError, RemoteError, detail_of
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
    RuleSet,
)
from p2pspades.table import messages as msg
from p2pspades.table.deal import DealFault, HandDeal, PassRecord, ProofCheck, check_scalar
from p2pspades.table.events import (
    CardVerified,
    ChallengeRaised,
    DecisionKind,
    HandAudited,
    PassShown,
    Violation,
)
from p2pspades.table.outputs import ChallengeDue, Complete, Enter, Halt, NewHand, Report
from p2pspades.table.stages import ANY_SEAT, LeadClaim, Stage, Step, engine_stage


@contextlib.contextmanager
def proof_of(seat: int) -> Iterator[None]:
    """A proof that does not verify is a violation by its sender, under the step's name (shuffle, lock,
    void)."""
    try:
        yield
    except crypto.BadProof as exc:
        raise RemoteError(exc.kind, f"bad {exc.kind} proof: {exc.detail}", seat) from None


@dataclass(frozen=True)
class OwnSecrets:
    """Our secrets of the hand in play (our seed, shuffle scalar and lock keys), as our commitment binds
    them."""

    secrets: crypto.HandSecrets


@dataclass(frozen=True)
class PublicRecord:
    """Go on with the rules engine `game`: the public record, every hidden card forgotten (a play that only
    our own cards refuse)."""

    game: Game


@dataclass(frozen=True)
class Dealt:
    """Rule deal "all": every deal key is out. Our makers say which cards our engine is told we hold, and the
    hand deals (`deal_all`)."""


@dataclass(frozen=True)
class PileDealt:
    """Rule deal "draw": every lock is in. The draw pile takes over (`drawpile.dealt`)."""


@dataclass(frozen=True)
class PileKeysIn:
    """Rule deal "draw": every key of the pile's card is in (`drawpile.keys_in`)."""


@dataclass(frozen=True)
class LeadChallenged:
    """Rule "low_club": a seat challenged because nobody led the lowest club."""

    claim: LeadClaim


Output = (Enter | Report | Halt | ChallengeDue | NewHand | Complete
          | OwnSecrets | PublicRecord | LeadChallenged | Dealt | PileDealt | PileKeysIn)
Outputs = list[Output]


class HandView(Protocol):
    """What the hand reads of its table."""

    @property
    def seat(self) -> int | None: ...

    @property
    def seats(self) -> int: ...

    @property
    def version(self) -> int: ...

    @property
    def rules(self) -> RuleSet: ...

    @property
    def stage(self) -> Stage: ...

    @property
    def game(self) -> Game:
        """The rules engine (the first dealer is known)."""

    @property
    def deal(self) -> HandDeal:
        """The cryptographic state of the hand in play."""

    @property
    def hand_secrets(self) -> crypto.HandSecrets | None:
        """Ours, once our commitment is applied (None for an observer)."""

    @property
    def last_turn(self) -> bool:
        """Whether the entry being applied is the last turn of its stage."""

    @property
    def last_progress(self) -> float:
        """When the chain last grew, on our clock."""

    @property
    def timeouts(self) -> Mapping[str, float]: ...

    @property
    def lead_claim(self) -> LeadClaim | None:
        """Rule "low_club": the challenge of this hand that nobody led the lowest club."""

    def seed(self, number: int) -> bytes | None:
        """The seed we committed to for hand `number`, if we hold it."""

    def entry(self, seq: int) -> bytes:
        """Our chain's entry `seq` (the evidence of a fault)."""

    def check_proof(self, check: ProofCheck) -> None:
        """Run one proof check of the entry being applied (through the table's runner)."""

    def keys_due(self, seat: int) -> list[int]:
        """The positions whose keys `seat` publishes now: all it does not own, or the draw pile's card."""



def to_engine(view: HandView) -> Enter:
    """The rules engine says whose move it is: the stage of its phase."""
    return Enter(engine_stage(view.game, view.rules, view.deal))


def engine_or_shuffle(view: HandView) -> Outputs:
    """After the commitments or a blind-nil answer: the engine's next blind-nil question, or the shuffle."""
    if view.game.phase is Phase.BLIND:
        return [to_engine(view)]
    return [Enter(Stage.SHUFFLE, view.deal.order)]


def on_commit(view: HandView, m: msg.Commit, seat: int, seq: int) -> Outputs:
    g, d = view.game, view.deal
    out: Outputs = []
    if seat == view.seat:
        seed = view.seed(g.hand_number)
        if seed is None or crypto.commitment(d.context(seat), seed) != m.commitment:
            raise LocalError(N_("the secret of hand {hand} is lost; this peer cannot go on"),
                             hand=g.hand_number)
        out.append(OwnSecrets(crypto.HandSecrets.derive(seed, d.context(seat), d.n)))
    if isinstance(m, msg.CommitV2):
        try:
            d.shuffle_commits[seat] = crypto.check_point(m.shuffle_commitment)
        except RemoteError as exc:
            why = Detail(N_("S is not a valid point: {detail}"), detail=exc.detail)
            raise RemoteError(Check.COMMIT, why, seat) from None
    if isinstance(m, msg.CommitPass):
        try:
            d.pass_publics[seat] = crypto.check_point(m.pass_public)
        except RemoteError as exc:
            why = Detail(N_("E is not a valid point: {detail}"), detail=exc.detail)
            raise RemoteError(Check.COMMIT, why, seat) from None
    d.commits[seat] = m.commitment
    d.commit_entries[seat] = seq
    return out + engine_or_shuffle(view) if view.last_turn else out


def on_blind(view: HandView, m: msg.Blind, seat: int, seq: int) -> Outputs:
    view.game.apply(BlindNil(m.declare))
    return engine_or_shuffle(view)


def on_blind_bid(view: HandView, m: msg.BlindBid, seat: int, seq: int) -> Outputs:
    view.game.apply(BlindBid(m.tricks))  # a bid below 1 is refused by BlindBid itself (IllegalAction)
    return engine_or_shuffle(view)


def on_shuffle(view: HandView, m: msg.Shuffle, seat: int, seq: int) -> Outputs:
    d = view.deal
    d.check_deck(seat, m.deck, m.TYPE)
    if isinstance(m, msg.ShuffleV2) and seat != view.seat:
        step = crypto.shuffle_step(len(d.shuffles))
        check = functools.partial(
            crypto.verify_shuffle,
            d.context(seat), step, tuple(d.shuffle_input()), tuple(m.deck), d.shuffle_commits[seat], m.proof,
        )
        with proof_of(seat):
            view.check_proof(check)
    d.shuffles.append((seat, list(m.deck)))
    d.shuffle_entries.append(seq)
    return [Enter(Stage.LOCK, d.order)] if view.last_turn else []


def on_lock(view: HandView, m: msg.Lock, seat: int, seq: int) -> Outputs:
    d = view.deal
    d.check_deck(seat, m.deck, m.TYPE)
    if isinstance(m, msg.LockV2):
        if seat != view.seat:
            step = crypto.lock_step(view.seats, len(d.locks))
            check = functools.partial(
                crypto.verify_lock,
                d.context(seat), step, tuple(d.lock_input()), tuple(m.deck), d.shuffle_commits[seat],
                tuple(m.commitments), m.proof,
            )
            with proof_of(seat):
                view.check_proof(check)
        d.key_commits[seat] = m.commitments
    d.locks.append((seat, list(m.deck)))
    d.lock_entries.append(seq)
    if not view.last_turn:
        return []
    if view.rules.deal == "all":
        return [Enter(Stage.KEYS, d.order)]
    return [PileDealt()]


def on_keys(view: HandView, m: msg.Keys, seat: int, seq: int) -> Outputs:
    d = view.deal
    d.add_keys(seat, m.positions, m.keys, view.keys_due(seat))
    if view.version >= 2 and seat != view.seat:
        d.check_keys(seat, m.positions, m.keys)
    d.key_entries.update(((j, seat), seq) for j in m.positions)
    if not view.last_turn:
        return []
    if view.rules.deal == "all":
        return [Dealt()]
    return [PileKeysIn()]


def deal_all(view: HandView, mine: tuple[Card | None, ...] | None) -> Outputs:
    """Every deal key is out: our own cards open (`mine`, as our makers tell our engine: None if they do
    not), others' stay unknown."""
    d = view.deal
    hands: list[tuple[Card | None, ...]] = [tuple(None for _ in d.positions_of(s)) for s in range(view.seats)]
    out: Outputs = []
    if view.seat is not None:
        if mine is None:
            out.append(ChallengeDue("some of my cards do not open: a lock or a deal key is wrong"))
        else:
            hands[view.seat] = mine
    view.game.apply(Deal(tuple(hands)))
    return [*out, to_engine(view)]


def on_bid(view: HandView, m: msg.Bid, seat: int, seq: int) -> Outputs:
    view.game.apply(Bid(m.tricks))
    return [to_engine(view)]


def on_pass(view: HandView, m: msg.Pass, seat: int, seq: int) -> Outputs:
    """Rule `nil_pass` (PROTOCOL.md §7.6): the positions move to the partner; the partner alone opens them."""
    g, d = view.game, view.deal
    size, positions = view.rules.nil_pass, list(m.positions)
    if len(positions) != size or len(m.keys) != size:
        why = Detail(N_("{positions} positions and {keys} keys; the rule is {size}"),
                     positions=len(positions), keys=len(m.keys), size=size)
        raise RemoteError(Check.PASS, why, seat)
    for j in positions:
        if not 0 <= j < d.n or d.owner[j] != seat:
            why = Detail(N_("passes position {j}, which was not dealt to it"), j=j)
            raise RemoteError(Check.OWNERSHIP, why, seat)
    if positions != sorted(set(positions)):
        why = Detail(N_("the positions {positions} are not strictly ascending"), positions=positions)
        raise RemoteError(Check.OWNERSHIP, why, seat)
    for sealed in m.keys:
        try:
            passing.check_sealed(sealed)
        except RemoteError as exc:
            raise RemoteError(Check.PASS, exc.detail, seat) from None
    partner = (seat + 2) % 4
    cards: list[Card | None] = [None] * size
    out: Outputs = []
    if view.seat == seat:
        cards = [d.opened.get(j) for j in positions]
    elif view.seat == partner:
        cards, out = receive_pass(view, d, seat, positions, m.keys)
    g.apply(Pass(tuple(cards)), seat)
    d.passes.append(PassRecord(seat, partner, tuple(positions), tuple(m.keys), seq))
    d.moved.update((j, partner) for j in positions)
    return [*out, to_engine(view)]


def receive_pass(view: HandView, d: HandDeal, sender: int, positions: Sequence[int],
                 sealed: Sequence[bytes]) -> tuple[list[Card | None], Outputs]:
    """The partner opens each sealed key and the card under it; a key that fails is challenged at our next
    turn (the audit names the passer), and its card stays unknown to our engine."""
    my = view.hand_secrets
    assert my is not None and view.seat is not None
    own = passing.pass_key(my.seed, my.context)
    cards: list[Card | None] = []
    out: Outputs = []
    try:
        shared: bytes | None = passing.shared_point(own, d.pass_publics[sender])
    except RemoteError:  # cannot happen: the commit check refused an invalid E
        shared = None
    for j, box in zip(positions, sealed, strict=True):
        card = None
        if shared is not None:
            key = passing.open_sealed(box, shared, d.context(sender), view.seat, j)
            if crypto.check_key(key, d.key_commits[sender][j]):
                card = d.open_position(j, {sender: key})
                if card is not None:
                    d.received_keys[j] = key
                    d.opened[j] = card
        if card is None:
            why = f"the key that seat {sender} passed me for position {j} does not open it"
            out.append(ChallengeDue(why))
        cards.append(card)
    return cards, out


def opened_card(view: HandView, d: HandDeal, m: msg.Play, seat: int) -> Card:
    """The card that the key of a play opens at its position, if the position is the seat's to play. The
    key is the position's key seat's: the seat's own, or its partner's for a card passed to it."""
    j = m.position
    if not 0 <= j < d.n or d.holder(j) != seat:
        why = Detail(N_("position {j} is not one of seat {seat}'s cards"), j=j, seat=seat)
        raise RemoteError(Check.OWNERSHIP, why, seat)
    if j in d.played:
        raise RemoteError(Check.REPLAY, Detail(N_("position {j} was already played"), j=j), seat)
    check_scalar(seat, m.key)
    key_seat = d.owner[j]
    assert key_seat is not None
    if view.version >= 2 and seat != view.seat:
        try:
            d.check_keys(key_seat, [j], [m.key])
        except RemoteError as exc:
            raise RemoteError(exc.check, exc.detail, seat) from None
    card = d.open_position(j, {key_seat: m.key})
    if card is None:
        why = Detail(N_("the key for position {j} does not open a card"), j=j)
        raise RemoteError(Check.FORGED_CARD, why, seat)
    return card


def on_play(view: HandView, m: msg.Play, seat: int, seq: int) -> Outputs:
    g, d = view.game, view.deal
    card = opened_card(view, d, m, seat)
    if isinstance(m, msg.PlayV2):
        check_void(view, g, d, m, seat, card)
    out: Outputs = []
    try:
        g.apply(Play(card), seat)
    except IllegalAction:
        if view.seat is None or seat == view.seat:
            raise
        public = g.public_clone()  # the engine as every other peer holds it: no hidden card known
        public.apply(Play(card), seat)  # refused there too: the rules refuse it, for everyone
        # only what we alone know refuses it (say, one of our cards): go on with the public record as
        # every other peer does, and challenge at our next turn, so that the reveal names the culprit
        g = public
        why = f"seat {seat} played {card.code}, which my own cards say it cannot hold"
        out += [PublicRecord(public), ChallengeDue(why)]
    j = m.position
    key_seat = d.owner[j]
    assert key_seat is not None
    d.keys[j][key_seat] = m.key
    d.key_entries[(j, key_seat)] = seq
    if key_seat != seat:
        d.key_publishers[(j, key_seat)] = seat
    d.played.add(j)
    d.opened[j] = card
    out.append(Report(CardVerified(seat, card)))
    if g.phase is Phase.REVEAL:
        return [*out, Enter(Stage.REVEAL, d.order)]
    return [*out, Enter(engine_stage(g, view.rules, d))]


def check_void(view: HandView, g: Game, d: HandDeal, m: msg.PlayV2, seat: int, card: Card) -> None:
    """Version 2: a play that does not follow the led suit carries a proof that the seat holds no card of
    that suit in its other positions (rule `void_proofs`); every other play carries none."""
    positions, cards = d.void_claim(seat, m.position, card, g.hand.trick.led_suit)
    if not (view.rules.void_proofs and positions and cards):
        if m.void:
            raise RemoteError(Check.VOID, Detail(N_("a void proof where no void claim is due")), seat)
        return
    if not m.void:
        led = g.hand.trick.led_suit
        why = Detail(N_("plays {card} on a lead of {suit} without a void proof"), card=card.code,
                     suit=Detail(led.noun) if led is not None else "")
        raise RemoteError(Check.VOID, why, seat)
    if seat == view.seat:
        return
    step = crypto.void_step(view.seats, len(d.played))
    with proof_of(seat):
        points = tuple(crypto.card_point(c.code) for c in cards)
        where = tuple(d.void_positions(seat, positions))
        view.check_proof(functools.partial(crypto.verify_void, d.context(seat), step, where, points, m.void))


def on_challenge(view: HandView, m: msg.Challenge, seat: int, seq: int) -> Outputs:
    d = view.deal
    if not 0 <= m.entry < seq:
        why = Detail(N_("challenges entry {entry}, which is not an earlier entry"), entry=m.entry)
        raise RemoteError(Check.CHALLENGE, why, seat)
    out: Outputs = []
    if view.stage is Stage.LEAD:  # nobody led the lowest club: the reveal will name its holder
        step = Step(ANY_SEAT, (msg.Play,), DecisionKind.PLAY)
        out.append(LeadChallenged(LeadClaim(step, seq, view.last_progress, view.timeouts["decision"], seat)))
    d.challenge = (seat, seq, m.why)  # `e` is informative: the audit covers the whole hand
    return [*out, Report(ChallengeRaised(seat, m.why)), Enter(Stage.REVEAL, d.order)]


def on_reveal(view: HandView, m: msg.Reveal, seat: int, seq: int) -> Outputs:
    d = view.deal
    if crypto.commitment(d.context(seat), m.seed) != d.commits[seat]:
        raise RemoteError(Check.REVEAL, Detail(N_("the revealed seed does not match the commitment")),
                          seat)
    d.seeds[seat] = m.seed
    return audit_hand(view, seq) if view.last_turn else []


def on_end(view: HandView, m: msg.End, seat: int, seq: int) -> Outputs:
    g = view.game
    assert g.outcome is not None
    winners, totals = list(g.outcome.winners), [side.score for side in g.totals]
    if list(m.winners) != winners or list(m.totals) != totals:
        why = Detail(N_("claims winners {claimed} totals {claimed_totals}; the game gave {winners} {totals}"),
                     claimed=list(m.winners), claimed_totals=list(m.totals), winners=winners, totals=totals)
        raise RemoteError(Check.END, why, seat)
    return [Complete()] if view.last_turn else []


def fault_violation(view: HandView, fault: DealFault, fallback: int) -> Violation:
    """The audit's verdict: at the offending entry, with that entry as evidence."""
    if fault.entry is None:
        return Violation(fault.seat, fault.check, fault.detail, fallback)
    return Violation(fault.seat, fault.check, fault.detail, fault.entry, (view.entry(fault.entry),))


def challenge_verdict(view: HandView, d: HandDeal, fault: DealFault | None,
                      cards: Sequence[Card]) -> Violation:
    """Who a challenge names once every seed is out: the culprit it found, or its own signer."""
    assert d.challenge is not None
    challenger, challenged, why = d.challenge  # the challenge's own entry
    evidence = (view.entry(challenged),)
    low = view.rules.low_club
    if fault is None and view.lead_claim is not None and low is not None:
        holder = next(s for s in range(view.seats) if low in (cards[j] for j in d.positions_of(s)))
        # (in words every table says alike: not its own timeout, which is local)
        detail = Detail(N_("seat {holder} held {card} and did not lead it before seat {challenger} "
                           "challenged"), holder=holder, card=low.code, challenger=challenger)
        return Violation(holder, Check.LEAD, detail, challenged, evidence)
    if fault is not None:
        return fault_violation(view, fault, challenged)
    detail = Detail(N_("false challenge ({why}): every step checks out"), why=why)
    return Violation(challenger, Check.CHALLENGE, detail, challenged, evidence)


def audit_hand(view: HandView, seq: int) -> Outputs:
    """Every seat revealed: recompute the whole deal, then let the engine audit the play and score."""
    g, d = view.game, view.deal
    fault, cards = d.recompute(skip=view.seat if d.challenge is None else None)
    number = g.hand_number
    if d.challenge is not None:
        return [Halt(challenge_verdict(view, d, fault, cards))]
    if fault is not None:
        return [Halt(fault_violation(view, fault, seq))]
    dealt = tuple(tuple(cards[j] for j in d.positions_of(s)) for s in range(view.seats))
    try:
        g.apply(Reveal(dealt))
    except IllegalAction as exc:  # the crypto checked out, so the plays cannot contradict the hands
        return [Halt(Violation(d.order[-1], Check.REVEAL, detail_of(exc), seq))]
    found = tuple(Violation(v.seat, v.kind, v.detail, seq, halts=False) for v in g.history[-1].violations)
    passes = tuple(PassShown(p.seat, p.partner, tuple(cards[j] for j in p.positions)) for p in d.passes)
    out: Outputs = [Report(HandAudited(number, found, passes))]
    if found and view.rules.renege == "stop":  # the game ends with the violation: a fault, as any other
        return [*out, Halt(dataclasses.replace(found[0], halts=True))]
    out += [Report(v) for v in found]
    if g.phase is Phase.GAME_OVER:
        assert g.outcome is not None
        return [*out, Enter(Stage.END, tuple(range(view.seats)))]
    return [*out, NewHand()]
