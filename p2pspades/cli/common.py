"""Options and helpers shared by the commands that start a game."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import getpass
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from p2pspades import paths
from p2pspades.audit import GameVisitor
from p2pspades.bots import BOT_KINDS, DEFAULT_BOT, DEFAULT_THINK, THINK
from p2pspades.describe import abandoned, ending, failed, parted
from p2pspades.describe.game import bid_text, status_words
from p2pspades.errors import LocalError, P2PSpadesError
from p2pspades.exits import ExitCode
from p2pspades.files import FileLock
from p2pspades.i18n import _, listed, ngettext, said
from p2pspades.printable import printable_lines
from p2pspades.rules import PRESETS, HandResult, RuleSet, RuleSetError, preset
from p2pspades.rules.ruleset import value_type
from p2pspades.table import GameEnded, HandAudited, Setup, Violation


def add_game_options(p: argparse.ArgumentParser, *, default_preset: str = "classic") -> None:
    p.add_argument(
        "--rules",
        default=default_preset,
        metavar=_("PRESET"),
        help=_("rule preset: {presets} (default: {default})").format(presets=", ".join(PRESETS),
                                                                     default=default_preset),
    )
    p.add_argument("--players", type=int, metavar="N", help=_("number of players (default: the preset's)"))
    p.add_argument("--target", type=int, metavar="N",
                   help=_("score that wins the game (default: the preset's)"))
    p.add_argument("--option", action="append", default=[], metavar=_("NAME=VALUE"),
                   help=_("change one rule option of the preset (repeatable; `p2pspades rules` lists them): "
                          "deuces_high=true, blind_bid=true, bag_limit=7, losing_threshold=none, ..."))


def option_value(text: str) -> tuple[str, object]:
    """One `--option NAME=VALUE`, its value read by the option's type. LocalError if it makes no sense."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    fields = {field.name for field in dataclasses.fields(RuleSet)} - {"preset"}
    if not sep or name not in fields:
        raise LocalError(_("--option {text!r}: NAME=VALUE, NAME one of the options `p2pspades rules` "
                           "lists").format(text=text))
    kind = value_type(name)
    lowered = raw.lower()
    if kind == "bool":
        if lowered not in ("true", "false"):
            raise LocalError(_("--option {name}: true or false, not {value!r}").format(name=name, value=raw))
        return name, lowered == "true"
    if kind.startswith("int"):
        if kind == "int or nil" and lowered in ("none", "nil"):
            return name, None
        try:
            return name, int(raw)
        except ValueError:
            raise LocalError(_("--option {name}: a whole number, not {value!r}").format(
                name=name, value=raw)) from None
    if name == "removed":
        return name, None if lowered in ("none", "nil") else tuple(raw.replace(",", " ").split())
    return name, raw


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The rule set the options ask for. LocalError with a clear message if they make no sense."""
    if args.rules not in PRESETS:
        raise LocalError(_("unknown rule preset {name!r}; choose one of: {presets}").format(
            name=args.rules, presets=", ".join(PRESETS)))
    base = PRESETS[args.rules]
    overrides: dict[str, object] = {}
    if args.players is not None and args.players != base.players:
        if base.partnerships or base.deal == "draw":
            # a partnership game or the draw pile would silently become another game: say which preset fits
            fits = [name for name, rules in PRESETS.items() if rules.players == args.players]
            raise LocalError(_players_problem(args.rules, base, args.players, fits))
        overrides["players"] = args.players
        overrides["removed"] = None
    if args.target is not None:
        overrides["target"] = args.target
    overrides.update(option_value(text) for text in getattr(args, "option", None) or ())
    try:
        return preset(args.rules, **overrides)
    except (RuleSetError, TypeError, ValueError) as exc:
        raise LocalError(_("these options do not make a valid game: {why}").format(why=said(exc))) from None


def _players_problem(name: str, base: RuleSet, players: int, fits: list[str]) -> str:
    if base.partnerships:
        text = _("{preset} is a partnership game for {n} players, so --players {players} would make it "
                 "another game").format(preset=name, n=base.players, players=players)
    else:
        text = _("{preset} is a draw-pile game for {n} players, so --players {players} would make it another "
                 "game").format(preset=name, n=base.players, players=players)
    if not fits:
        return text
    return _("{problem}; for {players} players use {options}").format(
        problem=text, players=players, options=_(" or ").join(f"--rules {fit}" for fit in fits))


def bot_help(use: str = "") -> str:
    """What `--bot LEVEL` takes (`use`: what the level is for, already in the language spoken)."""
    text = _("bot level: easy, normal or expert (default normal); also heuristic (the same as normal) and "
             "random (any legal card, for tests)")
    return f"{text}; {use}" if use else text


def add_bot_option(p: argparse.ArgumentParser, use: str = "") -> None:
    """`--bot LEVEL`, every name it takes listed in the help (`use`: what the level is for, already in the
    language spoken), and `--think` (taken in by `main` for the whole process)."""
    p.add_argument("--bot", choices=BOT_KINDS, default=DEFAULT_BOT, metavar=_("LEVEL"), help=bot_help(use))
    add_think_option(p)


def add_think_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--think", choices=tuple(THINK), default=DEFAULT_THINK,
                   help=_("how long expert bots (and the coach, key h) search each decision: fast, normal or "
                          "deep (default {default}); one seed gives the same decisions at each level").format(
                              default=DEFAULT_THINK))


def add_profile_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", metavar=_("NAME"),
                   help=_("play as profile NAME: its own identity and data directory, for a second player on "
                          "this machine (default: ${env}, else the default profile)").format(
                              env=paths.ENV_PROFILE))


def run_as_profile(command: str, args: argparse.Namespace,
                   play: Callable[[], Coroutine[Any, Any, int]], *, reads: bool = False) -> int:
    """Run `play()` while this process holds the profile the options name (see `hold_profile`), with its
    page served if asked (`--web`; after the game, the page may ask for the next one). Any failure, the
    profile being in use among them, is one line on stderr and exit code 2. `reads`: the command reads what
    the profile played (`resume`, a rematch), so a profile never used here is refused
    (`paths.known_profile`) rather than made."""
    from p2pspades.cli import page

    try:
        page.check(args)
        if reads:
            paths.known_profile(args.profile)
        profile = hold_profile(args)
    except LocalError as exc:
        return fail(command, said(exc))
    with profile:
        try:
            code = asyncio.run(page.served(command, args, play) if getattr(args, "web", False) else play())
        except (P2PSpadesError, ValueError, OSError) as exc:
            return fail(command, said(exc))
    page.play_again(args)
    return code


def hold_profile(args: argparse.Namespace) -> FileLock:
    """Take the profile the options name for this process, and put its data home in `args.home`.

    `ProfileError` (one line, naming --profile) if another running process holds it: its identity would
    then sign for two seats at once.
    """
    lock = paths.lock_profile(profile=args.profile)
    args.home = paths.data_home(profile=args.profile)
    return lock


def resume_command(game_id: bytes, profile: str | None, *, auto: bool = False, bot: str = DEFAULT_BOT) -> str:
    """The command that carries on this game, as it works when typed in the same shell: it names the
    profile (unless it is the default one), since the game's seat directory is in that profile's home, and
    for a game without a screen (`auto`), `--auto` and the bot's level."""
    words = ["p2pspades", "resume", game_id.hex()[:12]]
    if auto:
        words += ["--auto", *(["--bot", bot] if bot != DEFAULT_BOT else [])]
    name = paths.profile_name(profile)
    if name != paths.DEFAULT_PROFILE:
        words += ["--profile", name]
    return " ".join(words)


