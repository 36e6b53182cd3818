"""A host that lies about the game its table continues: it opens a real lobby whose `after` claims the game
of OLD_LOG ended 10 points better for side 0 than its log says, and serves it until it is killed.

    python tests/helpers/liar.py PORT OLD_LOG
"""

from __future__ import annotations

import asyncio
import sys

from p2pspades import crypto
from p2pspades.audit import verify_file
from p2pspades.net.lobby import LobbyHost
from p2pspades.net.lobby_seats import Sequel
from p2pspades.rules import SideTotal
from p2pspades.table import CONTINUATION, After


async def main(port: int, old_log: str) -> None:
    table = verify_file(old_log).table
    assert table is not None and table.game is not None
    first, *rest = table.game.totals
    better = (SideTotal(first.score + 10, first.bags), *rest)
    lie = After(table.game_id, CONTINUATION, better, table.game.dealer)
    lobby = LobbyHost(crypto.Identity.generate(), "liar's table", table.rules, "Mallory", "tcp://127.0.0.1:1",
                      bind=f"tcp://127.0.0.1:{port}", sequel=Sequel(lie))
    print(f"lobby: {await lobby.start()}", flush=True)
    await lobby.run()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2]))
