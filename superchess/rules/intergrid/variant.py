"""A variant on two lattices (InterGrid): data from `data/<name>.toml` (pieces per layer, array,
castling, promotion, draw thresholds) plus the named hook that removes pieces of the other layer when
a piece arrives (`ARRIVAL_CAPTURES`), and the turn rule (R8: the square move, then an optional point
move)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from ..core.pieces import PieceType, piece_from_data
from ..core.turns import TURN_RULES, TurnRule
from ..core.variant import Castling, PlainVariant, variant_data
from .geometry import POINTS, SQUARES, IntergridGeometry

if TYPE_CHECKING:
    from .position import IntergridPosition

# arrival_captures(position, arrival cells, side) -> cells of enemy pieces removed because `side`'s
# pieces arrived there (judged after the move's own cell changes).
ArrivalCaptures = Callable[["IntergridPosition", tuple, int], list]


def enclosure_captures(pos: IntergridPosition, arrivals: tuple, side: int) -> list[int]:
    """InterGrid 4.2-4.4: an arriving piece removes an enemy piece of the other layer next to it
    when a friendly piece of its own layer stands diagonally opposite across it (enclosure, R6); an
    arriving square-piece also removes an enemy point-piece on an edge corner alone (edge rule, R5).
    `pos.tables.enclosures[cell]` lists (victim cell, partner cell or -1 for the edge rule)."""
    board = pos.board
    enclosures = pos.tables.enclosures
    out = []
    for a in arrivals:
        for victim, partner in enclosures[a]:
            v = board[victim]
            if v and v >> 6 != side and (partner < 0 or (board[partner] and board[partner] >> 6 == side)):
                out.append(victim)
    return list(dict.fromkeys(out))


ARRIVAL_CAPTURES: dict[str, ArrivalCaptures] = {"enclosure": enclosure_captures}


@dataclass(frozen=True)
class IntergridVariant(PlainVariant):
    """An InterGrid variant (the `VariantInfo` of the family): its data and its turn rule."""
    family: ClassVar[str] = "intergrid"
    turn_rule: ClassVar[TurnRule] = TURN_RULES["one_then_optional"]  # R8
    name: str
    title: str
    geometry: IntergridGeometry
    pieces: tuple[PieceType, ...]  # type index = position + 1 (piece codes as in encoding.py)
    layers: tuple[int, ...]        # the layer each type stands on, in the same order
    start_fen: str
    castling: tuple[Castling, ...]
    promotion_choices: tuple[str, ...]
    promotion_default: str
    repetition: int
    move_rule: int  # turns without capture or pawn move
    arrival_captures: ArrivalCaptures
    by_letter: dict[tuple[int, str], int] = field(compare=False, repr=False)  # (layer, letter) -> index

    @property
    def move_rule_claim(self) -> int:
        """The move rule in the half-move units the server's texts use (100: the 50-move rule)."""
        return self.move_rule

    def type_index(self, layer: int, letter: str) -> int:
        """1-based index of the type written `letter` (either case) on `layer`; ValueError if none."""
        ti = self.by_letter.get((layer, letter.upper()))
        if ti is None:
            raise ValueError(f"no {'square' if layer == SQUARES else 'point'} piece {letter!r}")
        return ti


@lru_cache(maxsize=8)
def get_intergrid_variant(name: str) -> IntergridVariant:
    """The InterGrid variant of that name (data/<name>.toml), read once; ValueError without one."""
    d = variant_data(__package__, name)
    geo = IntergridGeometry(d["files"], d["ranks"])
    pieces, layers = [], []
    for layer, key in ((SQUARES, "squares"), (POINTS, "points")):
        for letter, p in d[key].items():
            pieces.append(piece_from_data(letter, p))
            layers.append(layer)
    castling = tuple(Castling(right, (geo.parse_cell(c["king"][0]), geo.parse_cell(c["king"][1])),
                              (geo.parse_cell(c["rook"][0]), geo.parse_cell(c["rook"][1])))
                     for right, c in d.get("castling", {}).items())
    return IntergridVariant(
        name=d["name"], title=d["title"], geometry=geo, pieces=tuple(pieces), layers=tuple(layers),
        start_fen=d["start_fen"], castling=castling, promotion_choices=tuple(d["promotion"]),
        promotion_default=d["promotion_default"], repetition=d["repetition"], move_rule=d["move_rule"],
        arrival_captures=ARRIVAL_CAPTURES[d["hooks"]["arrival_captures"]],
        by_letter={(layer, p.letter): i for i, (p, layer) in enumerate(zip(pieces, layers), 1)})
