"""Tiling Rider's board as the server and the board page see it (tiling-rider.md section 1, R3):
cells 0..287 are the squares a1..r16; an aggregate move's cells (`tiling_board.UNIT_BASE` + i + 9j)
are named by their unit's lower-left square, so an aggregate move is listed under the lower-left
piece of its unit, to the lower-left square of the destination unit (as its text `@c5c9` says; the
board page lets any square of either unit stand for it). The layout adds what the page draws besides the squares: each square's unit colour
(`tint`), the tiles (pairs of squares, drawn with thin borders) and the giant King (a piece drawn
over a 2 x 2 block). Everything comes from the core's `TiledGeometry` and the variant's data."""
from __future__ import annotations

from .geometry import NamedCells
from .tiling_tables import tiling_data, tiling_tables


class TilingGeometry(NamedCells):
    """The part of a geometry the server and records use (names, board size), and the layout."""

    def __init__(self) -> None:
        self._geo = geo = tiling_tables().geometry
        units = [geo.names[cells[0]] for cells in geo.unit_cells]
        super().__init__(geo.files, geo.ranks, geo.names[:geo.size] + units, parseable=geo.size)

    def layout(self) -> dict:
        """The board description: the squares with their unit colour, the tiles, the 2 x 2 pieces."""
        geo = self._geo
        cells = [{"name": geo.names[s], "shape": "square", "x": f + 0.5, "y": r + 0.5, "size": 1.0,
                  "tint": geo.unit_colour[geo.unit_of[s]]} for s, (f, r) in enumerate(geo.coords)]
        tiles = [[geo.names[s], geo.names[geo.partner[s]]] for s in range(geo.size) if s < geo.partner[s]]
        giant = sorted(tiling_data().giant)
        return {"width": geo.files, "height": geo.ranks, "cells": cells, "tiles": tiles,
                "piece_sizes": {**{k: 2 for k in giant}, **{k.lower(): 2 for k in giant}},
                "labels": {"square": {"files": "".join(chr(97 + f) for f in range(geo.files)),
                                      "ranks": [str(r) for r in range(1, geo.ranks + 1)]}}}


GEOMETRY = TilingGeometry()
