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
    # For the log file and libzmq, not for a person: the peer's flood diagnostic and the tally it counts, the
    # status text of a refused CURVE handshake (ZAP).
    "net/peer.py": frozenset({"not its own"}),
    "net/flood.py": frozenset({
        "seat {} sent more than {} entries that failed their checks within {} s ({}): its entries are "
        "ignored for {} s"}),
    "net/auth.py": frozenset({"not seated at this table"}),
}

#: The messages of raises below the edge that stay English (`--all` counts them), by module, each kind for a
#: reason: none of them reaches a person. A message that may (the detail of a peer's failed check or dropped
#: entry, a lobby's refusal, an error a command prints: a bad saved game, a seat file's bot) is an
#: `errors.Detail` or a template marked with `N_`, said at the edge in the reader's language; a new English
#: raise below the edge fails `test_below_the_edge_every_english_raise_is_one_no_person_reads`.
NOT_FOR_A_PERSON: dict[str, frozenset[str]] = {
    # Programming errors: an API of a pure layer called with what our own code never gives it (the crypto's
    # CryptoUsageError, the rules engine's setup, deals from the crypto and scoring's inputs, immutable
    # values, the bots' parameters, the table's own decisions, genesis and entropy, the mesh before it
    # starts, the encoding of our own entries), or an assertion that cannot fail. A command that reaches one
    # has a bug: it prints the English line and exits 2, as every unexpected error does.
    "audit/dispute.py": frozenset({"every genesis is the same"}),
    "audit/parallel.py": frozenset({"jobs must be at least 1, got {}"}),  # (argparse refuses --jobs 0 first)
    "bots/expert.py": frozenset({
        "a {} decision with no legal choices", "{} must be from 0 to 1, got {}",
        "{} must be positive, got {}", "time_budget must be positive, got {}",
    }),
    "bots/heuristic.py": frozenset({"a {} decision with no legal choices"}),
    "crypto/commit.py": frozenset({
        "a game id is {} bytes, got {}", "a hand number is an int in [0, 2^32), got {}",
        "a seat is an int in [0, {}), got {}", "the draw needs at least one revealed share",
    }),
    "crypto/deal.py": frozenset({
        "a deck has 1 to {} positions, got {}", "opening a card needs at least one key",
        "secrets for {} positions in a deck of {}", "the permutation is not a permutation of range(n)",
        "{} key lists for {} points", "{} lock keys for {} positions",
    }),
    "crypto/group.py": frozenset({
        "a card code is ASCII text, got {}", "a multiplication failed once and succeeded on retry",
        "a wide scalar is 64 bytes, got {}", "card {} appears twice in the deck",
    }),
    "crypto/identity.py": frozenset({"a public key is {} bytes, got {}"}),
    "crypto/passing.py": frozenset({
        "a lock key is a reduced 32-byte scalar", "a position is 0 to 65535, got {}",
        "a seat is 0 to 255, got {}",
    }),
    "crypto/proofs.py": frozenset({
        "a proof context is the 21-byte hand context", "a step is an int in [0, 65536), got {}",
        "a void claim covers at least one position and one card",
        "position {} holds one of the cards: no void proof", "secrets for {} positions in a deck of {}",
        "step {} does not fit in 16 bits",
    }),
    "log/canonical.py": frozenset({
        "decode() needs bytes, not {}",
        "{}: a {} has no canonical encoding (use dict, list, int, str, bytes, bool or None)",
        "{}: floats are never allowed (got {})", "{}: nested deeper than {} containers",
        "{}: string is not valid Unicode ({})",
    }),
    "log/envelope.py": frozenset({
        "a payload is a map, not a {}", "open_envelope() needs bytes, not {}",
        "payload of {} bytes is over the limit of {}",
        "the identity returned a signature that is not {} bytes",
    }),
    # (the keys of a genesis: the lobby and the genesis's check refuse a bad or repeated key before)
    "net/auth.py": frozenset({
        "an Ed25519 private key is 32 bytes", "an Ed25519 public key is 32 bytes",
        "no shared key with {}: {}",
        "not a valid Ed25519 public key: {}", "seats {} and {} have the same key",
    }),
    "net/lobby_machine.py": frozenset({"a lobby id is 16 bytes"}),  # the host's own lobby
    "net/mesh.py": frozenset({
        "bound {}: say which address to announce for it", "frame of {} bytes is over the {}-byte limit",
        "no connection to seat {}", "seats must be in 0..{}", "start the mesh before admitting peers",
        "the seat map is already installed",
    }),
    "net/peer.py": frozenset({"a peer needs a seated table"}),
    "rules/actions.py": frozenset({
        "deal_from_order needs the {} cards of the deck, got {}", "hands must be a sequence of hands, got {}",
        "{} holds {}, which is not a card{}", "{} is dealt twice (again in {})",
        "{} must be a sequence of cards, got {}",
    }),
    "rules/cards.py": frozenset({"card orders are immutable", "cards are immutable"}),
    "rules/dealer.py": frozenset({
        "every card of this deck has the same rank, so a draw can never pick a dealer",
        "the draw for the first dealer needs random bytes, got {}",
    }),
    "rules/engine.py": frozenset({
        "a game needs a RuleSet, got {}",
        "learn() is for the two-player draw pile; this game deals every card",
        "not an action: {}", "the first dealer must be a seat from 0 to {}, got {}",
    }),
    "rules/hand.py": frozenset({
        "a deal needs {} hands, got {}", "hand {} has {} cards; each seat gets {}",
        "only the two-player draw pile has a stock",
        "the draw pile deals no hands: expect hands=((), ()) and the stock",
        "the stock must hold {} cards, got {}",
        "{} is not in this game's deck",
    }),
    "rules/hidden.py": frozenset({
        "learn() needs a card, got {}", "no seat {} at this table",
        "this engine does not know who holds {}; pass the seat that leads it: apply(action, seat)",
    }),
    "rules/playout.py": frozenset({"play_hand needs every card known to this engine", "the game is over"}),
    "rules/scoring.py": frozenset({
        "scoring needs a bid, a blind flag and a trick count for each of the {} seats",
        "scoring needs a running total for each of the {} sides",
    }),
    "rules/tricks.py": frozenset({"a trick with no cards has no winner"}),
    "table/clock.py": frozenset({"a wait must be a positive number of seconds, not {}"}),
    "table/genesis.py": frozenset({
        "a game id is {} bytes", "the genesis is signed by seat 0, the host",
        "the rules are for {} players but {} seats were given",
    }),
    "table/harness.py": frozenset({"the in-memory game did not settle within {} steps"}),
    "table/machine.py": frozenset({
        "a seated table needs an entropy source", "it is not our turn to decide anything",
        "the entropy source must return the number of bytes asked for",
        "the transition table has no {} --{}--> {}",
        "{} is not legal now",
    }),
    "table/makers.py": frozenset({"{} is not a player's decision", "{} is not in our hand"}),
    # For the log file only: a frame the mesh drops (its detail logged; the game log holds entries, never
    # frames) and an advertisement `discover` skips (logged), neither shown on a screen or by a command.
    "net/frames.py": frozenset({
        "entries must be a list", "entries must be a list of at most {}", "frame must be bytes, not {}",
        "frame of {} bytes exceeds the limit of {}", "head must be empty exactly when seq is 0",
        "head must be empty or {} bytes", "unknown message kind {}",
        "{} must be an integer in {}..{}, not {}",
        "{} must have exactly the fields {}, not {}",
    }),
    "net/discovery.py": frozenset({
        "TXT record is not UTF-8", "bad host fingerprint", "bad protocol version", "bad rule options",
        "bad seat counts", "seat counts out of range",
    }),
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


Listing = dict[str, list[str]]


def listed_against(found: dict[str, set[str]], listed: dict[str, frozenset[str]]) -> tuple[Listing, Listing]:
    """What is found but not listed, and what is listed but no longer found, by module."""
    new = {where: sorted(texts - listed.get(where, frozenset())) for where, texts in found.items()}
    gone = {where: sorted(texts - found.get(where, set())) for where, texts in listed.items()}
    return {w: t for w, t in new.items() if t}, {w: t for w, t in gone.items() if t}


def test_below_the_edge_no_sentence_is_said_but_those_allowed() -> None:
    found: dict[str, set[str]] = {}
    for layer in BELOW_THE_EDGE:
        for where, _line, text in layer_literals(PACKAGE, layer):
            found.setdefault(where, set()).add(text)
    new, gone = listed_against(found, ALLOWED)
    assert not new, f"sentences below the edge: make them data, and their words in describe/: {new}"
    assert not gone, f"no longer below the edge: take them off ALLOWED: {gone}"


def test_below_the_edge_every_english_raise_is_one_no_person_reads() -> None:
    """What `--all` counts beyond the test above is the messages of raises and checks' details: each is
    marked for the catalogs, or listed in `NOT_FOR_A_PERSON` with its reason."""
    found: dict[str, set[str]] = {}
    for layer in BELOW_THE_EDGE:
        plain = {(where, text) for where, _line, text in layer_literals(PACKAGE, layer)}
        for where, _line, text in layer_literals(PACKAGE, layer, everything=True):
            if (where, text) not in plain:
                found.setdefault(where, set()).add(text)
    new, gone = listed_against(found, NOT_FOR_A_PERSON)
    assert not new, f"English below the edge that a person may read: mark it (errors.Detail, N_): {new}"
    assert not gone, f"no longer below the edge: take them off NOT_FOR_A_PERSON: {gone}"


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
