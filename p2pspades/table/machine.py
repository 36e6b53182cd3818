"""The table protocol of one peer, without I/O.

Feed it raw entries (`receive`); it checks each one completely (size, encoding, game, signature, sequence and
chain, turn, fields, cryptography, rules), appends the good ones to its chain, and says what happened. On its
own turns it writes its entries itself (commitments, shuffles, locks, keys, reveals) or, for a decision, waits
for `decide()`. Time comes in as numbers; randomness comes from the injected `entropy` function.

The protocol is a sequence of stages (`Stage`). `TRANSITIONS` says, for each stage, which message types it
takes and from whom; the effect of each message type (its checks against the cryptography and the rules, what
it records and which stage follows) is one method registered for that type with `@_effect`, and how this peer
makes its own automatic entries is one method per type registered with `@_maker`.

With `identity=None` the machine is an *observer*: it holds no seat and no cards, and is what the offline
verifier replays a log through.
"""

from __future__ import annotations

import contextlib
import enum
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from p2pspades import crypto, log
from p2pspades.errors import LocalError, P2PSpadesError, RemoteError
from p2pspades.rules import (
    Action,
    Bid,
    BlindNil,
    Card,
    Deal,
    Draw,
    Game,
    IllegalAction,
    Phase,
    Play,
    Reveal,
    choose_first_dealer,
)
from p2pspades.table import messages as msg
from p2pspades.table.claims import Act, ClaimState, Signal, Slot, outcome
from p2pspades.table.deal import DealFault, HandDeal, check_scalar
from p2pspades.table.events import (
    Accepted,
    CardVerified,
    ChallengeRaised,
    Decision,
    DecisionKind,
    DropKind,
    Dropped,
    Event,
    FirstDealer,
    GameEnded,
    HandAudited,
    Noted,
    Outgoing,
    Rejected,
    SecretCreated,
    Superseded,
    TableStatus,
    Violation,
    Wanted,
)
from p2pspades.table.genesis import read_genesis

#: how far ahead of our head we buffer entries that arrived early
WINDOW = 256
DEFAULT_TIMEOUTS: Mapping[str, float] = {"auto": 60.0, "decision": 600.0}
DRAW_HAND = 0  # the "hand number" of the first-dealer draw secret
ANY_SEAT = -1  # a step any seat may take: leading the lowest club, which only its holder can open


class Stage(enum.Enum):
    """Where the protocol is: what the table waits for next."""

    ACCEPT = "accept"  # every seat accepts the genesis
    DRAW_COMMIT = "dcommit"  # the first-dealer draw: commitments, then reveals
    DRAW_REVEAL = "dreveal"
    COMMIT = "commit"  # a hand starts: every seat commits to its seed
    BLIND = "blind"  # eligible seats answer "blind nil?" before the deal
    SHUFFLE = "shuffle"  # every seat shuffles and encrypts the deck
    LOCK = "lock"  # every seat locks each position with its own key
    KEYS = "keys"  # seats publish the keys others need to open their cards
    DRAW = "draw"  # two players: the drawer keeps or discards the top card
    BID = "bid"
    PLAY = "play"
    LEAD = "lead"  # rule "low_club": whoever holds the lowest club leads it
    REVEAL = "reveal"  # every seat reveals its seed: the hand is audited
    END = "end"  # every seat signs the result
    OVER = "over"


class Who(enum.Enum):
    """Whose entry a stage takes."""

    IN_TURN = "each seat of the stage's order, one after the other"
    MOVER = "the seat whose move it is in the rules engine"
    ANY = "any seat (the only one able to make it)"
    NOBODY = "nobody"


@dataclass(frozen=True)
class Expect:
    """What a stage takes: message types (the first is the normal one), from whom, and our player's part."""

    types: tuple[type[msg.Message], ...]
    who: Who
    decision: DecisionKind | None = None


#: The one transition table. The order of an IN_TURN stage: ACCEPT (from seat 1: the genesis is seat 0's),
#: the draw and END from seat 0; COMMIT, SHUFFLE, LOCK and REVEAL from the dealer's left; KEYS the seats that
#: hold keys others need. An abandonment claim is not a stage: it is settled off the chain (`claims.py`).
TRANSITIONS: Mapping[Stage, Expect] = {
    Stage.ACCEPT: Expect((msg.Accept,), Who.IN_TURN),
    Stage.DRAW_COMMIT: Expect((msg.DrawCommit,), Who.IN_TURN),
    Stage.DRAW_REVEAL: Expect((msg.DrawReveal,), Who.IN_TURN),
    Stage.COMMIT: Expect((msg.Commit,), Who.IN_TURN),
    Stage.BLIND: Expect((msg.Blind, msg.Challenge), Who.MOVER, DecisionKind.BLIND_NIL),
    Stage.SHUFFLE: Expect((msg.Shuffle, msg.Challenge), Who.IN_TURN),
    Stage.LOCK: Expect((msg.Lock, msg.Challenge), Who.IN_TURN),
    Stage.KEYS: Expect((msg.Keys, msg.Challenge), Who.IN_TURN),
    Stage.DRAW: Expect((msg.Draw, msg.Challenge), Who.MOVER, DecisionKind.DRAW),
    Stage.BID: Expect((msg.Bid, msg.Challenge), Who.MOVER, DecisionKind.BID),
    Stage.PLAY: Expect((msg.Play, msg.Challenge), Who.MOVER, DecisionKind.PLAY),
    Stage.LEAD: Expect((msg.Play, msg.Challenge), Who.ANY, DecisionKind.PLAY),
    Stage.REVEAL: Expect((msg.Reveal,), Who.IN_TURN),
    Stage.END: Expect((msg.End,), Who.IN_TURN),
    Stage.OVER: Expect((), Who.NOBODY),
}

#: the stage of each phase in which the rules engine says whose move it is
_ENGINE_STAGES: Mapping[Phase, Stage] = {
    Phase.BLIND: Stage.BLIND,
    Phase.DRAW: Stage.DRAW,
    Phase.BID: Stage.BID,
    Phase.PLAY: Stage.PLAY,
}


@dataclass(frozen=True)
class Step:
    """Who may append the next entry, and of which types (the first is the normal one)."""

    seat: int
    types: tuple[type[msg.Message], ...]
    decision: DecisionKind | None = None


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


@contextlib.contextmanager
def _proof_of(seat: int) -> Iterator[None]:
    """A proof that does not verify is a violation by its sender, under the step's name (shuffle, lock,
    void)."""
    try:
        yield
    except crypto.BadProof as exc:
        raise RemoteError(exc.kind, f"bad {exc.kind} proof: {exc.detail}", seat) from None


#: One proof check of an entry: returns if the proof verifies, raises `crypto.BadProof` if it does not.
ProofCheck = Callable[[], None]
#: How a table runs its proof checks. The default, `check_now`, runs each one at once. The offline verifier
#: may hand them to other processes and settle their outcomes later (`audit/parallel.py`); the table stays
#: pure either way.
ProofRunner = Callable[[ProofCheck], None]


def check_now(check: ProofCheck) -> None:
    """Run a proof check at once: a proof that does not verify raises while its entry is applied."""
    check()


M = TypeVar("M", bound=msg.Message)
_Effect = Callable[["Table", Any, int, int], None]
_Maker = Callable[["Table"], "msg.Message | None"]
_EFFECTS: dict[type[msg.Message], _Effect] = {}
_MAKERS: dict[type[msg.Message], _Maker] = {}


