"""Password guessing against a real server: what it costs the server.

Starts `superchess serve` (default argon2 parameters) in a subprocess on a free port with a fresh
data folder, registers accounts, then measures:

1. name enumeration by timing: the median time of a wrong login for an existing account and for
   an unknown name (sequential, alternating, each from its own client address);
2. bursts of 40 concurrent wrong logins (tests/server/attack.py) while a stall monitor
   (tests/server/stall.py, in its own process) makes a round trip to the server every 50 ms: the
   longest round trip, the server's peak memory growth, the answers' status codes.
   `single`: every login names one account from one client address; `spread`: each login names
   its own account (the first two are throttled by then) from its own address
   (X-Forwarded-For, which the server trusts from 127.0.0.1), as a botnet would, so per-client
   and per-account throttles do not apply.

    .venv/bin/python bench/auth_attack.py       # this checkout
    cd /other/checkout && PYTHONPATH=. /this/checkout/.venv/bin/python /this/checkout/bench/auth_attack.py
                                                # another one (the server runs from the current folder)
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.server.attack import from_address, login_burst  # noqa: E402
from tests.server.test_process_restart import Process  # noqa: E402

PASSWORD = "correct horse battery"
PROBE = "/api/games/stall-probe"  # an `async` endpoint in every version: answered on the event loop


def median_ms(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logins", type=int, default=40, help="concurrent wrong logins per burst")
    parser.add_argument("--timing-rounds", type=int, default=5, help="(more are throttled per account)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Process(Path(tmp) / "data", subprocess.DEVNULL)
        try:
            names = [f"victim{i}" for i in range(args.logins)]
            for i, name in enumerate(names):
                r = httpx.post(server.base + "/api/register", json={"name": name, "password": PASSWORD},
                               headers=from_address(1000 + i), timeout=60)
                assert r.status_code == 200, r.text
            known, unknown = [], []
            for i in range(args.timing_rounds):
                for name, times in ((names[0], known), (f"nobody{i}", unknown)):
                    t = time.perf_counter()
                    r = httpx.post(server.base + "/api/login", json={"name": name, "password": "wrong guess"},
                                   headers=from_address(2000 + 2 * i + len(times) % 2), timeout=60)
                    times.append(time.perf_counter() - t)
                    assert r.status_code == 401, r.text
            print(f"wrong login, existing account: median {median_ms(known)}; "
                  f"unknown name: median {median_ms(unknown)}")
            for mode, logins in (("single", [(names[1], from_address(3000))] * args.logins),
                                 ("spread", [(name, from_address(4000 + i)) for i, name in enumerate(names)])):
                t = time.perf_counter()
                statuses, monitor, grown_mib = login_burst(server.base, server.proc.pid, logins, probe=PROBE)
                print(f"{mode}: {args.logins} concurrent wrong logins in {time.perf_counter() - t:.1f} s, "
                      f"answers {dict(sorted(statuses.items()))}; stall monitor: {monitor.report()}; "
                      f"peak memory +{grown_mib} MiB")
        finally:
            server.proc.terminate()
            server.proc.wait(10)


if __name__ == "__main__":
    main()
