"""InterGrid's two lattices as one cell list (R1-R2): cells 0..63 are the squares a1..h8, cells
64..144 the intersections A0..I8. Each cell has a shape and a centre in board units (a square is 1
unit wide; the board spans 0..8 both ways), so a client draws both layers with one component."""
from __future__ import annotations

from .geometry import NamedCells
from .layered_variant import get_layered_variant

POINT_BASE = 64
SQUARE_SIZE = 1.0
POINT_SIZE = 0.55  # a point-piece is drawn smaller, centred on its grid point


class IntergridGeometry(NamedCells):
    """The part of a geometry the server and records use (names, board size), and the layout."""

    def __init__(self) -> None:
        super().__init__(8, 8, get_layered_variant("intergrid").geometry.names, kind="square or point")

    def layout(self) -> dict:
        """The board description: every cell with its shape, centre and size; both coordinate sets."""
        cells = [{"name": n, "shape": "square", "x": c % 8 + 0.5, "y": c // 8 + 0.5, "size": SQUARE_SIZE}
                 for c, n in enumerate(self.names[:POINT_BASE])]
        cells += [{"name": n, "shape": "point", "x": float(i % 9), "y": float(i // 9), "size": POINT_SIZE}
                  for i, n in enumerate(self.names[POINT_BASE:])]
        return {"width": 8, "height": 8, "cells": cells,
                "labels": {"square": {"files": "abcdefgh", "ranks": [str(r) for r in range(1, 9)]},
                           "point": {"files": "ABCDEFGHI", "ranks": [str(r) for r in range(9)]}}}


GEOMETRY = IntergridGeometry()
