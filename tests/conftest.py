"""Test-suite configuration: under CI, property tests run a fixed (derandomized) set of examples so
a submission's result does not depend on luck; locally they explore new examples on every run. The
PostgreSQL the store and server tests also run on (`postgres`, `postgres_url`)."""
import itertools
import os
import subprocess

import pytest
from hypothesis import settings

from .postgres import Postgres

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_addoption(parser) -> None:
    parser.addoption("--all-databases", action="store_true",
                     help="run every server test on PostgreSQL too (by default only those marked `postgresql`)")


_databases = itertools.count()  # names of the tests' databases


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL server for the run (tests/postgres.py), started by the first test that
    needs it. Without PostgreSQL the tests that need it fail saying so: they are never skipped."""
    try:
        pg = Postgres()
    except (RuntimeError, OSError, subprocess.CalledProcessError) as e:
        pytest.fail(f"this test needs PostgreSQL, which could not be started ({e}); `make test` installs "
                    "Debian's postgresql", pytrace=False)
    yield pg
    pg.stop()


@pytest.fixture
def postgres_url(postgres) -> str:
    """The URL of a new, empty PostgreSQL database of its own for the test."""
    return postgres.database(f"t{next(_databases)}")
