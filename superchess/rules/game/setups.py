"""Generated start positions. Superchess (R1-R3): substitutes replace back-rank pieces, which go to
their owner's holdings; the variant's [setup] data says which squares and pieces take part."""
from __future__ import annotations

import itertools
import random

from ..core.board import CoreBoard
from ..core.text import FenError
from ..core.variant import Variant

Choice = dict[str, str]  # Player 1's square -> substitute letter, e.g. {"b1": "V", "d1": "A", ...}


def substitution_setups(variant: Variant) -> list[Choice]:
    """Every valid choice, in a fixed order (432 for Superchess)."""
    data = _data(variant)
    return substitution_setups_for(*data["wings"], data["substitutes"], data["per_wing"])


def substitution_setups_for(queen_wing, king_wing, substitutes, per_wing: int = 2) -> list[Choice]:
    out = []
    wings = [itertools.combinations(w, per_wing) for w in (queen_wing, king_wing)]
    for picks in itertools.product(*wings):
        squares = [sq for pick in picks for sq in pick]
        for order in itertools.permutations(substitutes):
            out.append(dict(zip(squares, order)))
    return out


def random_substitution(variant: Variant, seed: int | str | None = None) -> Choice:
    """A uniformly random choice; the same seed gives the same set-up."""
    return random.Random(seed).choice(substitution_setups(variant))


def substitution_fen(variant: Variant, choice: Choice, partial: bool = False) -> str:
    """The start position (FEN with holdings) of a choice, or FenError saying what is wrong (E2).
    `partial`: a choice still being made (the prelude), shown as far as it goes."""
    data = _data(variant)
    subs, wings, per_wing = data["substitutes"], data["wings"], data["per_wing"]
    allowed = [sq for w in wings for sq in w]
    for sq, letter in choice.items():
        if sq not in allowed:
            raise FenError(f"{sq} cannot be substituted (choose from {', '.join(allowed)})")
        if letter not in subs:
            raise FenError(f"{letter!r} is not a substitute (use {', '.join(subs)})")
    if sorted(choice.values()) != sorted(subs) and not (partial and len(set(choice.values())) == len(choice)):
        raise FenError(f"use each substitute exactly once: {', '.join(subs)}")
    for w in wings:
        n = sum(sq in choice for sq in w)
        if n != per_wing and not (partial and n < per_wing):
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
    # written as the board writes it (holdings in piece order), so the same set-up has one text
    return CoreBoard(variant, f"{'/'.join(ranks)}[{holdings}] w {rights} - 0 1").fen()


def _data(variant: Variant) -> dict:
    if not variant.setup:
        raise ValueError(f"{variant.name} has no generated set-ups")
    return variant.setup


class PreludeError(ValueError):
    """A prelude step that the rules do not allow now; nothing changed."""


class Prelude:
    """Superchess's optional prelude (section 2.3): the players choose the substitutions in turn.
    Player 1 fills a king-wing square, Player 2 mirrors it and fills a queen-wing square, Player 1
    mirrors that; once more with the two remaining substitutes; then Player 2 may exchange the
    squares of two substitutes (Player 1 mirrors). The result is a `Choice` of the same family as
    the random set-ups; Player 2's rank always copies Player 1's, so mirroring is implicit."""

    def __init__(self, variant: Variant) -> None:
        data = _data(variant)
        self.queen_wing, self.king_wing = data["wings"]
        self.substitutes = list(data["substitutes"])
        self.picks: Choice = {}
        self.swapped: tuple[str, str] | None = None
        self.finished = False
        self._order: list[tuple[str, str]] = []  # picks in the order made (a swap changes `picks`)

    @property
    def to_move(self) -> int:
        """Who chooses next: 0 for Player 1, 1 for Player 2."""
        return 1 if len(self.picks) % 2 or len(self.picks) == 4 else 0

    @property
    def expects(self) -> str:
        """"king wing", "queen wing", "swap" or "done"."""
        if self.finished:
            return "done"
        if len(self.picks) == 4:
            return "swap"
        return "king wing" if len(self.picks) % 2 == 0 else "queen wing"

    def remaining(self) -> list[str]:
        return [s for s in self.substitutes if s not in self.picks.values()]

    def pick(self, side: int, square: str, letter: str) -> None:
        wing = self.king_wing if self.expects == "king wing" else self.queen_wing
        if self.expects not in ("king wing", "queen wing"):
            raise PreludeError("every substitute is placed" if not self.finished else "the prelude is over")
        if side != self.to_move:
            raise PreludeError("it is the other player's turn to choose")
        if square not in wing or square in self.picks:
            free = [sq for sq in wing if sq not in self.picks]
            raise PreludeError(f"choose a {self.expects} square: {', '.join(free)}")
        if letter not in self.remaining():
            raise PreludeError(f"choose one of the remaining substitutes: {', '.join(self.remaining())}")
        self.picks[square] = letter
        self._order.append((square, letter))

    def swap(self, side: int, squares: tuple[str, str] | None) -> None:
        """Player 2 exchanges two substitutes' squares, or declines with None."""
        if self.expects != "swap":
            raise PreludeError("an exchange comes after all four substitutes are placed")
        if side != 1:
            raise PreludeError("Player 2 decides the exchange")
        if squares is not None:
            a, b = squares
            if a == b or a not in self.picks or b not in self.picks:
                raise PreludeError(f"exchange two substitute squares among {', '.join(sorted(self.picks))}")
            self.picks[a], self.picks[b] = self.picks[b], self.picks[a]
            self.swapped = (a, b)
        self.finished = True

    def choice(self) -> Choice:
        if not self.finished:
            raise PreludeError("the prelude is not finished")
        return dict(self.picks)

    def completed_at_random(self, seed: int | str | None = None) -> Choice:
        """A full choice that keeps every pick made so far (when a player let the time run out)."""
        family = substitution_setups_for(self.queen_wing, self.king_wing, self.substitutes)
        fits = [c for c in family if all(c.get(sq) == letter for sq, letter in self.picks.items())]
        return random.Random(seed).choice(fits)

    def steps(self) -> list:
        """The choices so far, as data: [[square, letter], ..., ["swap", a, b] | ["swap"]]."""
        out = [[sq, letter] for sq, letter in self._order]
        if self.finished:
            out.append(["swap", *self.swapped] if self.swapped else ["swap"])
        return out

    @classmethod
    def replay(cls, variant: Variant, steps: list) -> "Prelude":
        p = cls(variant)
        for step in steps:
            if step[0] == "swap":
                p.swap(1, tuple(step[1:]) if len(step) == 3 else None)
            else:
                p.pick(p.to_move, step[0], step[1])
        return p
