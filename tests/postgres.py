"""A throwaway PostgreSQL server for the test run: a cluster made by Debian's `initdb` in a
temporary folder, started on a free loopback port (and a socket in that folder), stopped and
removed at the end. No system service is used. As root, the server runs as the `postgres` user
(PostgreSQL refuses to run as root). `make test` installs Debian's PostgreSQL when it is missing;
without it these tests fail with a message saying so (never skipped)."""
from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "superchess"


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} was not found: install Debian's postgresql (make test does)")
    return found[-1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postgres:
    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="superchess-pg-"))
        self.port = _free_port()
        as_postgres = os.geteuid() == 0
        if as_postgres:
            shutil.chown(self.folder, "postgres")
        run_as = ["runuser", "-u", "postgres", "--"] if as_postgres else []
        data = self.folder / "data"
        subprocess.run([*run_as, _bin("initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8",
                        "--no-sync"], check=True, stdout=subprocess.DEVNULL)
        self.proc = subprocess.Popen(
            [*run_as, _bin("postgres"), "-D", str(data), "-p", str(self.port), "-k", str(self.folder),
             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200"],
            stdout=subprocess.DEVNULL, stderr=open(self.folder / "server.log", "wb"))
        self._wait_ready()

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/postgres"

    def database(self, name: str) -> str:
        """A new empty database's URL."""
        self._psql(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{name}"

    def _psql(self, sql: str) -> None:
        import psycopg
        with psycopg.connect(host="127.0.0.1", port=self.port, user=USER, dbname="postgres", autocommit=True) as c:
            c.execute(sql)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while subprocess.run([_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                             stdout=subprocess.DEVNULL).returncode != 0:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start: {(self.folder / 'server.log').read_text()[-2000:]}")
            time.sleep(0.1)

    def stop(self) -> None:
        # a "fast" shutdown (open connections do not hold it up), signalled to the server itself: as
        # root, the process started is runuser, which does not pass SIGINT on
        try:
            os.kill(int((self.folder / "data" / "postmaster.pid").read_text().split()[0]), signal.SIGINT)
        except (OSError, ValueError):
            self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.folder, ignore_errors=True)