def default_name(profile: str | None = None) -> str:
    """The name a profile sits under when no --name is given: the profile's own name, or for the default
    profile the operating system's user name; a printable name of at most 32 characters ("Player" if there
    is none). `ProfileError` if the profile's name is not one."""
    chosen = paths.profile_name(profile)
    if chosen != paths.DEFAULT_PROFILE:
        return chosen[:32]
    try:
        user = getpass.getuser()
    except (OSError, KeyError, ImportError):
        user = ""
    name = "".join(ch for ch in user if ch.isprintable()).strip()[:32]
    return name or _("Player")


def fail(command: str, message: str) -> int:
    print(f"p2pspades {command}: {printable_lines(message)}", file=sys.stderr)
    return ExitCode.FAILED


class ProgressLines(GameVisitor):
    """Human progress lines, said one by one: one per finished hand, plus notable events."""

    def __init__(self, setup: Setup, say: Callable[[str], None]) -> None:
        self.rules = setup.rules
        self.names = [s.name for s in setup.seats]
        self.say = say
        self.after = setup.after

    def side(self, k: int) -> str:
        return "+".join(self.names[i] for i in self.rules.sides[k])

    def on_first_dealer(self, seat: int) -> None:
        if self.after is not None and self.after.continues:
            scores = ", ".join(f"{self.side(k)} {t.score}" for k, t in enumerate(self.after.totals))
            self.say(_("{who} deals first, as in the game this one continues (from {scores})").format(
                who=self.names[seat], scores=scores))
        else:
            self.say(_("{who} drew the highest card and deals first").format(who=self.names[seat]))

    def on_hand(self, hand: HandResult, audit: HandAudited) -> None:
        rules = self.rules
        totals = ", ".join(f"{self.side(k)} {t.score}" for k, t in enumerate(hand.totals))
        bids = " ".join(bid_text(hand.bids[s], hand.blind[s], rules, short=True)
                        for s in range(rules.players))
        found = len(audit.violations)
        verdict = ngettext("{n} violation penalised", "{n} violations penalised", found).format(n=found) \
            if found else _("audit passed")
        self.say(_("hand {number}: bids {bids}  tricks {tricks}  totals: {totals}  ({verdict})").format(
            number=f"{hand.number:2d}", bids=bids, tricks=" ".join(map(str, hand.tricks_won)), totals=totals,
            verdict=verdict))

    def on_violation(self, violation: Violation) -> None:
        v = violation
        self.say(_("VIOLATION by seat {seat} ({who}): {what}").format(seat=v.seat, who=self.names[v.seat],
                                                                       what=failed(v.check, v.detail)))

    def on_end(self, ended: GameEnded) -> None:
        status = status_words(ended.status)
        why = ending(ended)
        text = (_("game over: {status} ({why})") if why else _("game over: {status}")).format(status=status,
                                                                                            why=why)
        if ended.status in ("left", "stopped"):
            text = _("game over: {how}").format(how=parted(ended, lambda seat: self.names[seat]))
        elif ended.signers and ended.seat is not None:
            text = _("{said}: {how}").format(said=text, how=abandoned(ended, lambda seat: self.names[seat]))
        if ended.forfeit and ended.seat is not None:
            seats = sum(len(self.rules.sides[k]) for k in ended.winners)
            forfeit = ngettext("forfeit by {who}: {winners} wins", "forfeit by {who}: {winners} win", seats)
            text = _("{said}; {forfeit}").format(said=text, forfeit=forfeit.format(
                who=self.names[ended.seat], winners=listed([self.side(k) for k in ended.winners])))
        self.say(text)
