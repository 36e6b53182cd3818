"""p2pspades.lobby: how players take seats at a networked table and agree on its genesis, as pure machines.

`HostLobby` and `GuestLobby` are sans-IO, like `table.Table`: no sockets, clocks or randomness of their own
(frames, time and random ids are passed in; frames to send are taken out). `net/lobby.py` drives them over
ZeroMQ. The seat map values (`LobbySeat`, `TableInfo`, `LobbyResult`) are shared with the lobby screen.
"""

from p2pspades.lobby.machine import (
    CONNECT_TIMEOUT,
    IDLE_TIMEOUT,
    KEEPALIVE,
    LOBBY_VERSION,
    MAX_LOBBY_FRAME,
    Changed,
    Dropped,
    GenesisMaker,
    GuestLobby,
    HostLobby,
    LobbyEvent,
    Proposed,
    Send,
    Stage,
    Started,
    Withdrawn,
    open_frame,
    seal,
)
from p2pspades.lobby.seats import (
    NAME_LIMIT,
    LobbyError,
    LobbyResult,
    LobbySeat,
    TableInfo,
    TableRefused,
    check_endpoint,
    check_key,
    check_name,
    distinct_name,
)

__all__ = [
    "CONNECT_TIMEOUT",
    "IDLE_TIMEOUT",
    "KEEPALIVE",
    "LOBBY_VERSION",
    "MAX_LOBBY_FRAME",
    "NAME_LIMIT",
    "Changed",
    "Dropped",
    "GenesisMaker",
    "GuestLobby",
    "HostLobby",
    "LobbyError",
    "LobbyEvent",
    "LobbyResult",
    "LobbySeat",
    "Proposed",
    "Send",
    "Stage",
    "Started",
    "TableInfo",
    "TableRefused",
    "Withdrawn",
    "check_endpoint",
    "check_key",
    "check_name",
    "distinct_name",
    "open_frame",
    "seal",
]
