"""The table protocol of one peer, without I/O: the boss that wires the table's small machines.

Feed it raw entries (`receive`); it checks each one completely (size, encoding, game, signature, sequence and
chain, turn, fields, cryptography, rules), appends the good ones to its chain, and says what happened. On its
own turns it writes its entries itself (commitments, shuffles, locks, keys, reveals) or, for a decision, waits
for `decide()`. Time comes in as numbers; randomness comes from the injected `entropy` function.

The machines it wires (docs/architecture.md lists them) know no table: each sees the one `views.View`
through its own narrow `Protocol` and returns what should happen (`outputs.py`). `Table._carry` is the one
place where that changes the table, by `CARRY`, the one table of what each output does (and which other
machine it asks). How a frame moves along to the machines, and how our own entries are written, is the
`receiving.Receiving` half of it, with `EFFECTS`, the one table of the machine that applies each message type.

With `identity=None` the machine is an *observer*: it holds no seat and no cards, and is what the offline
verifier replays a log through.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from p2pspades import crypto, log
from p2pspades.errors import N_, LocalError
from p2pspades.rules import Action, Card, Game, IllegalAction
from p2pspades.table import abandonment, drawpile, hand, late, own, partings, slots
from p2pspades.table import events as ev
from p2pspades.table import messages as msg
from p2pspades.table import outputs as out
from p2pspades.table.chain import Chain
from p2pspades.table.claims import Claims
from p2pspades.table.clock import Clock, Timer, Write
from p2pspades.table.deal import DrawPile, HandDeal, Opening, ProofRunner, check_now
from p2pspades.table.endings import fault_ending, stronger
from p2pspades.table.genesis import read_genesis
from p2pspades.table.makers import Makers
from p2pspades.table.partings import STOP_WAIT, Parted, Parting, Partings, Proposal
from p2pspades.table.receiving import Receiving
from p2pspades.table.slots import Slot
from p2pspades.table.stages import LeadClaim, Stage, Step, successors
from p2pspades.table.views import View

DEFAULT_TIMEOUTS: Mapping[str, float] = {"auto": 60.0, "decision": 600.0, "stop": STOP_WAIT}

#: everything the table's machines say
Output = (hand.Output | out.Begin | out.Known | slots.Output | abandonment.Ending | late.Late | Timer | Write
          | partings.Output)

class Table(Receiving):
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
        #: the protocol version of the game (the genesis `v`): 2 proves every step of the deal live
        self.rules, self.version, self.game_id = self.setup.rules, self.setup.version, self.setup.game_id
        self.seats, self.public_keys, self.identity = self.rules.players, self.setup.keys, identity
        self.seat = self.setup.seat_of(identity)
        if self.seat is not None and entropy is None:
            raise LocalError("a seated table needs an entropy source")
        #: how this peer makes its own entries: the honest peer's unless a test gives a cheater's
        self.makers = makers or Makers()
        self._entropy = entropy
        #: how each proof check is run; `checked`: the `entries` to restore were checked before, proofs
        #: included (our own chain, or our own log on resume): their proofs are not checked again
        self.proofs, self.checked = proofs, checked
        #: the seed of each hand (0: the first-dealer draw) this seat committed to
        self.secrets: dict[int, bytes] = dict(secrets or {})
        self.timeouts = dict(DEFAULT_TIMEOUTS, **(timeouts or {}))
        #: a resumed peer writes nothing (no entry, no vote) until it has heard every peer's head (`synced`)
        self.syncing = syncing
        self.chain = Chain(genesis, env.hash)
        self.claims = Claims(self.seats, self.seat, self.version)
        #: the players' own word: goodbyes and stops (PROTOCOL.md §5.10, §5.11)
        self.partings = Partings(self.seats, self.seat, self.version, self.timeouts["stop"])
        #: what the table's machines (and our makers) see of it
        self.view: View = View(self)
        self._outgoing: list[ev.Outgoing] = []
        self._events: list[ev.Event] = []
        #: a gap between two readings of the clock longer than `pause` is a pause (a machine that slept, a
        #: process stopped): it does not count as waiting (the peer sets it from its tick; off by default)
        self._clock = Clock(now, pause, lambda step: self.makers.limit(self.view, step))
        self.last_progress = self.clock = now
        self.status = ev.TableStatus.RUNNING
        self.violation: ev.Violation | None = None
        #: how the game ended, once it has
        self.result: ev.GameEnded | None = None
        #: the stage, and for an IN_TURN stage the seats in turn and how many have had theirs
        self.stage = Stage.ACCEPT
        self.order: tuple[int, ...] = tuple(range(self.seats))
        self.turn = 1  # the genesis is seat 0's acceptance
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
        #: the slot whose goodbyes (or stops) ended the game
        self.parted: Parting | None = None
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
                refused = (e for e in self._events if isinstance(e, ev.Dropped | ev.Rejected | ev.Violation))
                why = "; ".join(str(e) for e in refused)  # the events' data, as the log file writes them
                if not why:
                    raise LocalError(N_("log entry {i} does not apply: out of order"), i=i)
                raise LocalError(N_("log entry {i} does not apply: {why}"), i=i, why=why)
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

    def receive(self, raw: bytes, now: float = 0.0) -> list[ev.Event]:
        """Take an entry from the network. Never raises on hostile input (LocalError: our own state)."""
        now = self._clock.read(now)
        self.clock = max(self.clock, now)
        try:
            self.take(raw, now)
            self._advance()
        except LocalError:
            raise
        except Exception as exc:  # pragma: no cover - every check is caught where it is made
            self._events.append(ev.Dropped(ev.DropKind.REFUSED, detail=f"{type(exc).__name__}: {exc}"))
        return self._flush()

    def pending_decision(self) -> ev.Decision | None:
        """Our player's turn, if it is one: what to decide, the seat's view, the legal choices (none while a
        proposal to stop is open here)."""
        return None if self.pausing else own.decision(self.view)

    def decide(self, action: Action) -> list[ev.Event]:
        """Our player's choice. Raises LocalError if it is not our turn or not a legal choice."""
        decision = self.pending_decision()
        if decision is None:
            raise LocalError("it is not our turn to decide anything")
        if action not in decision.legal:
            raise IllegalAction(f"{action} is not legal now")
        self._send(self.makers.entry_for(self.view, action))
        self._advance()
        return self._flush()

    def tick(self, now: float) -> list[ev.Event]:
        """Let time pass: we vote that the seat awaited stopped answering, or stall, or (rule "low_club") the
        dealer's left challenges a first lead nobody made, as our timers say (`Clock.tick`, §5)."""
        now = self._clock.read(now)
        self.clock = max(self.clock, now)
        self._carry(self.partings.tick(self.view, now), now)
        if self.pausing:  # a proposal to stop is open: no time counts against anyone
            self.last_progress = max(self.last_progress, now)
        else:
            self._carry(self._clock.tick(self.view, now, self.view.role), self.clock)
        self._advance()
        return self._flush()

    def vote_due(self) -> float | None:
        """When (on the clock `tick` is given) we vote that the seat awaited stopped answering, unless it
        answers first; None if no such vote is ahead (`Clock.due`)."""
        return self._clock.due(self.view)

    def wait_longer(self, seconds: float | None = None) -> float:
        """Our player waits `seconds` longer (default: one more timeout in force) before we vote that the seat
        awaited stopped answering, for this wait only (which ends with the chain's next progress); our vote
        states the timeout it waited, this included. The seconds added: 0 when no vote of ours is ahead."""
        return self._clock.longer(self.view, seconds)

    def wait_limit(self, step: Step) -> float:
        """How long we wait for the seat of `step` before we vote (`Clock.limit`)."""
        return self._clock.limit(self.view, step)

    def synced(self) -> list[ev.Event]:
        """A resumed peer has every peer's head (or waited long enough for it): it may write again."""
        self.syncing = False
        self.last_progress = self.clock  # our timers start now, as on any start
        self._advance()
        return self._flush()

    @property
    def claim(self) -> Slot | None:
        """The abandonment claim on the slot awaited (or the one whose ending ended the game), once voted."""
        return self.view.claim

    def claim_notes(self) -> list[bytes]:
        """The signed votes, stalls and refusals of the open claim, and the goodbyes, stops and declines of
        the slot we wait for: what a peer that comes back needs."""
        return self.view.claim_notes() + ([] if self.finished else self.partings.notes_now(self.view))

    # ----------------------------------------------------------------- the players' own word (§5.10, §5.11)
    def leave(self) -> list[ev.Event]:
        """Our goodbye: we leave the game at the slot we wait for. It ends the game here at once, and on every
        table it reaches; our side forfeits (PROTOCOL.md §5.10). Nothing if the game is over."""
        if self.seat is not None and not self.finished:
            self._carry(self.partings.leave(self.view), self.clock)
        self._advance()
        return self._flush()

    def stop_here(self) -> list[ev.Event]:
        """Our stop at the slot we wait for: a proposal to stop the game there, the scores standing and nobody
        winning, or our agreement to the one there. The stops of every seat end the game (§5.11)."""
        if self.seat is not None and not self.finished and not self.syncing:
            self._carry(self.partings.stop(self.view, self.clock), self.clock)
        self._advance()
        return self._flush()

    def decline_stop(self) -> list[ev.Event]:
        """We will not stop at the slot we wait for: the proposal there lapses, and the game goes on."""
        if self.seat is not None and not self.finished and not self.syncing:
            self._carry(self.partings.decline(self.view), self.clock)
        self._advance()
        return self._flush()

    def stop_proposal(self) -> Proposal | None:
        """The proposal to stop at the slot we wait for, as the screen shows it (None: none there)."""
        return None if self.finished else self.partings.proposal(self.view, self.clock)

    @property
    def pausing(self) -> bool:
        """A proposal to stop at the slot we wait for is open: we write nothing for it, and count no time."""
        return not self.finished and self.partings.pausing(self.view)

    def totals_at(self, seq: int) -> tuple[int, ...]:
        """Every side's score after the first `seq` entries of our chain."""
        return self.view.totals_at(seq)

    def waiting_for(self) -> tuple[int, str] | None:
        """Whose entry the table is waiting for, and of what type."""
        return self.view.waiting_for()

    def take_outgoing(self) -> list[ev.Outgoing]:
        out, self._outgoing = self._outgoing, []
        return out

    # ----------------------------------------------------------------- for a modified peer (makers.py)
    def sign(self, fields: Mapping[str, Any]) -> bytes:
        """Our signed entry of `fields` (its `t` and the type's fields) for the next slot, after our head."""
        return self.view.sealed(fields, self.chain.next_seq, self.head, self.hand_number)

    def emit(self, raw: bytes) -> None:
        """Send `raw` as it is, without our own checks: what a modified peer does with a move our engine would
        refuse. An honest table never calls this."""
        self._outgoing.append(ev.Outgoing(self.chain.next_seq, raw))

    # ================================================================= what the view asks of the table
    def secret(self, number: int) -> bytes:
        """The seed of a hand (0: the first-dealer draw): reused after a crash, else fresh and announced."""
        seed = self.secrets.get(number)
        if seed is None:
            assert self._entropy is not None
            seed = self._entropy(32)
            if len(seed) != 32:
                raise LocalError("the entropy source must return the number of bytes asked for")
            self.secrets[number] = seed
            self._events.append(ev.SecretCreated(number, seed))
        return seed

    def observer(self, upto: int) -> Table:
        """An observer of our chain's first `upto` entries (their proofs were checked already)."""
        return Table(self.entries[0], entries=self.entries[:upto], timeouts=self.timeouts, checked=True)

    # ================================================================= the one place the table changes
    def _carry(self, outputs: Iterable[Output], now: float) -> bool:
        """Carry out what a machine said, in order (`CARRY`: what each output does): the one place where what
        a machine says changes the table. Whether the frame that caused it was taken: noted (even if its
        signer is named for it), or refused neither by a fault nor by a report."""
        noted = refused = False
        for said in outputs:
            noted = noted or isinstance(said, slots.Note)
            report = isinstance(said, out.Report) and isinstance(said.event, ev.Dropped | ev.Rejected)
            refused = refused or report or isinstance(said, out.Halt)
            more = CARRY[type(said)](self, said, now)
            if isinstance(more, list):  # another machine's answer to it: the boss's wiring
                self._carry(more, now)
        return noted or not refused

    def _begin(self, game: Game) -> None:
        self.game, self.first_dealer = game, game.dealer

    def _keep(self, said: out.ChallengeDue | hand.OwnSecrets | hand.PublicRecord | hand.LeadChallenged,
              ) -> None:
        """What the hand keeps on the table: a challenge due, our secrets, the public record, a lead claim."""
        if isinstance(said, out.ChallengeDue):
            self.challenge_due = said.why
        elif isinstance(said, hand.OwnSecrets):
            self.hand_secrets = said.secrets
        elif isinstance(said, hand.PublicRecord):
            self.game = said.game
        else:
            self.lead_claim = said.claim

    def _own_cards(self) -> tuple[Card | None, ...] | None:
        """What our makers tell our engine we hold (an observer holds nothing)."""
        return None if self.seat is None else self.makers.own_cards(self.view)

    def _note(self, note: slots.Note) -> None:
        self.chain.note(note.raw)
        self._events.append(ev.Noted(note.slot, note.raw, note.seat, note.type, note.own))

    def enter(self, stage: Stage, order: Iterable[int] = ()) -> None:
        """Move to `stage`, which the transition table must list after the entry being applied (any stage may
        end: OVER); for an IN_TURN stage, the seats in turn."""
        if self._moving is not None and stage is not Stage.OVER and stage not in successors(*self._moving):
            was, kind = self._moving
            raise LocalError(f"the transition table has no {was.name} --{kind.TYPE}--> {stage.name}")
        self.stage = stage
        self.order = tuple(order)
        self.turn = 0

    def _start_hand(self) -> None:
        g = self.view.game
        self.deal = HandDeal(self.rules, self.game_id, g.hand_number, g.dealer)
        self.enter(Stage.COMMIT, self.deal.order)
        self.pile = DrawPile()
        self.hand_secrets = None
        self.challenge_due = None

    def halt(self, violation: ev.Violation, at: int | None = None) -> None:
        """A fault ends the game at slot `at` (by default where the chain stands: the entry that earned it is
        not on it; an earlier slot, equivocation found late, cuts the chain back to it), as `fault_ending`
        says, unless an ending as strong holds already. Its evidence goes into our records, checked once."""
        at = self.chain.next_seq if at is None else at
        probe = ev.GameEnded(ev.TableStatus.VIOLATION, (), violation.seat, violation=violation, at=at)
        if not stronger(probe, self.result):
            self.chain.known.update(violation.evidence)  # it changes nothing: not checked again, not logged
            return
        self.chain.note(*(raw for raw in violation.evidence if raw not in self.chain.known))
        step = self._step_applied
        if at < self.chain.next_seq or self.finished:
            self._cut_to(at)
            step = self.view.claimed_step()
        self.ended_step = step
        self.violation = violation
        self.enter(Stage.OVER)
        self._events.append(violation)
        self._finish(fault_ending(self.rules, violation, self.view.totals(), at))

    def _complete(self) -> None:
        """Every seat signed the result: the game is over at the slot after the last `end`, as scored."""
        outcome = self.view.game.outcome
        assert outcome is not None
        self.enter(Stage.OVER)
        self._finish(ev.GameEnded(ev.TableStatus.COMPLETE, tuple(outcome.winners), at=self.chain.next_seq))

    def _finish(self, ended: ev.GameEnded) -> None:
        """The game ends so (the callers check that it is the stronger ending: `endings.stronger`)."""
        self.status = ended.status
        self.result = ended
        self._events.append(ended)

    def _end(self, ending: abandonment.Ending, now: float) -> None:
        """A claim's ending takes its slot on our chain, whatever we held from there on (the accused's own
        answer, on its table) cut back; the game is over."""
        slot = ending.slot
        self.superseded = self._cut_to(slot.seq) if slot.seq < self.chain.next_seq or self.finished else ()
        self.chain.append(ending.raw, log.entry_hash(ending.raw), slot.accused, self.view.claimed_step())
        self.last_progress = now
        self._events.append(ev.Accepted(slot.seq, ending.raw, slot.accused, ending.type, False))
        self.certified, self.abandoned_by = slot, slot.accused
        result = abandonment.ended(self.view, ending)
        self.enter(Stage.OVER)
        self._finish(result)

    def _reopen(self, slot: Slot, raw: bytes, now: float) -> None:
        """A provisional ending (`slots.provisional`) is void: the awaited entry `raw` turned up (itself, or
        carried by a refusal). It takes the slot on every table, a voter's too, and the game goes on."""
        result = self.result
        ours = result is not None and result.at == slot.seq and self.certified is slot
        if ours:
            self._cut_to(slot.seq)
        self._carry(self.claims.void(slot, raw, ours), now)
        self._rejudge(slot.seq, now)  # a goodbye for the slot, weaker than the void ending, ends it now

    def _part(self, said: partings.Part, now: float) -> None:
        """A slot's goodbyes (or stops) end the game there (`partings.py`): their entry takes the slot on our
        chain, whatever we held from there on cut back, unless a stronger ending holds already."""
        spot, kind = said.parting, said.kind
        status = ev.TableStatus.LEFT if kind is Parted.LEFT else ev.TableStatus.STOPPED
        if not stronger(ev.GameEnded(status, (), at=spot.seq, leavers=said.seats), self.result):
            return
        raw = partings.parting_entry(self.game_id, spot, kind, said.seats)
        if spot.seq < self.chain.next_seq or self.finished:
            again = self.parted is spot  # our own ending of this slot, replaced: what it cut is what we keep
            gone = self._cut_to(spot.seq)
            spot.cut = spot.cut if again else gone
        self.chain.append(raw, log.entry_hash(raw), spot.at.accused, self.view.claimed_step())
        self.last_progress = now
        self._events.append(ev.Accepted(spot.seq, raw, spot.at.accused, _type(raw), False))
        self.parted, spot.ended = spot, (kind, said.seats)
        outcome = self.view.outcome  # an `end` slot: the result was decided, and stands
        scored = None if outcome is None else tuple(outcome.winners)
        self.enter(Stage.OVER)
        self._finish(partings.result(self.rules, spot, kind, said.seats, self.view.totals(), scored))

    def _revive(self, said: partings.Revive, now: float) -> None:
        """The ending a slot's goodbyes (or stops) made is void: a goodbye in it is (its signer signed on), or
        the awaited entry `said.answer` voids a stop. The chain goes back to what the ending cut, the slot's
        other endings are judged again, and the answer is taken."""
        spot = said.parting
        if self.parted is spot and self.result is not None and self.result.at == spot.seq:
            ending = self.entries[spot.seq]
            self._rebuild([*self.entries[:spot.seq], *(r for r in spot.cut if _type(r) not in msg.ENDINGS)])
            self._events.append(ev.Superseded(spot.seq, (ending,)))
            if said.answer is not None:
                self.take(said.answer, now)
            self._rejudge(spot.seq, now)
        elif said.answer is not None:
            self.take(said.answer, now)

    def _rejudge(self, seq: int, now: float) -> None:
        """The ending at slot `seq` was taken back (or one there turned out void): what else its notes prove
        ends the game there, the strongest holding (a claim's certificate or stalled ending; the goodbyes
        that hold, or the stops)."""
        if not 0 < seq <= self.chain.next_seq:
            return
        prev = log.entry_hash(self.entries[seq - 1])
        slot = self.claims.slots.get((seq, prev))
        found, missing = (None, ()) if slot is None else slots.standing(slot, self.seats)
        if slot is not None and found in (slots.Standing.CERTIFIED, slots.Standing.STALLED):
            self._carry([slots.End(slot, found, missing)], now)
        spot = self.partings.spots.get((seq, prev))
        if spot is not None:
            spot.ended = spot.ended if self.parted is spot else None
            self._carry(self.partings.judge(self.view, spot), now)

    def _lapse(self, said: partings.Lapse, now: float) -> None:
        """A proposal to stop no longer pauses us: every wait starts again now."""
        self.last_progress = max(self.last_progress, now)
        self._events.append(ev.StopLapsed(said.parting.seq, said.by))

    def _cut_to(self, seq: int) -> tuple[bytes, ...]:
        """An ending takes slot `seq`: our chain is cut back to it, rebuilt as on a resume; what it held from
        there on is superseded (reported, kept in our records)."""
        superseded = tuple(self.entries[seq:])
        self._rebuild(self.entries[:seq])
        if superseded:
            self._events.append(ev.Superseded(seq, superseded))
        return superseded

    def _rebuild(self, entries: list[bytes]) -> None:
        """Our chain made of `entries` (entries we took before), rebuilt as on a resume: cut back for an
        ending, or given back what an ending that turned out void had cut. What we keep of our own: the
        records, the claims and partings, the events still to report, the clock."""
        fresh = Table(
            self.entries[0], self.identity, entropy=self._entropy, secrets=self.secrets,
            entries=entries, timeouts=self.timeouts, now=self.clock, proofs=self.proofs,
            checked=True, syncing=True, makers=self.makers,
        )
        fresh.chain.records, fresh.chain.known = self.chain.records, self.chain.known
        keep = {"claims", "partings", "_events", "_outgoing", "syncing", "clock", "_clock", "restoring"}
        for name, value in vars(fresh).items():
            if name not in keep:
                setattr(self, name, value)
        self.view = View(self)
        self._clock.forget_patience()

    # ================================================================= receiving
    def _flush(self) -> list[ev.Event]:
        events, self._events = self._events, []
        return events

