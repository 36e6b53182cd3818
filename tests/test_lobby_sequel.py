"""The lobby of a game that follows another (PROTOCOL.md §4.1.1, network.md §6): the `after` announced and
signed, the old seats kept, a continuation closed to strangers, and a joiner that checks the claim."""

from __future__ import annotations

import pytest
from test_lobby_machine import LOBBY_ID, Room, proposed, seal

from p2pspades import crypto
from p2pspades.net.lobby_guest import GuestLobby
from p2pspades.net.lobby_machine import HostLobby, Proposed
from p2pspades.net.lobby_messages import BadLobbyMessage, Start, Table, open_frame
from p2pspades.net.lobby_seats import TableRefused
from p2pspades.rules import SideTotal, preset
from p2pspades.table import CONTINUATION, REMATCH, After, make_genesis, read_genesis

OLD = bytes(range(100, 116))
CARRIED = After(OLD, CONTINUATION, (SideTotal(120, 3), SideTotal(80, 1)), 2)


def sequel_room(after: After, only: bool = False) -> tuple[Room, list[GuestLobby]]:
    """A four-seat room whose host announces `after`; three guests made, their old seats 3, 1, 2."""
    room = Room(4)
    guests = [room.guest(name) for name in ("Bo", "Cy", "Di")]
    room.guests.clear()  # joined one by one below
    room.host.after = after
    room.host.places = {g.identity.public: seat for g, seat in zip(guests, (3, 1, 2), strict=True)}
    room.host.only_places = only
    return room, guests


def arrive(room: Room, guest: GuestLobby) -> None:
    routing = f"g{len(room.guests)}".encode()
    room.guests[routing] = guest
    room.guest_events[routing] = []
    room.pump()


def test_the_old_seats_come_back_whatever_the_order_and_a_newcomer_takes_a_seat_nobody_keeps() -> None:
    room, (bo, _, di) = sequel_room(After(OLD, REMATCH))
    room.host.places = {bo.identity.public: 3, di.identity.public: 2}  # Cy's seat is nobody's now
    newcomer = room.guest("Ed")
    room.guests.popitem()
    arrive(room, newcomer)
    assert newcomer.seat == 1, "seats 2 and 3 are kept for Di and Bo"
    arrive(room, di)
    arrive(room, bo)
    assert (bo.seat, di.seat) == (3, 2) and room.host.full


def test_a_stranger_at_a_rematch_takes_a_kept_seat_when_no_other_is_free() -> None:
    room, (bo, cy, _) = sequel_room(After(OLD, REMATCH))
    arrive(room, bo)
    assert bo.seat == 3
    stranger = room.guest("Ed")
    room.guests.popitem()
    arrive(room, stranger)
    assert stranger.seat == 1, "seats 1 and 2 are both kept, for Cy and Di: a rematch still seats a stranger"
    arrive(room, cy)
    assert cy.seat == 2, "Cy's seat is taken: Cy gets the one left"


def test_a_continuation_refuses_a_stranger_and_signs_the_after() -> None:
    room, (bo, cy, di) = sequel_room(CARRIED, only=True)
    stranger = room.guest("Ed")
    room.guests.popitem()
    arrive(room, stranger)
    failed = room.failed[room.routing(stranger)]
    assert isinstance(failed, TableRefused) and "only its players may sit" in str(failed)
    for guest in (bo, cy, di):
        arrive(room, guest)
    assert room.host.full
    seen = [e for e in room.events_of(bo) if hasattr(e, "info")]
    assert seen and all(e.info.after == CARRIED for e in seen)
    room.host.start(bytes(16))
    room.pump()
    offer = proposed(room.events_of(bo)).result
    assert read_genesis(offer.genesis)[1].after == CARRIED


def test_a_joiner_that_holds_the_old_log_refuses_other_scores_in_one_line() -> None:
    room, (bo, _, _) = sequel_room(CARRIED)
    bo.check_after = lambda info: (None if info.after is not None and info.after.totals == CARRIED.totals
                                   else "your log of that game ends at 100–80")
    arrive(room, bo)
    assert bo.seat == 3, "the scores match our log: we sit down"
    room2, (cy, _, _) = sequel_room(After(OLD, CONTINUATION, (SideTotal(150, 3), SideTotal(80, 1)), 2))
    cy.check_after = bo.check_after
    arrive(room2, cy)
    failed = room2.failed[room2.routing(cy)]
    assert str(failed) == "your log of that game ends at 100–80" and "\n" not in str(failed)
    assert cy.seat is None and room2.host.info().seat_of(cy.identity.public) is None


def test_a_genesis_that_follows_another_game_than_announced_is_declined() -> None:
    host_id = crypto.Identity.generate()
    rules = preset("two")
    other = After(bytes(range(16)), REMATCH)
    host = HostLobby(host_id, "Room", rules, "Ann", "tcp://127.0.0.1:7000", LOBBY_ID,
                     after=After(OLD, REMATCH))
    host.make_genesis = lambda game_id, seats: make_genesis(game_id, rules, seats, host_id, "Room",
                                                            after=other)
    room = Room(2)
    room.host = host
    bo = room.guest("Bo")
    room.pump()
    assert bo.seat == 1
    host.start(bytes(16))
    room.pump()
    failed = room.failed[room.routing(bo)]
    assert "the game it follows differs from the announced one" in str(failed)
    assert not any(isinstance(e, Proposed) for e in room.events_of(bo))


def test_an_after_in_a_table_frame_is_checked_at_the_edge() -> None:
    host = crypto.Identity.generate()
    rules = preset("two")
    good = Table(LOBBY_ID, "Room", 2, rules, (), after=After(OLD, REMATCH))
    assert open_frame(good.encode(host)).message == good
    assert "a" not in Table(LOBBY_ID, "Room", 2, rules, ()).fields()
    fields = good.fields()
    three = {"g": OLD, "k": CONTINUATION, "sc": [1, 2, 3], "bg": [0, 0, 0], "d": 0}
    over = {"g": OLD, "k": CONTINUATION, "sc": [600, 0], "bg": [0, 0], "d": 0}
    for bad, words in [({"g": OLD, "k": "again"}, "kind"), (three, "3 starting"), (over, "already over"),
                       ([1], "is a map")]:
        with pytest.raises(BadLobbyMessage, match=words):
            open_frame(seal("table", host, **{**fields, "a": bad}))
    start = Start(LOBBY_ID, "Room", 2, rules, (), b"g", after=After(OLD, REMATCH))
    assert open_frame(start.encode(host)).message == start
