"""What the table hands its machines: one read-only `View` of it, which each machine sees only through its own
narrow `Protocol` (`OpeningView`, `HandView`, `PileView`, `MakerView`, `ClaimView`, `EndingView`, `ClockView`,
`OwnView`, `LateView`, `PartingView`), as magic-wormhole's boss hands each machine the interfaces it uses.

A machine reads the table here and says what should happen; the table does it (`Table._carry`). The view
reads the table through `Board`, the members of `Table` it relies on, so this module knows neither the
table nor any machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from p2pspades import crypto, log
from p2pspades.checks import Check
from p2pspades.errors import N_, Detail, P2PSpadesError
from p2pspades.rules import Game, Outcome, RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.chain import Chain
from p2pspades.table.deal import DrawPile, HandDeal, Opening, ProofCheck, ProofRunner
from p2pspades.table.events import (
    Accepted,
    Decision,
    DecisionKind,
    Dropped,
    Event,
    GameEnded,
    Rejected,
    Violation,
)
from p2pspades.table.genesis import Setup
from p2pspades.table.slots import Awaited, Role, Slot
from p2pspades.table.stages import ANY_SEAT, TRANSITIONS, LeadClaim, Stage, Step, Who


class HeldClaims(Protocol):
    """The claims machine, as the view asks it for the claim on the slot awaited."""

    def current(self, view: View) -> Slot | None: ...


class Board(Protocol):
    """The members of a table its view reads (`machine.Table` has them)."""

    identity: crypto.Identity | None
    seat: int | None
    seats: int
    rules: RuleSet
    version: int
    game_id: bytes
    setup: Setup
    public_keys: tuple[bytes, ...]
    timeouts: dict[str, float]
    secrets: dict[int, bytes]
    chain: Chain
    opening: Opening
    stage: Stage
    game: Game | None
    deal: HandDeal | None
    pile: DrawPile
    hand_secrets: crypto.HandSecrets | None
    lead_claim: LeadClaim | None
    challenge_due: str | None
    last_progress: float
    clock: float
    restoring: bool
    syncing: bool
    ended_step: Step | None
    result: GameEnded | None
    violation: Violation | None
    certified: Slot | None
    order: tuple[int, ...]
    turn: int
    proofs: ProofRunner
    checked: bool

    @property
    def claims(self) -> HeldClaims: ...

    @property
    def finished(self) -> bool: ...

    @property
    def head(self) -> bytes: ...

    @property
    def hand_number(self) -> int: ...

    def wait_limit(self, step: Step) -> float: ...

    def pending_decision(self) -> Decision | None: ...

    def secret(self, number: int) -> bytes: ...

    def observer(self, upto: int) -> Board:
        """An observer of our chain's first `upto` entries (their proofs were checked already)."""

    def receive(self, raw: bytes, now: float = 0.0) -> list[Event]: ...


