"""p2pspades.web: the game in a browser (`--web`), served by each player's own peer to that player's browser.

`WebScreen` is the screen a command shows instead of the terminal's: the same models (`ui.state.UiState`,
`ui.lobby_model.LobbyModel`), drawn by a page of plain JavaScript modules shipped in `static/`, over one
WebSocket on 127.0.0.1 that only a URL with the secret token reaches (`security.py`, `server.py`).
"""

from p2pspades.web.screen import Offer, StatusLine, WebScreen
from p2pspades.web.security import TOKEN_ENV, Guard, new_token, token_from

__all__ = ["TOKEN_ENV", "Guard", "Offer", "StatusLine", "WebScreen", "new_token", "token_from"]
