"""Tiles and units as geometry data (Tiling Rider, ../shared/rules/tiling-rider.md section 1, R3).

`TiledGeometry` is a `RectGeometry` whose cells are also grouped into 2x2 units (U(i, j) = files
{2i, 2i+1} x ranks {2j+1, 2j+2}) and two-square tiles: vertical tiles in orange units (i + j even),
horizontal ones in blue units. Everything is a per-cell or per-unit list built once.
"""
from __future__ import annotations

from .geometry import RectGeometry

ORANGE, BLUE = "orange", "blue"


class TiledGeometry(RectGeometry):
    """A rectangular board of 2x2 units of two tiles each (both sizes even)."""

    def __init__(self, files: int, ranks: int) -> None:
        super().__init__(files, ranks)
        if files % 2 or ranks % 2:
            raise ValueError(f"a tiled board needs even sides, not {files}x{ranks}")
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
