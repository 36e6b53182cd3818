"""p2pspades.net: the only layer that touches the network (ZeroMQ, zeroconf) and a game's files on disk.

`Mesh` links the seats (CurveZMQ, a ZAP allow-list of the seated keys), `LobbyHost`/`join_table` drive the
pure lobby machines of `net/lobby_machine.py` over ZeroMQ, `Advertiser`/`browse` find tables on the LAN,
`GameStore` keeps a game's log, secrets and seat map, and `Peer` drives a table machine over all of it
(`start_game`, `resume_game`). The commands compose them: `session` (`HostedTable`, `join_game`), `group`
(`LocalGroup`, the peers one process runs), `seats` (identities, bots, `Seat`) and `resume` (`find_resumable`,
`resume_seats`). The wire formats are specified in protocol/network.md.
"""

from p2pspades.net.auth import BadKey, CurveKeys, curve_public_key, transport_keys
from p2pspades.net.discovery import (
    SERVICE_TYPE,
    Advertiser,
    DiscoveryError,
    TableAd,
    browse,
    find_table,
    local_address,
    parse_endpoint,
)
from p2pspades.net.frames import BadFrame, Entries, Entry, Get, Hello, Message, Ping, Pong
from p2pspades.net.group import LocalGroup, Settings
from p2pspades.net.lobby import LobbyHost, join_table, peers_of
from p2pspades.net.lobby_seats import LobbyError, LobbyResult, LobbySeat, TableInfo, TableRefused
from p2pspades.net.mesh import LinkDown, LinkUp, Mesh, MeshError, MeshEvent, PeerAddress, Received, Refused
from p2pspades.net.peer import Peer, Player, Timing, resume_game, start_game
from p2pspades.net.resume import Resumable, find_resumable, resume_seats
from p2pspades.net.seats import Seat, SessionError, bot_seats, make_bot
from p2pspades.net.session import HostedTable, join_game
from p2pspades.net.status import ClaimShown, Phase, Status
from p2pspades.net.store import (
    GameStore,
    LocalSeat,
    OurLog,
    PeersFile,
    StoreError,
    data_home,
    games_of,
    list_games,
    our_logs,
)

__all__ = [
    "SERVICE_TYPE",
    "Advertiser",
    "BadFrame",
    "BadKey",
    "ClaimShown",
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
    "OurLog",
    "Peer",
    "PeerAddress",
    "PeersFile",
    "Phase",
    "Ping",
    "Player",
    "Pong",
    "Received",
    "Refused",
    "Resumable",
    "Seat",
    "SessionError",
    "Settings",
    "Status",
    "StoreError",
    "TableAd",
    "TableInfo",
    "TableRefused",
    "Timing",
    "bot_seats",
    "browse",
    "curve_public_key",
    "data_home",
    "find_resumable",
    "find_table",
    "games_of",
    "join_game",
    "join_table",
    "list_games",
    "local_address",
    "make_bot",
    "our_logs",
    "parse_endpoint",
    "peers_of",
    "resume_game",
    "resume_seats",
    "start_game",
    "transport_keys",
]
