"""Password-guessing bursts against a running server process, measured: for test_login_load.py and
bench/auth_attack.py (which also runs it against older checkouts, so nothing here imports the
server's code)."""
from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path

import httpx

from .stall import StallMonitor


def from_address(i: int) -> dict:
    """Headers that make a request come from client address number `i`: the server believes the
    X-Forwarded-For of its trusted proxy (127.0.0.1 by default), as a botnet's would differ."""
    return {"X-Forwarded-For": f"10.{i // 62500}.{i // 250 % 250}.{i % 250 + 1}"}


def memory_kb(pid: int) -> dict[str, int]:
    """The process's resident memory and its peak (kB)."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return {key: int(status[key].split()[0]) for key in ("VmRSS", "VmHWM")}


def login_burst(base: str, pid: int, logins: list[tuple[str, dict]],
                probe: str = "/api/me") -> tuple[Counter, StallMonitor, int]:
    """Wrong logins `(name, headers)` all at once, each on its own connection, while a stall
    monitor probes `probe`: (their status codes, the monitor, the server's peak memory growth in MiB)."""
    statuses: Counter = Counter()
    clients = [httpx.Client(base_url=base, timeout=120) for _ in logins]  # made before measuring
    start = threading.Barrier(len(logins) + 1)

    def one(client: httpx.Client, name: str, headers: dict) -> None:
        start.wait()
        statuses[client.post("/api/login", json={"name": name, "password": "wrong guess"},
                             headers=headers).status_code] += 1

    threads = [threading.Thread(target=one, args=(c, *login)) for c, login in zip(clients, logins)]
    for t in threads:
        t.start()
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # the peak counts from here
    before = memory_kb(pid)["VmRSS"]
    try:
        with StallMonitor(base, path=probe) as monitor:
            start.wait()
            for t in threads:
                t.join()
    finally:
        for c in clients:
            c.close()
    return statuses, monitor, (memory_kb(pid)["VmHWM"] - before) // 1024
