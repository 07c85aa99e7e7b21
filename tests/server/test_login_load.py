"""A real server (`superchess serve` in a subprocess, argon2's default 64 MiB parameters) under a
burst of concurrent wrong logins (issue 18, item 4): its memory stays bounded and its event loop
keeps answering; and what it believes of a trusted proxy's headers (item 12, `Secure` cookies).
Before: 40 such logins added 1.4 to 2.5 GB and stalled the loop for seconds (bench/auth_attack.py)."""
from __future__ import annotations

import statistics
import subprocess
import time
from collections import Counter

import httpx
import pytest

from superchess.server.accounts import LOGINS_PER_ACCOUNT
from superchess.server.passwords import PARALLEL, WAITING

from .attack import from_address, login_burst
from .real_server import Process
from .stall import StallMonitor

BURST = 40


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    p = Process(tmp_path_factory.mktemp("login-load") / "data", subprocess.DEVNULL)
    yield p
    p.proc.terminate()
    try:
        p.proc.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()


def burst(live: Process, first_address: int) -> tuple[Counter, StallMonitor, int]:
    """40 concurrent wrong logins, unknown names each from its own address (so no throttle
    applies), under a stall monitor."""
    return login_burst(live.base, live.proc.pid, [(f"nobody{first_address + i}", from_address(first_address + i))
                                                  for i in range(BURST)])


def test_a_burst_of_wrong_logins_keeps_memory_bounded_and_the_loop_answering(live):
    statuses, monitor, grown_mib = burst(live, 1000)
    # one checked at a time, WAITING more queue, the rest are told the server is busy
    assert statuses == {401: PARALLEL + WAITING, 503: BURST - PARALLEL - WAITING}, statuses
    assert not monitor.errors, monitor.report()
    assert grown_mib < 200, f"{grown_mib} MiB"  # one 64 MiB check at a time (before: +1.4 GB)
    # robust on a loaded machine, where other processes delay any one round trip; before: 95%
    # under about 1.2 s, the longest 1.4 to 5 s (the strict bound is the slow test below)
    assert monitor.percentile_ms(95) < 50 and monitor.max_ms < 500, monitor.report()


@pytest.mark.slow
def test_a_burst_of_wrong_logins_never_stalls_the_loop_50_ms(live):
    statuses, monitor, _ = burst(live, 2000)
    assert set(statuses) == {401, 503} and not monitor.errors
    assert monitor.max_ms < 50, monitor.report()


@pytest.mark.slow
def test_an_unknown_name_takes_as_long_as_a_wrong_password(live):
    """Before: 2 ms against about 100 ms. Timed, so slow-marked; the default suite checks that
    the dummy hash is verified (test_login_throttle.py)."""
    with httpx.Client(base_url=live.base, timeout=30) as c:
        assert c.post("/api/register", json={"name": "timed", "password": "long enough"},
                      headers=from_address(3000)).status_code == 200
        known, unknown = [], []
        for i in range(LOGINS_PER_ACCOUNT[0]):  # (more would be throttled)
            for name, times in (("timed", known), (f"untimed{i}", unknown)):
                t = time.perf_counter()
                r = c.post("/api/login", json={"name": name, "password": "wrong"}, headers=from_address(3001 + i))
                times.append(time.perf_counter() - t)
                assert r.status_code == 401
    known, unknown = statistics.median(known), statistics.median(unknown)
    assert 0.5 < unknown / known < 2, (known, unknown)


def test_secure_cookies_when_a_trusted_proxy_says_https(live):
    """`superchess serve --trusted-proxies` (default 127.0.0.1): X-Forwarded-Proto from it is
    believed, so the cookie is `Secure`; over plain http it is not. (test_origin.py checks that
    the option reaches uvicorn.)"""
    cookies = {}
    for i, proto in enumerate(("https", "http")):
        r = httpx.post(f"{live.base}/api/matches", json={},
                       headers={**from_address(4000 + i), "X-Forwarded-Proto": proto})
        assert r.status_code == 200, r.text
        cookies[proto] = r.headers["set-cookie"].lower()
    assert "; secure" in cookies["https"] and "; secure" not in cookies["http"]