class View:
    """What the table's machines (and our makers) see of table `t`. Read only: a machine says what should
    happen, and the table does it."""

    def __init__(self, t: Board) -> None:
        self._t = t

    # ----------------------------------------------------------------- the game's constants
    @property
    def seat(self) -> int | None:
        return self._t.seat

    @property
    def seats(self) -> int:
        return self._t.seats

    @property
    def rules(self) -> RuleSet:
        return self._t.rules

    @property
    def version(self) -> int:
        return self._t.version

    @property
    def game_id(self) -> bytes:
        return self._t.game_id

    @property
    def setup(self) -> Setup:
        return self._t.setup

    @property
    def timeouts(self) -> Mapping[str, float]:
        return self._t.timeouts

    # ----------------------------------------------------------------- where the game stands
    @property
    def stage(self) -> Stage:
        return self._t.stage

    @property
    def last_turn(self) -> bool:
        """Whether the entry being applied was the last turn of its IN_TURN stage."""
        return self._t.turn >= len(self._t.order)

    @property
    def finished(self) -> bool:
        return self._t.finished

    @property
    def syncing(self) -> bool:
        return self._t.syncing

    @property
    def restoring(self) -> bool:
        return self._t.restoring

    @property
    def last_progress(self) -> float:
        return self._t.last_progress

    @property
    def clock(self) -> float:
        return self._t.clock

    @property
    def next_seq(self) -> int:
        return self._t.chain.next_seq

    @property
    def hand_number(self) -> int:
        return self._t.hand_number

    @property
    def head(self) -> bytes:
        return self._t.head

    def known(self, raw: bytes) -> bool:
        return raw in self._t.chain.known

    def expected(self) -> Step | None:
        """Who may append the next entry, and of which types."""
        t = self._t
        expect = TRANSITIONS[t.stage]
        if expect.who is Who.NOBODY:
            return None
        if expect.who is Who.IN_TURN:
            seat = t.order[t.turn]
        elif expect.who is Who.ANY:
            seat = ANY_SEAT
        else:
            current = None if t.game is None else t.game.current_seat
            assert current is not None, "the rules engine says whose move it is"
            seat = current
        return Step(seat, expect.types, expect.decision)

    def claimed_step(self) -> Step | None:
        """The step a claim on the slot the table waits for is about (rule "low_club": the first lead, which
        the seat at the dealer's left answers by challenging, if its holder does not lead)."""
        step = self.expected()
        if step is None or step.seat != ANY_SEAT:
            return step
        return self.lead_step(self._t.hand_number) if self._t.deal is not None else None

    def lead_step(self, hand: int) -> Step:
        """Rule "low_club", hand `hand`: the claim's step of its first lead (the challenger's)."""
        g = self.game
        dealer = g.dealer if hand == g.hand_number else g.history[hand - 1].dealer
        return Step((dealer + 1) % self._t.seats, (msg.Challenge, msg.Play), DecisionKind.PLAY)

    @property
    def deciding(self) -> bool:
        return self._t.pending_decision() is not None

    def waiting_for(self) -> tuple[int, str] | None:
        """Whose entry the table is waiting for, and of what type."""
        step = self.expected()
        return None if step is None else (step.seat, step.types[0].TYPE)

    def step_for(self, header: log.Header) -> tuple[Step | None, LeadClaim | None]:
        """The step an entry of this header is taken at (None: out of turn), and the low-club claim it answers
        if it is the lowest club led after all (it applies where it was due, at the step we were at)."""
        step = self.expected()
        if step is not None and step.seat in (header.seat, ANY_SEAT) and header.type in _types(step):
            if step.seat == ANY_SEAT and header.type == msg.Challenge.TYPE:  # the dealer's left alone
                claimed = self.claimed_step()
                mine = claimed is not None and claimed.seat == header.seat
                return (step, None) if mine else (None, None)
            return step, None
        lead = self._t.lead_claim if self._t.stage is Stage.REVEAL else None
        if step is not None and lead is not None and header.type in _types(lead.step):
            return step, lead
        return None, None

    def out_of_turn(self, header: log.Header, raw: bytes) -> Rejected:
        """Why an entry out of turn is refused (its seat named; the game goes on)."""
        expected = self.expected()
        want = "nothing" if expected is None else f"seat {expected.seat}'s {expected.types[0].TYPE}"
        detail = f"entry {header.seq} from seat {header.seat} is a {header.type}; expected {want}"
        return Rejected(header.seat, Check.TURN, detail, raw)

    # ----------------------------------------------------------------- the opening and the hand in play
    @property
    def opening(self) -> Opening:
        return self._t.opening

    @property
    def game(self) -> Game:
        game = self._t.game
        assert game is not None, "the rules engine exists once the first dealer is known"
        return game

    @property
    def deal(self) -> HandDeal:
        deal = self._t.deal
        assert deal is not None, "a hand is in play"
        return deal

    @property
    def pile(self) -> DrawPile:
        return self._t.pile

    @property
    def hand_secrets(self) -> crypto.HandSecrets | None:
        return self._t.hand_secrets

    @property
    def lead_claim(self) -> LeadClaim | None:
        return self._t.lead_claim

    @property
    def challenge_due(self) -> str | None:
        return self._t.challenge_due

    @property
    def dealer_left(self) -> int:
        return self.deal.order[0]

    def seed(self, number: int) -> bytes | None:
        return self._t.secrets.get(number)

    def secret(self, number: int) -> bytes:
        return self._t.secret(number)

    def entry(self, seq: int) -> bytes:
        return self._t.chain.entries[seq]

    def check_proof(self, check: ProofCheck) -> None:
        """Run one proof check of the entry being applied, unless it is a restored entry checked before."""
        if not (self._t.restoring and self._t.checked):
            self._t.proofs(check)

    def keys_due(self, seat: int) -> list[int]:
        return self.deal.keys_due(seat) if self._t.rules.deal == "all" else self._t.pile.keys_due()

    # ----------------------------------------------------------------- the claims (ClaimView, ClockView)
    @property
    def claim(self) -> Slot | None:
        """The abandonment claim on the slot the table waits for (or the one whose certificate ended the
        game), if any seat has voted on it."""
        if self._t.certified is not None:
            return self._t.certified
        slot = self._t.claims.current(self)
        return slot if slot is not None and slot.votes else None

    def role(self) -> Role:
        """Ours on the claim on the slot the table waits for (QUIET: no claim there)."""
        slot = self._t.claims.current(self)
        return Role.QUIET if slot is None else slot.role

    def claim_notes(self) -> list[bytes]:
        """The signed votes, stalls and refusals of the open claim: what a peer that comes back needs."""
        slot = self.claim
        return [] if slot is None or self._t.finished else slot.notes()

    def now(self) -> Awaited | None:
        t = self._t
        if t.finished:
            return None
        step = self.claimed_step()
        return None if step is None else self._awaited(t.chain.next_seq, t.head, step, t.hand_number)

    def passed(self, seq: int, prev: bytes) -> Awaited | None:
        t, chain = self._t, self._t.chain
        if not 0 < seq <= chain.next_seq or log.entry_hash(chain.entries[seq - 1]) != prev:
            return None
        if seq == chain.next_seq:  # the slot a fault ended the game at
            step = t.ended_step
            return None if step is None else self._awaited(seq, prev, step, t.hand_number)
        step = chain.steps[seq]
        if step is None:
            return None
        hand = log.validate_header(log.open_envelope(chain.entries[seq]).payload).hand
        if step.seat == ANY_SEAT:
            step = self.lead_step(hand)
        return self._awaited(seq, prev, step, hand)

    def _awaited(self, seq: int, prev: bytes, step: Step, hand: int) -> Awaited:
        lead = step.types[0] is msg.Challenge  # rule "low_club": the first lead, or its challenge
        return Awaited(seq, prev, step.seat, hand, step.types[0].TYPE, round(self._t.wait_limit(step)), lead)

    def signed_after(self, seat: int, seq: int) -> bool:
        chain = self._t.chain  # (an ending's seat is the one it names, not a signer)
        return any(s == seat and _type(chain.entries[n]) not in msg.ENDINGS
                   for n, s in enumerate(chain.signers[seq + 1:], start=seq + 1))

    def entry_at(self, seq: int) -> bytes | None:
        entries = self._t.chain.entries
        return entries[seq] if seq < len(entries) else None

    def signed(self, env: log.Envelope, header: log.Header) -> bool:
        keys = self._t.public_keys
        return 0 <= header.seat < len(keys) and crypto.verify_signature(keys[header.seat], env.signature,
                                                                         env.payload_raw)

    def answer_problem(self, raw: bytes, at: Awaited) -> Violation | str | None:
        return self.problem_of(raw, at.seq)

    def seal(self, m: msg.Message, at: Awaited) -> bytes:
        return self.sealed(m.to_fields(), at.seq, at.prev, at.hand)

    def sealed(self, fields: Mapping[str, Any], seq: int, prev: bytes, number: int) -> bytes:
        """Our signed envelope of `fields` for slot `seq` after the entry hashed `prev`, in hand `number`."""
        t = self._t
        assert t.identity is not None and t.seat is not None
        return log.seal({"g": t.game_id, "n": seq, "p": prev, "s": t.seat, "h": number, **fields}, t.identity)

    # ----------------------------------------------------------------- the endings (EndingView, LateView)
    @property
    def result(self) -> GameEnded | None:
        return self._t.result

    @property
    def violation(self) -> Violation | None:
        return self._t.violation

    @property
    def certified(self) -> Slot | None:
        return self._t.certified

    @property
    def outcome(self) -> Outcome | None:
        g = self._t.game
        return None if g is None else g.outcome

    def totals(self) -> list[int]:
        """Every side's total score now (0 before the first hand)."""
        g = self._t.game
        return [0 for _ in self._t.rules.sides] if g is None else [t.score for t in g.totals]

    def totals_at(self, seq: int) -> tuple[int, ...]:
        """Every side's total score after our chain's first `seq` entries (PartingView: a stop's scores)."""
        if seq >= self._t.chain.next_seq:
            return tuple(self.totals())
        return tuple(View(self._t.observer(seq)).totals())

    def answered(self, seq: int) -> bool:
        """Whether our chain holds the awaited entry of slot `seq`: an entry its seat signed, no ending."""
        entry = self.entry_at(seq)
        return entry is not None and _type(entry) not in msg.ENDINGS

    def signed_by(self, seq: int, seat: int) -> bytes | None:
        return self._t.chain.signed_by(seq, seat)

    def step_at(self, seq: int) -> Step | None:
        return self._t.chain.steps[seq]

    def prev_of(self, seq: int) -> bytes:
        return log.entry_hash(self._t.chain.entries[seq - 1])

    def problem_of(self, raw: bytes, seq: int) -> Violation | str | None:
        """What `raw`, a signed entry for slot `seq` of our chain, earns there, checked by an observer of our
        chain up to that slot exactly as every peer that took it did: None if it holds, the violation it
        earns its signer, or why it is no entry that slot takes."""
        try:
            observer = self._t.observer(seq)
        except P2PSpadesError:  # pragma: no cover - our own chain
            return None
        events = observer.receive(raw)
        if observer.violation is not None:
            return observer.violation
        if any(isinstance(ev, Accepted) for ev in events):
            return None
        problem = next((ev for ev in events if isinstance(ev, Rejected | Dropped)), None)
        if isinstance(problem, Rejected):
            return problem.detail
        if isinstance(problem, Dropped):  # a check's detail: the drop's code (`describe.dropped` words it)
            if problem.detail:
                return Detail(N_("an entry dropped as {kind}: {detail}"), kind=problem.kind.value,
                              detail=problem.detail)
            return Detail(N_("an entry dropped as {kind}"), kind=problem.kind.value)
        return Detail(N_("an entry that does not apply there"))


def _types(step: Step) -> set[str]:
    return {t.TYPE for t in step.types}


def _type(raw: bytes) -> str:
    return str(log.validate_header(log.open_envelope(raw).payload).type)
