"""Game clocks (super16 R18), pure objects: time comes in as milliseconds from the caller, so the
server feeds real time and tests feed whatever they like."""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

FIRST_MOVE_WINDOW_MS = 60_000  # an untimed first move must still come within this (Daily: 24 h)
ROSTER_WINDOW_MS = 300_000  # Private mode: time to submit a roster before the default applies (Daily: 24 h)


@dataclass(frozen=True)
class TimeControl:
    id: str
    name: str
    initial_ms: int = 0
    increment_ms: int = 0
    per_move_ms: int = 0  # Daily: each move within this time
    speed: str = "classical"  # its speed class (ratings are per variant and speed)

    @property
    def daily(self) -> bool:
        return self.per_move_ms > 0

    @property
    def first_move_window_ms(self) -> int:
        return self.per_move_ms if self.daily else FIRST_MOVE_WINDOW_MS

    @property
    def roster_window_ms(self) -> int:
        return self.per_move_ms if self.daily else ROSTER_WINDOW_MS


DAILY = "daily"  # the speed class of Daily time controls


def _speed(initial_s: int, increment_s: int, per_move_s: int, classes: list[dict]) -> str:
    """The speed class of a time control (see timecontrols.toml)."""
    if per_move_s:
        return DAILY
    estimate = initial_s + 40 * increment_s
    return next(c["name"] for c in classes if "below" not in c or estimate < c["below"])


def _load() -> tuple[dict[str, TimeControl], tuple[str, ...]]:
    """The time controls of timecontrols.toml, and those of the TOML file named by
    SUPERCHESS_TIME_CONTROLS (a deployment's own, or a test's short ones), after them."""
    data = tomllib.loads(resources.files(__package__).joinpath("timecontrols.toml").read_text())
    extra = os.environ.get("SUPERCHESS_TIME_CONTROLS")
    if extra:
        data["time_control"] += tomllib.loads(Path(extra).read_text())["time_control"]
    controls = {}
    for d in data["time_control"]:
        initial, increment, per_move = d.get("initial", 0), d.get("increment", 0), d.get("per_move", 0)
        controls[d["id"]] = TimeControl(d["id"], d["name"], initial * 1000, increment * 1000, per_move * 1000,
                                        _speed(initial, increment, per_move, data["speed"]))
    return controls, tuple(c["name"] for c in data["speed"]) + (DAILY,)


TIME_CONTROLS, SPEEDS = _load()


class Clock:
    """Remaining time per side. Only the side to move runs; the first move of each side is not
    timed (but must come within the first-move window, else the game is aborted); the increment is
    added after each of a side's moves; Daily resets to the per-move allowance every turn."""

    def __init__(self, tc: TimeControl, remaining: list[int] | None = None, moves_made: int = 0) -> None:
        self.tc = tc
        start = tc.per_move_ms if tc.daily else tc.initial_ms
        self.remaining = list(remaining) if remaining else [start, start]
        self.moves_made = moves_made  # half-moves played so far
        self.running: int | None = None
        self.turn_started = 0

    def start(self, side: int, now: int) -> None:
        """The clock of `side` starts running (its turn begins) at `now`."""
        self.running = side
        self.turn_started = now
        if self.tc.daily:
            self.remaining[side] = self.tc.per_move_ms

    def stop(self, now: int) -> None:
        if self.running is not None and self.timed():
            self.remaining[self.running] = self.left(self.running, now)
        self.running = None

    def timed(self) -> bool:
        """Is the running side's current move timed? (Each side's first move is not.)"""
        return self.moves_made >= 2

    def left(self, side: int, now: int) -> int:
        if side != self.running or not self.timed():
            return self.remaining[side]
        return self.remaining[side] - (now - self.turn_started)

    def thinking_time(self, side: int, now: int) -> int:
        """The time `side` has for its move, as a player would plan it: its clock; on its untimed
        first move, the clock it will have, but no more than what is left of the first-move window."""
        if side == self.running and not self.timed():
            return min(self.remaining[side], self.deadline() - now)
        return self.left(side, now)

    def on_move(self, now: int) -> None:
        """The running side moved at `now`: charge it, add the increment, start the other side."""
        side = self.running
        if self.timed():
            self.remaining[side] = self.left(side, now) + self.tc.increment_ms
        self.moves_made += 1
        self.start(side ^ 1, now)

    def deadline(self) -> int | None:
        """When (ms) the running side's time runs out or its untimed first move is overdue."""
        if self.running is None:
            return None
        if not self.timed():
            return self.turn_started + self.tc.first_move_window_ms
        return self.turn_started + self.remaining[self.running]

    def expired(self, now: int) -> bool:
        d = self.deadline()
        return d is not None and now >= d
