"""An event-loop stall monitor for a running server: a round trip on its own connection every
`interval` seconds while a test attacks the server on other connections.

    with StallMonitor("http://127.0.0.1:8123") as monitor:
        ...  # the attack
    assert monitor.max_ms < 50, monitor.report()

The probe is `GET path` (by default `/api/me` without a cookie: answered on the event loop, it
reads nothing and writes nothing), so the longest round trip is the longest time the loop could
not answer. The probes run in a process of their own (`python -m tests.server.stall URL PATH
INTERVAL`: probes until its stdin closes, then prints the round trips as JSON), so the attacking
test's own threads cannot delay them.
"""
from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]


class StallMonitor:
    def __init__(self, url: str, path: str = "/api/me", interval: float = 0.05) -> None:
        self.args = [url, path, str(interval)]
        self.round_trips_ms: list[float] = []
        self.errors: list[str] = []

    @property
    def max_ms(self) -> float:
        """The longest round trip seen, in milliseconds."""
        return max(self.round_trips_ms, default=0.0)

    def percentile_ms(self, q: float) -> float:
        """The round trip that `q` percent of them do not exceed (robust to one hiccup of a
        loaded machine, where `max_ms` is not)."""
        trips = sorted(self.round_trips_ms)
        return trips[min(len(trips) - 1, int(len(trips) * q / 100))] if trips else 0.0

    def report(self) -> str:
        return (f"{len(self.round_trips_ms)} round trips, max {self.max_ms:.1f} ms, "
                f"95% under {self.percentile_ms(95):.1f} ms, median {self.percentile_ms(50):.1f} ms"
                + (f", errors: {self.errors[:3]}" if self.errors else ""))

    def __enter__(self) -> "StallMonitor":
        self._proc = subprocess.Popen([sys.executable, "-m", "tests.server.stall", *self.args], cwd=ROOT,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self._proc.stdout.readline().strip() == "probing", "the stall monitor did not start"
        return self

    def __exit__(self, *exc) -> None:
        out, _ = self._proc.communicate(timeout=60)  # closes its stdin: it stops and reports
        result = json.loads(out)
        self.round_trips_ms, self.errors = result["round_trips_ms"], result["errors"]


def probe(url: str, path: str, interval: float) -> None:
    """The monitor process: probes until stdin closes; prints "probing" once connected, then
    the results as JSON."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=30)
    trips, errors = [], []

    def once() -> None:
        start = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        trips.append((time.perf_counter() - start) * 1000)
        if response.status >= 500:
            errors.append(f"{response.status} on {path}")

    once()  # connect (and warm up) before the attack starts: only later round trips count
    trips.clear()
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    print("probing", flush=True)
    while not stop.wait(interval):
        try:
            once()
        except (OSError, http.client.HTTPException) as e:
            errors.append(repr(e))
            connection.close()
    print(json.dumps({"round_trips_ms": trips, "errors": errors}))


if __name__ == "__main__":
    probe(sys.argv[1], sys.argv[2], float(sys.argv[3]))
