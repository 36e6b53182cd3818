"""Numbers and dates as the reader's locale writes them, through Babel: "12.345,5" in German, "12 345,5" in
French and Polish; "6 gru 2026, 14:05" in Polish. The locale keeps its region where one was given
("en_GB" writes 06/12/2026), and falls back to the language where Babel does not know it."""

from __future__ import annotations

import datetime
import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel import Locale


@functools.cache
def babel_locale(tag: str) -> Locale:
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(tag)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(tag.split("_")[0])


def number(value: float, locale: str, digits: int = 0, *, fixed: bool = True) -> str:
    """`value` with the locale's separators and `digits` digits after the decimal sign (at most `digits`,
    none for a whole number, unless `fixed`): 1234 is "1.234" in German, -3.25 with one digit "-3,2" (rounded
    half to even, as Babel does)."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + ("0" if fixed else "#") * digits if digits else "")
    return format_decimal(value, pattern, locale=babel_locale(locale))


def moment(when: float, locale: str) -> str:
    """A moment (seconds since the epoch) in local time, as the locale writes a date with its time to the
    minute: "Dec 6, 2026, 2:05 PM", "06.12.2026, 14:05", "6 déc. 2026, 14:05", "6 gru 2026, 14:05"."""
    from babel.dates import format_date, format_time, get_datetime_format

    loc = babel_locale(locale)
    local = datetime.datetime.fromtimestamp(when)
    pattern = str(get_datetime_format("medium", locale=loc))
    return pattern.replace("{1}", format_date(local.date(), "medium", locale=loc)).replace(
        "{0}", format_time(local.time(), "short", locale=loc))
