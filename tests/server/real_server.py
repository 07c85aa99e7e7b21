"""Helpers for tests against the real thing: `superchess serve` in a subprocess (its uvicorn, its
SQLite database), driven over real HTTP and websockets; and its event loop's stalls under an attack."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import httpx
from websockets.sync.client import connect

from .util import PAGE_MESSAGES

from .stall import StallMonitor

STALL_MS = 50  # the longest the event loop may keep a client waiting (issue 18)

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    """`superchess serve` on the data folder, or with `db` on that database; `env`: more of its
    environment. Started and answering, unless `wait` is False (then `wait_ready()`)."""

    def __init__(self, data, log, db: str | None = None, env: dict | None = None, wait: bool = True) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.db = db
        where = ["--db", db] if db else ["--data", str(data)]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "superchess.cli", "serve", "--port", str(self.port), *where],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 120  # a loaded machine: start-up builds every variant, twice (server, worker)
        while True:
            assert self.proc.poll() is None, "the server exited"
            try:
                if httpx.get(f"{self.base}/api/options", timeout=1).status_code == 200:
                    self.serving_since = time.time()  # when it first answered
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


class Player:
    def __init__(self, server: Process, timeout: float = 5) -> None:
        self.http = httpx.Client(base_url=server.base, timeout=timeout)
        self.me = self.http.get("/api/me").json()

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    def socket(self, server: Process, game_id: str):
        return connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}",
                       additional_headers={"Cookie": self.cookie_header()}, open_timeout=5)

    def on(self, server: Process) -> Player:
        """The same browser (cookies) talking to another server process."""
        cookies = self.http.cookies
        self.http.close()
        self.http = httpx.Client(base_url=server.base, timeout=5, cookies=cookies)
        return self

    def state(self, game_id: str) -> dict:
        r = self.http.get(f"/api/games/{game_id}")
        assert r.status_code == 200, r.text
        body = r.json()
        return body["state"] if body.get("type") == "state" else body


def message(ws, timeout: float = 5) -> dict:
    """The next message of a game's socket but those about the page around it (`PAGE_MESSAGES`:
    the spectator count); TimeoutError if none comes within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(ws.recv(timeout=max(0.0, deadline - time.monotonic())))
        if msg.get("type") not in PAGE_MESSAGES:
            return msg


def receive(ws, timeout: float = 5) -> dict:
    msg = message(ws, timeout)
    assert msg["type"] == "state", msg
    return msg


def play(ws, others, text):
    ws.send(json.dumps({"type": "move", "move": text}))
    msgs = [receive(w) for w in (ws, *others)]
    assert all(m["event"]["move"] == text for m in msgs)
    return msgs


def stall_under(server: Process, attack, attempts: int = 3) -> list[float]:
    """The longest round trips (ms) of a stall monitor while `attack()` runs, one per attempt,
    stopping at the first under `STALL_MS`: a loop blocked by the attack stalls every attempt, while
    a machine busy with other work only disturbs some of them."""
    worst = []
    for _ in range(attempts):
        with StallMonitor(server.base) as monitor:
            attack()
        assert not monitor.errors, monitor.report()
        worst.append(monitor.max_ms)
        if worst[-1] < STALL_MS:
            break
    return worst