def _effect(
    cls: type[M],
) -> Callable[[Callable[[Table, M, int, int], None]], Callable[[Table, M, int, int], None]]:
    """Register the method that applies a message of type `cls` (sent by `seat`, entry `seq`)."""

    def register(fn: Callable[[Table, M, int, int], None]) -> Callable[[Table, M, int, int], None]:
        _EFFECTS[cls] = fn
        return fn

    return register


def _maker(cls: type[msg.Message]) -> Callable[[_Maker], _Maker]:
    """Register the method that makes our own automatic entry of type `cls` (None: challenge instead)."""

    def register(fn: _Maker) -> _Maker:
        _MAKERS[cls] = fn
        return fn

    return register


class Table:
    """One peer's view of one game, as a state machine over the signed entries of its log."""

    def __init__(
        self,
        genesis: bytes,
        identity: crypto.Identity | None = None,
        *,
        entropy: Callable[[int], bytes] | None = None,
        secrets: Mapping[int, bytes] | None = None,
        entries: Iterable[bytes] = (),
        timeouts: Mapping[str, float] | None = None,
        now: float = 0.0,
        proofs: ProofRunner = check_now,
        checked: bool = False,
        syncing: bool = False,
    ) -> None:
        env, self.setup = read_genesis(genesis)
        self.rules = self.setup.rules
        #: the protocol version of the game (the genesis `v`): 2 proves every step of the deal live
        self.version = self.setup.version
        self.game_id = self.setup.game_id
        self.seats = self.rules.players
        self.public_keys = self.setup.keys
        self.identity = identity
        self.seat: int | None = None
        if identity is not None:
            if identity.public not in self.public_keys:
                raise LocalError("this identity holds no seat at that table")
            self.seat = self.public_keys.index(identity.public)
            if entropy is None:
                raise LocalError("a seated table needs an entropy source")
        self._entropy = entropy
        self._proofs = proofs
        #: the `entries` to restore were checked before, proofs included (our own chain, or our own log on
        #: resume): their proofs are not verified again; every later entry's are
        self._checked = checked
        self._secrets: dict[int, bytes] = dict(secrets or {})
        self.timeouts = dict(DEFAULT_TIMEOUTS, **(timeouts or {}))
        #: a resumed peer writes nothing (no entry, no vote) until it has heard every peer's head (`synced`)
        self.syncing = syncing

        self.entries: list[bytes] = [genesis]
        self._known: set[bytes] = {genesis}
        self._signers: list[int] = [0]
        self._steps: list[Step | None] = [None]  # the step each entry in the chain was appended at
        #: every frame we took, in order: the chain's entries and the claims' votes and refusals (the log)
        self.records: list[bytes] = [genesis]
        #: abandonment claims by slot (sequence number), and votes that came before their slot (§5)
        self._slots: dict[int, Slot] = {}
        self._early: dict[int, list[bytes]] = {}
        self.head: bytes = env.hash
        self._pending: dict[int, bytes] = {}
        self._outgoing: list[Outgoing] = []
        self._events: list[Event] = []
        self._last_progress = now
        self._now = now

        self.status = TableStatus.RUNNING
        self.violation: Violation | None = None
        #: how the game ended, once it has
        self.result: GameEnded | None = None
        #: the stage, and for an IN_TURN stage the seats in turn and how many have had theirs
        self.stage = Stage.ACCEPT
        self._order: tuple[int, ...] = tuple(range(self.seats))
        self._turn = 1  # the genesis is seat 0's acceptance
        self._draw_commits: dict[int, bytes] = {}
        self._draw_reveals: dict[int, bytes] = {}
        self.first_dealer: int | None = None
        self.game: Game | None = None
        self.deal: HandDeal | None = None
        self._draw_position = 0
        self._my: crypto.HandSecrets | None = None
        self._challenge_due: str | None = None
        self.abandoned_by: int | None = None
        #: the slot whose certificate ended the game
        self.certified: Slot | None = None
        #: rule "low_club": the claim that nobody led the lowest club in time (its holder is unknown)
        self.lead_claim: LeadClaim | None = None

        self._applying = b""  # the entry being applied
        self._restoring = True
        for i, raw in enumerate(entries):
            if i == 0 and raw == genesis:
                continue
            if not self._receive(raw, now) and not self.finished:
                why = "; ".join(str(e) for e in self._events if isinstance(e, Dropped | Rejected | Violation))
                raise LocalError(f"log entry {i} does not apply: {why or 'out of order'}")
        self._restoring = False
        self._advance()

    # ================================================================= public API
    @property
    def finished(self) -> bool:
        """Whether the game is over: no entry can be appended any more."""
        return self.stage is Stage.OVER

    def receive(self, raw: bytes, now: float = 0.0) -> list[Event]:
        """Take an entry from the network. Never raises on hostile input (LocalError: our own state)."""
        self._now = max(self._now, now)
        try:
            self._receive(raw, now)
            self._advance()
        except LocalError:
            raise
        except Exception as exc:  # pragma: no cover - every check is caught where it is made
            self._events.append(Dropped(DropKind.REFUSED, detail=f"{type(exc).__name__}: {exc}"))
        return self._flush()

    def pending_decision(self) -> Decision | None:
        """Our player's turn, if it is one: what to decide, the seat's view, the legal choices."""
        step = self._my_step(deciding=True)
        if (
            self.syncing
            or step is None
            or step.decision is None
            or self._challenge_due
            or self.game is None
            or self.seat is None
        ):
            return None
        if step.seat == ANY_SEAT:
            low = self.rules.low_club
            view = self.game.view(self.seat)
            if low is None or low not in view.hand:
                return None
            return Decision(step.decision, view, (Play(low),))
        if step.seat != self.seat:
            return None
        return Decision(step.decision, self.game.view(step.seat), tuple(self.game.legal_actions()))

    def decide(self, action: Action) -> list[Event]:
        """Our player's choice. Raises LocalError if it is not our turn or not a legal choice."""
        decision = self.pending_decision()
        if decision is None:
            raise LocalError("it is not our turn to decide anything")
        if action not in decision.legal:
            raise IllegalAction(f"{action} is not legal now")
        if isinstance(action, BlindNil):
            self._send(msg.Blind(action.declare))
        elif isinstance(action, Bid):
            self._send(msg.Bid(action.tricks))
        elif isinstance(action, Draw):
            self._send(msg.Draw(action.keep))
        elif isinstance(action, Play):
            self._send(self._make_play(action.card))
        else:  # pragma: no cover - legal actions of a decision are never chance steps
            raise LocalError(f"{action} is not a player's decision")
        self._advance()
        return self._flush()

    def tick(self, now: float) -> list[Event]:
        """Let time pass: once the seat the table waits for has kept us waiting past the timeout in force,
        we vote that it stopped answering (§5); rule "low_club": nobody leads the low club: we challenge."""
        self._now = max(self._now, now)
        step = self._expected()
        if self.finished or self.syncing or self.seat is None or step is None:
            pass
        elif self.stage is Stage.LEAD and self.deal is not None:
            # nobody leads the lowest club: its holder will be named by a reveal. The seat at the dealer's
            # left asks for it after one timeout, the next one after two, and so on
            limit = self.timeouts["decision"]
            k = 1 + (self.seat - self.deal.order[0]) % self.seats
            if self.pending_decision() is None and now - self._last_progress >= limit * k:
                why = f"nobody led the lowest club within {limit:.0f} s"
                self._send(msg.Challenge(len(self.entries) - 1, why))
        elif step.seat not in (self.seat, ANY_SEAT) and now - self._last_progress >= self._limit(step):
            slot = self._slot_now(step)
            if slot.state in (ClaimState.QUIET, ClaimState.OPEN):
                self._vote(slot)
        self._advance()
        return self._flush()

    def synced(self) -> list[Event]:
        """A resumed peer has every peer's head (or waited long enough for it): it may write again."""
        self.syncing = False
        self._last_progress = self._now  # our timers start now, as on any start
        self._advance()
        return self._flush()

    def _limit(self, step: Step) -> float:
        return self.timeouts["decision" if step.decision else "auto"]

    @property
    def claim(self) -> Slot | None:
        """The abandonment claim on the slot the table waits for (or the one whose certificate ended the
        game), if any seat has voted on it."""
        if self.certified is not None:
            return self.certified
        slot = self._slots.get(len(self.entries))
        return slot if slot is not None and slot.prev == self.head and slot.votes else None

    def claim_notes(self) -> list[bytes]:
        """The signed votes and refusals of the open claim: what a peer that comes back needs to see."""
        slot = self.claim
        return [] if slot is None or self.finished else slot.notes()

    def take_outgoing(self) -> list[Outgoing]:
        out, self._outgoing = self._outgoing, []
        return out

    def waiting_for(self) -> tuple[int, str] | None:
        """Whose entry the table is waiting for, and of what type."""
        step = self._expected()
        return None if step is None else (step.seat, step.types[0].TYPE)

    @property
    def hand_number(self) -> int:
        return 0 if self.game is None else self.game.hand_number

    # ================================================================= receiving
    def _flush(self) -> list[Event]:
        out, self._events = self._events, []
        return out

    def _receive(self, raw: bytes, now: float) -> bool:
        """Check one frame and take it if it holds: True if it is now ours (on the chain, a claim's vote or
        refusal, an entry held for a claim, or a copy we hold already)."""
        if raw in self._known:
            return True  # a copy we already hold (peers forward every entry): nothing to check twice
        if len(raw) > log.MAX_ENVELOPE:
            self._events.append(Dropped(DropKind.OVERSIZED, size=len(raw)))
            return False
        try:
            env = log.open_envelope(raw)
            header = log.validate_header(env.payload)
        except RemoteError as exc:
            self._events.append(Dropped(DropKind.MALFORMED, detail=exc.detail))
            return False
        seat, seq = header.seat, header.seq
        if header.game_id != self.game_id:
            self._events.append(Dropped(DropKind.OTHER_GAME, seat, seq))
            return False
        if not 0 <= seat < self.seats:
            self._events.append(Dropped(DropKind.NO_SUCH_SEAT, seat, seq))
            return False
        if header.type == msg.Certificate.TYPE:
            return self._receive_certificate(env, header, now)
        if not crypto.verify_signature(self.public_keys[seat], env.signature, env.payload_raw):
            self._events.append(Dropped(DropKind.BAD_SIGNATURE, seat, seq))
            return False
        if header.type in (msg.Abandon.TYPE, msg.Answered.TYPE):
            return self._receive_note(env, header, now)
        if seq < len(self.entries):
            if self._signers[seq] == seat and (self.certified is None or self.certified.seq != seq):
                detail = f"two different entries signed by seat {seat} for sequence number {seq}"
                self._halt(Violation(seat, "equivocation", detail, seq, (self.entries[seq], raw)))
            else:
                self._events.append(Dropped(DropKind.STALE, seat, seq))
            return False
        if self.finished:
            self._events.append(Dropped(DropKind.GAME_OVER, seat, seq))
            return False
        if seq > len(self.entries):
            if seq - len(self.entries) <= WINDOW and len(self._pending) < WINDOW:
                self._pending.setdefault(seq, raw)
                self._events.append(Wanted(len(self.entries)))
            else:
                self._events.append(Dropped(DropKind.TOO_FAR_AHEAD, seat, seq))
            return False
        if header.prev != self.head:
            self._events.append(Dropped(DropKind.NOT_CHAINED, seat, seq))
            self._events.append(Wanted(seq - 1))
            return False
        slot = self._slots.get(seq)
        if slot is not None and (slot.prev != header.prev or seat != slot.accused):
            slot = None
        if slot is not None and slot.state is ClaimState.VOTED:
            slot.fire(Signal.ANSWER)
            return self._hold(slot, env.hash, raw)  # we voted: only a refusal releases it (§5)
        if not self._accept(env, header, raw, now, own=False):
            return False
        if slot is not None and not self.finished and slot.fire(Signal.ANSWER) is Act.TAKE_AND_REFUSE:
            self._refuse(slot, env.hash)
        self._after_append(now)
        return True

    def _after_append(self, now: float) -> None:
        """The chain grew: take what was waiting for it (entries that came early, votes for the new slot)."""
        nxt = self._pending.pop(len(self.entries), None)
        if nxt is not None and not self.finished:
            self._receive(nxt, now)
        for raw in self._early.pop(len(self.entries), []):
            if not self.finished:
                self._receive(raw, now)

    def _accept(self, env: log.Envelope, header: log.Header, raw: bytes, now: float, own: bool) -> bool:
        """Check an entry in turn and apply it; append it to the chain if it holds, else name its seat."""
        seat, kind, seq, p = header.seat, header.type, header.seq, env.payload
        step = self._expected()
        allowed = step is not None and step.seat in (seat, ANY_SEAT) and kind in {t.TYPE for t in step.types}
        lead = self._open_lead_claim()
        answer = lead is not None and kind in {t.TYPE for t in lead.step.types}
        if answer:  # the lowest club led after all: it applies where it was due
            self._to_engine()
            allowed = True
        if not allowed:
            want = "nothing" if step is None else f"seat {step.seat}'s {step.types[0].TYPE}"
            self._events.append(
                Rejected(seat, "turn", f"entry {seq} from seat {seat} is a {kind}; expected {want}", raw)
            )
            return False
        mark = len(self._events)
        self._applying = raw
        try:
            m = msg.decode(p, seat, self.version)
            if header.hand != self.hand_number:
                raise RemoteError(
                    "header", f"hand number {header.hand}, the game is in hand {self.hand_number}", seat
                )
            _EFFECTS[next(c for c in type(m).__mro__ if c in _EFFECTS)](self, m, seat, seq)
        except RemoteError as exc:
            del self._events[mark:]
            self._halt(Violation(seat, exc.check, exc.detail, seq, (raw,)))
            return False
        except IllegalAction as exc:
            del self._events[mark:]
            self._halt(Violation(seat, "rules", str(exc), seq, (raw,)))
            return False
        except LocalError:
            raise
        except Exception as exc:  # pragma: no cover - a check this machine lacks: the entry is still refused
            del self._events[mark:]
            self._halt(
                Violation(
                    seat, "protocol", f"the entry cannot be applied ({type(exc).__name__})", seq, (raw,)
                )
            )
            return False
        self._append(raw, env.hash, seat, step, now)
        self._events.insert(mark, Accepted(seq, raw, seat, kind, own))
        if answer and lead is not None and not self.finished:
            lead.answered = seq
            why = f"seat {lead.signer} claimed that nobody led the lowest club in time, but seat {seat}"
            why += f" led it in time (entry {seq})"
            evidence = (self.entries[lead.entry], raw)
            self._halt(Violation(lead.signer, "challenge", why, lead.entry, evidence))
        return True

    def _append(self, raw: bytes, digest: bytes, seat: int, step: Step | None, now: float) -> None:
        self.entries.append(raw)
        self.records.append(raw)
        self._known.add(raw)
        self._signers.append(seat)
        self._steps.append(step)
        self.head = digest
        self._last_progress = now

    def _halt(self, violation: Violation) -> None:
        self.violation = violation
        self.stage = Stage.OVER
        self._events.append(violation)
        self._end(
            TableStatus.VIOLATION,
            f"seat {violation.seat} failed the {violation.check} check: {violation.detail}",
            violation.seat,
        )

    def _end(self, status: TableStatus, detail: str, fault: int | None = None) -> None:
        """The game is over; after a fault by seat `fault`, its side forfeits unless the rules say void."""
        winners: tuple[int, ...] = ()
        forfeit = fault is not None and self.rules.on_fault == "forfeit"
        if status is TableStatus.COMPLETE:
            assert self.game is not None and self.game.outcome is not None
            winners = tuple(self.game.outcome.winners)
        elif forfeit and fault is not None:
            winners = self._ranked_without(self.rules.side_of(fault))
        self.status = status
        self.result = GameEnded(status, winners, detail, fault, forfeit)
        self._events.append(self.result)

    def _ranked_without(self, loser: int) -> tuple[int, ...]:
        """The sides with the best total once side `loser` forfeited (all of them on equal totals)."""
        g = self.game
        sides = range(len(self.rules.sides))
        totals = [0 for _ in sides] if g is None else [t.score for t in g.totals]
        top = max(totals[side] for side in sides if side != loser)
        return tuple(side for side in sides if side != loser and totals[side] == top)

    # ================================================================= whose turn
    def _expected(self) -> Step | None:
        expect = TRANSITIONS[self.stage]
        if expect.who is Who.NOBODY:
            return None
        if expect.who is Who.IN_TURN:
            seat = self._order[self._turn]
        elif expect.who is Who.ANY:
            seat = ANY_SEAT
        else:
            assert self.game is not None and self.game.current_seat is not None
            seat = self.game.current_seat
        return Step(seat, expect.types, expect.decision)

    def _enter(self, stage: Stage, order: Iterable[int] = (), turn: int = 0) -> None:
        """Move to `stage`; for an IN_TURN stage, the seats in turn and how many have already had theirs."""
        self.stage = stage
        self._order = tuple(order)
        self._turn = turn

    def _next_turn(self) -> bool:
        """The seat in turn had its entry: whether that was the last of the stage."""
        self._turn += 1
        return self._turn >= len(self._order)

    def _to_engine(self) -> None:
        """The rules engine says whose move it is: the stage of its phase."""
        g = self.game
        assert g is not None
        stage = _ENGINE_STAGES[g.phase]
        first_lead = self.rules.first_leader == "low_club" and self.deal is not None and not self.deal.played
        if stage is Stage.PLAY and (g.current_seat is None or first_lead):
            stage = Stage.LEAD  # rule "low_club": only the seat holding the lowest club knows it leads
        self._enter(stage)

    def _check_proof(self, check: ProofCheck) -> None:
        """Run one proof check of the entry being applied, unless it is a restored entry checked before."""
        if not (self._restoring and self._checked):
            self._proofs(check)


    # ================================================================= abandonment claims (§5, claims.py)
    def _slot_now(self, step: Step) -> Slot:
        """The claim on the slot the table waits for now (a new one if nobody voted on it yet)."""
        seq = len(self.entries)
        slot = self._slots.get(seq)
        if slot is None or slot.prev != self.head:
            wait = round(self._limit(step))
            slot = Slot(seq, self.head, step.seat, self.hand_number, wait, step.types[0].TYPE)
            self._slots[seq] = slot
            for old in [k for k in self._slots if k < seq - WINDOW]:
                del self._slots[old]
        return slot

    def _slot_past(self, seq: int, prev: bytes) -> Slot | None:
        """The claim on slot `seq` that our chain has passed already: its entry is on our chain, made by the
        seat awaited there. None if that slot is not on our chain after `prev`, or holds a certificate."""
        if not 0 < seq < len(self.entries) or log.entry_hash(self.entries[seq - 1]) != prev:
            return None
        if self.certified is not None and self.certified.seq == seq:
            return None
        step = self._steps[seq]
        if step is None or step.seat != self._signers[seq]:
            return None
        slot = self._slots.get(seq)
        if slot is None or slot.prev != prev:
            hand = log.validate_header(log.open_envelope(self.entries[seq]).payload).hand
            wait, awaited = round(self._limit(step)), step.types[0].TYPE
            slot = Slot(seq, prev, step.seat, hand, wait, awaited, ClaimState.ANSWERED)
            self._slots[seq] = slot
        return slot

    def _receive_note(self, env: log.Envelope, header: log.Header, now: float) -> bool:
        """A vote or a refusal, signed by its seat, off the chain: check it against its slot and take it."""
        seat, seq, raw = header.seat, header.seq, env.raw
        # a game that ended complete may still end by certificate: the last `end` was ours, made in time for
        # nobody else (a certificate beats any entry of the accused for its slot, §5.3)
        over = self.finished and not (self.status is TableStatus.COMPLETE and seq < len(self.entries))
        if over:
            self._events.append(Dropped(DropKind.GAME_OVER, seat, seq))
            return False
        if seq > len(self.entries):  # a slot we have not reached yet: kept until we do
            early = self._early.setdefault(seq, [])
            if seq - len(self.entries) <= WINDOW and sum(map(len, self._early.values())) < WINDOW:
                early.append(raw)
                self._events.append(Wanted(len(self.entries)))
                return True
            self._events.append(Dropped(DropKind.TOO_FAR_AHEAD, seat, seq))
            return False
        step = self._expected()
        if seq == len(self.entries) and header.prev == self.head and step is not None:
            slot: Slot | None = self._slot_now(step) if step.seat != ANY_SEAT else None
        else:
            slot = self._slot_past(seq, header.prev)
        if slot is None:
            self._events.append(Dropped(DropKind.STALE, seat, seq))
            return False
        try:
            m = msg.decode(env.payload, seat, self.version)
            assert isinstance(m, msg.Abandon | msg.Answered)
            if m.seat != slot.accused or seat == slot.accused:
                raise RemoteError(
                    "abandon", f"names seat {m.seat}, but slot {seq} waits for seat {slot.accused}", seat
                )
            if header.hand != slot.hand:
                why = f"hand number {header.hand}, slot {seq} is in hand {slot.hand}"
                raise RemoteError("header", why, seat)
        except RemoteError as exc:
            self._events.append(Rejected(seat, exc.check, exc.detail, raw))
            return False
        if isinstance(m, msg.Abandon):
            return self._take_vote(slot, seat, raw, m.wait, now)
        return self._take_refusal(slot, seat, raw, m.entry, now)

    def _twice(self, slot: Slot, seat: int, raw: bytes) -> bool:
        """Whether `seat` already signed another vote or refusal for `slot`: equivocation, which halts."""
        signed = [v for s, v in slot.votes.items() if s == seat]
        signed += [r for s, (r, _) in slot.refusals.items() if s == seat]
        other = next((r for r in signed if r != raw), None)
        if other is None:
            return False
        detail = f"seat {seat} signed a vote and a refusal (or two of either) for slot {slot.seq}"
        self._halt(Violation(seat, "equivocation", detail, slot.seq, (other, raw)))
        return True

    def _note(self, slot: Slot, seat: int, raw: bytes, kind: str, own: bool) -> None:
        self._known.add(raw)
        self.records.append(raw)
        self._events.append(Noted(slot.seq, raw, seat, kind, own))

    def _take_vote(self, slot: Slot, seat: int, raw: bytes, wait: int, now: float) -> bool:
        if self._twice(slot, seat, raw):
            return False
        slot.votes[seat] = raw
        slot.waits[seat] = wait
        self._note(slot, seat, raw, msg.Abandon.TYPE, own=False)
        # our own vote, restored from our log on resume, locks us out of the answer as it did before
        if slot.fire(Signal.OWN_VOTE if seat == self.seat else Signal.VOTE) is Act.REFUSE:
            self._refuse(slot, log.entry_hash(self.entries[slot.seq]))
        if slot.complete(self.seats) and slot.fire(Signal.COMPLETE) is Act.CERTIFY:
            self._certify(slot, now)
        return True

    def _take_refusal(self, slot: Slot, seat: int, raw: bytes, taken: bytes, now: float) -> bool:
        if self._twice(slot, seat, raw):
            return False
        slot.refusals[seat] = (raw, taken)
        self._note(slot, seat, raw, msg.Answered.TYPE, own=False)
        if slot.fire(Signal.REFUSAL) is Act.RELEASE:
            held = slot.held.pop(taken, None)
            if held is not None:
                self._known.discard(held)
                self._receive(held, now)
        return True

    def _hold(self, slot: Slot, digest: bytes, raw: bytes) -> bool:
        """We voted on this slot: keep the accused's entry off the chain; a refusal may release it."""
        other = next((r for h, r in slot.held.items() if h != digest), None)
        if other is not None:
            detail = f"two different entries signed by seat {slot.accused} for sequence number {slot.seq}"
            self._halt(Violation(slot.accused, "equivocation", detail, slot.seq, (other, raw)))
            return False
        trial = self._trial(raw)
        if trial is not None:  # it breaks the rules: a violation by its signer, whatever the claim says
            self._halt(trial)
            return False
        slot.held[digest] = raw
        self._known.add(raw)
        return True

    def _trial(self, raw: bytes) -> Violation | None:
        """The violation that `raw` earns as our next entry, checked by an observer of our chain (its proofs
        were checked already) exactly as every peer that took it did; None if it would be accepted."""
        try:
            observer = Table(self.entries[0], entries=self.entries, timeouts=self.timeouts, checked=True)
        except P2PSpadesError:
            return None
        observer.receive(raw)
        return observer.violation

    def _vote(self, slot: Slot) -> None:
        """Our own timer for the slot ran out: sign our vote against the seat the table waits for."""
        assert self.seat is not None
        raw = self._seal(msg.Abandon(slot.accused, slot.wait), slot.seq, slot.prev, slot.hand)
        slot.votes[self.seat] = raw
        slot.waits[self.seat] = slot.wait
        slot.fire(Signal.OWN_VOTE)
        self._note(slot, self.seat, raw, msg.Abandon.TYPE, own=True)
        self._outgoing.append(Outgoing(slot.seq, raw))
        if slot.complete(self.seats) and slot.fire(Signal.COMPLETE) is Act.CERTIFY:
            self._certify(slot, self._now)

    def _refuse(self, slot: Slot, taken: bytes) -> None:
        """We took the accused's entry before any vote of ours, and votes are out: say so, once."""
        if self.seat is None or self.seat == slot.accused or slot.refused or self.seat in slot.votes:
            return
        if self._restoring:
            return  # our refusal, if we sent one, is in the log after this
        raw = self._seal(msg.Answered(slot.accused, taken), slot.seq, slot.prev, slot.hand)
        slot.refused = True
        slot.refusals[self.seat] = (raw, taken)
        self._note(slot, self.seat, raw, msg.Answered.TYPE, own=True)
        self._outgoing.append(Outgoing(slot.seq, raw))

    def _receive_certificate(self, env: log.Envelope, header: log.Header, now: float) -> bool:
        """A certificate from a peer: a bundle of votes. We take each vote; once they make the certificate,
        we put it on the chain (the same bytes: it is canonical). Nobody signs the bundle itself."""
        seat, seq = header.seat, header.seq
        if env.signature != log.NO_SIGNATURE:
            self._events.append(Dropped(DropKind.BAD_SIGNATURE, seat, seq))
            return False
        try:
            cert = msg.decode(env.payload, None, self.version)
            assert isinstance(cert, msg.Certificate)
        except RemoteError as exc:
            self._events.append(Dropped(DropKind.MALFORMED, seat, seq, detail=exc.detail))
            return False
        if seq > len(self.entries):
            if seq - len(self.entries) <= WINDOW and len(self._pending) < WINDOW:
                self._pending.setdefault(seq, env.raw)
                self._events.append(Wanted(len(self.entries)))
                return True
            self._events.append(Dropped(DropKind.TOO_FAR_AHEAD, seat, seq))
            return False
        for vote in cert.votes:
            try:
                inner = log.validate_header(log.open_envelope(vote).payload)
            except RemoteError as exc:
                self._events.append(Dropped(DropKind.MALFORMED, seat, seq, detail=f"a vote: {exc.detail}"))
                return False
            if (inner.type, inner.seq, inner.prev) != (msg.Abandon.TYPE, seq, header.prev):
                self._events.append(Dropped(DropKind.REFUSED, seat, seq, detail="a vote of another slot"))
                return False
            self._receive(vote, now)
            if self.finished:
                break
        if self.certified is not None and self.certified.seq == seq and self.entries[seq] == env.raw:
            return True
        if not self.finished:
            detail = f"a certificate for slot {seq} whose votes do not all hold"
            self._events.append(Dropped(DropKind.REFUSED, seat, seq, detail=detail))
        return False

    def _certify(self, slot: Slot, now: float) -> None:
        """Every seat but the accused voted: the certificate goes on the chain at the slot and ends the game.
        Whatever our chain held from that slot on (the accused's own answer, on its table) is cut back."""
        payload = {
            "g": self.game_id,
            "n": slot.seq,
            "p": slot.prev,
            "s": slot.accused,
            "h": slot.hand,
            **msg.Certificate(tuple(raw for _, raw in sorted(slot.votes.items()))).to_fields(),
        }
        raw = log.seal(payload, log.UNSIGNED)
        if slot.seq < len(self.entries):
            superseded = tuple(self.entries[slot.seq :])
            self._rewind(slot.seq)
            self._events.append(Superseded(slot.seq, superseded))
        step = self._expected()
        self._append(raw, log.entry_hash(raw), slot.accused, step, now)
        self._events.append(Accepted(slot.seq, raw, slot.accused, msg.Certificate.TYPE, False))
        self.certified, self.abandoned_by = slot, slot.accused
        self._enter(Stage.OVER)
        totals = [0 for _ in self.rules.sides] if self.game is None else [t.score for t in self.game.totals]
        result = outcome(self.rules, slot.accused, slot.voters, totals)
        self.status = TableStatus.ABANDONED
        detail = f"seat {slot.accused} stopped answering"
        waits = tuple(slot.waits[v] for v in slot.voters)
        self.result = GameEnded(
            TableStatus.ABANDONED, result.winners, detail, slot.accused, result.forfeit, result.contested,
            slot.voters, waits,
        )
        self._events.append(self.result)

    def _rewind(self, seq: int) -> None:
        """Cut our chain back to its first `seq` entries, rebuilt as on a resume (a certificate took slot
        `seq`). What we keep of our own: the records, the claims, the events still to report."""
        fresh = Table(
            self.entries[0], self.identity, entropy=self._entropy, secrets=self._secrets,
            entries=self.entries[:seq], timeouts=self.timeouts, now=self._now, proofs=self._proofs,
            checked=True, syncing=True,
        )
        keep = {"records", "_slots", "_early", "_events", "_outgoing", "_known", "syncing", "_now"}
        for name, value in vars(fresh).items():
            if name not in keep:
                setattr(self, name, value)

    def _open_lead_claim(self) -> LeadClaim | None:
        """Rule "low_club": the challenge that nobody led the lowest club, until every reveal is in."""
        if self.stage is Stage.REVEAL and self.lead_claim is not None:
            return self.lead_claim
        return None

    # ================================================================= the effect of each message
    @_effect(msg.Accept)
    def _on_accept(self, m: msg.Accept, seat: int, seq: int) -> None:
        if self._next_turn():
            self._enter(Stage.DRAW_COMMIT, range(self.seats))

    @_effect(msg.DrawCommit)
    def _on_draw_commit(self, m: msg.DrawCommit, seat: int, seq: int) -> None:
        if seat == self.seat:
            r = self._secrets.get(DRAW_HAND)
            if r is None or crypto.draw_commitment(self.game_id, seat, r) != m.commitment:
                raise LocalError("the secret of the first-dealer draw is lost; this peer cannot go on")
        self._draw_commits[seat] = m.commitment
        if self._next_turn():
            self._enter(Stage.DRAW_REVEAL, range(self.seats))

    @_effect(msg.DrawReveal)
    def _on_draw_reveal(self, m: msg.DrawReveal, seat: int, seq: int) -> None:
        if crypto.draw_commitment(self.game_id, seat, m.seed) != self._draw_commits[seat]:
            raise RemoteError("reveal", "the draw reveal does not match its commitment", seat)
        self._draw_reveals[seat] = m.seed
        if self._next_turn():
            n = self.seats
            randomness = crypto.draw_randomness(self.game_id, [self._draw_reveals[s] for s in range(n)])
            self.first_dealer = choose_first_dealer(self.rules, randomness).dealer
            self.game = Game(self.rules, self.first_dealer)
            self._events.append(FirstDealer(self.first_dealer))
            self._start_hand()

    @_effect(msg.Commit)
    def _on_commit(self, m: msg.Commit, seat: int, seq: int) -> None:
        g, d = self._hand()
        if seat == self.seat:
            seed = self._secrets.get(g.hand_number)
            if seed is None or crypto.commitment(d.context(seat), seed) != m.commitment:
                raise LocalError(f"the secret of hand {g.hand_number} is lost; this peer cannot go on")
            self._my = crypto.HandSecrets.derive(seed, d.context(seat), d.n)
        if isinstance(m, msg.CommitV2):
            try:
                d.shuffle_commits[seat] = crypto.check_point(m.shuffle_commitment)
            except RemoteError as exc:
                raise RemoteError("commit", f"S is not a valid point: {exc.detail}", seat) from None
        d.commits[seat] = m.commitment
        if self._next_turn():
            if g.phase is Phase.BLIND:
                self._to_engine()
            else:
                self._enter(Stage.SHUFFLE, d.order)

    @_effect(msg.Blind)
    def _on_blind(self, m: msg.Blind, seat: int, seq: int) -> None:
        g, d = self._hand()
        g.apply(BlindNil(m.declare))
        if g.phase is Phase.BLIND:
            self._to_engine()
        else:
            self._enter(Stage.SHUFFLE, d.order)

    @_effect(msg.Shuffle)
    def _on_shuffle(self, m: msg.Shuffle, seat: int, seq: int) -> None:
        _, d = self._hand()
        d.check_deck(seat, m.deck, m.TYPE)
        if isinstance(m, msg.ShuffleV2) and seat != self.seat:
            step = crypto.shuffle_step(len(d.shuffles))
            check = functools.partial(
                crypto.verify_shuffle,
                d.context(seat),
                step,
                tuple(d.shuffle_input()),
                tuple(m.deck),
                d.shuffle_commits[seat],
                m.proof,
            )
            with _proof_of(seat):
                self._check_proof(check)
        d.shuffles.append((seat, list(m.deck)))
        d.shuffle_entries.append(seq)
        if self._next_turn():
            self._enter(Stage.LOCK, d.order)

    @_effect(msg.Lock)
    def _on_lock(self, m: msg.Lock, seat: int, seq: int) -> None:
        g, d = self._hand()
        d.check_deck(seat, m.deck, m.TYPE)
        if isinstance(m, msg.LockV2):
            if seat != self.seat:
                step = crypto.lock_step(self.seats, len(d.locks))
                check = functools.partial(
                    crypto.verify_lock,
                    d.context(seat), step, tuple(d.lock_input()), tuple(m.deck), d.shuffle_commits[seat],
                    tuple(m.commitments), m.proof,
                )
                with _proof_of(seat):
                    self._check_proof(check)
            d.key_commits[seat] = m.commitments
        d.locks.append((seat, list(m.deck)))
        d.lock_entries.append(seq)
        if not self._next_turn():
            return
        if self.rules.deal == "all":
            self._enter(Stage.KEYS, d.order)
        else:
            g.apply(Deal(tuple(() for _ in range(self.seats)), tuple(None for _ in range(d.n))))
            self._next_draw()

    @_effect(msg.Keys)
    def _on_keys(self, m: msg.Keys, seat: int, seq: int) -> None:
        g, d = self._hand()
        expected = d.keys_due(seat) if self.rules.deal == "all" else [self._draw_position]
        d.add_keys(seat, m.positions, m.keys, expected)
        if self.version >= 2 and seat != self.seat:
            d.check_keys(seat, m.positions, m.keys)
        d.key_entries.update(((j, seat), seq) for j in m.positions)
        if not self._next_turn():
            return
        if self.rules.deal == "all":
            self._deal_all(g, d)
            return
        position = self._draw_position
        self._learn_draw(g, d, position)
        if position % 2 == 1:  # the second card of a discard: the drawer took it, the next draw begins
            self._draw_position += 1
            self._next_draw()
        else:  # the top card: its drawer decides
            self._to_engine()

    @_effect(msg.Draw)
    def _on_draw(self, m: msg.Draw, seat: int, seq: int) -> None:
        g, d = self._hand()
        g.apply(Draw(m.keep))
        d.owner[self._draw_position if m.keep else self._draw_position + 1] = seat
        if m.keep:
            self._draw_position += 2
            self._next_draw()
        else:
            self._draw_position += 1
            self._enter(Stage.KEYS, [s for s in d.order if s != seat])

    @_effect(msg.Bid)
    def _on_bid(self, m: msg.Bid, seat: int, seq: int) -> None:
        g, _ = self._hand()
        g.apply(Bid(m.tricks))
        self._to_engine()

    @_effect(msg.Play)
    def _on_play(self, m: msg.Play, seat: int, seq: int) -> None:
        g, d = self._hand()
        j = m.position
        if not 0 <= j < d.n or d.owner[j] != seat:
            raise RemoteError("ownership", f"position {j} is not one of seat {seat}'s cards", seat)
        if j in d.played:
            raise RemoteError("replay", f"position {j} was already played", seat)
        check_scalar(seat, m.key)
        if self.version >= 2 and seat != self.seat:
            d.check_keys(seat, [j], [m.key])
        card = d.open_position(j, {seat: m.key})
        if card is None:
            raise RemoteError("forged card", f"the key for position {j} does not open a card", seat)
        if isinstance(m, msg.PlayV2):
            self._check_void(g, d, m, seat, card)
        try:
            g.apply(Play(card), seat)
        except IllegalAction:
            if self.seat is None or seat == self.seat:
                raise
            public = g.public_clone()  # the engine as every other peer holds it: no hidden card known
            public.apply(Play(card), seat)  # refused there too: the rules refuse it, for everyone
            # only what we alone know refuses it (say, one of our cards): go on with the public record as
            # every other peer does, and challenge at our next turn, so that the reveal names the culprit
            g = self.game = public
            self._challenge_due = f"seat {seat} played {card.code}, which my own cards say it cannot hold"
        d.keys[j][seat] = m.key
        d.key_entries[(j, seat)] = seq
        d.played.add(j)
        d.opened[j] = card
        self._events.append(CardVerified(seat, card))
        if g.phase is Phase.REVEAL:
            self._enter(Stage.REVEAL, d.order)
        else:
            self._to_engine()

    @_effect(msg.Challenge)
    def _on_challenge(self, m: msg.Challenge, seat: int, seq: int) -> None:
        _, d = self._hand()
        if not 0 <= m.entry < seq:
            raise RemoteError("challenge", f"challenges entry {m.entry}, which is not an earlier entry", seat)
        if self.stage is Stage.LEAD:  # nobody led the lowest club: the reveal will name its holder
            step = Step(ANY_SEAT, (msg.Play,), DecisionKind.PLAY)
            limit = self.timeouts["decision"]
            self.lead_claim = LeadClaim(step, seq, self._last_progress, limit, seat)
        d.challenge = (seat, seq, m.why)  # `e` is informative: the audit covers the whole hand
        self._events.append(ChallengeRaised(seat, m.why))
        self._enter(Stage.REVEAL, d.order)

    @_effect(msg.Reveal)
    def _on_reveal(self, m: msg.Reveal, seat: int, seq: int) -> None:
        g, d = self._hand()
        if crypto.commitment(d.context(seat), m.seed) != d.commits[seat]:
            raise RemoteError("reveal", "the revealed seed does not match the commitment", seat)
        d.seeds[seat] = m.seed
        if self._next_turn():
            self._audit_hand(g, d, seq)

    @_effect(msg.End)
    def _on_end(self, m: msg.End, seat: int, seq: int) -> None:
        g = self.game
        assert g is not None and g.outcome is not None
        winners, totals = list(g.outcome.winners), [t.score for t in g.totals]
        if list(m.winners) != winners or list(m.totals) != totals:
            claimed = f"claims winners {list(m.winners)} totals {list(m.totals)}"
            raise RemoteError("end", f"{claimed}; the game gave {winners} {totals}", seat)
        if self._next_turn():
            self._enter(Stage.OVER)
            self._end(TableStatus.COMPLETE, "")

    # ================================================================= the hand
    def _hand(self) -> tuple[Game, HandDeal]:
        g, d = self.game, self.deal
        assert g is not None and d is not None
        return g, d

    def _start_hand(self) -> None:
        g = self.game
        assert g is not None
        self.deal = HandDeal(self.rules, self.game_id, g.hand_number, g.dealer)
        self._enter(Stage.COMMIT, self.deal.order)
        self._draw_position = 0
        self._my = None
        self._challenge_due = None

    def _deal_all(self, g: Game, d: HandDeal) -> None:
        """Every deal key is out: open our own cards and let the engine deal (others' cards unknown)."""
        hands: list[tuple[Card | None, ...]] = []
        for seat in range(self.seats):
            positions = d.positions_of(seat)
            if seat == self.seat:
                assert self._my is not None
                try:
                    mine = d.open_own(seat, self._my, positions)
                except RemoteError:  # an invalid point at one of our positions: a lock was poisoned
                    mine = None
                if mine is None:
                    self._challenge_due = "some of my cards do not open: a lock or a deal key is wrong"
                    hands.append(tuple(None for _ in positions))
                else:
                    hands.append(tuple(mine[j] for j in positions))
            else:
                hands.append(tuple(None for _ in positions))
        g.apply(Deal(tuple(hands)))
        self._to_engine()

    def _next_draw(self) -> None:
        """Draw pile: the next drawer needs the top card, so the other seats publish its keys."""
        g, d = self._hand()
        if g.phase is not Phase.DRAW:
            self._to_engine()
            return
        drawer = g.current_seat
        self._enter(Stage.KEYS, [s for s in d.order if s != drawer])

    def _learn_draw(self, g: Game, d: HandDeal, position: int) -> None:
        """All other keys for a stock position are out: its drawer opens it."""
        drawer = g.current_seat if position % 2 == 0 else d.owner[position]
        if drawer is not None and drawer == self.seat:
            assert self._my is not None
            try:
                opened = d.open_own(drawer, self._my, [position])
            except RemoteError:  # an invalid point in the stock: a lock was poisoned
                opened = None
            if opened is None:
                self._challenge_due = f"stock card {position} does not open: a lock or a key is wrong"
            else:
                g.learn(position, opened[position])

    def _fault_violation(self, fault: DealFault, fallback: int) -> Violation:
        """The audit's verdict: at the offending entry, with that entry as evidence."""
        if fault.entry is None:
            return Violation(fault.seat, fault.check, fault.detail, fallback)
        return Violation(fault.seat, fault.check, fault.detail, fault.entry, (self.entries[fault.entry],))

    def _check_void(self, g: Game, d: HandDeal, m: msg.PlayV2, seat: int, card: Card) -> None:
        """Version 2: a play that does not follow the led suit carries a proof that the seat holds no card of
        that suit in its other positions (rule `void_proofs`); every other play carries none."""
        positions, cards = d.void_claim(seat, m.position, card, g.hand.trick.led_suit)
        if not (self.rules.void_proofs and positions and cards):
            if m.void:
                raise RemoteError("void", "a void proof where no void claim is due", seat)
            return
        if not m.void:
            led = g.hand.trick.led_suit
            raise RemoteError("void", f"plays {card.code} on a {led} lead without a void proof", seat)
        if seat == self.seat:
            return
        step = crypto.void_step(self.seats, len(d.played))
        with _proof_of(seat):
            points = tuple(crypto.card_point(c.code) for c in cards)
            where = tuple(d.void_positions(seat, positions))
            check = functools.partial(crypto.verify_void, d.context(seat), step, where, points, m.void)
            self._check_proof(check)

    def _audit_hand(self, g: Game, d: HandDeal, seq: int) -> None:
        """Every seat revealed: recompute the whole deal, then let the engine audit the play and score."""
        fault, cards = d.recompute(skip=self.seat if d.challenge is None else None)
        number = g.hand_number
        if d.challenge is not None:
            challenger, challenged, why = d.challenge  # the challenge's own entry
            evidence = (self.entries[challenged],)
            low = self.rules.low_club
            if fault is None and self.lead_claim is not None and low is not None:
                holder = next(s for s in range(self.seats) if low in (cards[j] for j in d.positions_of(s)))
                limit = self.lead_claim.limit
                detail = f"seat {holder} held {low.code} and did not lead it within {limit:.0f} s"
                self._halt(Violation(holder, "lead", detail, challenged, evidence))
            elif fault is not None:
                self._halt(self._fault_violation(fault, challenged))
            else:
                self._halt(
                    Violation(
                        challenger,
                        "challenge",
                        f"false challenge ({why}): every step checks out",
                        challenged,
                        evidence,
                    )
                )
            return
        if fault is not None:
            self._halt(self._fault_violation(fault, seq))
            return
        dealt = tuple(tuple(cards[j] for j in d.positions_of(s)) for s in range(self.seats))
        try:
            g.apply(Reveal(dealt))
        except IllegalAction as exc:  # the crypto checked out, so the plays cannot contradict the hands
            self._halt(Violation(d.order[-1], "reveal", str(exc), seq))
            return
        result = g.history[-1]
        found = tuple(Violation(v.seat, v.kind, v.detail, seq, halts=False) for v in result.violations)
        self._events.append(HandAudited(number, found))
        for v in found:
            self._events.append(v)
        if g.phase is Phase.GAME_OVER:
            assert g.outcome is not None
            self._enter(Stage.END, range(self.seats))
        else:
            self._start_hand()

    # ================================================================= our own entries
    def _advance(self) -> None:
        """Write every entry that is ours to write now, until a peer or our player must act."""
        while not self.finished and not self._restoring and not self.syncing and self.seat is not None:
            step = self._my_step()
            if step is None or step.seat not in (self.seat, ANY_SEAT) or self._holding_lead_claim():
                return
            if self._challenge_due and msg.Challenge in step.types:
                self._send(msg.Challenge(len(self.entries) - 1, self._challenge_due[: msg.MAX_WHY]))
                self._challenge_due = None
                continue
            if step.seat != self.seat or step.decision is not None:
                return
            m = self._make(step.types[0])
            if m is None:
                continue  # a problem was found: the loop sends a challenge instead
            self._send(m)

    def _holding_lead_claim(self) -> bool:
        """A low-club challenge we are to reveal on, when nobody led for that long by our own clock (yet)."""
        lead = self._open_lead_claim()
        return lead is not None and self._now - lead.since < lead.limit

    def _my_step(self, deciding: bool = False) -> Step | None:
        """What the table waits for, for our own entries (`deciding`: our player's). While a low-club
        challenge is open, the holder of the lowest club may still lead it."""
        lead = self._open_lead_claim() if deciding else None
        if lead is not None and self.game is not None and self.seat is not None:
            low = self.rules.low_club
            if low is not None and low in self.game.view(self.seat).hand:
                return lead.step  # we hold the lowest club: we may still lead it
        return self._expected()

    def _make(self, kind: type[msg.Message]) -> msg.Message | None:
        """Our own automatic entry of type `kind`, or None when a challenge is due instead."""
        return _MAKERS[kind](self)

    @_maker(msg.Accept)
    def _make_accept(self) -> msg.Message:
        return msg.Accept()

    @_maker(msg.DrawCommit)
    def _make_draw_commit(self) -> msg.Message:
        assert self.seat is not None
        return msg.DrawCommit(crypto.draw_commitment(self.game_id, self.seat, self._secret(DRAW_HAND)))

    @_maker(msg.DrawReveal)
    def _make_draw_reveal(self) -> msg.Message:
        return msg.DrawReveal(self._secret(DRAW_HAND))

    @_maker(msg.Commit)
    def _make_commit(self) -> msg.Message:
        g, d = self._hand()
        assert self.seat is not None
        context, seed = d.context(self.seat), self._secret(g.hand_number)
        commitment = crypto.commitment(context, seed)
        if self.version == 1:
            return msg.Commit(commitment)
        secrets = crypto.HandSecrets.derive(seed, context, d.n)
        return msg.CommitV2(commitment, crypto.shuffle_commitment(secrets))

    @_maker(msg.Shuffle)
    def _make_shuffle(self) -> msg.Message | None:
        _, d = self._hand()
        assert self._my is not None
        try:
            if self.version == 1:
                return msg.Shuffle(tuple(crypto.shuffle(d.shuffle_input(), self._my)))
            assert self.seat is not None
            step = crypto.shuffle_step(len(d.shuffles))
            deck, proof = crypto.prove_shuffle(d.context(self.seat), step, d.shuffle_input(), self._my)
            return msg.ShuffleV2(tuple(deck), proof)
        except RemoteError:
            self._challenge_due = "the deck I received for my shuffle holds invalid points"
            return None

    @_maker(msg.Lock)
    def _make_lock(self) -> msg.Message | None:
        _, d = self._hand()
        assert self._my is not None
        try:
            if self.version == 1:
                return msg.Lock(tuple(crypto.lock(d.lock_input(), self._my)))
            assert self.seat is not None
            step = crypto.lock_step(self.seats, len(d.locks))
            deck, commitments, proof = crypto.prove_lock(d.context(self.seat), step, d.lock_input(), self._my)
            return msg.LockV2(tuple(deck), tuple(commitments), proof)
        except RemoteError:
            self._challenge_due = "the deck I received for my lock holds invalid points"
            return None

    @_maker(msg.Keys)
    def _make_keys(self) -> msg.Message:
        _, d = self._hand()
        assert self._my is not None and self.seat is not None
        positions = d.keys_due(self.seat) if self.rules.deal == "all" else [self._draw_position]
        return msg.Keys(tuple(positions), tuple(self._my.lock_keys[j] for j in positions))

    @_maker(msg.Reveal)
    def _make_reveal(self) -> msg.Message:
        assert self._my is not None
        return msg.Reveal(self._my.seed)

    @_maker(msg.End)
    def _make_end(self) -> msg.Message:
        g = self.game
        assert g is not None and g.outcome is not None
        return msg.End(tuple(g.outcome.winners), tuple(t.score for t in g.totals))

    def _make_play(self, card: Card) -> msg.Play:
        """Our play of `card`; in version 2 with its void proof when it does not follow the led suit."""
        g, d = self._hand()
        j = self._my_position(card)
        assert self._my is not None and self.seat is not None
        key = self._my.lock_keys[j]
        if self.version == 1:
            return msg.Play(j, key)
        positions, cards = d.void_claim(self.seat, j, card, g.hand.trick.led_suit)
        if not (self.rules.void_proofs and positions and cards):
            return msg.PlayV2(j, key, b"")
        d.key_commits[self.seat] = tuple(crypto.lock_commitments(self._my))
        step = crypto.void_step(self.seats, len(d.played))
        points = [crypto.card_point(c.code) for c in cards]
        claim = d.void_positions(self.seat, positions)
        proof = crypto.prove_void(d.context(self.seat), step, self._my, claim, points)
        return msg.PlayV2(j, key, proof)

    def _secret(self, hand: int) -> bytes:
        """The seed of a hand (0: the first-dealer draw): reused after a crash, else fresh and announced."""
        seed = self._secrets.get(hand)
        if seed is None:
            assert self._entropy is not None
            seed = self._entropy(32)
            if len(seed) != 32:
                raise LocalError("the entropy source must return the number of bytes asked for")
            self._secrets[hand] = seed
            self._events.append(SecretCreated(hand, seed))
        return seed

    def _seal(self, m: msg.Message, seq: int, prev: bytes, hand: int) -> bytes:
        """Our signed envelope of `m` for slot `seq` after the entry hashed `prev`, in hand `hand`."""
        assert self.identity is not None and self.seat is not None
        payload = {"g": self.game_id, "n": seq, "p": prev, "s": self.seat, "h": hand, **m.to_fields()}
        return log.seal(payload, self.identity)

    def _send(self, m: msg.Message) -> None:
        """Sign our entry `m` and apply it like any other; if it holds, it is ours to send."""
        raw = self._seal(m, len(self.entries), self.head, self.hand_number)
        env = log.open_envelope(raw)
        header = log.validate_header(env.payload)
        slot = self._slots.get(header.seq)
        if self._accept(env, header, raw, self._now, own=True):
            self._outgoing.append(Outgoing(len(self.entries) - 1, raw))
            if slot is not None and slot.prev == header.prev and slot.accused == self.seat:
                slot.fire(Signal.ANSWER)  # our own answer to a claim against us: it may still stand
            self._after_append(self._now)

    def _my_position(self, card: Card) -> int:
        d = self.deal
        assert d is not None and self.seat is not None
        for j, c in d.opened.items():
            if c == card and d.owner[j] == self.seat and j not in d.played:
                return j
        raise LocalError(f"{card.code} is not in our hand")