#: What each output does to the table, by its type: the one table of how what a machine says changes it. A
#: handler that returns outputs asks another machine, whose answer is carried out next (the boss's wiring).
CARRY: Mapping[type, Callable[[Table, Any, float], object]] = {
    # where the game goes, and what our caller hears
    out.Enter: lambda t, o, now: t.enter(o.stage, o.order),
    out.Report: lambda t, o, now: t._events.append(o.event),
    out.Halt: lambda t, o, now: t.halt(o.violation, o.at),
    out.Complete: lambda t, o, now: t._complete(),
    out.Known: lambda t, o, now: t.chain.known.update(o.raws),
    # the opening and the hand in play
    out.Begin: lambda t, o, now: t._begin(o.game),
    out.NewHand: lambda t, o, now: t._start_hand(),
    out.ChallengeDue: lambda t, o, now: t._keep(o),
    hand.OwnSecrets: lambda t, o, now: t._keep(o),
    hand.PublicRecord: lambda t, o, now: t._keep(o),
    hand.LeadChallenged: lambda t, o, now: t._keep(o),
    hand.Dealt: lambda t, o, now: hand.deal_all(t.view, t._own_cards()),
    hand.PileDealt: lambda t, o, now: drawpile.dealt(t.view),
    hand.PileKeysIn: lambda t, o, now: drawpile.keys_in(t.view),
    # our timers, and entries for slots behind us
    Timer: lambda t, o, now: t.claims.timer(t.view, o.wait),
    Write: lambda t, o, now: t._send(o.message),
    late.Late: lambda t, o, now: t.claims.late(t.view, o.slot, o.raw),
    # the claims, and their endings
    slots.Note: lambda t, o, now: t._note(o),
    slots.Send: lambda t, o, now: t._outgoing.append(ev.Outgoing(o.slot, o.raw)),
    slots.Held: lambda t, o, now: t._events.append(ev.Noted(o.slot, o.raw, o.seat, _type(o.raw))),
    slots.Take: lambda t, o, now: t.take(o.raw, now),
    slots.End: lambda t, o, now: abandonment.settle(t.view, o),
    slots.Reopen: lambda t, o, now: t._reopen(o.slot, o.raw, now),
    abandonment.Ending: lambda t, o, now: t._end(o, now),
    # the players' own word: goodbyes and stops, and their endings
    partings.Early: lambda t, o, now: t.claims.keep_early(t.view, o.seat, o.seq, o.raw),
    partings.Part: lambda t, o, now: t._part(o, now),
    partings.Revive: lambda t, o, now: t._revive(o, now),
    partings.Lapse: lambda t, o, now: t._lapse(o, now),
}


def _type(raw: bytes) -> str:
    return str(log.validate_header(log.open_envelope(raw).payload).type)
