"""argparse's own words that a person can read, marked for the catalogs.

argparse asks gettext for them (`use` in this package points it at our catalogs), so they are in our
catalogs exactly as argparse writes them. A test reads the running Python's argparse and fails if it asks for
a word a person can see that is not here. Its other messages (a mistake in a parser's definition: "dest= is
required ...") are for the program's authors and stay English.
"""

from __future__ import annotations

from p2pspades.i18n import N_, N_plural

WORDS = (
    # TRANSLATORS: argparse's heading of a command's synopsis; keep the space after the colon
    N_("usage: "),
    # TRANSLATORS: a heading of a command's help, to which argparse adds a colon (French: end it with a
    # no-break space, so the colon is spaced as French spaces it)
    N_("positional arguments"),
    # TRANSLATORS: a heading of a command's help, to which argparse adds a colon (as above)
    N_("options"),
    N_("show this help message and exit"),
    # TRANSLATORS: the first line of an error of the command line: "p2pspades: error: <what went wrong>"
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)
PLURAL_WORDS = (N_plural("expected %s argument", "expected %s arguments"),)
"""argparse's `ngettext` messages a person can read (the English singular and plural)."""
