"""Fixtures for the server tests: a fake clock and a server on a temporary data folder."""
from __future__ import annotations

import warnings

import pytest

# Starlette's TestClient warns that it prefers `httpx2`; the tests use the installed httpx.
warnings.filterwarnings("ignore", message=".*httpx2.*")

from .util import FakeClock, Server


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


@pytest.fixture
def server(data_dir, clock):
    s = Server(data_dir, clock)
    yield s
    s.close()


@pytest.fixture
def restart(data_dir, clock):
    """`restart(old)` closes a server and starts a NEW app on the same data folder."""
    servers = []

    def _restart(old: Server) -> Server:
        old.close()
        new = Server(data_dir, clock)
        servers.append(new)
        return new

    yield _restart
    for s in servers:
        s.close()
