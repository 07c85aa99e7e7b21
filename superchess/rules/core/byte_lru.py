"""A least-recently-used cache bounded by the bytes its values take, not by their count: compiled
tables for rosters range from a few hundred kilobytes to tens of megabytes, so only a byte ceiling
bounds the memory any sequence of requests can leave behind.

Sizes are given by the caller when a value is stored: an estimate that is never below the truth
(e.g. `tables.piece_bytes`), so the total held stays under the ceiling. Storing evicts the least
recently used values until the total fits; a value larger than the ceiling is not kept at all.
Safe to use from several threads (the server compiles tables off its event loop).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class ByteLRU(Generic[K, V]):
    """Values by key, least recently used evicted first once their bytes pass `ceiling`."""

    def __init__(self, ceiling: int) -> None:
        self.ceiling = ceiling
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def nbytes(self) -> int:
        """The bytes of the values held (as estimated when each was stored)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: K) -> bool:
        return key in self._entries

    def get(self, key: K) -> V | None:
        """The value stored under `key` (now the most recently used), or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: K, value: V, nbytes: int) -> None:
        """Store `value` (taking `nbytes`), evicting the least recently used values as needed."""
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if nbytes > self.ceiling:
                return
            while self._entries and self._bytes + nbytes > self.ceiling:
                _, (_, freed) = self._entries.popitem(last=False)
                self._bytes -= freed
            self._entries[key] = (value, nbytes)
            self._bytes += nbytes

    def get_or_make(self, key: K, make: Callable[[], V], size: Callable[[V], int]) -> V:
        """The value under `key`, made (outside the lock: two threads may both make it) and stored
        when missing."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value, size(value))
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0
