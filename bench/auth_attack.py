"""Password guessing against a real server: what it costs the server (issue 18, item 4).

Starts `superchess serve` (default argon2 parameters) in a subprocess on a free port with a fresh
data folder, registers accounts, then measures:

1. name enumeration by timing: the median time of a wrong login for an existing account and for
   an unknown name (sequential, alternating);
2. a burst of concurrent wrong logins while a stall monitor (tests/server/stall.py) makes a round
   trip to the server every 50 ms on another connection: the longest round trip, the server's
   resident memory before and its peak after (VmRSS, VmHWM), and the answers' status codes.
   `single`: every login names one account from one client address; `spread`: each login names
   its own account from its own address (X-Forwarded-For, which the server trusts from
   127.0.0.1), as a botnet would, so per-client and per-account throttles do not apply.

    .venv/bin/python bench/auth_attack.py                          # this checkout
    PYTHONPATH=/path/to/other/checkout .venv/bin/python bench/auth_attack.py   # another one
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.server.stall import StallMonitor  # noqa: E402

PASSWORD = "correct horse battery"
PROBE = "/api/games/stall-probe"  # an async endpoint in every version: answered on the event loop


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memory_kb(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


def address(i: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"10.0.{i // 250}.{i % 250 + 1}"}


def burst(base: str, logins: list[tuple[str, dict]]) -> Counter:
    """All logins at once, each from its own thread and connection; their status codes."""
    statuses: Counter = Counter()
    start = threading.Barrier(len(logins))

    def one(name: str, headers: dict) -> None:
        with httpx.Client(base_url=base, timeout=120) as c:
            start.wait()
            statuses[c.post("/api/login", json={"name": name, "password": "wrong guess"}, headers=headers).status_code] += 1

    threads = [threading.Thread(target=one, args=login) for login in logins]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logins", type=int, default=40, help="concurrent wrong logins per burst")
    parser.add_argument("--timing-rounds", type=int, default=10)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.setdefault("PYTHONPATH", str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = subprocess.Popen([sys.executable, "-m", "superchess.cli", "serve", "--port", str(port),
                                 "--data", f"{tmp}/data"], env=env, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(base + "/api/options", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not start"
                time.sleep(0.1)
            names = [f"victim{i}" for i in range(args.logins)]
            for i, name in enumerate(names):
                r = httpx.post(base + "/api/register", json={"name": name, "password": PASSWORD},
                               headers=address(1000 + i), timeout=30)
                assert r.status_code == 200, r.text

            known, unknown = [], []
            for i in range(args.timing_rounds):
                for name, times in ((names[i % len(names)], known), (f"nobody{i}", unknown)):
                    t = time.perf_counter()
                    r = httpx.post(base + "/api/login", json={"name": name, "password": "wrong guess"},
                                   headers=address(2000 + i), timeout=30)
                    times.append((time.perf_counter() - t) * 1000)
                    assert r.status_code == 401, r.text
            print(f"wrong login, existing account: median {statistics.median(known):.1f} ms; "
                  f"unknown name: median {statistics.median(unknown):.1f} ms")

            for mode, logins in (("single", [(names[0], address(3000))] * args.logins),
                                 ("spread", [(name, address(4000 + i)) for i, name in enumerate(names)])):
                Path(f"/proc/{proc.pid}/clear_refs").write_text("5")  # the peak starts again from now
                before = memory_kb(proc.pid)
                t = time.perf_counter()
                with StallMonitor(base, path=PROBE) as monitor:
                    statuses = burst(base, logins)
                took = time.perf_counter() - t
                after = memory_kb(proc.pid)
                print(f"{mode}: {args.logins} concurrent wrong logins in {took:.2f} s, answers {dict(statuses)}; "
                      f"stall monitor: {monitor.report()}; "
                      f"memory: RSS before {before['VmRSS'] / 1024:.0f} MiB, peak after {after['VmHWM'] / 1024:.0f} MiB "
                      f"(+{(after['VmHWM'] - before['VmRSS']) / 1024:.0f} MiB)")
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
