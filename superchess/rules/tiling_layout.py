"""Tiling Rider's board as the server and the board page see it (tiling-rider.md section 1, R3):
cells 0..287 are the squares a1..r16; an aggregate move's cells (`tiling_board.UNIT_BASE` + i + 9j)
are named by their unit's lower-left square, so an aggregate move is listed and clicked from the
lower-left piece of its unit, to the lower-left square of the destination unit (as its text `@c5c9`
says). The layout adds what the page draws besides the squares: each square's unit colour
(`tint`), the tiles (pairs of squares, drawn with thin borders) and the giant King (a piece drawn
over a 2 x 2 block)."""
from __future__ import annotations

from . import tiling as T


class TilingGeometry:
    """The part of `geometry.Geometry` the server and records use: names and board size."""

    files = T.FILES
    ranks = T.RANKS

    def __init__(self) -> None:
        squares = [T.square_name(s) for s in range(T.SIZE)]
        units = [T.square_name(T.unit_squares(n % T.UNITS_X, n // T.UNITS_X)[0])
                 for n in range(T.UNITS_X * T.UNITS_Y)]
        self.names: list[str] = squares + units
        self._index = {n: c for c, n in enumerate(squares)}

    def name(self, cell: int) -> str:
        return self.names[cell]

    def parse_cell(self, name: str) -> int:
        try:
            return self._index[name]
        except KeyError:
            raise ValueError(f"no square named {name!r}") from None

    def layout(self) -> dict:
        """The board description: the squares with their unit colour, the tiles, the 2 x 2 pieces."""
        cells = []
        for s in range(T.SIZE):
            f, r = T.coords(s)
            cells.append({"name": T.square_name(s), "shape": "square", "x": f + 0.5, "y": r + 0.5, "size": 1.0,
                          "tint": T.unit_colour(*T.unit_of(s))})
        tiles = [[T.square_name(s), T.square_name(T.partner(s))] for s in range(T.SIZE) if s < T.partner(s)]
        return {"width": T.FILES, "height": T.RANKS, "cells": cells, "tiles": tiles,
                "piece_sizes": {T.KING: 2, T.KING.lower(): 2},
                "labels": {"square": {"files": T.FILE_LETTERS, "ranks": [str(r) for r in range(1, T.RANKS + 1)]}}}


GEOMETRY = TilingGeometry()
