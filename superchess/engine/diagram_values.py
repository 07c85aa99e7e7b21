"""Piece values and per-cell mobility of diagram variants (Vanguard), for the evaluator.

`values.py`'s recipe on the variant's own compiled tables: per cell, the core groups' effective
mobility (`cell_mobility`), plus SLIDE_DECAY for each destination of the walked patterns (multi-leg,
lame riders, hopping: one square can block them) on an empty board. Captures that need a victim
(rifle, igui, runs) and initial-only moves are not seen there. The King is not material.
"""
from __future__ import annotations

from collections.abc import Callable

from ..rules.core.encoding import code_of
from ..rules.core.program import Roster
from ..rules.core.tables import tables_for
from ..rules.core.variant import Variant
from ..rules.diagram.tables import diagram_parts, diagram_tables_of
from ..rules.diagram.variant import DiagramVariant
from ..rules.diagram.xbetza import cell_entries, walk_cells
from .values import PAWN_MINIMUM, SLIDE_DECAY, cell_mobility, value_of_mobility

NO_PIECES = (False,)  # `own` for an empty board


_PROFILES: dict[int, tuple[DiagramVariant, dict]] = {}


def profiles(rules: DiagramVariant) -> dict[tuple[int, int], tuple[float, tuple[float, ...]]]:
    """(side, type index) -> (average effective mobility, mobility per cell), once per rules object."""
    entry = _PROFILES.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _PROFILES[id(rules)] = (rules, _profiles(rules))
    return entry[1]


def _profiles(rules: DiagramVariant) -> dict[tuple[int, int], tuple[float, tuple[float, ...]]]:
    variant, dt = diagram_parts(rules)
    tables = tables_for(variant, (Roster(), Roster()))
    files, ranks = rules.files, rules.ranks
    empty = [0] * (files * ranks)
    out = {}
    for side in (0, 1):
        for ti in range(1, len(rules.pieces) + 1):
            code = code_of(side, ti)
            per_cell = []
            for cell, (_, groups) in enumerate(tables.gen[code]):
                mob = cell_mobility(groups)
                walk = dt.walks[code][cell]
                if walk and walk[1]:
                    moves = walk_cells(cell_entries(walk[1], cell, files, ranks, {}), cell, empty, NO_PIECES, files)
                    mob += SLIDE_DECAY * sum(dest != cell for dest, _, _ in moves)
                per_cell.append(mob)
            out[(side, ti)] = (sum(per_cell) / len(per_cell), tuple(per_cell))
    return out


def piece_values(rules: DiagramVariant) -> list[int]:
    """Centipawns per piece type index (index 0 unused) through `values.py`'s calibration; the
    King is not material, pawn types are worth at least PAWN_MINIMUM."""
    prof = profiles(rules)
    out = [0]
    for ti, p in enumerate(rules.pieces, 1):
        v = value_of_mobility(prof[(0, ti)][0])
        out.append(0 if p.letter == rules.king else int(max(v, PAWN_MINIMUM)))
    return out


def material(variant: Variant) -> tuple[list[dict[str, int]], Callable[[int, str], tuple[float, tuple[float, ...]]]]:
    """For the evaluator: (values per side by letter, profile(side, letter)) of a diagram variant."""
    rules = diagram_tables_of(variant).rules
    values = piece_values(rules)
    index = {p.letter: ti for ti, p in enumerate(rules.pieces, 1)}
    prof = profiles(rules)
    per_side = [{letter: values[ti] for letter, ti in index.items()} for _ in (0, 1)]
    return per_side, lambda side, letter: prof[(side, index[letter])]
