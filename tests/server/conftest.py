"""Fixtures for the server tests: a fake clock, a server on a temporary data folder (or, for the
tests marked `postgresql`, also on a PostgreSQL database of its own: `database`), and the computer
thinking in threads (`threads`)."""
from __future__ import annotations

import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest

# Starlette's TestClient warns that it prefers `httpx2`; the tests use the installed httpx.
warnings.filterwarnings("ignore", message=".*httpx2.*")

from superchess.server.ai import AIPlayers

from .real_server import Process
from .util import FakeClock, Server


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


DATABASES = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc) -> None:
    """The tests marked `postgresql` (all with --all-databases) run on both databases."""
    if "database" in metafunc.fixturenames and (metafunc.definition.get_closest_marker("postgresql")
                                                or metafunc.config.getoption("all_databases")):
        metafunc.parametrize("database", DATABASES, indirect=True)


@pytest.fixture
def database(request) -> str | None:
    """The URL of the test server's database: None for SQLite in the data folder, else a new
    PostgreSQL database."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return None
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def server(data_dir, clock, database):
    s = Server(data_dir, clock, db_url=database)
    yield s
    s.close()


@pytest.fixture
def restart(data_dir, clock, database):
    """`restart(old)` closes a server and starts a NEW app on the same data folder (database)."""
    servers = []

    def _restart(old: Server) -> Server:
        old.close()
        new = Server(data_dir, clock, db_url=database)
        servers.append(new)
        return new

    yield _restart
    for s in servers:
        s.close()


@pytest.fixture
def threads(server):
    """The computer thinks in a thread pool here (the real engine, without a process start-up per
    test); one test in test_computer.py uses the real process pool."""
    server.hub.ai = AIPlayers(server.hub, lambda: ThreadPoolExecutor(1))
    yield
    server.hub.ai.close()


@pytest.fixture
def processes(tmp_path):
    """`processes()` starts a real `superchess serve` on the test's data folder (killed at the end)."""
    started = []
    with open(tmp_path / "server.log", "ab") as log:

        def start() -> Process:
            p = Process(tmp_path / "data", log)
            started.append(p)
            return p

        yield start
        for p in started:
            p.kill()
