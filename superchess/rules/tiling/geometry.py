"""Tiles and units as geometry data (Tiling Rider, ../shared/rules/tiling-rider.md section 1, R3).

`TilingGeometry` is a `RectGeometry` whose cells are also grouped into 2x2 units (U(i, j) = files
{2i, 2i+1} x ranks {2j+1, 2j+2}) and two-square tiles: vertical tiles in orange units (i + j even),
horizontal ones in blue units. Everything is a per-cell or per-unit list built once.

Cells 0..size-1 are the squares; a move that carries a whole unit has the public cells `size` + the
unit's index, named by the unit's lower-left square (`names` holds both; only squares are parsed),
so an aggregate move is listed under the lower-left piece of its unit, to the lower-left square of
the destination unit (as its text `@c5c9` says). The layout adds what a client draws besides the
squares: each square's unit colour (`tint`), the tiles (pairs of squares, drawn with thin borders)
and the giant pieces (drawn over a 2 x 2 block).
"""
from __future__ import annotations

from ..core.geometry import RectGeometry

ORANGE, BLUE = "orange", "blue"


class TilingGeometry(RectGeometry):
    """A rectangular board of 2x2 units of two tiles each (both sizes even)."""

    def __init__(self, files: int, ranks: int, giant: frozenset[str] = frozenset()) -> None:
        super().__init__(files, ranks)
        self.giant = giant  # the letters of the pieces that cover a whole unit
        if files % 2 or ranks % 2:
            raise ValueError(f"a tiling board needs even sides, not {files}x{ranks}")
        self.units_x = files // 2
        self.units_y = ranks // 2
        self.unit_count = self.units_x * self.units_y
        # per unit u = i + units_x * j: coordinates, the four cells (lower-left first), colour
        self.unit_coords: list[tuple[int, int]] = [(u % self.units_x, u // self.units_x)
                                                   for u in range(self.unit_count)]
        self.unit_cells: list[tuple[int, int, int, int]] = []
        for i, j in self.unit_coords:
            ll = 2 * j * files + 2 * i
            self.unit_cells.append((ll, ll + 1, ll + files, ll + files + 1))
        self.unit_colour: list[str] = [ORANGE if (i + j) % 2 == 0 else BLUE for i, j in self.unit_coords]
        # per cell: its unit, whether it is the unit's lower-left cell, and its tile partner
        self.unit_of: list[int] = [(f // 2) + self.units_x * (r // 2) for f, r in self.coords]
        self.partner: list[int] = [self._partner(c) for c in range(self.size)]
        self.names = self.names + [self.names[cells[0]] for cells in self.unit_cells]  # the unit cells

    def _partner(self, cell: int) -> int:
        f, r = self.coords[cell]
        if self.unit_colour[self.unit_of[cell]] == ORANGE:
            return cell + self.files if r % 2 == 0 else cell - self.files
        return cell + 1 if f % 2 == 0 else cell - 1

    def unit_at(self, i: int, j: int) -> int | None:
        """The unit at unit coordinates (i, j), or None off the board."""
        if 0 <= i < self.units_x and 0 <= j < self.units_y:
            return i + self.units_x * j
        return None

    def unit_offset(self, unit: int, di: int, dj: int) -> int | None:
        i, j = self.unit_coords[unit]
        return self.unit_at(i + di, j + dj)

    def unit_name(self, unit: int) -> str:
        """`c5-d6`: the lower-left and upper-right squares."""
        cells = self.unit_cells[unit]
        return f"{self.names[cells[0]]}-{self.names[cells[3]]}"

    def layout(self) -> dict:
        """The board description: the squares with their unit colour, the tiles, the 2 x 2 pieces."""
        cells = [{"name": self.names[s], "shape": "square", "x": f + 0.5, "y": r + 0.5, "size": 1.0,
                  "tint": self.unit_colour[self.unit_of[s]]} for s, (f, r) in enumerate(self.coords)]
        tiles = [[self.names[s], self.names[self.partner[s]]] for s in range(self.size) if s < self.partner[s]]
        giant = sorted(self.giant)
        return {"width": self.files, "height": self.ranks, "cells": cells, "tiles": tiles,
                "piece_sizes": {**{k: 2 for k in giant}, **{k.lower(): 2 for k in giant}},
                "labels": {"square": {"files": "".join(chr(97 + f) for f in range(self.files)),
                                      "ranks": [str(r) for r in range(1, self.ranks + 1)]}}}
