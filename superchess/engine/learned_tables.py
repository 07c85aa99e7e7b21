"""Learned corrections of the evaluation tables: per piece letter and cell, a middlegame and an
endgame centipawn amount added to the generated tables (evaluate.py). Data, one TOML file per
variant in tables/ (`tables/chess.toml`), fitted by `bench/tune_eval.py tables`; the format is in
docs/engine.md. Values are from Player 1's view, cells in the geometry's order (a1, b1, ..., then
the next rank); Player 2's pieces read the cell mirrored across the middle rank.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

from ..rules.core.geometry import RectGeometry
from ..rules.core.variant import Variant

TABLES_DIR = Path(__file__).parent / "tables"

#: piece letter -> (middlegame corrections, endgame corrections), one per cell
Corrections = dict[str, tuple[list[int], list[int]]]


def path_for(variant_name: str) -> Path:
    return TABLES_DIR / f"{variant_name}.toml"


def load(variant: Variant) -> Corrections | None:
    """The variant's learned corrections, None when it has no file."""
    path = path_for(variant.name)
    if not path.exists():
        return None
    return parse(tomllib.loads(path.read_text()), variant, str(path))


def parse(data: dict, variant: Variant, source: str) -> Corrections:
    """Checked corrections from a file's TOML; ValueError naming `source` when malformed."""
    size = variant.geometry.size
    out: Corrections = {}
    for letter, entry in data.items():
        if letter not in variant.by_letter:
            raise ValueError(f"{source}: {letter!r} is not a piece of {variant.name}")
        if not isinstance(entry, dict) or set(entry) != {"mg", "eg"}:
            raise ValueError(f"{source}: [{letter}] must hold exactly `mg` and `eg`")
        for key in ("mg", "eg"):
            values = entry[key]
            if not isinstance(values, list) or len(values) != size:
                raise ValueError(f"{source}: [{letter}] {key} must list {size} cells, "
                                 f"not {len(values) if isinstance(values, list) else values!r}")
            if not all(isinstance(v, int) for v in values):
                raise ValueError(f"{source}: [{letter}] {key} must hold whole centipawns")
        out[letter] = (entry["mg"], entry["eg"])
    return out


def own_cell(geo: RectGeometry, cell: int, side: int) -> int:
    """The cell of a side's piece as Player 1 sees it (Player 2's mirrored across the middle rank)."""
    f, r = geo.coords[cell]
    return cell if side == 0 else f + (geo.ranks - 1 - r) * geo.files


def dumps(corrections: Corrections, geo: RectGeometry, header: str) -> str:
    """The TOML text of corrections: `header` as comments, one line per rank from the first."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    for letter, tables in corrections.items():
        lines += ["", f"[{letter}]"]
        for key, values in zip(("mg", "eg"), tables):
            lines.append(f"{key} = [")
            for r in range(geo.ranks):
                row = values[r * geo.files:(r + 1) * geo.files]
                lines.append("  " + ", ".join(f"{v:4d}" for v in row) + f",  # rank {r + 1}")
            lines.append("]")
    return "\n".join(lines) + "\n"
