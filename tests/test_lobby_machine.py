"""The lobby machines in memory: no sockets, no clock; frames and time are handed over by the test."""

from __future__ import annotations

import math
from typing import Any

import pytest

from p2pspades import crypto, log
from p2pspades.describe.tables import proposal
from p2pspades.net.lobby_guest import GuestLobby
from p2pspades.net.lobby_machine import (
    IDLE_TIMEOUT,
    KEEPALIVE,
    SILENCE_SHOWN,
    Changed,
    Dropped,
    HostLobby,
    LobbyEvent,
    Proposed,
    Stage,
    Started,
    Withdrawn,
)
from p2pspades.net.lobby_messages import LOBBY_VERSION, Refuse, Table, open_frame
from p2pspades.net.lobby_seats import Downgrade, LobbyError, TableRefused
from p2pspades.reasons import Refusal
from p2pspades.rules import preset
from p2pspades.table import make_genesis, read_genesis
from p2pspades.table.messages import PROTOCOL_VERSION

LOBBY_ID = bytes(range(16))


class Room:
    """One host machine and its guests, wired by hand: `pump` carries every queued frame until quiet."""

    def __init__(self, players: int = 4, version: int = PROTOCOL_VERSION) -> None:
        rules = preset("partnership") if players == 4 else preset("two")
        self.host = HostLobby(crypto.Identity.generate(), "Room", rules, "Ann", "tcp://127.0.0.1:7000",
                              LOBBY_ID, version=version)
        self.guests: dict[bytes, GuestLobby] = {}
        self.host_events: list[LobbyEvent] = []
        self.guest_events: dict[bytes, list[LobbyEvent]] = {}
        self.failed: dict[bytes, LobbyError] = {}
        self.now = 0.0

    def guest(self, name: str, owner: GuestLobby | None = None,
              allow_version: int = PROTOCOL_VERSION) -> GuestLobby:
        routing = f"r{len(self.guests)}".encode()
        guest = GuestLobby(crypto.Identity.generate(), name, f"tcp://127.0.0.1:{7100 + len(self.guests)}",
                           "127.0.0.1:5555", self.now, owner=None if owner is None else owner.identity.public,
                           allow_version=allow_version)
        self.guests[routing] = guest
        self.guest_events[routing] = []
        return guest

    def pump(self) -> None:
        moved = True
        while moved:
            moved = False
            for routing, guest in self.guests.items():
                for send in guest.take_outgoing():
                    moved = True
                    self.host_events += self.host.receive(routing, send.frame, self.now)
            for send in self.host.take_outgoing():
                moved = True
                if send.to in self.failed:
                    continue
                try:
                    self.guest_events[send.to] += self.guests[send.to].receive(send.frame, self.now)
                except LobbyError as exc:
                    self.failed[send.to] = exc

    def routing(self, guest: GuestLobby) -> bytes:
        return next(r for r, g in self.guests.items() if g is guest)

    def events_of(self, guest: GuestLobby) -> list[LobbyEvent]:
        return self.guest_events[self.routing(guest)]


def seal(kind: str, identity: crypto.Identity, **fields: Any) -> bytes:
    """A signed lobby frame of any fields, well-formed or not."""
    return log.seal({"t": kind, "v": LOBBY_VERSION, "k": identity.public, **fields}, identity)


def proposed(events: list[LobbyEvent]) -> Proposed:
    found = [e for e in events if isinstance(e, Proposed)]
    assert found, events
    return found[-1]


def test_joiners_are_seated_proposed_to_and_started_after_every_accept() -> None:
    room = Room(4)
    bo, cy = room.guest("Bo"), room.guest("Cy")
    room.pump()
    assert [s.name for s in room.host.info().seated] == ["Ann", "Bo", "Cy"]
    assert bo.seat == 1 and cy.seat == 2
    room.host.add_bot("Robo", crypto.Identity.generate().public, "tcp://127.0.0.1:7003")
    room.pump()
    assert room.host.full and bo.waiting_for_host, "full, and the host has not started: the host decides"
    assert not any(isinstance(e, Proposed) for e in room.events_of(bo))
    room.host.start(bytes(16))
    room.pump()
    offer = proposed(room.events_of(bo)).result
    assert offer.seat == 1 and [s.name for s in offer.table.seated] == ["Ann", "Bo", "Cy", "Robo"]
    bo.answer(True)
    room.pump()
    assert not any(isinstance(e, Started) for e in room.host_events), "Cy has not accepted yet"
    cy.answer(True)
    room.pump()
    (started,) = [e for e in room.host_events if isinstance(e, Started)]
    assert started.result.genesis == offer.genesis and room.host.stage is Stage.STARTED
    assert any(isinstance(e, Started) for e in room.events_of(bo))


