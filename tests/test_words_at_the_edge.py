"""Words only at the edge: below the UI, the CLI, the page and the describer, the code says what happened with
data (codes, seats, cards, numbers), never with a sentence a person reads.

A sentence literal is a string in the code (a constant, or an f-string's text) of three words or more. Some
are not for a person and are not counted: docstrings, an exception's message in a `raise` (a `LocalError` is a
bug in this program or a bad local file; a `RemoteError`'s message is the detail of a failed check, carried
beside its `Check`), an `assert`'s, a diagnostic for the log file (`logger.warning(...)`) and the detail of a
failed check (`detail=...`, `Violation(...)`, `Rejected(...)`): the specifics, "position 7 was already
played", that the describer puts after the check's name. What else is left is listed, each with its reason
(`ALLOWED`): a new sentence below the edge fails the test, and the list only shrinks.

`python tests/test_words_at_the_edge.py [TREE]` prints the count of each layer of a checkout (this one by
default), and each literal with `-v`: the same count in another tree, the one before a change, says what it
moved to the edge. With `--all` it counts the messages of raises and the details of failed checks too (not
docstrings, asserts and log lines): every sentence below the edge that is not marked for the catalogs, a
person's or a programmer's.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "p2pspades"

BELOW_THE_EDGE = ("rules", "table", "net", "audit", "crypto", "log", "bots")
"""The layers that produce data (`describe`, `ui`, `cli` and `web` are the edge; `i18n` its catalogs)."""

#: Every sentence literal still below the edge, by module, each for a reason; a new one fails the test, and so
#: does one that is gone (take it off the list: the list only shrinks).
ALLOWED: dict[str, frozenset[str]] = {
    # The message of a `LocalError` (rules.IllegalAction and its kinds, RuleSetError: the rules engine
    # refusing an action or a rule set; a peer's refused action reaches a person as the detail of its failed
    # check): built before the raise, or returned to be raised.
    "rules/actions.py": frozenset({"a blind bid"}),
    "rules/ruleset.py": frozenset({
                                   # an option's type as PROTOCOL.md §3.1 writes it: a notation, not words
                                   "array of str, or nil", "int or nil", "str or nil"}),
    # The reason of a challenge (`ChallengeDue`, `msg.Challenge`'s `why`): written into the signed log,
    # informative, the same bytes for every reader (a second implementation writes its own words there).
    "table/clock.py": frozenset({
        'nobody led the lowest club within {} s',
    }),
    "table/drawpile.py": frozenset({
        'stock card {} does not open: a lock or a key is wrong',
    }),
    "table/hand.py": frozenset({
        'seat {} played {}, which my own cards say it cannot hold',
        'some of my cards do not open: a lock or a deal key is wrong',
        'the key that seat {} passed me for position {} does not open it',
    }),
    "table/makers.py": frozenset({
        'the deck I received for my lock holds invalid points',
        'the deck I received for my shuffle holds invalid points',
    }),
    # Codes that hold spaces: a `DropKind`'s value, as the records write it (`describe.DROPS` words it).
    "table/events.py": frozenset({
        'no such seat',
        'too far ahead',
    }),
    "net/lobby_messages.py": frozenset({"a genesis hash", "the lobby id"}),  # the field a bad frame names
    # For the log file and libzmq, not for a person: the peer's flood diagnostic and the tally it counts, the
    # status text of a refused CURVE handshake (ZAP).
    "net/peer.py": frozenset({"not its own"}),
    "net/flood.py": frozenset({
        "seat {} sent more than {} entries that failed their checks within {} s ({}): its entries are "
        "ignored for {} s"}),
    "net/auth.py": frozenset({"not seated at this table"}),
}

_WORDS = re.compile(r"[A-Za-z][a-z']*(?:[ ,:;]+[A-Za-z][a-z']*){2,}")
"""Three words in a row: what makes a string a sentence rather than a code, a key or a format."""

_LOGGERS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
_MARKED = {"N_", "N_plural"}
"""A sentence marked for the catalogs (`errors.N_`: an error's template, an `errors.Detail`'s): the edge says
it in the reader's language, and `i18n.update --check` fails if the catalogs lack it."""
_CHECK_DETAILS = {"Violation", "Rejected", "Refused", "Problem"}
"""Events and results whose text is the detail of a failed check."""


