"""A host that lies about the game its table continues: it opens a real lobby whose `after` claims to carry on
the abandoned game of OLD_LOG, and serves it until it is killed.

    python tests/helpers/liar.py PORT OLD_LOG [--lie scores|partner|target|rules|nothing] [--host-key FILE]
                                 [--fill] [--free SEAT]

`--lie scores` (the default) claims side 0 ended 10 points better than the log says; `partner` puts a bot of
the liar's in the seat of the free seat's partner; `target` plays to 1000 instead; `rules` turns deuces high;
`nothing` proposes the continuation as an honest host would. `--host-key` signs as that key (the old game's
host's, say: ana's own program, modified); else as a new key. With `--fill`, every seat but `--free` (the
joiner's) is taken at once, each by the key that held it in the old game (the abandoned one, and the lie's,
by new keys), so that the proposal comes as soon as the joiner sits: "proposed" is printed then, and
"accepted" once every seat has accepted it.
"""

from __future__ import annotations

import argparse
import asyncio

from p2pspades import crypto
from p2pspades.audit import verify_file
from p2pspades.net.lobby import LobbyHost
from p2pspades.net.lobby_seats import Sequel, TableInfo
from p2pspades.rules import SideTotal
from p2pspades.table import CONTINUATION, After


async def main(args: argparse.Namespace) -> None:
    table = verify_file(args.old_log).table
    assert table is not None and table.game is not None and table.result is not None
    rules, totals = table.rules, table.game.totals
    if args.lie == "scores":
        first, *rest = totals
        totals = (SideTotal(first.score + 10, first.bags), *rest)
    elif args.lie == "target":
        rules = rules.replace(target=1000)
    elif args.lie == "rules":
        rules = rules.replace(deuces_high=True)
    lie = After(table.game_id, CONTINUATION, totals, table.game.dealer)
    host = crypto.Identity.load(args.host_key) if args.host_key else crypto.Identity.generate()
    seats = table.setup.seats
    name = seats[0].name if host.public == seats[0].key else "Mallory"

    def proposed(info: TableInfo) -> bool:
        print("proposed", flush=True)
        return True

    lobby = LobbyHost(host, table.setup.name, rules, name, "tcp://127.0.0.1:1",
                      bind=f"tcp://127.0.0.1:{args.port}", sequel=Sequel(lie), start_when=proposed)
    print(f"lobby: {await lobby.start()}", flush=True)
    if args.fill:
        partner = next((s for s in rules.sides[rules.side_of(args.free)] if s != args.free), None)
        for seat in range(1, rules.players):
            if seat == args.free:
                continue
            if seat == table.result.seat or (args.lie == "partner" and seat == partner):
                lobby.add_bot(f"{name}'s bot", crypto.Identity.generate().public, "tcp://127.0.0.1:1", seat)
            else:
                lobby.add_bot(seats[seat].name, seats[seat].key, "tcp://127.0.0.1:1", seat)
    await lobby.run()
    print("accepted", flush=True)
    await asyncio.Event().wait()  # serves nothing more: the test ends it


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("old_log")
    parser.add_argument("--lie", default="scores",
                        choices=("scores", "partner", "target", "rules", "nothing"))
    parser.add_argument("--host-key")
    parser.add_argument("--fill", action="store_true")
    parser.add_argument("--free", type=int, default=1)
    asyncio.run(main(parser.parse_args()))