def test_a_person_may_think_forever_while_keep_alives_flow_but_silence_unseats() -> None:
    room = Room(2)
    bo = room.guest("Bo")
    room.pump()
    for _ in range(100):  # 100 keep-alive periods: far longer than any time-out
        room.now += KEEPALIVE
        bo.tick(room.now)
        room.host.tick(room.now)
        room.pump()
    assert bo.seat == 1 and room.host.info().at(1) is not None
    room.now += IDLE_TIMEOUT + 1  # Bo's machine went away: no keep-alive
    room.host.tick(room.now)
    room.pump()
    assert room.host.info().at(1) is None
    assert "no word from you" in str(room.failed[room.routing(bo)])
    cy = room.guest("Cy")
    room.pump()
    assert cy.seat == 1
    cy.tick(room.now + IDLE_TIMEOUT - 1)  # quiet, but not for long enough
    with pytest.raises(LobbyError, match=r"the host at 127\.0\.0\.1:5555 stopped answering"):
        cy.tick(room.now + IDLE_TIMEOUT + 1)  # the host went away


def test_a_silent_peer_is_counted_down_to_being_given_up_on_from_its_first_missed_keep_alive() -> None:
    """Nobody waits without an end: a host counts down each joiner that stopped answering to the moment its
    seat is freed, and a joiner counts down a silent host to the moment it leaves; an answer stops it."""
    room = Room(2)
    bo = room.guest("Bo")
    room.pump()
    start = room.now
    assert room.host.silent(start) == {} and bo.silent(start) is None
    assert room.host.silent(start + SILENCE_SHOWN) == {}, "one keep-alive late is not silence yet"
    counted = [room.host.silent(start + t).get(1) for t in (SILENCE_SHOWN + 0.5, 6.0, 11.2, IDLE_TIMEOUT)]
    assert counted == [math.ceil(IDLE_TIMEOUT - SILENCE_SHOWN - 0.5), 6, 1, 0]
    assert [bo.silent(start + t) for t in (SILENCE_SHOWN + 0.5, 6.0, 11.2)] == counted[:3]
    room.now = start + 6.0
    bo.tick(room.now)
    room.pump()  # a keep-alive and its answer: both sides heard from again
    assert room.host.silent(room.now) == {} and bo.silent(room.now) is None
    lonely = GuestLobby(crypto.Identity.generate(), "Jo", "tcp://127.0.0.1:7200", "10.0.0.9:4000", 0.0)
    assert lonely.silent(4.0) is None, "before any answer the wait is the connect time-out, said as it starts"


def test_no_answer_at_all_is_said_in_one_line() -> None:
    lonely = GuestLobby(crypto.Identity.generate(), "Jo", "tcp://127.0.0.1:7200", "10.0.0.9:4000", 0.0)
    lonely.tick(4.0)
    with pytest.raises(LobbyError, match=r"^no table answers at 10\.0\.0\.9:4000$"):
        lonely.tick(5.5)


def test_a_joiners_bot_sits_on_its_side_and_leaves_with_it() -> None:
    room = Room(4)
    bo = room.guest("Bo")
    room.pump()
    bobs_bot = room.guest("Bo's bot", owner=bo)
    room.pump()
    info = room.host.info()
    assert bo.seat == 1 and bobs_bot.seat == 3, "partners sit opposite"
    bot_seat = info.at(3)
    assert bot_seat is not None and bot_seat.owner == bo.identity.public and info.owner_name(bot_seat) == "Bo"
    room.host.remove(1)
    room.pump()
    assert [s.seat for s in room.host.info().seated] == [0]
    refusal = room.failed[room.routing(bobs_bot)]
    assert isinstance(refusal, TableRefused) and "Bo, who runs this bot, left" in str(refusal)


def test_host_bots_default_to_the_hosts_side_and_move_between_sides() -> None:
    room = Room(4)
    keys = [crypto.Identity.generate().public for _ in range(3)]
    room.host.add_bot("North", keys[0], "tcp://127.0.0.1:7002")
    assert room.host.info().seat_of(keys[0]) == 2
    room.host.add_bot("East", keys[1], "tcp://127.0.0.1:7003")
    room.host.move(2, 1)
    assert room.host.info().seat_of(keys[0]) == 1
    room.host.move(1, 3)  # swaps with the bot sitting there
    assert (room.host.info().seat_of(keys[0]), room.host.info().seat_of(keys[1])) == (3, 1)
    bo = room.guest("Bo")
    room.pump()
    assert bo.seat == 2
    with pytest.raises(LobbyError, match="holds no bot"):
        room.host.move(1, 2)  # Bo is a person: only bots are moved
    with pytest.raises(LobbyError, match="cannot be emptied"):
        room.host.remove(0)


