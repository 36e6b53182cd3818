"""How the boss takes a frame and writes its own entries: the path of an entry through the table's machines.

`Receiving` is the half of `machine.Table` that moves a frame along (docs/architecture.md, "How an entry
travels"): `intake.route` says where it goes, a claim's or a parting's note goes to its machine, the next
entry of the chain is checked in turn and its effect applied (`EFFECTS`, the one table of the machine that
applies each message type), and what that frees is taken next; our own entries are made and taken the same
way. What the machines say comes back to `Table._carry`, the one place that changes the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from p2pspades import log
from p2pspades.checks import Check
from p2pspades.errors import N_, Detail, LocalError, RemoteError, detail_of
from p2pspades.rules import IllegalAction, RuleSet
from p2pspades.table import drawpile, hand, intake, late, opening, own, slots
from p2pspades.table import events as ev
from p2pspades.table import messages as msg
from p2pspades.table.chain import Chain, Frame
from p2pspades.table.claims import Claims
from p2pspades.table.deal import HandDeal
from p2pspades.table.makers import Makers
from p2pspades.table.partings import Parting, Partings
from p2pspades.table.stages import TRANSITIONS, Stage, Step, Who, engine_stage
from p2pspades.table.views import View

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


class Receiving:
    """The table's intake of frames and its own entries (the state they read is the table's: `Table`)."""

    rules: RuleSet
    seat: int | None
    chain: Chain
    claims: Claims
    partings: Partings
    makers: Makers
    view: View
    stage: Stage
    turn: int
    deal: HandDeal | None
    clock: float
    last_progress: float
    restoring: bool
    syncing: bool
    challenge_due: str | None
    parted: Parting | None
    _events: list[ev.Event]
    _outgoing: list[ev.Outgoing]
    _moving: tuple[Stage, type[msg.Message]] | None
    _step_applied: Step | None

    if TYPE_CHECKING:  # what the table gives: its chain, and the one place that changes it
        @property
        def entries(self) -> list[bytes]: ...
        @property
        def head(self) -> bytes: ...
        @property
        def finished(self) -> bool: ...
        @property
        def hand_number(self) -> int: ...
        @property
        def pausing(self) -> bool: ...
        def _carry(self, outputs: Iterable[Any], now: float) -> bool: ...
        def enter(self, stage: Stage, order: Iterable[int] = ()) -> None: ...
        def halt(self, violation: ev.Violation, at: int | None = None) -> None: ...

    # ================================================================= receiving
    def take(self, raw: bytes, now: float) -> bool:
        """Check one frame and take it if it holds (`intake.route` says where it goes): True if it is now
        ours (on the chain, a claim's note, an entry held for a claim, an ending kept for later, a copy)."""
        route = intake.route(self.view, raw)
        signed = intake.signed_entry(route)
        said = [] if signed is None else self.partings.signed(*signed)
        if said:  # a goodbye its seat signed for that slot or an earlier one is void (§5.10)
            self._carry(said, now)
            route = intake.route(self.view, raw)  # (an ending it made may have been taken back)
        if isinstance(route, intake.Refused):
            self._events.extend(route.events)
        elif isinstance(route, intake.Early):  # (an early entry is not ours yet; an early ending is kept)
            self._events.append(kept := self.chain.keep_early(route.seq, raw, route.seat, route.signed))
            return isinstance(kept, ev.Wanted) and not route.signed
        elif isinstance(route, intake.Note):
            return self._take_note(route, now)
        elif isinstance(route, intake.Ending):
            return self._take_ending(route.frame, now)
        elif isinstance(route, intake.Behind):
            after = self.partings.behind(self.view, self.parted, route.frame.header, raw)
            self._carry(late.competing(self.view, route.frame.header, raw) if after is None else after,
                        self.clock)
        elif isinstance(route, intake.AfterEnd):
            self._carry(late.after_the_end(self.view, route.frame.header, raw), self.clock)
        elif isinstance(route, intake.Next):
            return self._take_next(route.frame, now)
        return isinstance(route, intake.Copy)

    def _take_note(self, route: intake.Note, now: float) -> bool:
        """A claim's note (`claims.py`), or a goodbye, a stop, a decline (`partings.py`)."""
        if route.header.type in msg.PARTINGS:
            return self._carry(self.partings.note(self.view, route.env, route.header, now), now)
        return self._carry(self.claims.note(self.view, route.env, route.header), now)

    def _take_ending(self, frame: Frame, now: float) -> bool:
        """A certificate, a stalled ending, a `left` or a `stopped` entry from a peer: a bundle of notes,
        which we take one by one; it holds if they end the game at its slot with exactly its bytes (it is
        canonical)."""
        env, header = frame.env, frame.header
        if header.type in msg.PARTING_ENDINGS:
            bundled, notes = self.partings.ending(self.view, env, header)
            self._carry([slots.Take(raw) for raw in notes] if isinstance(notes, list) else [notes], now)
        else:
            bundled, outputs = self.claims.ending(self.view, env, header)
            self._carry(outputs, now)
        seq = header.seq
        if bundled and seq < self.chain.next_seq and self.chain.entries[seq] == env.raw:
            return True
        if not self.finished:
            detail = Detail(N_("an ending for slot {seq} whose notes do not all hold"), seq=seq)
            self._events.append(ev.Dropped(ev.DropKind.REFUSED, header.seat, seq, detail=detail))
        return False

    def _take_next(self, frame: Frame, now: float, own: bool = False) -> bool:
        """The next entry of the chain, chained to our head (`own`: ours, to send if it holds): in turn, and
        holding (or held for a claim)."""
        at = self.view.now()
        slot = None if own or at is None else self.claims.on(at)
        if at is not None and slot is not None and (frame.header.seat == at.accused or at.anyone):
            instead = self.claims.arriving(self.view, slot, frame.raw)
            if instead is not None:  # we voted: only a refusal releases it
                return self._carry(instead, now)
        if not self._accept(frame, now, own):
            return False
        if own:
            self._outgoing.append(ev.Outgoing(self.chain.next_seq - 1, frame.raw))
            self._carry(self.partings.signed(frame.header.seat, frame.header.seq), now)
        if at is not None and not self.finished:
            self._carry(self.claims.took(self.view, at, frame.raw, own), now)
        self._after_append(now)
        return True

    def _after_append(self, now: float) -> None:
        """The chain grew: take what was waiting for it (entries that came early, notes for the new slot)."""
        nxt = self.chain.take_next()
        if nxt is not None and not self.finished:
            self.take(nxt, now)
        for raw in self.claims.take_early(self.chain.next_seq):  # (a goodbye's, a stop's too)
            self.take(raw, now)
        self.claims.forget_behind(self.chain.next_seq)
        self._carry(self.partings.moved(self.view, now), now)
        self.partings.forget_behind(self.chain.next_seq)

    def _accept(self, frame: Frame, now: float, own: bool) -> bool:
        """Check an entry in turn and apply it; append it to the chain if it holds, else name its seat."""
        header, raw = frame.header, frame.raw
        seat, kind, seq = header.seat, header.type, header.seq
        step, lead = self.view.step_for(header)
        if step is None:
            self._events.append(self.view.out_of_turn(header, raw))
            return False
        if lead is not None:  # the lowest club led after all: it applies where it was due
            self.enter(engine_stage(self.view.game, self.rules, self.deal))
        mark = len(self._events)
        self._step_applied = self.view.claimed_step()
        violation = self._effect(frame)
        if violation is not None:
            del self._events[mark:]
            self.halt(violation)
            return False
        self.chain.append(raw, frame.env.hash, seat, step)
        self.last_progress = now
        self._events.insert(mark, ev.Accepted(seq, raw, seat, kind, own))
        if lead is not None and not self.finished:
            lead.answered = seq
            self.halt(lead.refuted(seat, seq, self.entries[lead.entry], raw))
        return True

    def _effect(self, frame: Frame) -> ev.Violation | None:
        """Decode an entry and apply its effect: the violation it earns its signer, if it does not hold."""
        header, raw = frame.header, frame.raw
        seat, seq = header.seat, header.seq
        try:
            m = intake.decoded(self.view, frame)
            self._moving = (self.stage, type(m))
            if TRANSITIONS[self.stage].who is Who.IN_TURN:
                self.turn += 1  # the seat in turn has had it
            effect = next(EFFECTS[c] for c in type(m).__mro__ if c in EFFECTS)  # (a version 2 form: 1's)
            self._carry(effect(self.view, m, seat, seq), self.clock)
        except RemoteError as exc:
            return ev.Violation(seat, exc.check, exc.detail, seq, (raw,))
        except IllegalAction as exc:
            return ev.Violation(seat, Check.RULES, detail_of(exc), seq, (raw,))
        except LocalError:
            raise
        except Exception as exc:  # pragma: no cover - a check this machine lacks: the entry is still refused
            why = Detail(N_("the entry cannot be applied ({error})"), error=type(exc).__name__)
            return ev.Violation(seat, Check.PROTOCOL, why, seq, (raw,))
        finally:
            self._moving = None
        return None

    # ================================================================= our own entries
    def _advance(self) -> None:
        """Write every entry that is ours to write now, until a peer or our player must act."""
        while not self.finished and not self.restoring and not self.syncing and self.seat is not None:
            if self.pausing:
                return  # a proposal to stop at this slot is open: we hold our entry for it
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
        raw = self.view.sealed(m.to_fields(), self.chain.next_seq, self.head, self.hand_number)
        env = log.open_envelope(raw)
        self._take_next(Frame(env, log.validate_header(env.payload)), self.clock, own=True)
