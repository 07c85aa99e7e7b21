"""Tiling Rider's compiled tables (../shared/rules/tiling-rider.md, sections 1-3): the variant's data
(`variant.py`) over the tile and unit geometry (`geometry.py`), compiled once into per-cell and
per-unit tuples with the move integers already encoded, as `core/tables.py` does for the core's
variants.

Piece codes are the core's (`encoding.code_of(side, type index)`), in the data's piece order.
Moves are core move integers (`from | to << TO_SHIFT`); a move that carries a whole unit names the
lower-left cells of its origin and destination units and sets `UNIT_MOVE`, and `AGGREGATE` when four
small pieces ride together (3.2) rather than a giant King stepping (3.3). Both flags lie above the
core's fields (cells, flags, promotion), so a tiling move never reads as a core special move.

Tables:
- ``steps[code][cell]``: for a small piece, tuples ``(t, m, p, pm)``: basic target t with its move m,
  and the elongation (R5) through t onto its tile partner p with move pm (p = -1 when t lies on the
  origin's own tile, or when p is itself a basic target, whose plain move is the same move);
- ``attacks[side][cell]``: ``(attacker cell, codes)`` pairs: the small pieces of `side` whose basic
  capture reaches the cell (4.2: elongations never attack); ``unit_attacks[side][unit]`` the same
  for any cell of a unit, one entry per attacker cell (check on any of the King's squares);
- ``rides[code][unit]``: for an aggregate of that code on the unit, its rays over units, each a tuple
  of ``(unit, m)`` (3.2: the piece's own vectors repeated, one unit step = two squares);
- ``unit_rays[side][unit]``: ``(codes, units)``: the units outward from `unit` in one direction and
  the codes of `side` whose aggregates ride that way (reverse rays, for check);
- ``king_steps[unit]``: ``(unit, m)`` for a giant King's steps (its jump vectors on the unit grid);
- Zobrist keys per (code, cell), side, and turn allowance.
"""
from __future__ import annotations

import random
from functools import lru_cache

from ..core.encoding import MAX_CODE, TO_SHIFT, code_of
from ..core.pieces import PieceType
from .geometry import TilingGeometry
from .variant import TilingVariant, get_tiling_variant

UNIT_MOVE = 1 << 30   # the move carries a whole unit (aggregate or giant King)
AGGREGATE = 1 << 31   # ... and it is four small pieces riding together


def _unit_vectors(pt: PieceType) -> list[tuple[int, int]]:
    """The piece's jump vectors (small pieces leap by them; the King and aggregates step or ride
    by them on the unit grid)."""
    return [shape.target for comp in pt.movement for shape in comp.shapes]


