"""An event-loop stall monitor for a running server: a round trip on its own connection every
`interval` seconds, in a thread, while a test attacks the server on other connections.

    with StallMonitor("http://127.0.0.1:8123") as monitor:
        ...  # the attack
    assert monitor.max_ms < 50, monitor.report()

The probe is `GET path` (by default `/api/me` without a cookie: answered on the event loop, it
reads nothing and writes nothing), so the longest round trip is the longest time the loop could
not answer.
"""
from __future__ import annotations

import http.client
import threading
import time
from urllib.parse import urlsplit


class StallMonitor:
    def __init__(self, url: str, path: str = "/api/me", interval: float = 0.05) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.path = path
        self.interval = interval
        self.round_trips_ms: list[float] = []
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @property
    def max_ms(self) -> float:
        """The longest round trip seen, in milliseconds."""
        return max(self.round_trips_ms, default=0.0)

    def report(self) -> str:
        trips = sorted(self.round_trips_ms)
        median = trips[len(trips) // 2] if trips else 0.0
        return (f"{len(trips)} round trips, max {self.max_ms:.1f} ms, median {median:.1f} ms"
                + (f", errors: {self.errors[:3]}" if self.errors else ""))

    def __enter__(self) -> "StallMonitor":
        self._connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        self._probe()  # connect (and warm up) before the attack starts: only round trips count
        self.round_trips_ms.clear()
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(35)
        self._connection.close()

    def _probe(self) -> None:
        start = time.perf_counter()
        self._connection.request("GET", self.path)
        response = self._connection.getresponse()
        response.read()
        self.round_trips_ms.append((time.perf_counter() - start) * 1000)
        if response.status >= 500:
            self.errors.append(f"{response.status} on {self.path}")

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self._probe()
            except (OSError, http.client.HTTPException) as e:
                self.errors.append(repr(e))
                self._connection.close()
                self._connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
