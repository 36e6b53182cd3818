"""What the table hands its machines: one read-only `View` of it, which each machine sees only through its own
narrow `Protocol` (`OpeningView`, `HandView`, `PileView`, `MakerView`, `ClaimView`, `EndingView`, `ClockView`,
`OwnView`, `LateView`), as magic-wormhole's boss hands each machine the interfaces it uses.

A machine reads the table here and says what should happen; the table does it (`Table._carry`). The view
reads the table through `Board`, the members of `Table` it relies on, so this module knows neither the
table nor any machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from p2pspades import crypto, log
from p2pspades.rules import Game, Outcome, RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.chain import Chain
from p2pspades.table.deal import DrawPile, HandDeal, Opening, ProofCheck
from p2pspades.table.events import Decision, GameEnded, Violation
from p2pspades.table.genesis import Setup
from p2pspades.table.slots import Awaited, Slot
from p2pspades.table.stages import ANY_SEAT, LeadClaim, Stage, Step


class Board(Protocol):
    """The members of a table its view reads (`machine.Table` has them)."""

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

    @property
    def finished(self) -> bool: ...

    @property
    def head(self) -> bytes: ...

    @property
    def hand_number(self) -> int: ...

    @property
    def last_turn(self) -> bool: ...

    @property
    def claim(self) -> Slot | None: ...

    def expected(self) -> Step | None: ...

    def claimed_step(self) -> Step | None: ...

    def lead_step(self, hand: int) -> Step: ...

    def wait_limit(self, step: Step) -> float: ...

    def pending_decision(self) -> Decision | None: ...

    def check_proof(self, check: ProofCheck) -> None: ...

    def secret(self, number: int) -> bytes: ...

    def seal(self, m: msg.Message, seq: int, prev: bytes, number: int) -> bytes: ...

    def answer_problem(self, raw: bytes, seq: int) -> Violation | str | None: ...

    def totals(self) -> list[int]: ...


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
        return self._t.last_turn

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

    def expected(self) -> Step | None:
        return self._t.expected()

    def claimed_step(self) -> Step | None:
        return self._t.claimed_step()

    @property
    def deciding(self) -> bool:
        return self._t.pending_decision() is not None

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
        self._t.check_proof(check)

    def keys_due(self, seat: int) -> list[int]:
        return self.deal.keys_due(seat) if self._t.rules.deal == "all" else self._t.pile.keys_due()

    # ----------------------------------------------------------------- the claims (ClaimView, ClockView)
    @property
    def claim(self) -> Slot | None:
        return self._t.claim

    def now(self) -> Awaited | None:
        t = self._t
        if t.finished:
            return None
        step = t.claimed_step()
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
            step = t.lead_step(hand)
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
        return self._t.answer_problem(raw, at.seq)

    def seal(self, m: msg.Message, at: Awaited) -> bytes:
        return self._t.seal(m, at.seq, at.prev, at.hand)

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
        return self._t.totals()

    def signed_by(self, seq: int, seat: int) -> bytes | None:
        return self._t.chain.signed_by(seq, seat)

    def step_at(self, seq: int) -> Step | None:
        return self._t.chain.steps[seq]

    def prev_of(self, seq: int) -> bytes:
        return log.entry_hash(self._t.chain.entries[seq - 1])

    def problem_of(self, raw: bytes, seq: int) -> Violation | str | None:
        return self._t.answer_problem(raw, seq)


def _type(raw: bytes) -> str:
    return str(log.validate_header(log.open_envelope(raw).payload).type)
