"""p2pspades.net: the only layer that touches the network (ZeroMQ, zeroconf) and a game's files on disk.

`Mesh` links the seats (CurveZMQ, a ZAP allow-list of the seated keys), `LobbyHost`/`join_table` seat the
players and agree on the genesis, `Advertiser`/`browse` find tables on the LAN, `GameStore` keeps a game's
log, secrets and seat map, and `Peer` drives a table machine over all of it (`start_game`, `resume_game`).
`session` composes them the way the commands use them: `HostedTable` (a table with bot seats), `join_game`,
`find_resumable`/`resume_seats`, each giving a `LocalGroup` of peers to run.
The wire formats are specified in protocol/network.md.
"""

from p2pspades.net.auth import BadKey, CurveKeys, curve_public_key, transport_keys
from p2pspades.net.discovery import SERVICE_TYPE, Advertiser, DiscoveryError, TableAd, browse, local_address
from p2pspades.net.frames import BadFrame, Entries, Entry, Get, Hello, Message, Ping, Pong
from p2pspades.net.lobby import (
    LobbyError,
    LobbyHost,
    LobbyResult,
    LobbySeat,
    TableInfo,
    TableRefused,
    join_table,
)
from p2pspades.net.mesh import LinkDown, LinkUp, Mesh, MeshError, MeshEvent, PeerAddress, Received, Refused
from p2pspades.net.peer import Peer, Player, Status, Timing, resume_game, start_game
from p2pspades.net.session import (
    BotSeat,
    HostedTable,
    LocalGroup,
    Resumable,
    Seat,
    SessionError,
    Settings,
    find_resumable,
    find_table,
    host_bots,
    join_game,
    make_bot,
    resume_seats,
)
from p2pspades.net.store import (
    GameStore,
    LocalSeat,
    PeersFile,
    SeatRecord,
    StoreError,
    data_home,
    games_of,
    list_games,
)

__all__ = [
    "SERVICE_TYPE",
    "Advertiser",
    "BadFrame",
    "BadKey",
    "BotSeat",
    "CurveKeys",
    "DiscoveryError",
    "Entries",
    "Entry",
    "GameStore",
    "Get",
    "Hello",
    "HostedTable",
    "LinkDown",
    "LinkUp",
    "LobbyError",
    "LobbyHost",
    "LobbyResult",
    "LobbySeat",
    "LocalGroup",
    "LocalSeat",
    "Mesh",
    "MeshError",
    "MeshEvent",
    "Message",
    "Peer",
    "PeerAddress",
    "PeersFile",
    "Ping",
    "Player",
    "Pong",
    "Received",
    "Refused",
    "Resumable",
    "Seat",
    "SeatRecord",
    "SessionError",
    "Settings",
    "Status",
    "StoreError",
    "TableAd",
    "TableInfo",
    "TableRefused",
    "Timing",
    "browse",
    "curve_public_key",
    "data_home",
    "find_resumable",
    "find_table",
    "games_of",
    "host_bots",
    "join_game",
    "join_table",
    "list_games",
    "local_address",
    "make_bot",
    "resume_game",
    "resume_seats",
    "start_game",
    "transport_keys",
]
