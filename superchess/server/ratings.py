"""Ratings: which pool a game is rated in, and what a rated game does to both players (Glicko-2,
each game a rating period of its own, as lichess). Pure: the store applies it in the transaction
that saves the game's end.

A pool is a rating variant and a speed class (`clock.SPEEDS`). The rating variant is the variant's
name, except for games in Private mode (super16 R13-R17: each side's roster is secret), whose
players are rated apart: `<variant>-private`. A rating is provisional while its deviation is above
PROVISIONAL_DEVIATION (shown with a `?`)."""
from __future__ import annotations

from typing import NamedTuple

from . import variants
from .clock import SPEEDS, TIME_CONTROLS
from .glicko2 import Rating, Result, rate

PROVISIONAL_DEVIATION = 110.0
PRIVATE_SUFFIX = "-private"


class Pool(NamedTuple):
    variant: str  # the rating variant: a variant's name, or `<name>-private`
    speed: str


def pool_of(variant: str, mode: str, time_control: str) -> Pool:
    """The pool a game (or a seek) with these settings is rated in."""
    return Pool(variant + PRIVATE_SUFFIX if mode == "private" else variant, TIME_CONTROLS[time_control].speed)


def rating_variants() -> tuple[str, ...]:
    """Every rating variant: the playable variants, and the Private pools of reprogrammable ones."""
    names = variants.names()
    return names + tuple(v + PRIVATE_SUFFIX for v in names if variants.capabilities(variants.variant_of(v)).reprogrammable)


def is_pool(variant: str, speed: str) -> bool:
    return variant in rating_variants() and speed in SPEEDS


def after_game(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them (`first_score`: 1, 0.5 or 0)."""
    return (rate(first, [Result(second, first_score)]), rate(second, [Result(first, 1 - first_score)]))


def provisional(deviation: float) -> bool:
    return deviation > PROVISIONAL_DEVIATION


def shown(rating: float, deviation: float) -> dict:
    """A rating as the clients show it: whole points, and whether it is provisional."""
    return {"rating": round(rating), "provisional": provisional(deviation)}


def side_view(rating: float, deviation: float, before: float | None = None) -> dict:
    """A player's rating as a rated game's state shows it, and once the game is rated (`before` the
    rating it had) the change, in whole points: 1500 -> 1517 is a `diff` of +17."""
    change = None if before is None else {"before": round(before), "after": round(rating),
                                          "diff": round(rating) - round(before)}
    return {**shown(rating, deviation), "change": change}