def _text(node: ast.expr) -> str:
    """The literal text of a string constant or an f-string (its placeholders as "{}")."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
                       for v in node.values)
    return ""


def _marked_or_logged(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return (isinstance(func, ast.Attribute) and name in _LOGGERS) or name in _MARKED


def _exempt_call(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if isinstance(func, ast.Attribute) and name in _LOGGERS:
        return True  # a diagnostic for the log file
    return name in _CHECK_DETAILS or name in _MARKED


def _skipped(tree: ast.Module, everything: bool = False) -> set[int]:
    """The ids of the nodes that are not for a person: docstrings, and everything under a raise, an assert,
    a logger call, a check's detail (`everything`: only docstrings, asserts, log lines and what is marked)."""
    out: set[int] = set()

    def under(node: ast.AST) -> None:
        out.update(id(n) for n in ast.walk(node))

    exempt = _marked_or_logged if everything else _exempt_call
    raises = ast.Assert if everything else ast.Raise | ast.Assert
    for node in ast.walk(tree):
        if isinstance(node, raises) or (isinstance(node, ast.Call) and exempt(node)):
            under(node)
        elif isinstance(node, ast.keyword) and node.arg == "detail" and not everything:
            under(node.value)
        elif isinstance(node, ast.Expr) and _text(node.value):  # a docstring, an attribute's docstring
            under(node)
    return out


def sentence_literals(path: Path, everything: bool = False) -> Iterator[tuple[int, str]]:
    """The sentence literals of the module at `path`, with their lines (`everything`: as `--all` counts)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped = _skipped(tree, everything)
    for node in ast.walk(tree):  # an f-string's parts are constants too: count the f-string once
        if isinstance(node, ast.JoinedStr):
            skipped.update(id(v) for v in node.values)
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, ast.Constant | ast.JoinedStr):
            continue
        text = _text(node)
        if text and _WORDS.search(text):
            yield node.lineno, text


def layer_literals(root: Path, layer: str, everything: bool = False) -> list[tuple[str, int, str]]:
    found = []
    for path in sorted((root / layer).rglob("*.py")):
        tree_nodes = list(sentence_literals(path, everything))
        found += [(str(path.relative_to(root)), line, text) for line, text in tree_nodes]
    return found


def counts(root: Path = PACKAGE) -> dict[str, int]:
    return {layer: len(layer_literals(root, layer)) for layer in BELOW_THE_EDGE}


def test_below_the_edge_no_sentence_is_said_but_those_allowed() -> None:
    found: dict[str, set[str]] = {}
    for layer in BELOW_THE_EDGE:
        for where, _line, text in layer_literals(PACKAGE, layer):
            found.setdefault(where, set()).add(text)
    new = {where: sorted(texts - ALLOWED.get(where, frozenset())) for where, texts in found.items()}
    new = {where: texts for where, texts in new.items() if texts}
    assert not new, f"sentences below the edge: make them data, and their words in describe/: {new}"
    gone = {where: sorted(texts - found.get(where, set())) for where, texts in ALLOWED.items()}
    gone = {where: texts for where, texts in gone.items() if texts}
    assert not gone, f"no longer below the edge: take them off ALLOWED: {gone}"


def test_the_counter_sees_a_sentence_and_passes_over_what_is_not_for_a_person(tmp_path: Path) -> None:
    """The test above can fail: a sentence in a module below the edge is counted, in a constant or an
    f-string; a docstring, a raise, an assert, a log line, a check's detail and a code are not."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "x.py").write_text('''"""A module docstring of many words."""
import logging
log = logging.getLogger(__name__)
WAITS = {"bid": "waiting for the bids"}
CODE = "not_your_turn"
FORMAT = "{seat}:{name}"


def f(seat):
    """A function's docstring."""
    log.warning("a diagnostic for the log file %s", seat)
    assert seat, "an assertion's message of words"
    if seat:
        raise ValueError(f"seat {seat} is not a seat here")
    v = Violation(seat, "the detail of the failed check")
    w = Dropped(kind, detail=f"the detail of seat {seat}")
    m = Detail(N_("a marked sentence of seat {seat}"), seat=seat)
    return f"seat {seat} stopped answering the table"
''')
    found = layer_literals(tmp_path, "rules")
    assert [text for _, _, text in found] == ["waiting for the bids", "seat {} stopped answering the table"]
    everything = {text for _, _, text in layer_literals(tmp_path, "rules", everything=True)}
    assert everything == {
        "waiting for the bids", "seat {} is not a seat here", "the detail of the failed check",
        "the detail of seat {}", "seat {} stopped answering the table"}


def main(argv: list[str]) -> int:
    verbose, everything = "-v" in argv, "--all" in argv
    trees = [a for a in argv if a not in ("-v", "--all")]
    root = Path(trees[0]) / "p2pspades" if trees else PACKAGE
    total = 0
    for layer in BELOW_THE_EDGE:
        found = layer_literals(root, layer, everything)
        total += len(found)
        print(f"{layer:8} {len(found):4}")
        if verbose:
            for where, line, text in found:
                print(f"    {where}:{line}: {text!r}")
    print(f"{'total':8} {total:4}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
