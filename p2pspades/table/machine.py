"""The table protocol of one peer, without I/O: the boss that wires the table's small machines.

Feed it raw entries (`receive`); it checks each one completely (size, encoding, game, signature, sequence and
chain, turn, fields, cryptography, rules), appends the good ones to its chain, and says what happened. On its
own turns it writes its entries itself (commitments, shuffles, locks, keys, reveals) or, for a decision, waits
for `decide()`. Time comes in as numbers; randomness comes from the injected `entropy` function.

The machines it wires know no table: each sees the one `views.View` through its own narrow `Protocol` and
returns what should happen (`outputs.py`); `Table._carry` is the one place where that changes the table.
- `opening.py`, `hand.py`, `drawpile.py`: the effect of each message type (`EFFECTS`, one table here), from
  the first-dealer draw through the deal, the bidding, the play and the audit;
- `claims.py` (over the data of `slots.py`) and `abandonment.py`: the abandonment claims and their endings;
- `late.py`: entries for a slot the chain holds already, or after its end;
- `clock.py`: our timers; `own.py`: what our player decides, and which entry is ours to write;
- `makers.py`: how this peer makes its own entries; the public seam for a modified peer.
What holds the state the machines read: `chain.py` (the entries, the head, the early ones, the records),
`stages.py` (the stages and the transition table, as data: the table refuses to enter a stage it does not
list), `deal.py` (the crypto state of a hand), and this class.

With `identity=None` the machine is an *observer*: it holds no seat and no cards, and is what the offline
verifier replays a log through.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from p2pspades import crypto, log
from p2pspades.checks import Check
from p2pspades.errors import LocalError, P2PSpadesError, RemoteError
from p2pspades.rules import Action, Bid, BlindBid, BlindNil, Card, Draw, Game, IllegalAction, Pass, Play
from p2pspades.table import abandonment, drawpile, hand, late, opening, own, slots
from p2pspades.table import messages as msg
from p2pspades.table import outputs as out
from p2pspades.table.chain import Chain, Frame, open_frame
from p2pspades.table.claims import Claims
from p2pspades.table.clock import Clock, Timer, Write
from p2pspades.table.deal import DrawPile, HandDeal, Opening, ProofCheck, ProofRunner, check_now
from p2pspades.table.endings import fault_ending, stronger
from p2pspades.table.events import (
    Accepted,
    Decision,
    DecisionKind,
    DropKind,
    Dropped,
    Event,
    GameEnded,
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
from p2pspades.table.makers import Makers, make_play, position_of
from p2pspades.table.slots import Role, Slot
from p2pspades.table.stages import (
    ANY_SEAT,
    TRANSITIONS,
    LeadClaim,
    Stage,
    Step,
    Who,
    engine_stage,
    successors,
)
from p2pspades.table.views import View

DEFAULT_TIMEOUTS: Mapping[str, float] = {"auto": 60.0, "decision": 600.0}

#: everything the table's machines say
Output = hand.Output | out.Begin | out.Known | slots.Output | abandonment.Ending | late.Late | Timer | Write
Effect = Callable[[View, Any, int, int], "list[Any]"]

#: The effect of each message type: the machine that checks an entry of it, records what it establishes and
#: says where the table goes next (a version 2 form takes its version 1 type's). One table, here: no machine
#: registers itself.
EFFECTS: Mapping[type[msg.Message], Effect] = {
    msg.Accept: opening.on_accept,
    msg.DrawCommit: opening.on_draw_commit,
    msg.DrawReveal: opening.on_draw_reveal,
    msg.Commit: hand.on_commit,
    msg.Blind: hand.on_blind,
    msg.BlindBid: hand.on_blind_bid,
    msg.Shuffle: hand.on_shuffle,
    msg.Lock: hand.on_lock,
    msg.Keys: hand.on_keys,
    msg.Draw: drawpile.on_draw,
    msg.Bid: hand.on_bid,
    msg.Pass: hand.on_pass,
    msg.Play: hand.on_play,
    msg.Challenge: hand.on_challenge,
    msg.Reveal: hand.on_reveal,
    msg.End: hand.on_end,
}


def effect_of(kind: type[msg.Message]) -> Effect:
    """The effect of a message of type `kind` (a version 2 form takes its version 1 type's)."""
    return next(EFFECTS[c] for c in kind.__mro__ if c in EFFECTS)


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
        makers: Makers | None = None,
        pause: float = math.inf,
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
        #: how this peer makes its own entries: the honest peer's unless a test gives a cheater's
        self.makers = makers or Makers()
        self._entropy = entropy
        self._proofs = proofs
        #: the `entries` to restore were checked before, proofs included (our own chain, or our own log on
        #: resume): their proofs are not verified again; every later entry's are
        self._checked = checked
        #: the seed of each hand (0: the first-dealer draw) this seat committed to
        self.secrets: dict[int, bytes] = dict(secrets or {})
        self.timeouts = dict(DEFAULT_TIMEOUTS, **(timeouts or {}))
        #: a resumed peer writes nothing (no entry, no vote) until it has heard every peer's head (`synced`)
        self.syncing = syncing

        self.chain = Chain(genesis, env.hash)
        self.claims = Claims(self.seats, self.seat, self.version)
        #: what the table's machines (and our makers) see of it
        self.view = View(self)
        self._outgoing: list[Outgoing] = []
        self._events: list[Event] = []
        #: a gap between two readings of the clock longer than `pause` is a pause (a machine that slept, a
        #: process stopped): it does not count as waiting (the peer sets it from its tick; off by default)
        self._clock = Clock(now, pause, lambda step: self.makers.limit(self.view, step))
        self.last_progress = now
        self.clock = now

        self.status = TableStatus.RUNNING
        self.violation: Violation | None = None
        #: how the game ended, once it has
        self.result: GameEnded | None = None
        #: the stage, and for an IN_TURN stage the seats in turn and how many have had theirs
        self.stage = Stage.ACCEPT
        self._order: tuple[int, ...] = tuple(range(self.seats))
        self._turn = 1  # the genesis is seat 0's acceptance
        #: the stage and message type of the entry being applied: the stages it may lead to are listed
        self._moving: tuple[Stage, type[msg.Message]] | None = None
        self.opening = Opening()
        self.first_dealer: int | None = None
        self.game: Game | None = None
        self.deal: HandDeal | None = None
        self.pile = DrawPile()
        #: this seat's secrets of the hand in play (its seed, shuffle scalar and lock keys)
        self.hand_secrets: crypto.HandSecrets | None = None
        #: why we challenge at our next turn, if something we alone can see is wrong
        self.challenge_due: str | None = None
        self.abandoned_by: int | None = None
        #: the slot whose certificate (or stalled ending) ended the game
        self.certified: Slot | None = None
        #: what that ending cut back from our chain (the accused's own answer, on its table)
        self.superseded: tuple[bytes, ...] = ()
        #: the step a fault ended the game at (the slot the chain stops before), for the notes of that slot
        self.ended_step: Step | None = None
        #: the claimed step of the entry being applied (`_accept`)
        self._step_applied: Step | None = None
        #: rule "low_club": the claim that nobody led the lowest club in time (its holder is unknown)
        self.lead_claim: LeadClaim | None = None

        self.restoring = True
        for i, raw in enumerate(entries):
            if i == 0 and raw == genesis:
                continue
            if not self.take(raw, now) and not self.finished:
                why = "; ".join(str(e) for e in self._events if isinstance(e, Dropped | Rejected | Violation))
                raise LocalError(f"log entry {i} does not apply: {why or 'out of order'}")
        self.restoring = False
        self._advance()

    # ================================================================= public API
    @property
    def entries(self) -> list[bytes]:
        """The chain: the genesis and every entry that holds, in order."""
        return self.chain.entries

    @property
    def records(self) -> list[bytes]:
        """Every frame we took, in order: the chain's entries and the claims' votes and refusals (the log)."""
        return self.chain.records

    @property
    def head(self) -> bytes:
        """The hash of the last entry of the chain."""
        return self.chain.head

    @property
    def finished(self) -> bool:
        """Whether the game is over: no entry can be appended any more."""
        return self.stage is Stage.OVER

    @property
    def hand_number(self) -> int:
        return 0 if self.game is None else self.game.hand_number

    def receive(self, raw: bytes, now: float = 0.0) -> list[Event]:
        """Take an entry from the network. Never raises on hostile input (LocalError: our own state)."""
        now = self._clock.read(now)
        self.clock = max(self.clock, now)
        try:
            self.take(raw, now)
            self._advance()
        except LocalError:
            raise
        except Exception as exc:  # pragma: no cover - every check is caught where it is made
            self._events.append(Dropped(DropKind.REFUSED, detail=f"{type(exc).__name__}: {exc}"))
        return self._flush()

    def pending_decision(self) -> Decision | None:
        """Our player's turn, if it is one: what to decide, the seat's view, the legal choices."""
        return own.decision(self.view)

    def decide(self, action: Action) -> list[Event]:
        """Our player's choice. Raises LocalError if it is not our turn or not a legal choice."""
        decision = self.pending_decision()
        if decision is None:
            raise LocalError("it is not our turn to decide anything")
        if action not in decision.legal:
            raise IllegalAction(f"{action} is not legal now")
        if isinstance(action, BlindNil):
            self._send(msg.Blind(action.declare))
        elif isinstance(action, BlindBid):
            self._send(msg.BlindBid(action.tricks))
        elif isinstance(action, Bid):
            self._send(msg.Bid(action.tricks))
        elif isinstance(action, Draw):
            self._send(msg.Draw(action.keep))
        elif isinstance(action, Play):
            self._send(make_play(self.view, action.card))
        elif isinstance(action, Pass):
            self._send(self.makers.pass_cards(self.view, action.cards))
        else:  # pragma: no cover - legal actions of a decision are never chance steps
            raise LocalError(f"{action} is not a player's decision")
        self._advance()
        return self._flush()

    def tick(self, now: float) -> list[Event]:
        """Let time pass: once the seat the table waits for has kept us waiting past the timeout in force,
        we vote that it stopped answering, and a timeout later, if the claim cannot complete, we stall (§5);
        rule "low_club": nobody leads the low club: the seat at the dealer's left challenges."""
        now = self._clock.read(now)
        self.clock = max(self.clock, now)
        self._carry(self._clock.tick(self.view, now, self._role), now)
        self._advance()
        return self._flush()

    def vote_due(self) -> float | None:
        """When (on the clock `tick` is given) we vote that the seat the table waits for stopped answering,
        unless it answers first; None if no such vote is ahead (our own turn, a lead of the lowest club, a
        claim already voted on, a resumed peer still syncing, the game over)."""
        return self._clock.due(self.view)

    def wait_longer(self, seconds: float | None = None) -> float:
        """Our player chooses to wait longer for the seat the table waits for before we vote that it stopped
        answering: `seconds` more (default: one more timeout in force), added to this wait only, which ends
        with the chain's next progress. A choice passed in: the table reads no clock. Returns the seconds
        added (0 when no vote of ours is ahead: our own turn, our vote already cast, the game over). Our vote
        then states the timeout it waited, this included."""
        return self._clock.longer(self.view, seconds)

    def wait_limit(self, step: Step) -> float:
        """How long we wait for the seat of `step` before we vote: the timeout in force (`Makers.limit`;
        twice the decision timeout for the seat that challenges a lowest club nobody led), and what our
        player chose to add to this wait (`wait_longer`)."""
        return self._clock.limit(self.view, step)

    def synced(self) -> list[Event]:
        """A resumed peer has every peer's head (or waited long enough for it): it may write again."""
        self.syncing = False
        self.last_progress = self.clock  # our timers start now, as on any start
        self._advance()
        return self._flush()

    @property
    def claim(self) -> Slot | None:
        """The abandonment claim on the slot the table waits for (or the one whose certificate ended the
        game), if any seat has voted on it."""
        if self.certified is not None:
            return self.certified
        slot = self.claims.current(self.view)
        return slot if slot is not None and slot.votes else None

    def _role(self) -> Role:
        """Ours on the claim on the slot the table waits for (QUIET: no claim there)."""
        slot = self.claims.current(self.view)
        return Role.QUIET if slot is None else slot.role

    def claimed_step(self) -> Step | None:
        """The step a claim on the slot the table waits for is about (rule "low_club": the first lead, which
        the seat at the dealer's left answers by challenging, if its holder does not lead)."""
        step = self.expected()
        if step is None or step.seat != ANY_SEAT:
            return step
        return self.lead_step(self.hand_number) if self.deal is not None else None

    def lead_step(self, hand: int) -> Step:
        """Rule "low_club", hand `hand`: the claim's step of its first lead (the challenger's)."""
        g = self.view.game
        dealer = g.dealer if hand == g.hand_number else g.history[hand - 1].dealer
        return Step((dealer + 1) % self.seats, (msg.Challenge, msg.Play), DecisionKind.PLAY)

    def claim_notes(self) -> list[bytes]:
        """The signed votes, stalls and refusals of the open claim: what a peer that comes back needs."""
        slot = self.claim
        return [] if slot is None or self.finished else slot.notes()

    def take_outgoing(self) -> list[Outgoing]:
        out, self._outgoing = self._outgoing, []
        return out

    def waiting_for(self) -> tuple[int, str] | None:
        """Whose entry the table is waiting for, and of what type."""
        step = self.expected()
        return None if step is None else (step.seat, step.types[0].TYPE)

    def expected(self) -> Step | None:
        """Who may append the next entry, and of which types."""
        expect = TRANSITIONS[self.stage]
        if expect.who is Who.NOBODY:
            return None
        if expect.who is Who.IN_TURN:
            seat = self._order[self._turn]
        elif expect.who is Who.ANY:
            seat = ANY_SEAT
        else:
            current = self.view.game.current_seat
            assert current is not None
            seat = current
        return Step(seat, expect.types, expect.decision)

    @property
    def last_turn(self) -> bool:
        """Whether the entry being applied was the last turn of its IN_TURN stage."""
        return self._turn >= len(self._order)

    def totals(self) -> list[int]:
        """Every side's total score now (0 before the first hand)."""
        g = self.game
        return [0 for _ in self.rules.sides] if g is None else [t.score for t in g.totals]

    # ----------------------------------------------------------------- for a modified peer (makers.py)
    def honest_entry(self, kind: type[msg.Message]) -> msg.Message:
        """The entry of type `kind` the honest peer would make now (a challenge, if what it would work on is
        wrong)."""
        return Makers().make(self.view, kind)

    def challenge_next(self, why: str) -> None:
        """Challenge at our next turn: something only we can see is wrong (the reveal will name who)."""
        self.challenge_due = why

    def position_of(self, card: Card) -> int:
        """The deck position of `card` in our hand, not yet played."""
        return position_of(self.view, card)

    def sign(self, fields: Mapping[str, Any]) -> bytes:
        """Our signed entry of `fields` (its `t` and the type's fields) for the next slot, after our head."""
        assert self.identity is not None and self.seat is not None
        header = {"g": self.game_id, "n": self.chain.next_seq, "p": self.head, "s": self.seat,
                  "h": self.hand_number}
        return log.seal({**header, **fields}, self.identity)

    def emit(self, raw: bytes) -> None:
        """Send `raw` as it is, without our own checks: what a modified peer does with a move our engine would
        refuse. An honest table never calls this."""
        self._outgoing.append(Outgoing(self.chain.next_seq, raw))

    # ================================================================= what the view asks of the table
    def check_proof(self, check: ProofCheck) -> None:
        """Run one proof check of the entry being applied, unless it is a restored entry checked before."""
        if not (self.restoring and self._checked):
            self._proofs(check)

    def secret(self, number: int) -> bytes:
        """The seed of a hand (0: the first-dealer draw): reused after a crash, else fresh and announced."""
        seed = self.secrets.get(number)
        if seed is None:
            assert self._entropy is not None
            seed = self._entropy(32)
            if len(seed) != 32:
                raise LocalError("the entropy source must return the number of bytes asked for")
            self.secrets[number] = seed
            self._events.append(SecretCreated(number, seed))
        return seed

    def seal(self, m: msg.Message, seq: int, prev: bytes, number: int) -> bytes:
        """Our signed envelope of `m` for slot `seq` after the entry hashed `prev`, in hand `number`."""
        assert self.identity is not None and self.seat is not None
        payload = {"g": self.game_id, "n": seq, "p": prev, "s": self.seat, "h": number, **m.to_fields()}
        return log.seal(payload, self.identity)

    def answer_problem(self, raw: bytes, seq: int) -> Violation | str | None:
        """What `raw`, a signed entry for slot `seq` of our chain, earns there, checked by an observer of
        our chain up to that slot (its proofs were checked already) exactly as every peer that took it did:
        None if it holds, the violation it earns its signer, or why it is no entry that slot takes."""
        try:
            observer = Table(self.entries[0], entries=self.entries[:seq], timeouts=self.timeouts,
                             checked=True)
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
        return problem.reason if isinstance(problem, Dropped) else "an entry that does not apply there"

    # ================================================================= the one place the table changes
    def _carry(self, outputs: Iterable[Output], now: float) -> bool:
        """Carry out what a machine said, in order: the one place where what a machine says changes the
        table. Whether the frame that caused it was taken: noted (even if its signer is named for it), or
        refused neither by a fault nor by a report."""
        noted = refused = False
        for said in outputs:
            noted = noted or isinstance(said, slots.Note)
            report = isinstance(said, out.Report) and isinstance(said.event, Dropped | Rejected)
            refused = refused or report or isinstance(said, out.Halt)
            if isinstance(said, _MOVES):
                self._move(said, now)
            else:
                self._claimed(said, now)
        return noted or not refused

    def _move(self, said: Output, now: float) -> None:
        """What the opening, the hand, the draw pile, the clock or the judge of late entries said."""
        if isinstance(said, out.Enter):
            self.enter(said.stage, said.order)
        elif isinstance(said, out.Report):
            self._events.append(said.event)
        elif isinstance(said, out.Halt):
            self.halt(said.violation, said.at)
        elif isinstance(said, out.Begin):
            self.game, self.first_dealer = said.game, said.game.dealer
        elif isinstance(said, out.NewHand):
            self._start_hand()
        elif isinstance(said, out.ChallengeDue):
            self.challenge_due = said.why
        elif isinstance(said, out.Complete):
            self._complete()
        elif isinstance(said, hand.OwnSecrets):
            self.hand_secrets = said.secrets
        elif isinstance(said, hand.PublicRecord):
            self.game = said.game
        elif isinstance(said, hand.LeadChallenged):
            self.lead_claim = said.claim
        else:
            self._wire(said, now)

    def _wire(self, said: Output, now: float) -> None:
        """An output that another machine takes up: the boss's wiring between them."""
        if isinstance(said, hand.Dealt):
            mine = None if self.seat is None else self.makers.own_cards(self.view)
            self._carry(hand.deal_all(self.view, mine), now)
        elif isinstance(said, hand.PileDealt):
            self._carry(drawpile.dealt(self.view), now)
        elif isinstance(said, hand.PileKeysIn):
            self._carry(drawpile.keys_in(self.view), now)
        elif isinstance(said, Timer):
            self._carry(self.claims.timer(self.view, said.wait), self.clock)
        elif isinstance(said, Write):
            self._send(said.message)
        elif isinstance(said, late.Late):
            self._carry(self.claims.late(self.view, said.slot, said.raw), now)
        elif isinstance(said, out.Known):
            self.chain.known.update(said.raws)
        else:  # pragma: no cover - every output a machine returns is listed
            raise LocalError(f"no machine says {said!r}")

    def _claimed(self, said: Output, now: float) -> None:
        """What the claims machine, or the endings of claims, said."""
        if isinstance(said, slots.Note):
            self.chain.note(said.raw)
            self._events.append(Noted(said.slot, said.raw, said.seat, said.type, said.own))
        elif isinstance(said, slots.Send):
            self._outgoing.append(Outgoing(said.slot, said.raw))
        elif isinstance(said, slots.Held):
            self._events.append(Noted(said.slot, said.raw, said.seat, _type(said.raw)))
        elif isinstance(said, slots.Take):
            self.take(said.raw, now)
        elif isinstance(said, slots.End):
            self._carry(abandonment.settle(self.view, said), now)
        elif isinstance(said, slots.Reopen):
            self._reopen(said.slot, said.raw, now)
        elif isinstance(said, abandonment.Ending):
            self._end(said, now)
        else:  # pragma: no cover - every output a machine returns is listed
            raise LocalError(f"no machine says {said!r}")

    def enter(self, stage: Stage, order: Iterable[int] = ()) -> None:
        """Move to `stage`, which the transition table must list after the entry being applied (any stage may
        end: OVER); for an IN_TURN stage, the seats in turn."""
        if self._moving is not None and stage is not Stage.OVER and stage not in successors(*self._moving):
            was, kind = self._moving
            raise LocalError(f"the transition table has no {was.name} --{kind.TYPE}--> {stage.name}")
        self.stage = stage
        self._order = tuple(order)
        self._turn = 0

    def _start_hand(self) -> None:
        g = self.view.game
        self.deal = HandDeal(self.rules, self.game_id, g.hand_number, g.dealer)
        self.enter(Stage.COMMIT, self.deal.order)
        self.pile = DrawPile()
        self.hand_secrets = None
        self.challenge_due = None

    def halt(self, violation: Violation, at: int | None = None) -> None:
        """A fault ends the game at slot `at` (by default where the chain stands: the entry that earned it is
        not on it): after a fault, the culprit's side forfeits unless the rules say void, the others ranked at
        that slot. A fault at an earlier slot than our chain's end (equivocation: a second entry or note for a
        slot we passed) cuts the chain back to it. Its evidence goes into our records (the log) and is never
        checked twice. An ending as strong or stronger holds already: nothing more (`endings.py`)."""
        at = self.chain.next_seq if at is None else at
        probe = GameEnded(TableStatus.VIOLATION, (), violation.seat, violation=violation, at=at)
        if not stronger(probe, self.result):
            self.chain.known.update(violation.evidence)  # it changes nothing: not checked again, not logged
            return
        for raw in violation.evidence:
            if raw not in self.chain.known:
                self.chain.note(raw)
        step = self._step_applied
        if at < self.chain.next_seq or self.finished:
            self._cut_to(at)
            step = self.claimed_step()
        self.ended_step = step
        self.violation = violation
        self.enter(Stage.OVER)
        self._events.append(violation)
        self._finish(fault_ending(self.rules, violation, self.totals(), at))

    def _complete(self) -> None:
        """Every seat signed the result: the game is over, as the rules engine scored it (called as the last
        `end` is applied: the slot it takes is the next one)."""
        outcome = self.view.game.outcome
        assert outcome is not None
        self.enter(Stage.OVER)
        self._finish(GameEnded(TableStatus.COMPLETE, tuple(outcome.winners), at=self.chain.next_seq))

    def _finish(self, ended: GameEnded) -> None:
        """The game ends so (the callers check that it is the stronger ending: `endings.stronger`)."""
        self.status = ended.status
        self.result = ended
        self._events.append(ended)

    def _end(self, ending: abandonment.Ending, now: float) -> None:
        """A claim's ending takes its slot on our chain, whatever we held from there on (the accused's own
        answer, on its table) cut back; the game is over."""
        slot = ending.slot
        superseded: tuple[bytes, ...] = ()
        if slot.seq < self.chain.next_seq or self.finished:
            superseded = self._cut_to(slot.seq)
        self.superseded = superseded
        self.chain.append(ending.raw, log.entry_hash(ending.raw), slot.accused, self.claimed_step())
        self.last_progress = now
        self._events.append(Accepted(slot.seq, ending.raw, slot.accused, ending.type, False))
        self.certified, self.abandoned_by = slot, slot.accused
        result = abandonment.ended(self.view, ending)
        self.enter(Stage.OVER)
        self._finish(result)

    def _reopen(self, slot: Slot, raw: bytes, now: float) -> None:
        """A provisional ending (`slots.provisional`) is void: the awaited entry `raw` turned up (it came
        itself, or a refusal carried it). Such an ending says only that the seats still playing waited in
        vain, so the entry takes the slot, every seat takes it (a voter too), and the game goes on; a seat
        that never voted refuses the votes as usual."""
        result = self.result
        ours = result is not None and result.at == slot.seq and self.certified is slot
        if ours:
            self._cut_to(slot.seq)
        self._carry(self.claims.void(slot, raw, ours), now)

    def _cut_to(self, seq: int) -> tuple[bytes, ...]:
        """An ending takes slot `seq`: our chain is cut back to it, rebuilt as on a resume; what it held from
        there on is superseded (reported, kept in our records). What we keep of our own: the records, the
        claims, the events still to report, the clock."""
        superseded = tuple(self.entries[seq:])
        fresh = Table(
            self.entries[0], self.identity, entropy=self._entropy, secrets=self.secrets,
            entries=self.entries[:seq], timeouts=self.timeouts, now=self.clock, proofs=self._proofs,
            checked=True, syncing=True, makers=self.makers,
        )
        fresh.chain.records, fresh.chain.known = self.chain.records, self.chain.known
        keep = {"claims", "_events", "_outgoing", "syncing", "clock", "_clock", "restoring"}
        for name, value in vars(fresh).items():
            if name not in keep:
                setattr(self, name, value)
        self.view = View(self)
        self._clock.forget_patience()
        if superseded:
            self._events.append(Superseded(seq, superseded))
        return superseded

    # ================================================================= receiving
    def _flush(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    def take(self, raw: bytes, now: float) -> bool:
        """Check one frame and take it if it holds: True if it is now ours (on the chain, a claim's note, an
        entry held for a claim, or a copy we hold already)."""
        if raw in self.chain.known:
            return True  # a copy we already hold (peers forward every entry): nothing to check twice
        frame = open_frame(raw, self.game_id, self.seats)
        if isinstance(frame, Dropped):
            self._events.append(frame)
            return False
        header = frame.header
        if header.type in msg.ENDINGS:
            return self._take_ending(frame, now)
        env = frame.env
        if not crypto.verify_signature(self.public_keys[header.seat], env.signature, env.payload_raw):
            self._events.append(Dropped(DropKind.BAD_SIGNATURE, header.seat, header.seq))
            return False
        if header.type in msg.NOTES:
            return self._carry(self.claims.note(self.view, env, header), now)
        return self._take_entry(frame, now)

    def _take_ending(self, frame: Frame, now: float) -> bool:
        """A certificate or a stalled ending from a peer: a bundle of notes, which we take one by one; it
        holds if they end the game at its slot with exactly its bytes (it is canonical). Nobody signs it."""
        env, header = frame.env, frame.header
        if env.signature != log.NO_SIGNATURE:
            self._events.append(Dropped(DropKind.BAD_SIGNATURE, header.seat, header.seq))
            return False
        if header.seq > self.chain.next_seq:
            return self._keep_early(header.seq, env.raw, header.seat)
        bundled, outputs = self.claims.ending(self.view, env, header)
        self._carry(outputs, now)
        seq = header.seq
        if bundled and seq < self.chain.next_seq and self.chain.entries[seq] == env.raw:
            return True
        if not self.finished:
            detail = f"an ending for slot {seq} whose notes do not all hold"
            self._events.append(Dropped(DropKind.REFUSED, header.seat, seq, detail=detail))
        return False

    def _take_entry(self, frame: Frame, now: float) -> bool:
        """A signed entry for the chain: in sequence, chained to our head, in turn, and holding."""
        header = frame.header
        seat, seq = header.seat, header.seq
        if seq < self.chain.next_seq:
            self._carry(late.competing(self.view, header, frame.raw), self.clock)
            return False
        if self.finished:
            self._carry(late.after_the_end(self.view, header, frame.raw), self.clock)
            return False
        if seq > self.chain.next_seq:
            self._keep_early(seq, frame.raw, seat, signed=True)
            return False
        if header.prev != self.head:
            self._events.append(Dropped(DropKind.NOT_CHAINED, seat, seq, signed=True))
            self._events.append(Wanted(seq - 1))
            return False
        at = self.view.now()
        slot = self.claims.current(self.view)
        if at is not None and slot is not None and (seat == at.accused or at.anyone):
            instead = self.claims.arriving(self.view, slot, frame.raw)
            if instead is not None:  # we voted: only a refusal releases it
                return self._carry(instead, now)
        if not self._accept(frame, now, own=False):
            return False
        if at is not None and not self.finished:
            self._carry(self.claims.took(self.view, at, frame.raw, own=False), now)
        self._after_append(now)
        return True

    def _keep_early(self, seq: int, raw: bytes, seat: int, signed: bool = False) -> bool:
        """An entry (or an ending) for a slot beyond our chain: kept until we reach it, within the window,
        and we ask the peers for the gap. Whether it was kept. (`signed`: `seat` signed it.)"""
        if self.chain.keep_early(seq, raw):
            self._events.append(Wanted(self.chain.next_seq))
            return True
        self._events.append(Dropped(DropKind.TOO_FAR_AHEAD, seat, seq, signed=signed))
        return False

    def _after_append(self, now: float) -> None:
        """The chain grew: take what was waiting for it (entries that came early, notes for the new slot)."""
        nxt = self.chain.take_next()
        if nxt is not None and not self.finished:
            self.take(nxt, now)
        for raw in self.claims.take_early(self.chain.next_seq):
            self.take(raw, now)
        self.claims.forget_behind(self.chain.next_seq)

    def _in_turn(self, header: log.Header) -> tuple[Step | None, LeadClaim | None]:
        """The step an entry of this header is taken at (None: out of turn), and the low-club claim it
        answers, if it is the lowest club led after all."""
        step = self.expected()
        if step is not None and step.seat in (header.seat, ANY_SEAT) and header.type in _types(step):
            if step.seat == ANY_SEAT and header.type == msg.Challenge.TYPE:  # the dealer's left alone
                claimed = self.claimed_step()
                mine = claimed is not None and claimed.seat == header.seat
                return (step, None) if mine else (None, None)
            return step, None
        lead = own.open_lead_claim(self.view)
        if step is not None and lead is not None and header.type in _types(lead.step):
            # the lowest club led after all: it applies where it was due, appended at the step we were at
            self.enter(engine_stage(self.view.game, self.rules, self.deal))
            return step, lead
        return None, None

    def _accept(self, frame: Frame, now: float, own: bool) -> bool:
        """Check an entry in turn and apply it; append it to the chain if it holds, else name its seat."""
        header, raw = frame.header, frame.raw
        seat, kind, seq = header.seat, header.type, header.seq
        step, lead = self._in_turn(header)
        if step is None:
            expected = self.expected()
            want = "nothing" if expected is None else f"seat {expected.seat}'s {expected.types[0].TYPE}"
            detail = f"entry {seq} from seat {seat} is a {kind}; expected {want}"
            self._events.append(Rejected(seat, Check.TURN, detail, raw))
            return False
        mark = len(self._events)
        self._step_applied = self.claimed_step()
        violation = self._effect(frame)
        if violation is not None:
            del self._events[mark:]
            self.halt(violation)
            return False
        self.chain.append(raw, frame.env.hash, seat, step)
        self.last_progress = now
        self._events.insert(mark, Accepted(seq, raw, seat, kind, own))
        if lead is not None and not self.finished:
            lead.answered = seq
            why = f"seat {lead.signer} claimed that nobody led the lowest club in time, but seat {seat}"
            why += f" led it in time (entry {seq})"
            evidence = (self.entries[lead.entry], raw)
            self.halt(Violation(lead.signer, Check.CHALLENGE, why, lead.entry, evidence))
        return True

    def _effect(self, frame: Frame) -> Violation | None:
        """Decode an entry and apply its effect: the violation it earns its signer, if it does not hold."""
        header, raw = frame.header, frame.raw
        seat, seq = header.seat, header.seq
        try:
            m = msg.decode(frame.env.payload, seat, self.version, bool(self.rules.nil_pass))
            if header.hand != self.hand_number:
                why = f"hand number {header.hand}, the game is in hand {self.hand_number}"
                raise RemoteError(Check.HEADER, why, seat)
            self._moving = (self.stage, type(m))
            if TRANSITIONS[self.stage].who is Who.IN_TURN:
                self._turn += 1  # the seat in turn has had it
            self._carry(effect_of(type(m))(self.view, m, seat, seq), self.clock)
        except RemoteError as exc:
            return Violation(seat, exc.check, exc.detail, seq, (raw,))
        except IllegalAction as exc:
            return Violation(seat, Check.RULES, str(exc), seq, (raw,))
        except LocalError:
            raise
        except Exception as exc:  # pragma: no cover - a check this machine lacks: the entry is still refused
            why = f"the entry cannot be applied ({type(exc).__name__})"
            return Violation(seat, Check.PROTOCOL, why, seq, (raw,))
        finally:
            self._moving = None
        return None

    # ================================================================= our own entries
    def _advance(self) -> None:
        """Write every entry that is ours to write now, until a peer or our player must act."""
        while not self.finished and not self.restoring and not self.syncing and self.seat is not None:
            due = own.next_entry(self.view)
            if due is None:
                return
            if isinstance(due, msg.Challenge):
                self.challenge_due = None
                self._send(due)
            else:
                self._send(self.makers.make(self.view, due))

    def _send(self, m: msg.Message) -> None:
        """Sign our entry `m` and apply it like any other; if it holds, it is ours to send."""
        raw = self.seal(m, self.chain.next_seq, self.head, self.hand_number)
        env = log.open_envelope(raw)
        frame = Frame(env, log.validate_header(env.payload))
        at = self.view.now()
        if self._accept(frame, self.clock, own=True):
            self._outgoing.append(Outgoing(self.chain.next_seq - 1, raw))
            if at is not None and not self.finished:
                self._carry(self.claims.took(self.view, at, raw, own=True), self.clock)
            self._after_append(self.clock)


#: the outputs `Table._move` carries out (the rest are the claims' and their endings')
_MOVES = (out.Enter, out.Report, out.Halt, out.Begin, out.NewHand, out.ChallengeDue, out.Complete, out.Known,
          hand.OwnSecrets, hand.PublicRecord, hand.LeadChallenged, hand.Dealt, hand.PileDealt,
          hand.PileKeysIn, Timer, Write, late.Late)


def _types(step: Step) -> set[str]:
    return {t.TYPE for t in step.types}


def _type(raw: bytes) -> str:
    return str(log.validate_header(log.open_envelope(raw).payload).type)