def test_names_are_made_distinct() -> None:
    room = Room(4)
    guests = [room.guest("Ann"), room.guest("Ann"), room.guest("Bo")]
    room.pump()
    assert [s.name for s in room.host.info().seated] == ["Ann", "Ann (2)", "Ann (3)", "Bo"]
    assert guests[0].seat == 1


def test_a_change_after_the_proposal_withdraws_it_and_a_new_game_is_proposed() -> None:
    room = Room(4)
    bo, cy, di = room.guest("Bo"), room.guest("Cy"), room.guest("Di")
    room.pump()
    room.host.start(b"\x01" * 16)
    room.pump()
    first = proposed(room.events_of(bo)).result
    di.leave()
    room.pump()
    assert any(isinstance(e, Withdrawn) for e in room.events_of(bo))
    assert room.host.stage is Stage.OPEN and room.host.proposal is None
    bot = crypto.Identity.generate().public
    room.host.add_bot("Robo", bot, "tcp://127.0.0.1:7009")
    room.host.start(b"\x02" * 16)
    room.pump()
    second = proposed(room.events_of(cy)).result
    assert second.game_id != first.game_id and second.table.seat_of(bot) == 3


def test_hostile_frames_change_nothing() -> None:
    room = Room(2)
    thief, victim = crypto.Identity.generate(), crypto.Identity.generate()
    forged_payload = seal("join", thief, l=LOBBY_ID, name="V", e="tcp://127.0.0.1:1")
    forged = forged_payload.replace(thief.public, victim.public)
    for frame in (b"", b"\x00garbage", forged, b"x" * 70_000,
                  seal("join", thief, l=bytes(16), name="V", e="tcp://127.0.0.1:1"),
                  seal("join", thief, l=LOBBY_ID, name="\x07bell", e="tcp://127.0.0.1:1"),
                  seal("join", thief, l=LOBBY_ID, name="V", e="tcp://0.0.0.0:1"),
                  seal("join", thief, l=LOBBY_ID, name="V", e="tcp://127.0.0.1:1", o=victim.public),
                  seal("accept", thief, l=LOBBY_ID, x=bytes(32))):
        events = room.host.receive(b"evil", frame, 0.0)
        assert not any(isinstance(e, Changed) for e in events)
    assert [s.seat for s in room.host.info().seated] == [0]
    assert any(isinstance(e, Dropped) for e in room.host.receive(b"evil", b"\x00garbage", 0.0))


def test_a_signed_join_with_a_bad_field_is_refused_saying_which() -> None:
    room = Room(2)
    joiner = crypto.Identity.generate()
    room.host.receive(b"r", seal("join", joiner, l=LOBBY_ID, name="\x07bell", e="tcp://127.0.0.1:1"), 0.0)
    (send,) = room.host.take_outgoing()
    assert send.to == b"r"
    refusal = open_frame(send.frame).message
    assert isinstance(refusal, Refuse) and refusal.why is Refusal.BAD_NAME
    assert str(TableRefused(refusal.why)) == "the host refused: a name is 1..32 printable characters"
    assert room.host.info().at(1) is None


def test_a_malformed_frame_signed_by_the_host_ends_the_lobby_in_one_line() -> None:
    room = Room(2)
    bo = room.guest("Bo")
    room.pump()
    bad = r"^the host sent a bad go: a genesis hash is 32 bytes, not a bytes of length 3$"
    with pytest.raises(LobbyError, match=bad):
        bo.receive(seal("go", room.host.identity, x=b"abc"), 0.0)
    stranger = crypto.Identity.generate()  # not the host: dropped, whatever it says
    assert isinstance(bo.receive(seal("go", stranger, x=b"abc"), 0.0)[0], Dropped)


def test_a_genesis_that_differs_from_the_seat_map_is_declined() -> None:
    room = Room(2)
    stranger = crypto.Identity.generate()
    room.host.make_genesis = lambda game_id, seats: make_genesis(
        game_id, preset("two"), [seats[0], ("Bo", stranger.public)], room.host.identity, "Room")
    room.guest("Bo")
    room.pump()
    room.host.start(bytes(16))
    room.pump()
    (failure,) = room.failed.values()
    assert "seats differ from the seat map" in str(failure)
    assert room.host.info().at(1) is None, "the joiner declined and left"


