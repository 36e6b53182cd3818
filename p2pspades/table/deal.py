"""The cryptographic deal of one hand, as one peer (or an outside verifier) sees it.

It records every seat's commitment, shuffle, lock and published keys, opens the cards this peer owns, checks
plays as they come, and at the end of the hand checks every seat's steps against the revealed seeds. The first
step that differs from what the seat published names the cheater. Pure: no I/O, no randomness. Beside it: the
first-dealer draw (`Opening`), where a draw pile stands (`DrawPile`), and how a table runs its proof checks
(`ProofRunner`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from p2pspades import crypto
from p2pspades.checks import Check
from p2pspades.crypto import passing
from p2pspades.errors import N_, Detail, RemoteError
from p2pspades.rules import Card, RuleSet, Suit

DRAW_HAND = 0  # the "hand number" of the first-dealer draw's secret (hands count from 1)

#: One proof check of an entry: returns if the proof verifies, raises `crypto.BadProof` if it does not.
ProofCheck = Callable[[], None]
#: How a table runs its proof checks. The default, `check_now`, runs each one at once. The offline verifier
#: may hand them to other processes and settle their outcomes later (`audit/parallel.py`); the table stays
#: pure either way.
ProofRunner = Callable[[ProofCheck], None]


def check_now(check: ProofCheck) -> None:
    """Run a proof check at once: a proof that does not verify raises while its entry is applied."""
    check()


@dataclass
class Opening:
    """The first-dealer draw: each seat's commitment, then its revealed seed."""

    commits: dict[int, bytes] = field(default_factory=dict)
    reveals: dict[int, bytes] = field(default_factory=dict)


class DrawPile:
    """Rule deal "draw": where the pile is, the position of the card the next keys are for."""

    def __init__(self) -> None:
        self.position = 0

    def keys_due(self) -> list[int]:
        """The positions each key holder publishes now: the pile's next card."""
        return [self.position]

def check_scalar(seat: int, key: bytes) -> bytes:
    """A key from `seat` (a deal key or a play key), refused unless canonical and nonzero: a violation of the
    `key` check naming the seat (PROTOCOL.md §4.5, §7.2), like a key that does not match its commitment."""
    try:
        return crypto.check_scalar(key)
    except RemoteError as exc:
        raise RemoteError(Check.KEY, exc.detail, seat) from None


@dataclass(frozen=True)
class PassRecord:
    """Rule `nil_pass`: one `pass` entry: who passed which positions to whom, the sealed keys, its entry."""

    seat: int
    partner: int
    positions: tuple[int, ...]
    sealed: tuple[bytes, ...]
    entry: int


@dataclass(frozen=True)
class DealFault:
    """The first step of a hand that a seat did not perform as its seed says, and the entry that holds it."""

    seat: int
    check: Check
    detail: str
    entry: int | None = None


