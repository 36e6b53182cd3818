"""Helpers the tests import (no tests here): `net` for sockets and meshes on loopback, `conformance` for the
table protocol's two transports, `terminal` for commands run in a pseudo-terminal. Fixtures are in
`tests/conftest.py`."""
