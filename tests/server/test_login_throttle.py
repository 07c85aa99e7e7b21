"""Password guessing (issue 18, item 4): per-account and per-client throttles answering 429 with
Retry-After, unknown names checked like known ones, password checks off the event loop and
bounded. Cheap argon2 parameters here; test_login_load.py attacks a real server with the defaults."""
from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from argon2 import PasswordHasher

from superchess.server.accounts import LOGINS_PER_ACCOUNT, LOGINS_PER_CLIENT, REGISTRATIONS_PER_CLIENT
from superchess.server.passwords import Passwords

from .util import Server, ok, register

CHEAP = dict(time_cost=1, memory_cost=8, parallelism=1)


class RecordingHasher(PasswordHasher):
    """Cheap argon2id that records which hashes it verified and, while `gate` is closed, holds
    each call (to observe calls in flight)."""

    def __init__(self) -> None:
        super().__init__(**CHEAP)
        self.verified: list[str] = []
        self.niceness: set[int] = set()  # of the threads it ran in
        self.gate = threading.Event()
        self.gate.set()
        self.lock = threading.Lock()
        self.running = self.most_running = 0

    def _held(self, fn, *args):
        self.niceness.add(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        with self.lock:
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        try:
            assert self.gate.wait(20)
            return fn(*args)
        finally:
            with self.lock:
                self.running -= 1

    def hash(self, password, *, salt=None):
        return self._held(super().hash, password)

    def verify(self, hash, password):
        self.verified.append(hash)
        return self._held(super().verify, hash, password)


@pytest.fixture
def hasher() -> RecordingHasher:
    return RecordingHasher()


@pytest.fixture
def server(data_dir, clock, hasher):
    s = Server(data_dir, clock, passwords=Passwords(hasher, parallel=2, waiting=1))
    yield s
    s.close()


def login(browser, name: str, password: str):
    return browser.post("/api/login", json={"name": name, "password": password})


def retry_after(r) -> int:
    assert r.status_code == 429 and "too many" in r.json()["detail"], r.text
    seconds = int(r.headers["retry-after"])
    assert 1 <= seconds <= 60
    return seconds


def test_wrong_passwords_are_throttled_per_account_whoever_tries(server, clock):
    register(server.browser(), "alice", "alices secret")
    attacker = server.browser(client=("10.0.0.66", 1000))
    limit, window_ms = LOGINS_PER_ACCOUNT
    assert [login(attacker, "alice", f"guess {i}").status_code for i in range(limit)] == [401] * limit
    for i in range(25):  # 30 guesses in all: the rest are not even checked
        retry_after(login(attacker, "alice", f"guess {limit + i}"))
    retry_after(login(attacker, "alice", "alices secret"))  # the 31st, right, is refused too
    owner = server.browser(client=("10.0.0.7", 1000))
    retry_after(login(owner, "ALICE", "alices secret"))  # the account is throttled, not the client
    clock.advance(window_ms)
    assert ok(login(owner, "alice", "alices secret"))["name"] == "alice"
    # a success forgets the failures
    assert [login(attacker, "alice", "guess").status_code for _ in range(limit)] == [401] * limit


def test_unknown_names_and_guests_are_throttled_and_checked_like_accounts(server, hasher, clock):
    """An unknown name answers like a wrong password, after the same argon2 check (against a
    dummy hash), and is throttled the same: nothing tells which names exist."""
    register(server.browser(), "bruno", "brunos secret")
    guest = server.browser()
    ok(guest.post("/api/matches", json={}))
    server.store.bot(1, clock())
    limit, _ = LOGINS_PER_ACCOUNT
    answers = {}
    for name in ("bruno", "nobody_here", ok(guest.get("/api/me"))["name"], "Computer level 1"):
        hasher.verified.clear()
        b = server.browser(client=(f"10.1.0.{len(answers)}", 1000))
        answers[name] = [(r.status_code, r.json()["detail"].split(";")[0])
                         for r in (login(b, name, "wrong guess") for _ in range(limit + 1))]
        assert len(hasher.verified) == limit  # every checked attempt ran argon2 (a dummy hash: same cost)
        assert all(h.startswith("$argon2id$") for h in hasher.verified)
    expected = [(401, "wrong name or password")] * limit + [(429, "too many login attempts")]
    assert list(answers.values()) == [expected] * 4, answers


def test_failed_logins_are_throttled_per_client_across_names(server, clock):
    limit, window_ms = LOGINS_PER_CLIENT
    sprayer = server.browser(client=("10.2.0.1", 1000))
    assert {login(sprayer, f"name{i}", "password1").status_code for i in range(limit)} == {401}
    retry_after(login(sprayer, "another", "password1"))
    register(server.browser(), "carla", "carlas secret")
    retry_after(login(sprayer, "carla", "carlas secret"))
    neighbour = server.browser(client=("10.2.0.2", 1000))
    assert ok(login(neighbour, "carla", "carlas secret"))["name"] == "carla"
    clock.advance(window_ms)
    assert ok(login(sprayer, "carla", "carlas secret"))["name"] == "carla"


def test_successful_logins_are_not_counted(server):
    register(server.browser(), "dario", "darios secret")
    b = server.browser(client=("10.3.0.1", 1000))
    for _ in range(LOGINS_PER_CLIENT[0] + 5):
        ok(login(b, "dario", "darios secret"))


def test_registrations_are_throttled_per_client(server, clock):
    limit, window_ms = REGISTRATIONS_PER_CLIENT
    b = server.browser(client=("10.4.0.1", 1000))
    for i in range(limit):
        register(b, f"member{i}")
    r = b.post("/api/register", json={"name": "one_more", "password": "long enough"})
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 60
    assert b.post("/api/register", json={"name": "member0", "password": "long enough"}).status_code == 429
    register(server.browser(client=("10.4.0.2", 1000)), "elsewhere")
    clock.advance(window_ms)
    register(b, "one_more")
    assert ok(server.browser().post("/api/login", json={"name": "one_more", "password": "correct horse"}))


def test_password_checks_run_off_the_event_loop_at_most_two_at_once(server, hasher):
    """While checks are held in their threads the server answers; beyond the two running and
    one waiting, a check is refused with 503 and Retry-After instead of queueing without bound."""
    assert login(server.browser(), "nobody", "password1").status_code == 401  # (makes the dummy hash)
    hasher.gate.clear()
    browsers = [server.browser(client=(f"10.5.0.{i}", 1000)) for i in range(3)]
    with ThreadPoolExecutor(3) as pool:
        pending = [pool.submit(login, b, f"user{i}", "password1") for i, b in enumerate(browsers)]
        for _ in range(200):
            if hasher.running == 2:
                break
            threading.Event().wait(0.01)
        assert hasher.running == 2
        idle = server.browser()
        assert ok(idle.get("/api/me"))["id"] is None  # the event loop is free
        busy = login(server.browser(client=("10.5.0.9", 1000)), "user9", "password1")
        assert busy.status_code == 503 and busy.headers["retry-after"] == "1" and "busy" in busy.json()["detail"]
        hasher.gate.set()
        assert [f.result(timeout=20).status_code for f in pending] == [401] * 3
    assert hasher.most_running == 2
    if sys.platform.startswith("linux"):
        assert hasher.niceness == {19}  # the lowest CPU priority: the event loop comes first


def test_one_name_registered_twice_at_once_is_given_once(server, hasher):
    hasher.gate.clear()
    with ThreadPoolExecutor(2) as pool:
        attempts = [pool.submit(server.browser(client=(f"10.6.0.{i}", 1000)).post, "/api/register",
                                json={"name": name, "password": "long enough"})
                    for i, name in enumerate(("Sam", "sam"))]
        for _ in range(200):
            if hasher.running == 2:
                break
            threading.Event().wait(0.01)
        hasher.gate.set()
        statuses = sorted(f.result(timeout=20).status_code for f in attempts)
    assert statuses == [200, 409]