class TilingTables:
    """Everything the Tiling Rider position looks up, built once (`tiling_tables()`)."""

    def __init__(self, variant: TilingVariant) -> None:
        geo = self.geometry = variant.geometry
        self.variant = variant
        n = geo.size
        self.letters = [p.letter for p in variant.pieces]
        self.small = [False] * MAX_CODE       # moves alone, elongates, forms aggregates
        self.symbol = [""] * MAX_CODE
        self.king_code = [0, 0]
        # no code marks a royal cell for `CellPosition`: the position tracks a giant King by its unit
        self.checkable = [False] * MAX_CODE
        self.steps: list[list | None] = [None] * MAX_CODE
        self.rides: list[list | None] = [None] * MAX_CODE
        raw = [[{} for _ in range(n)] for _ in range(2)]  # side -> target -> attacker cell -> codes
        for side in (0, 1):
            for ti, pt in enumerate(variant.pieces, 1):
                code = code_of(side, ti)
                self.symbol[code] = pt.letter if side == 0 else pt.letter.lower()
                if pt.letter in variant.giant:
                    self.king_code[side] = code
                    continue
                self.small[code] = True
                self.steps[code] = [self._steps(geo, s, pt, code, raw[side]) for s in range(n)]
                self.rides[code] = [self._rides(geo, u, _unit_vectors(pt)) for u in range(geo.unit_count)]
        self.attacks = [[tuple((a, frozenset(codes)) for a, codes in sorted(raw[side][t].items()))
                         for t in range(n)] for side in (0, 1)]
        self.unit_attacks = [[self._merged(raw[side], geo.unit_cells[u]) for u in range(geo.unit_count)]
                             for side in (0, 1)]
        king = next(p for p in variant.pieces if p.letter in variant.giant)
        self.king_steps = [tuple((v, geo.unit_cells[u][0] | geo.unit_cells[v][0] << TO_SHIFT | UNIT_MOVE)
                                 for v in (geo.unit_offset(u, *vec) for vec in _unit_vectors(king))
                                 if v is not None) for u in range(geo.unit_count)]
        self.king_reach = [frozenset(v for v, _ in self.king_steps[u]) for u in range(geo.unit_count)]
        self.unit_rays = [[self._reverse_rays(geo, u, side) for u in range(geo.unit_count)] for side in (0, 1)]
        self.lower_left = [geo.unit_cells[geo.unit_of[c]][0] == c for c in range(n)]
        self._zobrist(variant)

    @staticmethod
    def _steps(geo: TilingGeometry, s: int, pt: PieceType, code: int, raw_side: list[dict]) -> tuple:
        """Basic targets (leaps: the pieces are symmetric, 3.1) and their elongations (R5) for a
        piece on s; each basic target also gets s as an attacker of `code` (for check)."""
        basic = [t for t in (geo.offset(s, dx, dy) for dx, dy in _unit_vectors(pt)) if t is not None]
        out = []
        for t in basic:
            raw_side[t].setdefault(s, set()).add(code)
            p = geo.partner[t]
            if t == geo.partner[s] or p in basic:
                out.append((t, s | t << TO_SHIFT, -1, 0))
            else:
                out.append((t, s | t << TO_SHIFT, p, s | p << TO_SHIFT))
        return tuple(out)

    @staticmethod
    def _merged(raw_side: list[dict], cells: tuple[int, ...]) -> tuple:
        """(attacker cell, codes) for the attacks on any of `cells`, one entry per attacker cell."""
        merged: dict[int, set[int]] = {}
        for t in cells:
            for a, codes in raw_side[t].items():
                merged.setdefault(a, set()).update(codes)
        return tuple((a, frozenset(codes)) for a, codes in sorted(merged.items()))

    @staticmethod
    def _rides(geo: TilingGeometry, u: int, vectors: list[tuple[int, int]]) -> tuple:
        ll = geo.unit_cells[u][0]
        rays = []
        for di, dj in vectors:
            ray, v = [], geo.unit_offset(u, di, dj)
            while v is not None:
                ray.append((v, ll | geo.unit_cells[v][0] << TO_SHIFT | UNIT_MOVE | AGGREGATE))
                v = geo.unit_offset(v, di, dj)
            if ray:
                rays.append(tuple(ray))
        return tuple(rays)

    def _reverse_rays(self, geo: TilingGeometry, u: int, side: int) -> tuple:
        by_vector: dict[tuple[int, int], set[int]] = {}
        for ti, pt in enumerate(self.variant.pieces, 1):
            if pt.letter not in self.variant.giant:
                for di, dj in _unit_vectors(pt):
                    by_vector.setdefault((-di, -dj), set()).add(code_of(side, ti))
        out = []
        for (di, dj), codes in sorted(by_vector.items()):
            ray, v = [], geo.unit_offset(u, di, dj)
            while v is not None:
                ray.append(geo.unit_cells[v])
                v = geo.unit_offset(v, di, dj)
            if ray:
                out.append((frozenset(codes), tuple(ray)))
        return tuple(out)

    def _zobrist(self, variant: TilingVariant) -> None:
        rng = random.Random(f"zobrist:{variant.name}")
        n = self.geometry.size
        self.z_piece = [[0] * n] + [[rng.getrandbits(64) for _ in range(n)] for _ in range(1, MAX_CODE)]
        self.z_side = rng.getrandbits(64)
        self._z_allowance: dict[tuple[int, bool], int] = {}

    def z_allowance(self, allowance: int, exact: bool) -> int:
        """The hash key of a turn's allowance (4.3: repetition needs the same allowance)."""
        key = (allowance, exact)
        z = self._z_allowance.get(key)
        if z is None:
            z = self._z_allowance[key] = random.Random(f"zobrist:allowance:{allowance}:{exact}").getrandbits(64)
        return z


@lru_cache(maxsize=1)
def tiling_tables() -> TilingTables:
    """The shared compiled tables of Tiling Rider, the family's variant."""
    return TilingTables(get_tiling_variant("tilingrider"))
