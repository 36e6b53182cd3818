"""The table protocol of one peer, without I/O: the boss that wires the table's small machines.

Feed it raw entries (`receive`); it checks each one completely (size, encoding, game, signature, sequence and
chain, turn, fields, cryptography, rules), appends the good ones to its chain, and says what happened. On its
own turns it writes its entries itself (commitments, shuffles, locks, keys, reveals) or, for a decision, waits
for `decide()`. Time comes in as numbers; randomness comes from the injected `entropy` function.

The machines it wires, each in its own file:
- `chain.py`: the entries, their links and signers, the head, the entries that came early, the records;
- `stages.py`: the stages and the transition table, as data: who speaks in each stage, and which stages may
  follow each message type (the table refuses to enter any other);
- `opening.py`, `hand.py`, `drawpile.py`: the effect of each message type (`effects.py`), from the
  first-dealer draw through the deal, the bidding, the play and the audit;
- `abandonment.py` over `claims.py`: the abandonment claims and their certificates;
- `leaving.py` over `partings.py`: the players' own word, a signed goodbye and a stop by agreement;
- `makers.py`: how this peer makes its own entries; the public seam for a modified peer.

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
from p2pspades.table import drawpile, hand, opening
from p2pspades.table import messages as msg
from p2pspades.table.abandonment import TableView, apply, provisional, reopen
from p2pspades.table.chain import Chain, Frame, open_frame
from p2pspades.table.claims import Claims, Role, Slot, ranked_without
from p2pspades.table.deal import HandDeal
from p2pspades.table.drawpile import DrawPile
from p2pspades.table.effects import effect_of
from p2pspades.table.endings import stronger
from p2pspades.table.events import (
    Accepted,
    Decision,
    DecisionKind,
    DropKind,
    Dropped,
    Event,
    GameEnded,
    Outgoing,
    Rejected,
    SecretCreated,
    Superseded,
    TableStatus,
    Violation,
    Wanted,
)
from p2pspades.table.genesis import read_genesis
from p2pspades.table.hand import LeadClaim, ProofCheck, ProofRunner, check_now
from p2pspades.table.leaving import PartingTableView, rejudge
from p2pspades.table.leaving import apply as part
from p2pspades.table.makers import Makers, make_play
from p2pspades.table.partings import STOP_WAIT, Parting, Partings, Proposal
from p2pspades.table.stages import ANY_SEAT, ENGINE_STAGES, TRANSITIONS, Expect, Stage, Step, Who, successors

__all__ = [
    "ANY_SEAT",
    "TRANSITIONS",
    "Expect",
    "LeadClaim",
    "ProofCheck",
    "ProofRunner",
    "Stage",
    "Step",
    "Table",
    "Who",
    "check_now",
]

DEFAULT_TIMEOUTS: Mapping[str, float] = {"auto": 60.0, "decision": 600.0, "stop": STOP_WAIT}
_MACHINES = (drawpile, hand, opening)  # each registers the effects of its message types


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
        self._view = TableView(self)
        self.partings = Partings(self.seats, self.seat, self.version, self.timeouts["stop"])
        self.parting_view = PartingTableView(self)
        #: the slot whose goodbyes (or stops) ended the game
        self.parted: Parting | None = None
        self._outgoing: list[Outgoing] = []
        self._events: list[Event] = []
        #: a gap between two readings of the clock longer than this is a pause (a machine that slept, a
        #: process stopped): it does not count as waiting (the peer sets it from its tick; off by default)
        self._pause = pause
        self._reading = now
        self._paused = 0.0
        self.last_progress = now
        self.clock = now
        #: our player's choice to wait longer for the seat awaited now: (that wait, the seconds added)
        self._patience: tuple[tuple[float, int, Step], float] | None = None

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
        self.opening = opening.Opening()
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
        now = self._time(now)
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
        step = self._my_step(deciding=True)
        if self.syncing or step is None or step.decision is None or self.challenge_due or self.pausing:
            return None
        if self.game is None or self.seat is None:
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
        elif isinstance(action, BlindBid):
            self._send(msg.BlindBid(action.tricks))
        elif isinstance(action, Bid):
            self._send(msg.Bid(action.tricks))
        elif isinstance(action, Draw):
            self._send(msg.Draw(action.keep))
        elif isinstance(action, Play):
            self._send(make_play(self, action.card))
        elif isinstance(action, Pass):
            self._send(self.makers.pass_cards(self, action.cards))
        else:  # pragma: no cover - legal actions of a decision are never chance steps
            raise LocalError(f"{action} is not a player's decision")
        self._advance()
        return self._flush()

    def tick(self, now: float) -> list[Event]:
        """Let time pass: once the seat the table waits for has kept us waiting past the timeout in force,
        we vote that it stopped answering, and a timeout later, if the claim cannot complete, we stall (§5);
        rule "low_club": nobody leads the low club: the seat at the dealer's left challenges."""
        now = self._time(now)
        self.clock = max(self.clock, now)
        part(self, self.partings.tick(self.parting_view, now), now)
        if self.pausing:  # a proposal to stop is open: no time counts against anyone
            self.last_progress = max(self.last_progress, now)
            return self._flush()
        step = self.claimed_step()
        if self.finished or self.syncing or self.seat is None or step is None:
            step = None
        elif self.stage is Stage.LEAD and self._low_club_timer(now):
            step = None  # the dealer's left: it challenges, it does not vote
        if step is not None and step.seat != self.seat:
            self._claim_timer(step, now - self.last_progress)
        self._advance()
        return self._flush()

    def _claim_timer(self, step: Step, waited: float) -> None:
        """Vote once we waited the timeout in force for the slot; stall once we waited it twice."""
        limit = self.wait_limit(step)
        slot = self.claims.current(self._view)
        role = Role.QUIET if slot is None else slot.role
        first = role in (Role.QUIET, Role.OPEN) and waited >= limit
        if first or (role is Role.VOTED and waited >= 2 * limit):
            apply(self, self.claims.timer(self._view, round(limit)), self.clock)

    def vote_due(self) -> float | None:
        """When (on the clock `tick` is given) we vote that the seat the table waits for stopped answering,
        unless it answers first; None if no such vote is ahead (our own turn, a lead of the lowest club, a
        claim already voted on, a resumed peer still syncing, the game over)."""
        step = self.expected()
        if self.finished or self.syncing or self.seat is None or step is None or self.stage is Stage.LEAD:
            return None
        if step.seat in (self.seat, ANY_SEAT) or self.claim is not None:
            return None
        return self.last_progress + self.wait_limit(step) + self._paused

    def wait_longer(self, seconds: float | None = None) -> float:
        """Our player chooses to wait longer for the seat the table waits for before we vote that it stopped
        answering: `seconds` more (default: one more timeout in force), added to this wait only, which ends
        with the chain's next progress. A choice passed in: the table reads no clock. Returns the seconds
        added (0 when no vote of ours is ahead: our own turn, our vote already cast, the game over). Our vote
        then states the timeout it waited, this included."""
        step = self.expected()
        if self.finished or self.syncing or self.seat is None or step is None or self.stage is Stage.LEAD:
            return 0.0
        if step.seat in (self.seat, ANY_SEAT) or (self.claim is not None and self.seat in self.claim.votes):
            return 0.0
        added = self.makers.limit(self, step) if seconds is None else seconds
        if not (0 < added < float("inf")):
            raise LocalError(f"a wait must be a positive number of seconds, not {added}")
        key = self._wait_key(step)
        before = self._patience[1] if self._patience is not None and self._patience[0] == key else 0.0
        self._patience = (key, before + added)
        return added

    def wait_limit(self, step: Step) -> float:
        """How long we wait for the seat of `step` before we vote: the timeout in force (`Makers.limit`;
        twice the decision timeout for the seat that challenges a lowest club nobody led), and what our
        player chose to add to this wait (`wait_longer`)."""
        extra = 0.0
        if self._patience is not None and self._patience[0] == self._wait_key(step):
            extra = self._patience[1]
        twice = 2 if step.types[0] is msg.Challenge else 1
        return twice * self.makers.limit(self, step) + extra

    def _time(self, now: float) -> float:
        """A reading of the caller's clock, less the pauses so far (see `pause`)."""
        gap = now - self._reading
        if gap > self._pause:
            self._paused += gap - self._pause
        self._reading = max(self._reading, now)
        return now - self._paused

    def _wait_key(self, step: Step) -> tuple[float, int, Step]:
        """This wait for `step`: it began at the last progress, with the chain as long as it is now."""
        return (self.last_progress, self.chain.next_seq, step)

    def _low_club_timer(self, now: float) -> bool:
        """Rule "low_club": nobody leads the lowest club. The seat at the dealer's left (and it alone: a rule
        every table computes alike, so simultaneous timers cannot split the tables) challenges after the
        decision timeout; its holder will be named by the reveal. Whether that was our part: the others vote
        against the challenger after twice the timeout (`_claim_timer`)."""
        assert self.deal is not None and self.seat is not None
        if self.seat != self.deal.order[0]:
            return False
        limit = self.timeouts["decision"]
        if self.pending_decision() is None and now - self.last_progress >= limit:
            why = f"nobody led the lowest club within {limit:.0f} s"
            self._send(msg.Challenge(self.chain.next_seq - 1, why))
        return True

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
        slot = self.claims.current(self._view)
        return slot if slot is not None and slot.votes else None

    def claimed_step(self) -> Step | None:
        """The step a claim on the slot the table waits for is about (rule "low_club": the first lead, which
        the seat at the dealer's left answers by challenging, if its holder does not lead)."""
        step = self.expected()
        if step is None or step.seat != ANY_SEAT:
            return step
        return self.lead_step(self.hand_number) if self.deal is not None else None

    def lead_step(self, hand: int) -> Step:
        """Rule "low_club", hand `hand`: the claim's step of its first lead (the challenger's)."""
        g = self.game_now()
        dealer = g.dealer if hand == g.hand_number else g.history[hand - 1].dealer
        return Step((dealer + 1) % self.seats, (msg.Challenge, msg.Play), DecisionKind.PLAY)

    def claim_notes(self) -> list[bytes]:
        """The signed votes, stalls and refusals of the open claim, and the goodbyes, stops and declines of
        the slot we wait for: what a peer that comes back needs."""
        slot = self.claim
        claim = [] if slot is None or self.finished else slot.notes()
        return claim + ([] if self.finished else self.partings.notes_now(self.parting_view))

    # ----------------------------------------------------------------- the players' own word (§5.10, §5.11)
    def leave(self) -> list[Event]:
        """Our goodbye: we leave the game at the slot we wait for. It ends the game here at once, and on every
        table it reaches; our side forfeits (PROTOCOL.md §5.10). Nothing if the game is over."""
        if self.seat is not None and not self.finished:
            part(self, self.partings.leave(self.parting_view), self.clock)
        self._advance()
        return self._flush()

    def stop_here(self) -> list[Event]:
        """Our stop at the slot we wait for: a proposal to stop the game there, the scores standing and nobody
        winning, or our agreement to the one there. The stops of every seat end the game (§5.11)."""
        if self.seat is not None and not self.finished and not self.syncing:
            part(self, self.partings.stop(self.parting_view, self.clock), self.clock)
        self._advance()
        return self._flush()

    def decline_stop(self) -> list[Event]:
        """We will not stop at the slot we wait for: the proposal there lapses, and the game goes on."""
        if self.seat is not None and not self.finished and not self.syncing:
            part(self, self.partings.decline(self.parting_view), self.clock)
        self._advance()
        return self._flush()

    def stop_proposal(self) -> Proposal | None:
        """The proposal to stop at the slot we wait for, as the screen shows it (None: none there)."""
        return None if self.finished else self.partings.proposal(self.parting_view, self.clock)

    @property
    def pausing(self) -> bool:
        """A proposal to stop at the slot we wait for is open: we write nothing for it, and count no time."""
        return not self.finished and self.partings.pausing(self.parting_view)

    def totals_at(self, seq: int) -> tuple[int, ...]:
        """Every side's score after the first `seq` entries of our chain."""
        if seq >= self.chain.next_seq:
            return tuple(self.totals())
        observer = Table(self.entries[0], entries=self.entries[:seq], timeouts=self.timeouts, checked=True)
        return tuple(observer.totals())

    def parted_again(self, seq: int, now: float) -> None:
        """A provisional ending at slot `seq` was void and the awaited entry took the slot: a goodbye for that
        slot, weaker than that ending, ends the game there now (§5.6)."""
        rejudge(self, seq, now)

    def take_outgoing(self) -> list[Outgoing]:
        out, self._outgoing = self._outgoing, []
        return out

    def waiting_for(self) -> tuple[int, str] | None:
        """Whose entry the table is waiting for, and of what type."""
        step = self.expected()
        return None if step is None else (step.seat, step.types[0].TYPE)

    # ----------------------------------------------------------------- for a modified peer (makers.py)
    def honest_entry(self, kind: type[msg.Message]) -> msg.Message | None:
        """The entry of type `kind` the honest peer would make now (None: a challenge is due instead)."""
        return Makers().make(self, kind)

    def challenge_next(self, why: str) -> None:
        """Challenge at our next turn: something only we can see is wrong (the reveal will name who)."""
        self.challenge_due = why

    def position_of(self, card: Card) -> int:
        """The deck position of `card` in our hand, not yet played."""
        d = self.deal
        assert d is not None and self.seat is not None
        for j, c in d.opened.items():
            if c == card and d.holder(j) == self.seat and j not in d.played:
                return j
        raise LocalError(f"{card.code} is not in our hand")

    def sign(self, fields: Mapping[str, Any]) -> bytes:
        """Our signed entry of `fields` (its `t` and the type's fields) for the next slot, after our head."""
        assert self.identity is not None and self.seat is not None
        header = {"g": self.game_id, "n": self.chain.next_seq, "p": self.head, "s": self.seat,
                  "h": self.hand_number}
        return log.seal({**header, **fields}, self.identity)

    def emit(self, raw: bytes) -> None:
        """Send `raw` as it is, without our own checks: what a modified peer does with a move our engine would
        refuse. An honest table never calls this."""
        self.post(Outgoing(self.chain.next_seq, raw))

    # ================================================================= for the table's own machines
    def report(self, event: Event) -> None:
        """An event for our caller."""
        self._events.append(event)

    def post(self, out: Outgoing) -> None:
        """A frame of ours for the peers."""
        self._outgoing.append(out)

    def game_now(self) -> Game:
        """The rules engine (once the first dealer is known)."""
        assert self.game is not None
        return self.game

    def hand_deal(self) -> HandDeal:
        """The cryptographic state of the hand in play."""
        assert self.deal is not None
        return self.deal

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
            current = self.game_now().current_seat
            assert current is not None
            seat = current
        return Step(seat, expect.types, expect.decision)

    def enter(self, stage: Stage, order: Iterable[int] = (), turn: int = 0) -> None:
        """Move to `stage`, which the transition table must list after the entry being applied; for an
        IN_TURN stage, the seats in turn and how many have already had theirs."""
        if self._moving is not None and stage is not Stage.OVER and stage not in successors(*self._moving):
            was, kind = self._moving
            raise LocalError(f"the transition table has no {was.name} --{kind.TYPE}--> {stage.name}")
        self.stage = stage
        self._order = tuple(order)
        self._turn = turn

    def next_turn(self) -> bool:
        """The seat in turn had its entry: whether that was the last of the stage."""
        self._turn += 1
        return self._turn >= len(self._order)

    def to_engine(self) -> None:
        """The rules engine says whose move it is: the stage of its phase."""
        g = self.game_now()
        stage = ENGINE_STAGES[g.phase]
        first_lead = self.rules.first_leader == "low_club" and self.deal is not None and not self.deal.played
        if stage is Stage.PLAY and (g.current_seat is None or first_lead):
            stage = Stage.LEAD  # rule "low_club": only the seat holding the lowest club knows it leads
        self.enter(stage)

    def start_hand(self) -> None:
        g = self.game_now()
        self.deal = HandDeal(self.rules, self.game_id, g.hand_number, g.dealer)
        self.enter(Stage.COMMIT, self.deal.order)
        self.pile = DrawPile()
        self.hand_secrets = None
        self.challenge_due = None

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

    def keep_early(self, seq: int, raw: bytes, seat: int, signed: bool = False) -> bool:
        """An entry (or an ending) for a slot beyond our chain: kept until we reach it, within the window,
        and we ask the peers for the gap. Whether it was kept. (`signed`: `seat` signed it.)"""
        if self.chain.keep_early(seq, raw):
            self._events.append(Wanted(self.chain.next_seq))
            return True
        self._events.append(Dropped(DropKind.TOO_FAR_AHEAD, seat, seq, signed=signed))
        return False

    def totals(self) -> list[int]:
        """Every side's total score now (0 before the first hand)."""
        g = self.game
        return [0 for _ in self.rules.sides] if g is None else [t.score for t in g.totals]

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
            superseded = tuple(self.entries[at:])
            self.cut_back(at)
            if superseded:
                self._events.append(Superseded(at, superseded))
            step = self.claimed_step()
        self.ended_step = step
        self.violation = violation
        self.stage = Stage.OVER
        self._events.append(violation)
        forfeit = self.rules.on_fault == "forfeit"
        side = self.rules.side_of(violation.seat)
        winners = ranked_without(self.rules, side, self.totals()) if forfeit else ()
        self.finish(GameEnded(TableStatus.VIOLATION, winners, violation.seat, forfeit, violation=violation,
                              at=at))

    def complete(self) -> None:
        """Every seat signed the result: the game is over, as the rules engine scored it (called as the last
        `end` is applied: the slot it takes is the next one)."""
        g = self.game_now()
        assert g.outcome is not None
        self.enter(Stage.OVER)
        self.finish(GameEnded(TableStatus.COMPLETE, tuple(g.outcome.winners), at=self.chain.next_seq))

    def finish(self, ended: GameEnded) -> None:
        """The game ends so (the callers check that it is the stronger ending: `endings.stronger`)."""
        self.status = ended.status
        self.result = ended
        self._events.append(ended)

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

    def cut_back(self, seq: int) -> None:
        """Cut our chain back to its first `seq` entries, rebuilt as on a resume (an ending took slot `seq`).
        What we keep of our own: the records, the claims, the events still to report, the clock."""
        self.rebuild(self.entries[:seq])

    def rebuild(self, entries: list[bytes]) -> None:
        """Our chain made of `entries` (entries we took before), rebuilt as on a resume: cut back for an
        ending, or given back what an ending that turned out void had cut. What we keep of our own: the
        records, the claims and partings, the events still to report, the clock."""
        fresh = Table(
            self.entries[0], self.identity, entropy=self._entropy, secrets=self.secrets,
            entries=entries, timeouts=self.timeouts, now=self.clock, proofs=self._proofs,
            checked=True, syncing=True, makers=self.makers, pause=self._pause,
        )
        fresh.chain.records, fresh.chain.known = self.chain.records, self.chain.known
        keep = {"claims", "partings", "_events", "_outgoing", "syncing", "clock", "_reading", "_paused",
                "restoring"}
        for name, value in vars(fresh).items():
            if name not in keep:
                setattr(self, name, value)
        self._view = TableView(self)
        self.parting_view = PartingTableView(self)

    # ================================================================= receiving
    def _flush(self) -> list[Event]:
        out, self._events = self._events, []
        return out

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
            return apply(self, self.claims.note(self._view, env, header), now)
        if header.type in msg.PARTINGS:
            return part(self, self.partings.note(self.parting_view, env, header, now), now)
        part(self, self.partings.signed(header.seat, header.seq), now)  # a goodbye it contradicts is void
        return self._take_entry(frame, now)

    def _take_ending(self, frame: Frame, now: float) -> bool:
        """A certificate or a stalled ending from a peer: a bundle of notes, which we take one by one; it
        holds if they end the game at its slot with exactly its bytes (it is canonical). Nobody signs it."""
        env, header = frame.env, frame.header
        if env.signature != log.NO_SIGNATURE:
            self._events.append(Dropped(DropKind.BAD_SIGNATURE, header.seat, header.seq))
            return False
        if header.seq > self.chain.next_seq:
            return self.keep_early(header.seq, env.raw, header.seat)
        if header.type in msg.PARTING_ENDINGS:
            bundled, notes = self.partings.ending(self.parting_view, env, header)
            if isinstance(notes, list):
                for raw in notes:
                    self.take(raw, now)
            else:
                part(self, [notes], now)
        else:
            bundled, outputs = self.claims.ending(self._view, env, header)
            apply(self, outputs, now)
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
            self._competing(frame)
            return False
        if self.finished:
            self._after_the_end(frame)
            return False
        if seq > self.chain.next_seq:
            self.keep_early(seq, frame.raw, seat, signed=True)
            return False
        if header.prev != self.head:
            self._events.append(Dropped(DropKind.NOT_CHAINED, seat, seq, signed=True))
            self._events.append(Wanted(seq - 1))
            return False
        at = self._view.now()
        slot = self.claims.current(self._view)
        if at is not None and slot is not None and (seat == at.accused or at.anyone):
            instead = self.claims.arriving(self._view, slot, frame.raw)
            if instead is not None:  # we voted: only a refusal releases it
                return apply(self, instead, now)
        if not self._accept(frame, now, own=False):
            return False
        if at is not None and not self.finished:
            apply(self, self.claims.took(self._view, at, frame.raw, own=False), now)
        self._after_append(now)
        return True

    def _competing(self, frame: Frame) -> None:
        """An entry for a slot our chain holds already. A second entry of the seat that signed ours there is
        equivocation, a fault at that slot. Another seat's entry after the same entry as ours is judged too:
        out of turn (named, the game goes on), or, at the first lead of rule "low_club" (any seat's), a lead
        that does not hold (its signer's fault there). Anything else is stale: another branch."""
        header, raw = frame.header, frame.raw
        seat, seq = header.seat, header.seq
        parted = self.parted
        if parted is not None and parted.seq <= seq:  # an entry where the players' word ended the game
            awaited = seat == parted.at.accused or parted.at.anyone
            if parted.seq == seq and awaited and self.answer_problem(raw, seq) is None:
                part(self, self.partings.answer(parted, raw), self.clock)  # a stop is void by it
            if raw not in self.chain.known:
                self.chain.known.add(raw)
                self._events.append(Dropped(DropKind.STALE, seat, seq, signed=True))
            return
        ending = self.certified
        if ending is not None and ending.seq == seq and (seat == ending.accused or ending.at.anyone):
            stalled = self.result is not None and bool(self.result.missing)
            if provisional(ending, stalled) and self.answer_problem(raw, seq) is None:
                reopen(self, ending, raw, self.clock)  # the awaited entry after all: the ending is void
                return
            apply(self, self.claims.late(self._view, ending, raw), self.clock)  # a twin of it is a fault
            return
        ours = self.chain.signed_by(seq, seat)
        if ours is not None:  # a second entry of its seat there: the fault it is by itself, or equivocation
            problem = self.answer_problem(raw, seq)
            if not isinstance(problem, Violation):
                detail = f"two different entries signed by seat {seat} for sequence number {seq}"
                problem = Violation(seat, Check.EQUIVOCATION, detail, seq, tuple(sorted((ours, raw))))
            self.halt(problem, seq)
            return
        step = self.chain.steps[seq]
        if step is None or header.prev != log.entry_hash(self.entries[seq - 1]):
            self._events.append(Dropped(DropKind.STALE, seat, seq, signed=True))
            return
        if step.seat != ANY_SEAT:
            want = f"seat {step.seat}'s {step.types[0].TYPE}"
            detail = f"entry {seq} from seat {seat} is a {header.type}; it was {want}'s turn"
            self._events.append(Rejected(seat, Check.TURN, detail, raw))
            return
        problem = self.answer_problem(raw, seq)
        if isinstance(problem, Violation):
            self.halt(problem, seq)
        else:
            self.chain.known.add(raw)
            self._events.append(Dropped(DropKind.STALE, seat, seq, signed=True))

    def _after_the_end(self, frame: Frame) -> None:
        """An entry for the slot after the end of our chain, the game over: a second entry of the seat whose
        entry there is the evidence of our fault (the one that ended the game) is equivocation, else it is
        too late."""
        header, raw = frame.header, frame.raw
        v = self.violation
        if v is not None and self.result is not None and header.seq == self.result.at:
            seat, seq = header.seat, header.seq
            other = next((e for e in v.evidence if e != raw and _seat_seq(e) == (seat, seq)), None)
            if other is not None:
                detail = f"two different entries signed by seat {seat} for sequence number {seq}"
                self.halt(Violation(seat, Check.EQUIVOCATION, detail, seq, tuple(sorted((other, raw)))), seq)
                return
        self._events.append(Dropped(DropKind.GAME_OVER, header.seat, header.seq, signed=True))

    def _after_append(self, now: float) -> None:
        """The chain grew: take what was waiting for it (entries that came early, notes for the new slot)."""
        nxt = self.chain.take_next()
        if nxt is not None and not self.finished:
            self.take(nxt, now)
        for raw in self.claims.take_early(self.chain.next_seq):
            self.take(raw, now)
        self.claims.forget_behind(self.chain.next_seq)
        part(self, self.partings.moved(self.parting_view, now), now)
        for raw in self.partings.take_early(self.chain.next_seq):
            self.take(raw, now)
        self.partings.forget_behind(self.chain.next_seq)

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
        lead = self._open_lead_claim
        if step is not None and lead is not None and header.type in _types(lead.step):
            self.to_engine()  # the lowest club led after all: it applies where it was due
            return step, lead  # it is appended at the step the table was at
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
        violation = self._apply(frame)
        if violation is not None:
            del self._events[mark:]
            self.halt(violation)
            return False
        self.chain.append(raw, frame.env.hash, seat, step)
        self.last_progress = now
        self._events.insert(mark, Accepted(seq, raw, seat, kind, own))
        if own:
            self.partings.signed(seat, seq)  # our own goodbye for this slot or an earlier one is void now
        if lead is not None and not self.finished:
            lead.answered = seq
            why = f"seat {lead.signer} claimed that nobody led the lowest club in time, but seat {seat}"
            why += f" led it in time (entry {seq})"
            evidence = (self.entries[lead.entry], raw)
            self.halt(Violation(lead.signer, Check.CHALLENGE, why, lead.entry, evidence))
        return True

    def _apply(self, frame: Frame) -> Violation | None:
        """Decode an entry and apply its effect: the violation it earns its signer, if it does not hold."""
        header, raw = frame.header, frame.raw
        seat, seq = header.seat, header.seq
        try:
            m = msg.decode(frame.env.payload, seat, self.version, bool(self.rules.nil_pass))
            if header.hand != self.hand_number:
                why = f"hand number {header.hand}, the game is in hand {self.hand_number}"
                raise RemoteError(Check.HEADER, why, seat)
            self._moving = (self.stage, type(m))
            effect_of(type(m))(self, m, seat, seq)
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
            if self.pausing:
                return  # a proposal to stop at this slot is open: we hold our entry for it
            step = self._my_step()
            if step is None or step.seat not in (self.seat, ANY_SEAT) or self._holding_lead_claim():
                return
            if self.challenge_due and msg.Challenge in step.types:
                self._send(msg.Challenge(self.chain.next_seq - 1, self.challenge_due[: msg.MAX_WHY]))
                self.challenge_due = None
                continue
            if step.seat != self.seat or step.decision is not None:
                return
            m = self.makers.make(self, step.types[0])
            if m is None:
                continue  # a problem was found: the loop sends a challenge instead
            self._send(m)

    @property
    def _open_lead_claim(self) -> LeadClaim | None:
        """Rule "low_club": the challenge that nobody led the lowest club, until every reveal is in."""
        return self.lead_claim if self.stage is Stage.REVEAL else None

    def _holding_lead_claim(self) -> bool:
        """A low-club challenge we are to reveal on, when nobody led for that long by our own clock (yet)."""
        lead = self._open_lead_claim
        return lead is not None and self.clock - lead.since < lead.limit

    def _my_step(self, deciding: bool = False) -> Step | None:
        """What the table waits for, for our own entries (`deciding`: our player's). While a low-club
        challenge is open, the holder of the lowest club may still lead it."""
        lead = self._open_lead_claim if deciding else None
        if lead is not None and self.game is not None and self.seat is not None:
            low = self.rules.low_club
            if low is not None and low in self.game.view(self.seat).hand:
                return lead.step  # we hold the lowest club: we may still lead it
        return self.expected()

    def _send(self, m: msg.Message) -> None:
        """Sign our entry `m` and apply it like any other; if it holds, it is ours to send."""
        raw = self.seal(m, self.chain.next_seq, self.head, self.hand_number)
        env = log.open_envelope(raw)
        frame = Frame(env, log.validate_header(env.payload))
        at = self._view.now()
        if self._accept(frame, self.clock, own=True):
            self._outgoing.append(Outgoing(self.chain.next_seq - 1, raw))
            if at is not None and not self.finished:
                apply(self, self.claims.took(self._view, at, raw, own=True), self.clock)
            self._after_append(self.clock)


def _types(step: Step) -> set[str]:
    return {t.TYPE for t in step.types}


def _seat_seq(raw: bytes) -> tuple[int, int] | None:
    """The signer and sequence number an entry's header names (None if it has none)."""
    try:
        header = log.validate_header(log.open_envelope(raw).payload)
    except RemoteError:
        return None
    return header.seat, header.seq
