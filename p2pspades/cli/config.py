"""`p2pspades config [KEY [VALUE]] [--unset KEY]`: what a profile keeps of its own choices, as `git config`
does: today the language it speaks (`lang`).

The settings are a JSON object in the profile's `settings.json` (`paths.settings_path`). A key this version
does not know is kept as it is (a newer version may have written it); a value it cannot use is passed over
with a warning, so a hand-edited file never stops a command.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping

from p2pspades import i18n, paths
from p2pspades.cli.common import fail
from p2pspades.errors import LocalError
from p2pspades.exits import ExitCode
from p2pspades.files import write_private
from p2pspades.i18n import _, said
from p2pspades.printable import printable


class SettingsError(LocalError):
    """The settings file cannot be read or written, or a setting has a value that is no use."""


def _language(value: str) -> str:
    found = i18n.parse_tag(value)
    if found is None or found.source == "default":  # "C" is no language to keep
        raise SettingsError(_("unknown language {asked!r}; the languages are: {languages}").format(
            asked=value, languages=i18n.listing()))
    return found.locale


KEYS: Mapping[str, Callable[[str], str]] = {"lang": _language}
"""Each setting with the check of its value, which gives the value to keep."""


def load(profile: str | None = None) -> dict[str, object]:
    """The profile's settings ({} if it keeps none). `SettingsError` if the file does not read as a JSON
    object."""
    path = paths.settings_path(paths.data_home(profile=profile))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SettingsError(_("cannot read {path}: {why}").format(path=path, why=said(exc))) from None
    if not isinstance(data, dict):
        raise SettingsError(_("cannot read {path}: not a JSON object").format(path=path))
    return data


def save(settings: Mapping[str, object], profile: str | None = None) -> None:
    path = paths.settings_path(paths.data_home(profile=profile))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_private(path, (json.dumps(dict(settings), indent=2, ensure_ascii=False) + "\n").encode(),
                      replace=True)
    except OSError as exc:
        why = exc.strerror or exc
        raise SettingsError(_("cannot write {path}: {why}").format(path=path, why=why)) from None


def saved_language(profile: str | None) -> str | None:
    """The language the profile keeps, for the choice of a process; None if it keeps none. A file that does
    not read, or a language that is not ours, is one line of warning on stderr and counts as none; a profile
    name that is no name counts as none too (the command says what is wrong with it)."""
    try:
        paths.profile_name(profile)
    except paths.ProfileError:
        return None
    try:
        value = load(profile).get("lang")
        if value is None:
            return None
        if not isinstance(value, str):
            raise SettingsError(_("lang in {path} is not a language").format(
                path=paths.settings_path(paths.data_home(profile=profile))))
        return _language(value)
    except SettingsError as exc:
        print(f"p2pspades: {printable(exc)}", file=sys.stderr)
        return None


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "config",
        help=_("show or change what the profile keeps: its language"),
        description=_("Show or change the settings the profile keeps, as git config does. lang: the "
                      "language it speaks ({languages}), used unless --lang or ${env} says otherwise; "
                      "without it the language follows the locale.").format(
                          languages=", ".join(i18n.LANGUAGES), env=i18n.ENV),
    )
    p.add_argument("key", nargs="?", metavar=_("KEY"),
                   help=_("a setting: {keys}").format(keys=", ".join(KEYS)))
    p.add_argument("value", nargs="?", metavar=_("VALUE"), help=_("its new value (without one: print it)"))
    p.add_argument("--unset", action="store_true", help=_("forget the setting KEY"))
    p.add_argument("--profile", metavar=_("NAME"),
                   help=_("the settings of profile NAME (default: ${env}, else the default profile)").format(
                       env=paths.ENV_PROFILE))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    key: str | None = args.key
    try:
        name = paths.profile_name(args.profile)
        settings = load(args.profile)
        if key is None:
            if args.unset or args.value is not None:
                raise SettingsError(_("name the setting: {keys}").format(keys=", ".join(KEYS)))
            return _show(settings, name)
        if key not in KEYS:
            raise SettingsError(_("unknown setting {key!r}; the settings are: {keys}").format(
                key=key, keys=", ".join(KEYS)))
        if args.unset:
            if args.value is not None:
                raise SettingsError(_("--unset takes no value"))
            if settings.pop(key, None) is not None:
                save(settings, args.profile)
            return ExitCode.OK
        if args.value is None:
            print(printable(settings[key]) if key in settings else _("{key} is not set").format(key=key))
            return ExitCode.OK
        settings[key] = KEYS[key](args.value)
        save(settings, args.profile)
    except (SettingsError, paths.ProfileError) as exc:
        return fail("config", said(exc))
    if key == "lang":
        _say_language(str(settings[key]), name)
    return ExitCode.OK


def _show(settings: Mapping[str, object], name: str) -> int:
    if not settings:
        print(_("profile {name!r} keeps no settings (p2pspades config lang de sets its language)").format(
            name=name))
    for key, value in sorted(settings.items()):
        print(f"{printable(key)} = {printable(value)}")
    return ExitCode.OK


def _say_language(tag: str, name: str) -> None:
    """Say, in the language just kept, that the profile speaks it now (and what overrides it, if anything
    does in this shell)."""
    kept = i18n.parse_tag(tag)
    assert kept is not None  # checked by `_language`
    before = i18n.current()
    with i18n.speaking(kept):
        print(_("profile {name!r} speaks {language} ({code})").format(
            name=name, language=i18n.LANGUAGES[kept.lang], code=kept.lang))
        if before.source in ("--lang", i18n.ENV) and before.lang != kept.lang:
            print(_("(for now {source} chooses {language})").format(
                source=before.source, language=i18n.LANGUAGES.get(before.lang, before.lang)))
