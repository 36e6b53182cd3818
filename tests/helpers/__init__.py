"""What several test modules import (no tests here): `net` for keys and meshes on loopback, `conformance` for
the table protocol's two transports, `terminal` for the programs driven in a pseudo-terminal, and `logs` for
log files. Fixtures shared by several modules are in `tests/conftest.py`."""
