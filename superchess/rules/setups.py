"""Generated start positions. Superchess (R1-R3): substitutes replace back-rank pieces, which go to
their owner's holdings; the variant's [setup] data says which squares and pieces take part."""
from __future__ import annotations

import itertools
import random

from .fen import FenError
from .variant import Variant

Choice = dict[str, str]  # Player 1's square -> substitute letter, e.g. {"b1": "V", "d1": "A", ...}


def substitution_setups(variant: Variant) -> list[Choice]:
    """Every valid choice, in a fixed order (432 for Superchess)."""
    data = _data(variant)
    out = []
    wings = [itertools.combinations(w, data["per_wing"]) for w in data["wings"]]
    for picks in itertools.product(*wings):
        squares = [sq for pick in picks for sq in pick]
        for order in itertools.permutations(data["substitutes"]):
            out.append(dict(zip(squares, order)))
    return out


def random_substitution(variant: Variant, seed: int | str | None = None) -> Choice:
    """A uniformly random choice; the same seed gives the same set-up."""
    return random.Random(seed).choice(substitution_setups(variant))


def substitution_fen(variant: Variant, choice: Choice) -> str:
    """The start position (FEN with holdings) of a choice, or FenError saying what is wrong (E2)."""
    data = _data(variant)
    subs, wings, per_wing = data["substitutes"], data["wings"], data["per_wing"]
    allowed = [sq for w in wings for sq in w]
    for sq, letter in choice.items():
        if sq not in allowed:
            raise FenError(f"{sq} cannot be substituted (choose from {', '.join(allowed)})")
        if letter not in subs:
            raise FenError(f"{letter!r} is not a substitute (use {', '.join(subs)})")
    if sorted(choice.values()) != sorted(subs):
        raise FenError(f"use each substitute exactly once: {', '.join(subs)}")
    for w in wings:
        n = sum(sq in choice for sq in w)
        if n != per_wing:
            raise FenError(f"choose exactly {per_wing} squares among {', '.join(w)} (got {n})")
    geo = variant.geometry
    ranks = data["base"].split("/")
    first, last = list(ranks[-1]), list(ranks[0])
    held = []
    for sq, letter in sorted(choice.items()):
        f = geo.parse_cell(sq) % geo.files
        held.append(first[f])
        first[f], last[f] = letter, letter.lower()
    ranks[-1], ranks[0] = "".join(first), "".join(last)
    rights = "".join(right.right + right.right.lower() for right in variant.castling
                     if geo.name(right.rook[0]) not in choice)  # R9: only original Rooks castle
    rights = "".join(sorted(rights, key=lambda c: (c.islower(), "KQ".find(c.upper())))) or "-"
    holdings = "".join(held) + "".join(held).lower()
    return f"{'/'.join(ranks)}[{holdings}] w {rights} - 0 1"


def _data(variant: Variant) -> dict:
    if not variant.setup:
        raise ValueError(f"{variant.name} has no generated set-ups")
    return variant.setup
