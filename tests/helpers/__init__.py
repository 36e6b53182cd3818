"""What several test modules import (no tests here): `net` for keys and meshes on loopback, `conformance` for
the table protocol's two transports, `terminal` for the programs driven in a pseudo-terminal, `logs` for
log files, and `games` for engine games driven by hand (the bot tests). Fixtures shared by several modules
are in `tests/conftest.py`."""