class HandDeal:
    """Crypto state of one hand: decks after each step, published keys, owners of positions, plays."""

    def __init__(self, rules: RuleSet, game_id: bytes, hand: int, dealer: int) -> None:
        self.rules = rules
        self.game_id = game_id
        self.hand = hand
        self.dealer = dealer
        self.seats = rules.players
        self.deck_cards: tuple[Card, ...] = rules.deck
        self.n = len(self.deck_cards)
        #: seat order for every all-seats step: from the dealer's left, clockwise
        self.order: tuple[int, ...] = tuple((dealer + 1 + i) % self.seats for i in range(self.seats))
        self.commits: dict[int, bytes] = {}
        self.seeds: dict[int, bytes] = {}
        self.shuffles: list[tuple[int, list[bytes]]] = []
        self.locks: list[tuple[int, list[bytes]]] = []
        #: keys[j][seat]: every key published for position j (deal keys and play keys)
        self.keys: list[dict[int, bytes]] = [{} for _ in range(self.n)]
        #: owner of each position: fixed by the deal order, or handed out one by one from a draw pile. It is
        #: the position's key seat for good (the one seat whose lock key for it the deal leaves unpublished);
        #: who holds it now is `holder(j)`, which the nil card pass changes
        self.owner: list[int | None] = [None] * self.n
        #: rule `nil_pass`: the positions passed, to their new holder; each seat's `E` and the entry of its
        #: commit; the passes in order; the keys of the positions passed to us, opened
        self.moved: dict[int, int] = {}
        self.pass_publics: dict[int, bytes] = {}
        self.commit_entries: dict[int, int] = {}
        self.passes: list[PassRecord] = []
        self.received_keys: dict[int, bytes] = {}
        #: (position, key seat) -> the seat that published that key in a play, when it is not the key seat
        self.key_publishers: dict[tuple[int, int], int] = {}
        if rules.deal == "all":
            for j in range(self.n):
                self.owner[j] = self.order[j % self.seats]
        self.played: set[int] = set()
        self.opened: dict[int, Card] = {}  # positions this peer has opened (own cards, plays)
        self.challenge: tuple[int, int, str] | None = None  # (challenger, the challenge's entry, why)
        #: the sequence number of the entry of each shuffle and lock (in order) and of each published key
        self.shuffle_entries: list[int] = []
        self.lock_entries: list[int] = []
        self.key_entries: dict[tuple[int, int], int] = {}  # (position, seat) -> entry
        #: protocol version 2: each seat's `S = s·B` and key commitments `P_j` (protocol/crypto.md §13)
        self.shuffle_commits: dict[int, bytes] = {}
        self.key_commits: dict[int, tuple[bytes, ...]] = {}

    # ----------------------------------------------------------------- the deck
    def context(self, seat: int) -> bytes:
        return crypto.hand_context(self.game_id, self.hand, seat)

    def card_points(self) -> list[bytes]:
        return [crypto.card_point(c.code) for c in self.deck_cards]

    def shuffle_input(self) -> list[bytes]:
        return self.shuffles[-1][1] if self.shuffles else self.card_points()

    def lock_input(self) -> list[bytes]:
        return self.locks[-1][1] if self.locks else self.shuffles[-1][1]

    @property
    def final_deck(self) -> list[bytes]:
        return self.locks[-1][1]

    def holder(self, j: int) -> int | None:
        """Who holds position `j` now: its owner, unless the nil card pass moved it."""
        return self.moved.get(j, self.owner[j])

    def positions_of(self, seat: int) -> list[int]:
        """The positions `seat` holds (after any nil card pass), ascending."""
        return [j for j in range(self.n) if self.holder(j) == seat]

    def dealt_to(self, seat: int) -> list[int]:
        """The positions dealt to `seat`, of which it is the key seat, ascending."""
        return [j for j in range(self.n) if self.owner[j] == seat]

    def check_deck(self, seat: int, deck: Sequence[bytes], step: str) -> None:
        """Shape checks anyone can do at once: size and no duplicated ciphertext."""
        if len(deck) != self.n:
            why = Detail(N_("{count} points where the deck has {n}"), count=len(deck), n=self.n)
            raise RemoteError(Check(step), why, seat)
        if len(set(deck)) != self.n:
            why = Detail(N_("a ciphertext appears twice (duplicated or replaced card)"))
            raise RemoteError(Check(step), why, seat)

    # ----------------------------------------------------------------- keys and cards
    def add_keys(
        self, seat: int, positions: Sequence[int], keys: Sequence[bytes], expected: Sequence[int]
    ) -> None:
        if list(positions) != list(expected):
            raise RemoteError(
                Check.KEYS, Detail(N_("keys for positions {positions}, expected {expected}"),
                                   positions=list(positions), expected=list(expected)), seat
            )
        if len(keys) != len(positions):
            why = Detail(N_("the number of keys does not match the positions"))
            raise RemoteError(Check.KEYS, why, seat)
        for k in keys:
            check_scalar(seat, k)
        for j, k in zip(positions, keys, strict=True):
            self.keys[j][seat] = k

    def check_keys(self, seat: int, positions: Sequence[int], keys: Sequence[bytes]) -> None:
        """Version 2: every key against the seat's commitment `P_j` (`key` check, naming the seat)."""
        commitments = self.key_commits[seat]
        for j, k in zip(positions, keys, strict=True):
            if not crypto.check_key(k, commitments[j]):
                why = Detail(N_("the key for position {j} does not match the seat's P_{j}"), j=j)
                raise RemoteError(Check.KEY, why, seat)

    def played_cards(self) -> set[Card]:
        return {self.opened[j] for j in self.played}

    def void_claim(
        self, seat: int, position: int, card: Card, led: Suit | None
    ) -> tuple[list[int], list[Card]]:
        """The statement of a void claim (protocol/crypto.md §17, PROTOCOL.md §4.5): the positions `seat`
        still holds besides `position`, ascending, and the cards of the led suit not played yet, in deck
        order. The suits are the rule set's (`RuleSet.order`: with deuces high the 2D is a spade).
        Empty lists when `card` follows the led suit (or leads): no claim."""
        suit = self.rules.order.suit
        if led is None or suit(card) == led:
            return [], []
        positions = [j for j in self.positions_of(seat) if j not in self.played and j != position]
        gone = self.played_cards()
        cards = [c for c in self.deck_cards if suit(c) == led and c not in gone]
        return positions, cards

    def void_positions(self, seat: int, positions: Sequence[int]) -> list[crypto.VoidPosition]:
        """Each position with its key seat's P_j and its residue Z_j (every other seat's key removed). The
        key seat is `seat` but for a position passed to it (PROTOCOL.md §7.6)."""
        out = []
        for j in positions:
            key_seat = self.owner[j]
            assert key_seat is not None
            others = [k for s, k in self.keys[j].items() if s != key_seat]
            residue = crypto.void_residue(self.final_deck[j], others)
            out.append(crypto.VoidPosition(j, self.key_commits[key_seat][j], residue))
        return out

    def keys_due(self, seat: int) -> list[int]:
        """Deal-all: the positions whose deal keys `seat` must publish (all it does not own)."""
        return [j for j in range(self.n) if self.owner[j] != seat]

    def open_position(self, j: int, extra: Mapping[int, bytes] | None = None) -> Card | None:
        keys = dict(self.keys[j])
        if extra:
            keys.update(extra)
        card = crypto.open_card(self.final_deck[j], list(keys.values()), self.table())
        return card

    def open_own(
        self, seat: int, secrets: crypto.HandSecrets, positions: Sequence[int]
    ) -> dict[int, Card] | None:
        """Open our own positions with everybody's published keys and ours. None if any fails to open."""
        points = [self.final_deck[j] for j in positions]
        keys = [[*self.keys[j].values(), secrets.lock_keys[j]] for j in positions]
        cards = crypto.open_cards(points, keys, self.table())
        if any(c is None for c in cards):
            return None
        out = {j: c for j, c in zip(positions, cards, strict=True) if c is not None}
        self.opened.update(out)
        return out

    def own_cards(self, seat: int, secrets: crypto.HandSecrets) -> tuple[Card | None, ...] | None:
        """Our own cards (we are `seat`), opened with every deal key, in the order of our positions; None if
        one does not open (an invalid point at one of our positions: a lock or a deal key is wrong)."""
        positions = self.positions_of(seat)
        try:
            mine = self.open_own(seat, secrets, positions)
        except RemoteError:  # an invalid point at one of our positions: a lock was poisoned
            return None
        return None if mine is None else tuple(mine[j] for j in positions)

    def position_of(self, seat: int, card: Card) -> int | None:
        """The position of `card` among the unplayed ones `seat` holds, as far as we opened them."""
        for j, c in self.opened.items():
            if c == card and self.holder(j) == seat and j not in self.played:
                return j
        return None

    _tables: ClassVar[dict[tuple[str, ...], Mapping[bytes, Card]]] = {}

    def table(self) -> Mapping[bytes, Card]:
        key = tuple(c.code for c in self.deck_cards)
        found = HandDeal._tables.get(key)
        if found is None:
            found = HandDeal._tables[key] = crypto.card_table(self.deck_cards)
        return found

    # ----------------------------------------------------------------- the audit
    def recompute(self, skip: int | None = None) -> tuple[DealFault | None, tuple[Card, ...]]:
        """Check every seat's steps against its revealed seed.

        Returns the first fault (or None) and, when there is none, the card at every position.

        The check is collective first: the composed permutation says which card sits at each position, so the
        deck after all shuffles must be `S * card` and the final deck `K_j * card`, where S is the product of
        the shuffle scalars and K_j of the position's lock keys: 2n multiplications however many seats there
        are. A single seat that deviates anywhere changes one of those two decks (every later honest step is
        a bijection, and no seat has a second step of the same kind to hide it in). Only then is every step
        recomputed in order, which names the seat. `skip` (this peer's own seat) is trusted there.
        """
        secrets = {s: crypto.HandSecrets.derive(self.seeds[s], self.context(s), self.n) for s in self.order}
        index = list(range(self.n))
        # after a challenge the shuffles and locks may stop anywhere: only the published steps are checked
        for seat, _ in self.shuffles:
            perm = secrets[seat].permutation
            index = [index[p] for p in perm]
        cards = tuple(self.deck_cards[i] for i in index)
        wrong_e = [seat for seat, e in sorted(self.pass_publics.items())
                   if e != passing.pass_public(self.seeds[seat], self.context(seat))]
        if wrong_e:  # the commits come first (the order of the entries)
            seat = min(wrong_e, key=lambda s: self.commit_entries.get(s, -1))
            detail = Detail(N_("the pass key E is not the one the revealed seed gives"))
            return DealFault(seat, Check.PASS, detail, self.commit_entries.get(seat)), ()
        if not self._collective_ok(secrets, index):
            return self._name_the_fault(secrets, skip), ()
        # the keys come after the decks (the order of the entries): a wrong key in the earliest entry first
        wrong = [
            (self.key_entries.get((j, seat), -1), j, seat)
            for j in range(self.n)
            for seat, key in self.keys[j].items()
            if key != secrets[seat].lock_keys[j]
        ]
        if wrong:
            entry, j, seat = min(wrong)
            found = None if entry < 0 else entry
            seat = self.key_publishers.get((j, seat), seat)
            why = Detail(N_("the key published for position {j} is wrong"), j=j)
            return DealFault(seat, Check.KEY, why, found), ()
        fault = self._check_passes(secrets)
        return (fault, ()) if fault is not None else (None, cards)

    def _check_passes(self, secrets: Mapping[int, crypto.HandSecrets]) -> DealFault | None:
        """Rule `nil_pass`: every sealed key against the one the seeds give (crypto.md §20)."""
        for p in self.passes:
            own = passing.pass_key(self.seeds[p.seat], self.context(p.seat))
            other = passing.pass_public(self.seeds[p.partner], self.context(p.partner))
            shared = passing.shared_point(own, other)
            for j, sealed in zip(p.positions, p.sealed, strict=True):
                key = secrets[p.seat].lock_keys[j]
                if passing.seal_key(key, shared, self.context(p.seat), p.partner, j) != sealed:
                    detail = Detail(N_("the key passed for position {j} is not the seat's lock key"), j=j)
                    return DealFault(p.seat, Check.PASS, detail, p.entry)
        return None

    def _collective_ok(self, secrets: Mapping[int, crypto.HandSecrets], index: Sequence[int]) -> bool:
        L = crypto.L
        points = self.card_points()
        total = 1
        for seat, _ in self.shuffles:
            total = total * crypto.scalar_to_int(secrets[seat].shuffle_scalar) % L
        s_total = crypto.scalar_from_int(total)
        try:
            if self.shuffles:
                shuffled = self.shuffles[-1][1]
                if any(crypto.mul(s_total, points[index[j]]) != shuffled[j] for j in range(self.n)):
                    return False
            if not self.locks:
                return True
            final = self.locks[-1][1]
            for j in range(self.n):
                k = 1
                for seat, _ in self.locks:
                    k = k * crypto.scalar_to_int(secrets[seat].lock_keys[j]) % L
                if crypto.mul(crypto.scalar_from_int(k), points[index[j]]) != final[j]:
                    return False
        except RemoteError:
            return False
        return True

    def _name_the_fault(self, secrets: Mapping[int, crypto.HandSecrets], skip: int | None) -> DealFault:
        """Recompute each shuffle and lock in order; the first that differs from what was published."""
        deck = self.card_points()
        stages = (
            (Check.SHUFFLE, self.shuffles, self.shuffle_entries, crypto.shuffle),
            (Check.LOCK, self.locks, self.lock_entries, crypto.lock),
        )
        for check, steps, entries, step in stages:
            for i, (seat, published) in enumerate(steps):
                if seat != skip:
                    try:
                        expected = step(deck, secrets[seat])
                    except RemoteError:
                        expected = []
                    if expected != published:
                        entry = entries[i] if i < len(entries) else None
                        detail = Detail(N_("the {check} is not what the revealed seed gives"), check=check)
                        return DealFault(seat, check, detail, entry)
                deck = published
        # every step matches its seed, so the collective check cannot have failed: this is unreachable
        # unless the library misbehaves; blame nobody in particular rather than a wrong seat
        why = Detail(N_("the deal does not add up although every step checks out"))
        return DealFault(self.order[0], Check.DEAL, why)
