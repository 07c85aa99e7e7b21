"""A variant on two lattices (InterGrid): data from `data/<name>.toml` (pieces per layer, array,
castling, promotion, draw thresholds) plus the named hook that removes pieces of the other layer when
a piece arrives (`hooks.ARRIVAL_CAPTURES`)."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from . import hooks
from .layered_geometry import POINTS, SQUARES, LayeredGeometry
from .pieces import PieceType, piece_from_data
from .variant import Castling


@dataclass(frozen=True)
class LayeredVariant:
    name: str
    title: str
    geometry: LayeredGeometry
    pieces: tuple[PieceType, ...]  # type index = position + 1 (piece codes as in encoding.py)
    layers: tuple[int, ...]        # the layer each type stands on, in the same order
    start_fen: str
    castling: tuple[Castling, ...]
    promotion_choices: tuple[str, ...]
    promotion_default: str
    repetition: int
    move_rule: int  # turns without capture or pawn move
    arrival_captures: hooks.ArrivalCaptures
    by_letter: dict[tuple[int, str], int] = field(compare=False, repr=False)  # (layer, letter) -> index

    def type_index(self, layer: int, letter: str) -> int:
        """1-based index of the type written `letter` (either case) on `layer`; ValueError if none."""
        ti = self.by_letter.get((layer, letter.upper()))
        if ti is None:
            raise ValueError(f"no {'square' if layer == SQUARES else 'point'} piece {letter!r}")
        return ti


@lru_cache(maxsize=8)
def get_layered_variant(name: str) -> LayeredVariant:
    d = tomllib.loads(resources.files(__package__).joinpath("data", f"{name}.toml").read_text())
    geo = LayeredGeometry(d["files"], d["ranks"])
    pieces, layers = [], []
    for layer, key in ((SQUARES, "squares"), (POINTS, "points")):
        for letter, p in d[key].items():
            pieces.append(piece_from_data(letter, p))
            layers.append(layer)
    castling = tuple(Castling(right, (geo.parse_cell(c["king"][0]), geo.parse_cell(c["king"][1])),
                              (geo.parse_cell(c["rook"][0]), geo.parse_cell(c["rook"][1])))
                     for right, c in d.get("castling", {}).items())
    return LayeredVariant(
        name=d["name"], title=d["title"], geometry=geo, pieces=tuple(pieces), layers=tuple(layers),
        start_fen=d["start_fen"], castling=castling, promotion_choices=tuple(d["promotion"]),
        promotion_default=d["promotion_default"], repetition=d["repetition"], move_rule=d["move_rule"],
        arrival_captures=hooks.ARRIVAL_CAPTURES[d["hooks"]["arrival_captures"]],
        by_letter={(layer, p.letter): i for i, (p, layer) in enumerate(zip(pieces, layers), 1)})
