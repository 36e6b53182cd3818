"""p2pspades.ui: the full-screen prompt_toolkit game, the lobby screen and the replay viewer.

A driver owns a `UiState`, feeds it the table's events (`on_events`) and the table (`refresh`), decides for
our seat with `HumanPlayer(state)`, and runs `create_app(state)` alongside the game.
"""

from p2pspades.ui.app import create_app, create_layout, run_alongside
from p2pspades.ui.keys import create_key_bindings
from p2pspades.ui.lobby import confirm_table, create_lobby_app, run_lobby
from p2pspades.ui.lobby_model import LobbyModel
from p2pspades.ui.local import LocalGame, run_local_game
from p2pspades.ui.players import HumanPlayer, ThinkingShown
from p2pspades.ui.replay import ReplayModel, create_replay_app, run_replay, run_replay_async
from p2pspades.ui.state import EventLine, GameResult, ResultStatus, UiState

__all__ = [
    "EventLine",
    "GameResult",
    "HumanPlayer",
    "LobbyModel",
    "LocalGame",
    "ReplayModel",
    "ResultStatus",
    "ThinkingShown",
    "UiState",
    "confirm_table",
    "create_app",
    "create_key_bindings",
    "create_layout",
    "create_lobby_app",
    "create_replay_app",
    "run_alongside",
    "run_lobby",
    "run_local_game",
    "run_replay",
    "run_replay_async",
]
