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
moved to the edge.
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
    "rules/audit.py": frozenset({"seat {} holds {}, not a card", "seat {} holds {}, not in the deck",
                                 "{} was dealt twice (to seat {})"}),
    "rules/bidding.py": frozenset({
        "its partner, seat {}, bid nil, so it may not; ", "its side does not trail by {} (blind_bid_margin)",
        "seat {} bid {}: under suicide bids its partner, seat {}, bid {}, so it bids nil",
        "seat {} bid {}: under suicide bids {}a bid other than nil is {}+",
        "seat {} bid {}: under {} bids it bids the {} spades it holds{}",
        "seat {} bid {}: with its partner's {} the side must bid at least {} (min_team_bid)",
        "seat {} may not bid nil: its partner, seat {}, bid nil (double nil is off)"}),
    "rules/engine.py": frozenset({"before spades are broken", "on the first trick",
                                  "{} is not allowed in the {} phase", "{}: the game is over"}),
    "rules/hidden.py": frozenset({"led {} on trick {}, which only a hand of spades could do,",
                                  "showed void in {} on trick {}"}),
    "rules/results.py": frozenset({"a game at these scores is already over",
                                   "side {}'s starting bags {} are not a whole number from 0 to {}",
                                   "side {}'s starting score {} is not a whole number within +-{}",
                                   "{} starting totals for rules with {} sides"}),
    "rules/ruleset.py": frozenset({"play without jokers",
                                   # an option's type as PROTOCOL.md §3.1 writes it: a notation, not words
                                   "array of str, or nil", "int or nil", "str or nil"}),
    # The detail of a failed check (a `Violation`'s or `Rejected`'s `detail`, a `RemoteError`'s message):
    # the specifics the describer puts after the check's name ("seat 2 failed the deal check: <detail>").
    "table/claims.py": frozenset({
        'a refusal of slot {} carrying {}: no such entry took that slot',
        'a stall naming seats {}: not the seats whose votes it can lack',
        'a vote that seat {} never answered slot {}, but seat {} signed an entry after it on the '
        'chain: it had taken the answer, and no seat could release it',
        'an entry for another slot ({})',
        'an entry of seat {}, not of seat {}',
        'an entry whose signature does not verify',
        'bytes that are no entry',
        'hand number {}, but slot {} is in hand {}',
        'names seat {}, but slot {} waits for seat {}',
        'seat {} signed contradicting notes (a vote, a stall, a refusal) for slot {}',
        'two different entries signed by seat {} for sequence number {}',
    }),
    "table/clock.py": frozenset({
        'nobody led the lowest club within {} s',
    }),
    "table/deal.py": frozenset({
        'the deal does not add up although every step checks out',
        "the key for position {} does not match the seat's P_{}",
        "the key passed for position {} is not the seat's lock key",
        'the key published for position {} is wrong',
        'the pass key E is not the one the revealed seed gives',
        'the {} is not what the revealed seed gives',
    }),
    "table/drawpile.py": frozenset({
        'stock card {} does not open: a lock or a key is wrong',
    }),
    "table/events.py": frozenset({
        'no such seat',
        'too far ahead',
    }),
    "table/genesis.py": frozenset({
        'a game cannot follow itself',
        'protocol version {} is not supported (versions {} are)',
        'the first dealer {} is not a seat of a {}-seat table',
    }),
    "table/hand.py": frozenset({
        'false challenge ({}): every step checks out',
        'seat {} held {} and did not lead it before seat {} challenged',
        'seat {} played {}, which my own cards say it cannot hold',
        'some of my cards do not open: a lock or a deal key is wrong',
        'the key that seat {} passed me for position {} does not open it',
        '{} positions and {} keys; the rule is {}',
    }),
    "table/intake.py": frozenset({
        'hand number {}, the game is in hand {}',
    }),
    "table/late.py": frozenset({
        'two different entries signed by seat {} for sequence number {}',
    }),
    "table/machine.py": frozenset({
        'an ending for slot {} whose notes do not all hold',
        'the entry cannot be applied ({})',
    }),
    "table/makers.py": frozenset({
        'the deck I received for my lock holds invalid points',
        'the deck I received for my shuffle holds invalid points',
    }),
    "table/slots.py": frozenset({
        'a provisional ending of the slot is void: its awaited entry turned up',
        'a seat that took the awaited entry before it voted says so, carrying it',
        "another seat's vote",
        'keep the awaited entry off the chain',
        'keep the note with the slot',
        'our own stall, read back from our log',
        'our own vote, read back from our log',
        'our timer for the slot ran out (first after the last progress, then after our vote)',
        'put the awaited entry on the chain',
        'put the awaited entry on the chain, and refuse the votes already out',
        'put the awaited entry we hold (or that the refusal carries) on the chain',
        'sign a refusal carrying the entry we took, and send it',
        'sign our stall, naming the seats whose votes we lack, and send it',
        'sign our vote and send it',
        'take the entry a refusal carries as if it came: a copy of ours, or a second answer of its seat',
        'the awaited entry arrives',
        'we made the awaited entry ourselves',
    }),
    "table/stages.py": frozenset({
        'any seat (the only one able to make it)',
        "each seat of the stage's order, one after the other",
        'seat {} claimed that nobody led the lowest club in time, but seat {} led it in',
        'the seat whose move it is in the rules engine',
    }),
    "table/views.py": frozenset({
        'an entry dropped as {}{}',
        'an entry that does not apply there',
    }),
    "net/lobby_messages.py": frozenset({"a genesis hash", "the lobby id"}),  # the field a bad frame names
    "crypto/group.py": frozenset({
        "a point is {} bytes, got {}", "a point of small order", "a scalar is {} bytes, got {}",
        "non-canonical encoding (y is not reduced below 2^255 - 19)", "not a point on the curve",
        "not in the prime-order subgroup (it has a torsion component)", "refused by libsodium",
        "the identity (with the sign bit set)", "the scalar is zero modulo the group order"}),
    "crypto/identity.py": frozenset({"refused by libsodium"}),
    "crypto/proofs.py": frozenset({
        "a card point", "a key commitment", "the shuffle commitment S",
        "a point of the statement or the proof is not a valid point, or a scalar is zero"}),
    "log/canonical.py": frozenset({"map key {} is not a str but {}", "map key {} is not visible ASCII"}),
    "log/logfile.py": frozenset({"its byte {} is {} where every such envelope has {}",
                                 "no envelope is {} bytes long"}),
    # Codes that hold spaces (a `DropKind`'s value, written as it is in the records), and the machines' tables
    # described for the reader of the code (the value of each state, signal and act), never shown.
    # For the log file and libzmq, not for a person: the peer's flood diagnostic and the tally it counts, the
    # status text of a refused CURVE handshake (ZAP).
    "net/peer.py": frozenset({"not its own"}),
    "net/flood.py": frozenset({
        "seat {} sent more than {} entries that failed their checks within {} s ({}): its entries are "
        "ignored for {} s"}),
    "net/auth.py": frozenset({"not seated at this table"}),
    # The message of an error a command prints and stops on (`SessionError`, `CannotReview`), built before
    # its raise (a `SessionError`'s as its template, marked with `N_`: the command says it in the reader's
    # language, `i18n.said`).
    "net/resume.py": frozenset({
        "game {game}, seat {seat}: a running p2pspades process is playing it",
        "game {game}, seat {seat}: its log holds nothing",
        "game {game}, seat {seat}: nobody answered its resume on {when}, so it may have ended without you "
        "(give its id to resume it all the same)",
        "game {game}, seat {seat}: the game is over ({ended})"}),
    "bots/review.py": frozenset({"hand {} does not replay from seat {}'s view: {}"}),
}

