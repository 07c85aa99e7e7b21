"""The computer's levels as data (levels.toml) and their loader."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

LEVELS = range(1, 9)


@dataclass(frozen=True)
class Level:
    number: int
    depth: int
    movetime_ms: int
    nodes: int
    noise_cp: int
    margin_cp: int
    use_clock: bool
    hash_mb: int
    max_ms: int
    time_share: float = 1.0


@lru_cache(maxsize=1)
def load_levels() -> dict[int, Level]:
    data = tomllib.loads(resources.files(__package__).joinpath("levels.toml").read_text())
    out = {}
    for key, d in data.items():
        n = int(key)
        out[n] = Level(number=n, depth=int(d["depth"]), movetime_ms=int(d["movetime_ms"]),
                       nodes=int(d["nodes"]), noise_cp=int(d["noise_cp"]), margin_cp=int(d["margin_cp"]),
                       use_clock=bool(d["use_clock"]), hash_mb=int(d["hash_mb"]),
                       max_ms=int(d.get("max_ms", int(d["movetime_ms"]) * 3 // 2)),
                       time_share=float(d.get("time_share", 1.0)))
    if sorted(out) != list(LEVELS):
        raise ValueError(f"levels.toml must define levels 1-8, found {sorted(out)}")
    return out


def get_level(n: int) -> Level:
    """Level `n` (1-8); ValueError otherwise."""
    levels = load_levels()
    if n not in levels:
        raise ValueError(f"unknown level {n!r} (use 1-8)")
    return levels[n]
