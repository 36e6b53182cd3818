"""`--web`: the options of `play`, `host`, `join` and `resume` that show the game in the browser, and what a
command does around its page: serve it for the whole run, echo what the command prints to it, and start
the next game a button of the page's game-over window asks for, in the same tab.

Playing again from the page is what the terminal prints for it ("play again with: p2pspades host --rematch
..."): the command ends as it does after any game, and then this process becomes that command (exec), with
the page's port and token, so the tab the person plays in carries on with the next game.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from p2pspades.errors import LocalError, P2PSpadesError
from p2pspades.i18n import _

WEB_OPTIONS = {"--web": 0, "--no-browser": 0, "--web-port": 1}
"""The options of the page, and how many values each takes: left out of a command started again, which
gets its own."""


def add_web_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--web", action="store_true",
                   help=_("play in your browser instead of the terminal: the page is served on 127.0.0.1 "
                          "only, at a secret address that is printed (and opened in your browser)"))
    p.add_argument("--web-port", type=int, metavar=_("PORT"),
                   help=_("with --web, the page's port on 127.0.0.1 (default: any free port)"))
    p.add_argument("--no-browser", action="store_true",
                   help=_("with --web, print the page's address without opening a browser"))


def check(args: argparse.Namespace) -> None:
    """LocalError for web options that make no sense together."""
    if not getattr(args, "web", False):
        for given, option in ((getattr(args, "web_port", None) is not None, "--web-port"),
                              (getattr(args, "no_browser", False), "--no-browser")):
            if given:
                raise LocalError(_("{option} goes with --web").format(option=option))
        return
    if getattr(args, "auto", False):
        raise LocalError(_("--web shows the game to a person in the browser; --auto lets the bot play your "
                           "seat: choose one"))
    if getattr(args, "local", False):
        raise LocalError(_("--web plays over the peers on 127.0.0.1; leave out --local"))
    port = args.web_port
    if port is not None and not 1 <= port <= 65535:
        raise LocalError(_("--web-port {port} is not a port number (1..65535)").format(port=port))


def command_words(argv: Sequence[str] | None = None) -> list[str]:
    """This run's command as typed, without its page options: what "New game" runs again."""
    words = list(sys.argv[1:] if argv is None else argv)
    out: list[str] = []
    skip = 0
    for word in words:
        if skip:
            skip -= 1
            continue
        name = word.split("=", 1)[0]
        if name in WEB_OPTIONS:
            skip = WEB_OPTIONS[name] if "=" not in word else 0
            continue
        out.append(word)
    return ["p2pspades", *out]


async def served(command: str, args: argparse.Namespace, play: Callable[[], Coroutine[Any, Any, int]]) -> int:
    """Run `play()` with its page served: `args.screen` is the page while it runs (what `load_ui` gives the
    command). The way to play again the person chose is left in `args.web_again`."""
    from p2pspades.cli.echo import set_echo
    from p2pspades.web import WebScreen, token_from

    screen = WebScreen(port=args.web_port or 0, browser=not args.no_browser, token=token_from(os.environ),
                       new_game=command_words() if command == "play" else None)
    args.screen = screen
    await screen.start()
    set_echo(screen.say)
    restarting = None
    try:
        code = await play()
        if screen.again is not None:
            args.web_again = (screen.again, screen.guard, screen.confirm_card)
            restarting = screen.again.kind
        return code
    except (P2PSpadesError, ValueError, OSError) as exc:
        screen.tell(f"p2pspades {command}: {exc}")
        raise
    finally:
        set_echo(None)
        await screen.close(restarting=restarting)


def play_again(args: argparse.Namespace) -> None:
    """Become the command of the way to play again the page asked for (never returns), if it asked; if that
    cannot be done, say so in one line (the command to type is printed above it)."""
    chosen = getattr(args, "web_again", None)
    if chosen is None:
        return
    offer, guard, confirm_card = chosen
    from p2pspades.web import TOKEN_ENV

    words = [*offer.command[1:], "--web", "--no-browser", "--web-port", str(guard.port)]
    if confirm_card and "--confirm-card" not in words:
        words.append("--confirm-card")
    for option in ("trick_pause", "think"):
        value = getattr(args, option, None)
        flag = "--" + option.replace("_", "-")
        if value is not None and flag not in words:
            words += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    lang = getattr(args, "lang", None)
    if lang is not None and "--lang" not in words:  # the next game speaks as this one did
        words += ["--lang", lang.lang]
    print(_("starting: {command}").format(command=shlex.join(["p2pspades", *words])), flush=True)
    sys.stderr.flush()
    env = dict(os.environ, **{TOKEN_ENV: guard.token})
    try:
        os.execve(sys.executable, [sys.executable, "-m", "p2pspades", *words], env)
    except OSError as exc:
        print("p2pspades: " + _("cannot start the next game: {why}").format(why=exc.strerror or exc),
              file=sys.stderr)