def test_a_hosts_bot_can_be_renamed_but_nobody_else() -> None:
    room = Room(4)
    key = crypto.Identity.generate().public
    room.host.add_bot("North", key, "tcp://127.0.0.1:7002")
    bo = room.guest("Bo")
    room.pump()
    room.host.move(2, 3)
    room.host.rename(3, "Bo")  # a name already taken is made distinct
    room.pump()
    info = room.host.info()
    renamed = info.at(3)
    assert renamed is not None and renamed.name == "Bo (2)"
    assert bo.info == info, "the joiner sees the new name"
    for seat in (0, 1, 2):
        with pytest.raises(LobbyError, match="not one of the host's bots"):
            room.host.rename(seat, "X")


def test_a_second_program_with_a_seated_key_is_refused_naming_profile() -> None:
    room = Room(4)
    bo = room.guest("Bo")
    room.pump()
    twin = GuestLobby(bo.identity, "Bo", "tcp://127.0.0.1:7300", "127.0.0.1:5555", room.now)
    room.guests[b"twin"], room.guest_events[b"twin"] = twin, []
    room.pump()
    refusal = room.failed[b"twin"]
    assert isinstance(refusal, TableRefused) and "--profile" in str(refusal)
    assert bo.seat == 1 and room.routing(bo) not in room.failed, "the seated program keeps its seat"
    # a program that restarts after its first one went quiet takes the seat back (a new endpoint)
    room.now += KEEPALIVE + 2
    again = GuestLobby(bo.identity, "Bo", "tcp://127.0.0.1:7301", "127.0.0.1:5555", room.now)
    room.guests[b"again"], room.guest_events[b"again"] = again, []
    room.pump()
    assert again.seat == 1 and room.host.info().at(1) is not None
    seat = room.host.info().at(1)
    assert seat is not None and seat.endpoint == "tcp://127.0.0.1:7301"


# ------------------------------------------------------------------ no downgrade
def assert_downgrade_refused(failure: LobbyError) -> None:
    assert isinstance(failure, Downgrade) and (failure.version, failure.allowed) == (1, PROTOCOL_VERSION)
    text = str(failure)
    assert "\n" not in text and "protocol version 1" in text and "--allow-protocol 1" in text


def test_a_table_announced_as_version_1_is_refused_before_the_joiner_takes_a_seat() -> None:
    room = Room(2, version=1)
    room.guest("Bo")
    room.pump()
    (failure,) = room.failed.values()
    assert_downgrade_refused(failure)
    assert room.host.info().at(1) is None, "the joiner never asked for a seat"


def test_a_version_1_genesis_behind_a_version_2_announcement_is_declined() -> None:
    """A modified host announces version 2 and then proposes a genesis of version 1 (no proofs at all)."""
    room = Room(2)
    room.host.make_genesis = lambda game_id, seats: make_genesis(
        game_id, preset("two"), seats, room.host.identity, "Room", version=1)
    bo = room.guest("Bo")
    room.pump()
    assert bo.info is not None and bo.info.version == PROTOCOL_VERSION
    room.host.start(bytes(16))
    room.pump()
    (failure,) = room.failed.values()
    assert_downgrade_refused(failure)
    assert room.host.info().at(1) is None and room.host.stage is Stage.OPEN, "declined: the seat is free"


def test_a_joiner_that_allows_version_1_plays_it_and_sees_the_version() -> None:
    room = Room(2, version=1)
    bo = room.guest("Bo", allow_version=1)
    room.pump()
    assert bo.info is not None and bo.info.version == 1
    room.host.start(bytes(16))
    room.pump()
    offer = proposed(room.events_of(bo)).result
    assert read_genesis(offer.genesis)[1].version == 1
    assert "protocol version 1" in proposal(offer)
    bo.answer(True)
    room.pump()
    assert any(isinstance(e, Started) for e in room.events_of(bo)) and not room.failed


def test_allowing_version_1_still_refuses_a_genesis_other_than_the_announced_one() -> None:
    room = Room(2)
    room.host.make_genesis = lambda game_id, seats: make_genesis(
        game_id, preset("two"), seats, room.host.identity, "Room", version=1)
    room.guest("Bo", allow_version=1)
    room.pump()
    room.host.start(bytes(16))
    room.pump()
    (failure,) = room.failed.values()
    assert "protocol version differs from the announced one" in str(failure)


@pytest.mark.parametrize("version", [3, 0, True, "2", None])
def test_a_table_naming_a_version_nobody_speaks_is_refused_in_one_line(version: object) -> None:
    room = Room(2)
    guest = room.guest("Bo")
    guest.take_outgoing()
    info = Table.of(room.host.info()).fields()
    frame = seal("table", room.host.identity, **{**info, "pv": version})
    with pytest.raises(LobbyError, match=r"the host sent a bad table: protocol version .* is not supported"):
        guest.receive(frame, 0.0)
