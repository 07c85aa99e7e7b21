"""Password hashing (argon2id) off the event loop, with bounded cost.

Each hash or check takes the hasher's memory (64 MiB with argon2-cffi's defaults) and about 0.1 s
of CPU on four threads (parallelism 4), so at most `parallel` run at once (one by default: that
already fills two cores), at most `waiting` more queue behind them, and anything beyond is
refused (`Busy`) rather than queued without bound. The hashing runs in its own thread at the
lowest CPU priority (argon2 releases the GIL): the event loop keeps answering however many
logins arrive. A check for a name without a password (unknown, or a guest) verifies against a
dummy hash, so it takes as long as a wrong password and does not tell which names exist.
"""
from __future__ import annotations

import asyncio
import os
import secrets
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError


PARALLEL, WAITING = 1, 32  # password operations running at once, and waiting for them


def _yield_the_cpu() -> None:
    """A hashing thread (and argon2's lane threads, which inherit it) runs at the lowest CPU
    priority: on a busy machine the event loop and the games come first, logins wait. (Linux
    gives each thread its own niceness; elsewhere the threads keep the process's.)"""
    if sys.platform.startswith("linux"):
        with suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


class Busy(Exception):
    """Too many password operations are already running or waiting."""


class Passwords:
    def __init__(self, hasher: PasswordHasher | None = None, parallel: int = PARALLEL, waiting: int = WAITING) -> None:
        self.hasher = hasher or PasswordHasher()  # argon2id
        self.capacity = parallel + waiting
        self._pending = 0
        self._pool = ThreadPoolExecutor(parallel, thread_name_prefix="argon2", initializer=_yield_the_cpu)
        self._dummy: str | None = None
        self._dummy_lock = threading.Lock()

    async def hash(self, password: str) -> str:
        return await self._run(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether `password` matches the `stored` hash; None (no password) never matches."""
        return await self._run(self._verify, stored, password)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def _run(self, fn, *args):
        if self._pending >= self.capacity:
            raise Busy("the server is busy checking passwords; try again in a moment")
        self._pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        finally:
            self._pending -= 1

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            return self.hasher.verify(stored or self._dummy_hash(), password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    def _dummy_hash(self) -> str:
        """A hash with the hasher's parameters of a password nobody knows (made once, on first use)."""
        with self._dummy_lock:
            if self._dummy is None:
                self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
            return self._dummy
