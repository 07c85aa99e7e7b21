"""Board geometry: the named cells of a board and the offsets between them.

A cell is an integer index; everything else (names, coordinates, neighbours, rays) is derived
here once per geometry, so the move generator only ever indexes precomputed tables.
"""
from __future__ import annotations

import re

_CELL_RE = re.compile(r"([a-z])([1-9][0-9]*)\Z")


class RectGeometry:
    """A rectangular board of `files` x `ranks` squares; cell = rank * files + file."""

    def __init__(self, files: int, ranks: int) -> None:
        if not (1 <= files <= 26 and 1 <= ranks <= 99):
            raise ValueError(f"unsupported board size {files}x{ranks}")
        self.files = files
        self.ranks = ranks
        self.size = files * ranks
        self.coords: list[tuple[int, int]] = [(c % files, c // files) for c in range(self.size)]
        self.names: list[str] = [chr(97 + f) + str(r + 1) for f, r in self.coords]
        self._index = {name: c for c, name in enumerate(self.names)}
        self.adjacent: list[tuple[int, ...]] = [tuple(self.neighbours(c)) for c in range(self.size)]

    def cell(self, file: int, rank: int) -> int | None:
        """The cell at zero-based (file, rank), or None off the board."""
        if 0 <= file < self.files and 0 <= rank < self.ranks:
            return rank * self.files + file
        return None

    def offset(self, cell: int, dx: int, dy: int) -> int | None:
        f, r = self.coords[cell]
        return self.cell(f + dx, r + dy)

    def parse_cell(self, text: str) -> int:
        """Cell index of a name like 'h2'; ValueError with a clear message otherwise."""
        c = self._index.get(text)
        if c is None:
            if _CELL_RE.match(text):
                raise ValueError(f"square {text!r} is off the {self.files}x{self.ranks} board")
            raise ValueError(f"bad square {text!r}")
        return c

    def name(self, cell: int) -> str:
        return self.names[cell]

    def rank_of(self, cell: int) -> int:
        return cell // self.files

    def file_of(self, cell: int) -> int:
        return cell % self.files

    def is_dark(self, cell: int) -> bool:
        f, r = self.coords[cell]
        return (f + r) % 2 == 0

    def layout(self) -> dict:
        """The board description a client draws: every square with its centre and size in board
        units (a square is one unit), and the labels of files and ranks."""
        return {"width": self.files, "height": self.ranks,
                "cells": [{"name": n, "shape": "square", "x": f + 0.5, "y": r + 0.5, "size": 1.0}
                          for n, (f, r) in zip(self.names, self.coords)],
                "labels": {"square": {"files": "".join(chr(97 + f) for f in range(self.files)),
                                      "ranks": [str(r + 1) for r in range(self.ranks)]}}}

    def neighbours(self, cell: int) -> list[int]:
        """The up to 8 cells one King step away."""
        out = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    t = self.offset(cell, dx, dy)
                    if t is not None:
                        out.append(t)
        return out
