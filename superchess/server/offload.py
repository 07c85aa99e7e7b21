"""Rules work off the event loop: legal-move listings, game replays, roster compilation and position
set-ups can take from microseconds to a few tenths of a second (Tiling Rider turns in check), so the
server runs them in a small pool of threads and awaits the answer. The pool is as small as the
machine (rules work is pure Python: more threads would only queue for the interpreter lock), which
also bounds the memory and the interpreter-lock share that a burst of requests can take from the
event loop. Each job's time is bounded by the rules themselves (the turn search's state budget, the
size limits of positions and rosters), never by cancelling a thread that holds a game's state."""
from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, TypeVar

T = TypeVar("T")


class Offload:
    def __init__(self, workers: int | None = None) -> None:
        self._pool = ThreadPoolExecutor(workers or min(2, os.cpu_count() or 1), thread_name_prefix="rules")

    async def run(self, fn: Callable[..., T], *args) -> T:
        """`fn(*args)` in a worker thread; its exception, if any, is raised here."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
