"""Attempt counting per key (a client address, an account name) in a sliding window: what limits
password guessing, registrations and roster previews. Memory is bounded: at most `max_keys` keys of at most `limit`
instants each."""
from __future__ import annotations

from typing import Callable, Hashable

from fastapi import HTTPException


class Throttle:
    """At most `limit` attempts per key within any `window_ms`; `now` gives milliseconds."""

    def __init__(self, limit: int, window_ms: int, now: Callable[[], int], max_keys: int = 50_000) -> None:
        self.limit, self.window_ms, self.now, self.max_keys = limit, window_ms, now, max_keys
        self._attempts: dict[Hashable, list[int]] = {}

    def _recent(self, key: Hashable, t: int) -> list[int]:
        times = [a for a in self._attempts.get(key, ()) if a > t - self.window_ms]
        if times:
            self._attempts[key] = times
        else:
            self._attempts.pop(key, None)
        return times

    def wait_s(self, key: Hashable) -> int:
        """Seconds until `key` may try again (0: now)."""
        t = self.now()
        times = self._recent(key, t)
        if len(times) < self.limit:
            return 0
        return max(1, -(-(times[0] + self.window_ms - t) // 1000))

    def take(self, key: Hashable) -> None:
        """Count an attempt of `key` (check `wait_s` first)."""
        t = self.now()
        times = self._recent(key, t)
        if not times and len(self._attempts) >= self.max_keys:
            self._forget_oldest(t)
        self._attempts[key] = times + [t]

    def give_back(self, key: Hashable) -> None:
        """Uncount the latest attempt of `key` (it succeeded)."""
        times = self._attempts.get(key)
        if times:
            times.pop()
            if not times:
                del self._attempts[key]

    def clear(self, key: Hashable) -> None:
        self._attempts.pop(key, None)

    def _forget_oldest(self, t: int) -> None:
        """Make room: drop the keys whose attempts have all left the window, else the oldest half."""
        expired = [k for k, times in self._attempts.items() if times[-1] <= t - self.window_ms]
        for k in expired or list(self._attempts)[:len(self._attempts) // 2 + 1]:
            del self._attempts[k]


def refuse_if_throttled(*buckets: tuple[Throttle, Hashable], what: str) -> None:
    """HTTP 429 with Retry-After if any (throttle, key) has no attempt left."""
    wait = max(throttle.wait_s(key) for throttle, key in buckets)
    if wait:
        raise HTTPException(429, f"too many {what}; try again in {wait} s", headers={"Retry-After": str(wait)})
