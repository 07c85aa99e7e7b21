"""Helpers for tests against the real thing: `superchess serve` in a subprocess (its uvicorn, its
SQLite database), driven over real HTTP and websockets; and a monitor of its event loop's stalls."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
from websockets.sync.client import connect

STALL_MS = 50  # the longest the event loop may keep a client waiting (issue 18)

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    def __init__(self, data, log) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "superchess.cli", "serve", "--port", str(self.port), "--data", str(data)],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 60  # a loaded machine: start-up builds every variant
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


def receive(ws) -> dict:
    msg = json.loads(ws.recv(timeout=5))
    assert msg["type"] == "state", msg
    return msg


def play(ws, others, text):
    ws.send(json.dumps({"type": "move", "move": text}))
    msgs = [receive(w) for w in (ws, *others)]
    assert all(m["event"]["move"] == text for m in msgs)
    return msgs


class StallMonitor:
    """Measures how long the server's event loop keeps a client waiting: a watcher's websocket sends
    `sync` every `interval` seconds from a thread of this process and times each answer. Use it as a
    context manager around an attack; `worst_ms` is the longest round trip seen (a loop blocked for
    X ms shows as a round trip of about X ms or more)."""

    def __init__(self, server: Process, game_id: str, interval: float = 0.05) -> None:
        self.url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
        self.interval = interval
        self.round_trips: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._ready = threading.Event()

    def __enter__(self) -> StallMonitor:
        self._thread.start()
        assert self._ready.wait(10), "the stall monitor could not connect"
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(30)

    def _run(self) -> None:
        with connect(self.url, open_timeout=5) as ws:
            json.loads(ws.recv(timeout=5))  # the state sent on joining
            self._ready.set()
            while not self._stop.is_set():
                t0 = time.perf_counter()
                ws.send('{"type":"sync"}')
                while json.loads(ws.recv(timeout=60)).get("type") != "state":
                    pass
                took = time.perf_counter() - t0
                self.round_trips.append(took * 1000)
                self._stop.wait(max(0.0, self.interval - took))

    @property
    def worst_ms(self) -> float:
        return max(self.round_trips)


def stall_under(server: Process, game_id: str, attack, attempts: int = 3) -> list[float]:
    """The worst round trips (ms) seen while `attack()` runs, one per attempt, stopping at the first
    under `STALL_MS`: a loop blocked by the attack stalls every attempt, while a machine busy with
    other work only disturbs some of them."""
    worst = []
    for _ in range(attempts):
        with StallMonitor(server, game_id) as monitor:
            attack()
        worst.append(monitor.worst_ms)
        if worst[-1] < STALL_MS:
            break
    return worst
