"""Fixtures shared by several test modules. Helpers that are plain functions are in `helpers/`.

Async tests are plain `async def` functions: pytest-asyncio runs each in an event loop of its own
(`asyncio_mode = "auto"` in pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.lan import Lan

from p2pspades import i18n, paths
from p2pspades.bots import RandomBot
from p2pspades.rules import preset
from p2pspades.table.harness import Wire, play_in_memory


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test, and every program it starts, has a data home of its own (identities, games, logs), so no
    test reads or writes the person's files, and no P2PSPADES_* or XDG_* variable of the shell changes what
    a test sees. Every test speaks English, whatever the shell's locale, unless it chooses another language
    (`i18n.speaking`, or `--lang` and `P2PSPADES_LANG` for a program). A test may still set these variables
    itself."""
    root = tmp_path_factory.mktemp("home")
    monkeypatch.setenv(paths.ENV_HOME, str(root / "p2pspades"))
    monkeypatch.delenv(paths.ENV_PROFILE, raising=False)
    monkeypatch.setenv(i18n.ENV, "en")
    monkeypatch.delenv(i18n.PSEUDO_ENV, raising=False)
    i18n.use("en")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(root / "data"))
    return root / "p2pspades"


@pytest.fixture
def lan(tmp_path: Path) -> Iterator[Lan]:
    """A table on 127.0.0.1 for `p2pspades` processes (and the cheater's) of this test; all stopped after."""
    network = Lan(tmp_path)
    yield network
    network.close()


@pytest.fixture(scope="session")
def finished_game() -> Wire:
    """A whole classic game of four random bots, Ann, Bob, Cat and Dan, played on the in-memory wiring.

    Random bots sink fast: with a losing threshold of -300 the game lasts about two hands. Shared by the whole
    session, so no test may change it.
    """
    rules = preset("classic", target=100, losing_threshold=-300)
    return play_in_memory(rules, [RandomBot(i) for i in range(4)], seed=b"replay-0",
                          names=["Ann", "Bob", "Cat", "Dan"])
