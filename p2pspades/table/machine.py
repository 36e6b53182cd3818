"""The table protocol of one peer, without I/O.

Feed it raw entries (`receive`); it checks each one completely (size, encoding, game, signature, sequence and
chain, turn, fields, cryptography, rules), appends the good ones to its chain, and says what happened. On its
own turns it writes its entries itself (commitments, shuffles, locks, keys, reveals) or, for a decision, waits
for `decide()`. Time comes in as numbers; randomness comes from the injected `entropy` function.

With `identity=None` the machine is an *observer*: it holds no seat and no cards, and is what the offline
verifier replays a log through.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from p2pspades import crypto, log
from p2pspades.errors import LocalError, RemoteError
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
from p2pspades.table.deal import HandDeal, check_scalar
from p2pspades.table.events import (
    Accepted,
    Decision,
    DecisionKind,
    Dropped,
    Event,
    GameEnded,
    HandAudited,
    Info,
    Outgoing,
    Rejected,
    SecretCreated,
    Violation,
    Wanted,
)
from p2pspades.table.genesis import read_genesis
from p2pspades.table.messages import check_fields

#: how far ahead of our head we buffer entries that arrived early
WINDOW = 256
DEFAULT_TIMEOUTS: Mapping[str, float] = {"auto": 60.0, "decision": 600.0}
DRAW_HAND = 0  # the "hand number" of the first-dealer draw secret
ANY_SEAT = -1  # a step any seat may take: leading the lowest club, which only its holder can open


@dataclass(frozen=True)
class Step:
    """Who may append the next entry, and of which types (the first is the normal one)."""

    seat: int
    types: tuple[str, ...]
    decision: DecisionKind | None = None


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
    ) -> None:
        env, self.setup = read_genesis(genesis)
        self.rules = self.setup.rules
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
        self._secrets: dict[int, bytes] = dict(secrets or {})
        self.timeouts = dict(DEFAULT_TIMEOUTS, **(timeouts or {}))

        self.entries: list[bytes] = [genesis]
        self._known: set[bytes] = {genesis}
        self._signers: list[int] = [0]
        self.head: bytes = env.hash
        self._pending: dict[int, bytes] = {}
        self._outgoing: list[Outgoing] = []
        self._events: list[Event] = []
        self._last_progress = now

        self.status = "running"  # running | complete | abandoned | violation
        self.finished = False
        self.violation: Violation | None = None
        self.stage = "accept"  # accept | dcommit | dreveal | hand | end | abandon
        self._i = 1
        self._draw_commits: dict[int, bytes] = {}
        self._draw_reveals: dict[int, bytes] = {}
        self.first_dealer: int | None = None
        self.game: Game | None = None
        self.deal: HandDeal | None = None
        self._hstage = ""
        self._keys_from: list[int] = []
        self._draw_position = 0
        self._my: crypto.HandSecrets | None = None
        self._challenge_due: str | None = None
        self.abandoned_by: int | None = None
        self._abandon_order: list[int] = []
        self.results: dict[int, tuple[list[int], list[int]]] = {}

        self._restoring = True
        for i, raw in enumerate(entries):
            if i == 0 and raw == genesis:
                continue
            before = len(self.entries)
            self._receive(raw, now)
            if len(self.entries) == before and not self.finished:
                why = "; ".join(str(e) for e in self._events if isinstance(e, Dropped | Rejected | Violation))
                raise LocalError(f"log entry {i} does not apply: {why or 'out of order'}")
        self._restoring = False
        self._advance()

    # ================================================================= public API
    def receive(self, raw: bytes, now: float = 0.0) -> list[Event]:
        """Take an entry from the network. Never raises on hostile input."""
        try:
            self._receive(raw, now)
            self._advance()
        except RemoteError as exc:  # pragma: no cover - every remote check is caught where it is made
            self._events.append(Dropped(f"refused: {exc}"))
        return self._flush()

    def pending_decision(self) -> Decision | None:
        """Our player's turn, if it is one: what to decide, the seat's view, the legal choices."""
        step = self._expected()
        if (
            step is None
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
            self._send({"t": "blind", "b": action.declare})
        elif isinstance(action, Bid):
            self._send({"t": "bid", "b": action.tricks})
        elif isinstance(action, Draw):
            self._send({"t": "draw", "x": action.keep})
        elif isinstance(action, Play):
            j = self._my_position(action.card)
            assert self._my is not None
            self._send({"t": "play", "j": j, "k": self._my.lock_keys[j]})
        else:  # pragma: no cover - legal actions of a decision are never chance steps
            raise LocalError(f"{action} is not a player's decision")
        self._advance()
        return self._flush()

    def tick(self, now: float) -> list[Event]:
        """Let time pass: a seat that keeps everybody waiting too long is abandoned."""
        step = self._expected()
        if self.finished or step is None or self.seat is None or step.seat in (self.seat, ANY_SEAT):
            return self._flush()
        limit = self.timeouts["decision" if step.decision else "auto"]
        if now - self._last_progress < limit or self.stage == "abandon":
            return self._flush()
        if self._abandon_starter(step.seat) == self.seat:
            self._send({"t": "abandon", "a": step.seat, "why": f"no {step.types[0]} within {limit:.0f} s"})
            self._advance()
        return self._flush()

    def take_outgoing(self) -> list[Outgoing]:
        out, self._outgoing = self._outgoing, []
        return out

    def waiting_for(self) -> tuple[int, str] | None:
        """Whose entry the table is waiting for, and of what type."""
        step = self._expected()
        return None if step is None else (step.seat, step.types[0])

    @property
    def hand_number(self) -> int:
        return 0 if self.game is None else self.game.hand_number

    # ================================================================= receiving
    def _flush(self) -> list[Event]:
        out, self._events = self._events, []
        return out

    def _receive(self, raw: bytes, now: float) -> None:
        if raw in self._known:
            return  # a copy we already hold (peers forward every entry): nothing to check twice
        if len(raw) > log.MAX_ENVELOPE:
            self._events.append(Dropped(f"oversized entry ({len(raw)} bytes)"))
            return
        try:
            env = log.open_envelope(raw)
            header = log.validate_header(env.payload)
        except RemoteError as exc:
            self._events.append(Dropped(f"malformed entry: {exc.detail}"))
            return
        if header.game_id != self.game_id:
            self._events.append(Dropped("an entry of another game"))
            return
        if not 0 <= header.seat < self.seats:
            self._events.append(Dropped(f"an entry from seat {header.seat}, which does not exist"))
            return
        if not crypto.verify_signature(self.public_keys[header.seat], env.signature, env.payload_raw):
            self._events.append(Dropped(f"an entry claiming seat {header.seat} with a bad signature"))
            return
        seq = header.seq
        if seq < len(self.entries):
            if self._signers[seq] == header.seat:
                self._halt(
                    Violation(
                        header.seat,
                        "equivocation",
                        f"two different entries signed by seat {header.seat} for sequence number {seq}",
                        seq,
                        (self.entries[seq], raw),
                    )
                )
            else:
                self._events.append(Dropped(f"stale entry {seq} from seat {header.seat}"))
            return
        if self.finished:
            self._events.append(Dropped("the game is over"))
            return
        if seq > len(self.entries):
            if seq - len(self.entries) <= WINDOW and len(self._pending) < WINDOW:
                self._pending.setdefault(seq, raw)
                self._events.append(Wanted(len(self.entries)))
            else:
                self._events.append(Dropped(f"entry {seq} is too far ahead"))
            return
        if header.prev != self.head:
            self._events.append(Dropped(f"entry {seq} does not chain to our entry {seq - 1}"))
            self._events.append(Wanted(seq - 1))
            return
        self._accept(env, header, raw, now, own=False)
        nxt = self._pending.pop(len(self.entries), None)
        if nxt is not None and not self.finished:
            self._receive(nxt, now)

    def _accept(self, env: log.Envelope, header: log.Header, raw: bytes, now: float, own: bool) -> None:
        seat, kind, seq, p = header.seat, header.type, header.seq, env.payload
        step = self._expected()
        allowed = step is not None and step.seat in (seat, ANY_SEAT) and kind in step.types
        if kind == "abandon" and not allowed:
            allowed = self._abandon_allowed(seat, p)
        if not allowed:
            want = "nothing" if step is None else f"seat {step.seat}'s {step.types[0]}"
            self._events.append(
                Rejected(seat, "turn", f"entry {seq} from seat {seat} is a {kind}; expected {want}", raw)
            )
            return
        try:
            check_fields(p, seat)
            if header.hand != self.hand_number:
                raise RemoteError(
                    "header", f"hand number {header.hand}, the game is in hand {self.hand_number}", seat
                )
            self._apply(kind, seat, seq, p)
        except RemoteError as exc:
            self._halt(Violation(seat, exc.check, exc.detail, seq, (raw,)))
            return
        except IllegalAction as exc:
            self._halt(Violation(seat, "rules", str(exc), seq, (raw,)))
            return
        self.entries.append(raw)
        self._known.add(raw)
        self._signers.append(seat)
        self.head = env.hash
        self._last_progress = now
        self._events.append(Accepted(seq, raw, seat, kind, own))
        self._after(kind, seat, seq, p)

    def _halt(self, violation: Violation) -> None:
        self.violation = violation
        self.status = "violation"
        self.finished = True
        self._events.append(violation)
        self._events.append(
            GameEnded(
                "violation",
                (),
                f"seat {violation.seat} failed the {violation.check} check: {violation.detail}",
            )
        )

    # ================================================================= whose turn
    def _expected(self) -> Step | None:
        if self.finished:
            return None
        n = self.seats
        if self.stage == "accept":
            return Step(self._i, ("accept",))
        if self.stage in ("dcommit", "dreveal", "end"):
            return Step(self._i, (self.stage,))
        if self.stage == "abandon":
            return (
                Step(self._abandon_order[self._i], ("abandon",))
                if self._i < len(self._abandon_order)
                else None
            )
        d, g = self.deal, self.game
        assert d is not None and g is not None
        hs = self._hstage
        if hs == "commit":
            return Step(d.order[len(d.commits)], ("commit",))
        if hs == "reveal":
            return Step(d.order[len(d.seeds)], ("reveal",))
        if hs == "shuffle":
            return Step(d.order[len(d.shuffles)], ("shuffle", "challenge"))
        if hs == "lock":
            return Step(d.order[len(d.locks)], ("lock", "challenge"))
        if hs == "keys":
            return Step(self._keys_from[0], ("keys", "challenge"))
        seat = g.current_seat
        if seat is None and g.phase is Phase.PLAY:
            # rule "low_club": only the seat holding the lowest club knows it leads; only its key opens it
            return Step(ANY_SEAT, ("play",), DecisionKind.PLAY)
        assert seat is not None and 0 <= seat < n
        if g.phase is Phase.BLIND:
            return Step(seat, ("blind", "challenge"), DecisionKind.BLIND_NIL)
        if g.phase is Phase.DRAW:
            return Step(seat, ("draw", "challenge"), DecisionKind.DRAW)
        if g.phase is Phase.BID:
            return Step(seat, ("bid", "challenge"), DecisionKind.BID)
        if g.phase is Phase.PLAY:
            return Step(seat, ("play", "challenge"), DecisionKind.PLAY)
        raise AssertionError(f"no step for phase {g.phase}")  # pragma: no cover

    def _abandon_starter(self, stalled: int) -> int:
        return (stalled + 1) % self.seats

    def _abandon_allowed(self, seat: int, p: Mapping[str, Any]) -> bool:
        step = self._expected()
        stalled = p.get("a")
        return (
            self.stage != "abandon"
            and step is not None
            and stalled == step.seat
            and seat == self._abandon_starter(step.seat)
        )

    # ================================================================= applying entries
    def _apply(self, kind: str, seat: int, seq: int, p: Mapping[str, Any]) -> None:
        """Check an entry's content against the protocol, the cryptography and the rules; record it."""
        g, d = self.game, self.deal
        if kind == "accept":
            return
        if kind == "dcommit":
            if seat == self.seat:
                r = self._secrets.get(DRAW_HAND)
                if r is None or crypto.draw_commitment(self.game_id, seat, r) != p["c"]:
                    raise LocalError("the secret of the first-dealer draw is lost; this peer cannot go on")
            self._draw_commits[seat] = p["c"]
            return
        if kind == "dreveal":
            if crypto.draw_commitment(self.game_id, seat, p["r"]) != self._draw_commits[seat]:
                raise RemoteError("reveal", "the draw reveal does not match its commitment", seat)
            self._draw_reveals[seat] = p["r"]
            return
        if kind == "end":
            assert g is not None and g.outcome is not None
            winners, totals = list(g.outcome.winners), [t.score for t in g.totals]
            if p["w"] != winners or p["z"] != totals:
                raise RemoteError(
                    "end", f"claims winners {p['w']} totals {p['z']}; the game gave {winners} {totals}", seat
                )
            return
        if kind == "abandon":
            step = self._expected()
            stalled = self.abandoned_by if self.stage == "abandon" else (step.seat if step else None)
            if p["a"] != stalled:
                raise RemoteError(
                    "abandon", f"names seat {p['a']}, but the game waits for seat {stalled}", seat
                )
            return
        assert g is not None and d is not None
        if kind == "commit":
            if seat == self.seat:
                seed = self._secrets.get(g.hand_number)
                if seed is None or crypto.commitment(d.context(seat), seed) != p["c"]:
                    raise LocalError(f"the secret of hand {g.hand_number} is lost; this peer cannot go on")
                self._my = crypto.HandSecrets.derive(seed, d.context(seat), d.n)
            d.commits[seat] = p["c"]
        elif kind == "blind":
            g.apply(BlindNil(p["b"]))
        elif kind in ("shuffle", "lock"):
            d.check_deck(seat, p["d"], kind)
            (d.shuffles if kind == "shuffle" else d.locks).append((seat, list(p["d"])))
        elif kind == "keys":
            expected = d.keys_due(seat) if self.rules.deal == "all" else [self._draw_position]
            d.add_keys(seat, p["j"], p["k"], expected)
        elif kind == "draw":
            g.apply(Draw(p["x"]))
            d.owner[self._draw_position if p["x"] else self._draw_position + 1] = seat
        elif kind == "bid":
            g.apply(Bid(p["b"]))
        elif kind == "play":
            self._apply_play(g, d, seat, p["j"], p["k"])
        elif kind == "challenge":
            d.challenge = (seat, p["e"], p["why"])
        elif kind == "reveal":
            if crypto.commitment(d.context(seat), p["r"]) != d.commits[seat]:
                raise RemoteError("reveal", "the revealed seed does not match the commitment", seat)
            d.seeds[seat] = p["r"]

    def _apply_play(self, g: Game, d: HandDeal, seat: int, j: int, key: bytes) -> None:
        if not 0 <= j < d.n or d.owner[j] != seat:
            raise RemoteError("ownership", f"position {j} is not one of seat {seat}'s cards", seat)
        if j in d.played:
            raise RemoteError("replay", f"position {j} was already played", seat)
        check_scalar(seat, key)
        card = d.open_position(j, {seat: key})
        if card is None:
            raise RemoteError("forged card", f"the key for position {j} does not open a card", seat)
        g.apply(Play(card), seat)
        d.keys[j][seat] = key
        d.played.add(j)
        d.opened[j] = card

    def _after(self, kind: str, seat: int, seq: int, p: Mapping[str, Any]) -> None:
        """Move the protocol on once an entry is in the chain."""
        n = self.seats
        if kind in ("accept", "dcommit", "dreveal", "end"):
            self._i += 1
            if self._i < n:
                return
            self._i = 0
            if kind == "accept":
                self.stage = "dcommit"
            elif kind == "dcommit":
                self.stage = "dreveal"
            elif kind == "dreveal":
                randomness = crypto.draw_randomness(self.game_id, [self._draw_reveals[s] for s in range(n)])
                self.first_dealer = choose_first_dealer(self.rules, randomness).dealer
                self.game = Game(self.rules, self.first_dealer)
                self.stage = "hand"
                self._events.append(Info(f"seat {self.first_dealer} drew the highest card and deals first"))
                self._start_hand()
            else:
                self.status, self.finished = "complete", True
                g = self.game
                assert g is not None and g.outcome is not None
                self._events.append(GameEnded("complete", tuple(g.outcome.winners)))
            return
        if kind == "abandon":
            if self.stage != "abandon":
                self.stage, self.abandoned_by = "abandon", p["a"]
                self._abandon_order = [(p["a"] + 1 + i) % n for i in range(n - 1)]
                self._i = 1
                self.status = "abandoned"
                self._events.append(GameEnded("abandoned", (), f"seat {p['a']} stopped answering"))
            else:
                self._i += 1
            if self._i >= len(self._abandon_order):
                self.finished = True
            return
        g, d = self.game, self.deal
        assert g is not None and d is not None
        if kind == "commit":
            if len(d.commits) == n:
                self._hstage = "engine" if g.phase is Phase.BLIND else "shuffle"
        elif kind == "lock":
            if len(d.locks) == n:
                if self.rules.deal == "all":
                    self._hstage, self._keys_from = "keys", list(d.order)
                else:
                    g.apply(Deal(tuple(() for _ in range(n)), tuple(None for _ in range(d.n))))
                    self._hstage = "engine"
                    self._next_draw()
        elif kind == "shuffle":
            if len(d.shuffles) == n:
                self._hstage = "lock"
        elif kind == "keys":
            self._keys_from.pop(0)
            if self.rules.deal == "all":
                if not self._keys_from:
                    self._deal_all(g, d)
            elif not self._keys_from:
                self._hstage = "engine"
                self._learn_draw(g, d, self._draw_position)
        elif kind == "draw":
            if p["x"]:
                self._draw_position += 2
                self._next_draw()
            else:
                self._draw_position += 1
                self._keys_from = [s for s in d.order if s != seat]
                self._hstage = "keys"
        elif kind == "play":
            card = d.opened[p["j"]]
            self._events.append(Info(f"seat {seat} played {card.code}: card verified"))
            if g.phase is Phase.REVEAL:
                self._hstage = "reveal"
        elif kind == "challenge":
            self._events.append(Info(f"seat {seat} challenges the deal: {p['why']}; every seat reveals"))
            self._hstage = "reveal"
        elif kind == "reveal":
            if len(d.seeds) == n:
                self._audit_hand(g, d)
        elif kind == "blind" and g.phase is not Phase.BLIND:
            self._hstage = "shuffle"

    def _start_hand(self) -> None:
        g = self.game
        assert g is not None
        self.deal = HandDeal(self.rules, self.game_id, g.hand_number, g.dealer)
        self._hstage = "commit"
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
                mine = d.open_own(seat, self._my, positions)
                if mine is None:
                    self._challenge_due = "some of my cards do not open: a lock or a deal key is wrong"
                    hands.append(tuple(None for _ in positions))
                else:
                    hands.append(tuple(mine[j] for j in positions))
            else:
                hands.append(tuple(None for _ in positions))
        g.apply(Deal(tuple(hands)))
        self._hstage = "engine"

    def _next_draw(self) -> None:
        """Draw pile: the next drawer needs the top card, so the other seats publish its keys."""
        g, d = self.game, self.deal
        assert g is not None and d is not None
        if g.phase is not Phase.DRAW:
            self._hstage = "engine"
            return
        drawer = g.current_seat
        self._keys_from = [s for s in d.order if s != drawer]
        self._hstage = "keys"

    def _learn_draw(self, g: Game, d: HandDeal, position: int) -> None:
        """All other keys for a stock position are out: its drawer opens it."""
        drawer = g.current_seat if position % 2 == 0 else d.owner[position]
        if drawer is not None and drawer == self.seat:
            assert self._my is not None
            opened = d.open_own(drawer, self._my, [position])
            if opened is None:
                self._challenge_due = f"stock card {position} does not open: a lock or a key is wrong"
            else:
                g.learn(position, opened[position])
        if position % 2 == 1:
            self._draw_position += 1
            self._next_draw()

    def _audit_hand(self, g: Game, d: HandDeal) -> None:
        """Every seat revealed: recompute the whole deal, then let the engine audit the play and score."""
        fault, cards = d.recompute(skip=self.seat if d.challenge is None else None)
        number = g.hand_number
        if d.challenge is not None:
            challenger, seq, why = d.challenge
            if fault is not None:
                self._halt(Violation(fault.seat, fault.check, fault.detail, seq))
            else:
                self._halt(
                    Violation(challenger, "challenge", f"false challenge ({why}): every step checks out", seq)
                )
            return
        if fault is not None:
            self._halt(Violation(fault.seat, fault.check, fault.detail, len(self.entries) - 1))
            return
        dealt = tuple(tuple(cards[j] for j in d.positions_of(s)) for s in range(self.seats))
        try:
            g.apply(Reveal(dealt))
        except IllegalAction as exc:  # the crypto checked out, so the plays cannot contradict the hands
            self._halt(Violation(d.order[-1], "reveal", str(exc), len(self.entries) - 1))
            return
        result = g.history[-1]
        found = tuple(
            Violation(v.seat, v.kind, v.detail, len(self.entries) - 1, halts=False) for v in result.violations
        )
        self._events.append(HandAudited(number, found))
        for v in found:
            self._events.append(v)
        if g.phase is Phase.GAME_OVER:
            assert g.outcome is not None
            self.stage, self._i = "end", 0
        else:
            self._start_hand()

    # ================================================================= our own entries
    def _advance(self) -> None:
        """Write every entry that is ours to write now, until a peer or our player must act."""
        while not self.finished and not self._restoring and self.seat is not None:
            step = self._expected()
            if step is None or step.seat != self.seat:
                return
            if self._challenge_due and "challenge" in step.types:
                self._send({"t": "challenge", "e": len(self.entries) - 1, "why": self._challenge_due[:200]})
                self._challenge_due = None
                continue
            if step.decision is not None:
                return
            payload = self._make(step.types[0])
            if payload is None:
                continue  # a problem was found: the loop sends a challenge instead
            self._send(payload)

    def _make(self, kind: str) -> dict[str, Any] | None:
        g, d, seat = self.game, self.deal, self.seat
        assert seat is not None
        if kind == "accept":
            return {"t": "accept"}
        if kind in ("dcommit", "dreveal"):
            r = self._secret(DRAW_HAND)
            if kind == "dcommit":
                return {"t": "dcommit", "c": crypto.draw_commitment(self.game_id, seat, r)}
            return {"t": "dreveal", "r": r}
        if kind == "abandon":
            return {
                "t": "abandon",
                "a": self.abandoned_by,
                "why": f"seat {self.abandoned_by} stopped answering",
            }
        if kind == "end":
            assert g is not None and g.outcome is not None
            return {"t": "end", "w": list(g.outcome.winners), "z": [t.score for t in g.totals]}
        assert g is not None and d is not None
        if kind == "commit":
            seed = self._secret(g.hand_number)
            return {"t": "commit", "c": crypto.commitment(d.context(seat), seed)}
        assert self._my is not None
        if kind in ("shuffle", "lock"):
            try:
                out = (
                    crypto.shuffle(d.shuffle_input(), self._my)
                    if kind == "shuffle"
                    else crypto.lock(d.lock_input(), self._my)
                )
            except RemoteError:
                self._challenge_due = f"the deck I received for my {kind} holds invalid points"
                return None
            return {"t": kind, "d": out}
        if kind == "keys":
            positions = d.keys_due(seat) if self.rules.deal == "all" else [self._draw_position]
            return {"t": "keys", "j": positions, "k": [self._my.lock_keys[j] for j in positions]}
        if kind == "reveal":
            return {"t": "reveal", "r": self._my.seed}
        raise AssertionError(f"no automatic entry of type {kind}")  # pragma: no cover

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

    def _send(self, fields: dict[str, Any]) -> None:
        assert self.identity is not None and self.seat is not None
        payload = {
            "g": self.game_id,
            "n": len(self.entries),
            "p": self.head,
            "s": self.seat,
            "h": self.hand_number,
            **fields,
        }
        raw = log.seal(payload, self.identity)
        env = log.open_envelope(raw)
        self._accept(env, log.validate_header(env.payload), raw, self._last_progress, own=True)
        if self.entries[-1] is raw:
            self._outgoing.append(Outgoing(len(self.entries) - 1, raw))

    def _my_position(self, card: Card) -> int:
        d = self.deal
        assert d is not None and self.seat is not None
        for j, c in d.opened.items():
            if c == card and d.owner[j] == self.seat and j not in d.played:
                return j
        raise LocalError(f"{card.code} is not in our hand")
