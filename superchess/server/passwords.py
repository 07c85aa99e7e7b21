"""Password hashing (argon2id) off the event loop, with bounded cost.

Each hash or check takes the hasher's memory (64 MiB with argon2-cffi's defaults) and about 0.1 s
of CPU, so at most `parallel` run at once (in their own threads: argon2 releases the GIL), at most
`waiting` more queue behind them, and anything beyond is refused (`Busy`) rather than queued
without bound. A check for a name without a password (unknown, or a guest) verifies against a
dummy hash, so it takes as long as a wrong password and does not tell which names exist.
"""
from __future__ import annotations

import asyncio
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError


class Busy(Exception):
    """Too many password operations are already running or waiting."""


class Passwords:
    def __init__(self, hasher: PasswordHasher | None = None, parallel: int = 2, waiting: int = 64) -> None:
        self.hasher = hasher or PasswordHasher()  # argon2id
        self.capacity = parallel + waiting
        self._pending = 0
        self._pool = ThreadPoolExecutor(parallel, thread_name_prefix="argon2")
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