_WORDS = re.compile(r"[A-Za-z][a-z']*(?:[ ,:;]+[A-Za-z][a-z']*){2,}")
"""Three words in a row: what makes a string a sentence rather than a code, a key or a format."""

_LOGGERS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
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


def _exempt_call(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if isinstance(func, ast.Attribute) and name in _LOGGERS:
        return True  # a diagnostic for the log file
    return name in _CHECK_DETAILS


def _skipped(tree: ast.Module) -> set[int]:
    """The ids of the nodes that are not for a person: docstrings, and everything under a raise, an assert,
    a logger call, a check's detail."""
    out: set[int] = set()

    def under(node: ast.AST) -> None:
        out.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Raise | ast.Assert) or (isinstance(node, ast.Call) and _exempt_call(node)):
            under(node)
        elif isinstance(node, ast.keyword) and node.arg == "detail":
            under(node.value)
        elif isinstance(node, ast.Expr) and _text(node.value):  # a docstring, an attribute's docstring
            under(node)
    return out


def sentence_literals(path: Path) -> Iterator[tuple[int, str]]:
    """The sentence literals of the module at `path`, with their lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped = _skipped(tree)
    for node in ast.walk(tree):  # an f-string's parts are constants too: count the f-string once
        if isinstance(node, ast.JoinedStr):
            skipped.update(id(v) for v in node.values)
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, ast.Constant | ast.JoinedStr):
            continue
        text = _text(node)
        if text and _WORDS.search(text):
            yield node.lineno, text


def layer_literals(root: Path, layer: str) -> list[tuple[str, int, str]]:
    found = []
    for path in sorted((root / layer).rglob("*.py")):
        tree_nodes = list(sentence_literals(path))
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
    return f"seat {seat} stopped answering the table"
''')
    found = layer_literals(tmp_path, "rules")
    assert [text for _, _, text in found] == ["waiting for the bids", "seat {} stopped answering the table"]


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    trees = [a for a in argv if a != "-v"]
    root = Path(trees[0]) / "p2pspades" if trees else PACKAGE
    total = 0
    for layer in BELOW_THE_EDGE:
        found = layer_literals(root, layer)
        total += len(found)
        print(f"{layer:8} {len(found):4}")
        if verbose:
            for where, line, text in found:
                print(f"    {where}:{line}: {text!r}")
    print(f"{'total':8} {total:4}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
