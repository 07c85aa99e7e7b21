"""Rules work off the event loop: legal-move listings, game replays, roster compilation and position
set-ups can take from microseconds to a few tenths of a second (Tiling Rider turns in check), so the
server runs them in a small pool of threads and awaits the answer. The pool is as small as the
machine (rules work is pure Python: more threads would only queue for the interpreter lock), which
also bounds the memory and the interpreter-lock share that a burst of requests can take from the
event loop. Each job's time is bounded by the rules themselves (the turn search's state budget, the
size limits of positions and rosters), never by cancelling a thread that holds a game's state.

Work whose answer is small but whose making allocates much (roster previews compile whole table
sets) runs in a worker process instead (`run_in_process`): the server's memory and its garbage
collector, whose pauses stop every thread, never see it."""
from __future__ import annotations

import asyncio
import os
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Callable, TypeVar

from .worker import worker_pool

T = TypeVar("T")


class Offload:
    def __init__(self, workers: int | None = None, process_pool: Callable[[], Executor] = worker_pool) -> None:
        self._pool = ThreadPoolExecutor(workers or min(2, os.cpu_count() or 1), thread_name_prefix="rules")
        self._make_process_pool = process_pool
        self._processes: Executor | None = None  # started on first use

    async def run(self, fn: Callable[..., T], *args) -> T:
        """`fn(*args)` in a worker thread; its exception, if any, is raised here."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def run_in_process(self, fn: Callable[..., T], *args) -> T:
        """`fn(*args)` (picklable, as its answer) in the worker process."""
        if self._processes is None:
            self._processes = self._make_process_pool()
        return await asyncio.get_running_loop().run_in_executor(self._processes, fn, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
