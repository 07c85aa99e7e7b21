"""A variant is data (geometry, pieces, array, rule switches) plus named hooks; see data/*.toml."""
from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources

from . import hooks
from .diagram_rules import DIAGRAM_VARIANT_NAMES
from .geometry import RectGeometry
from .pieces import PieceType, piece_from_data


@dataclass(frozen=True)
class Castling:
    right: str  # FEN letter for Player 1 (upper case); Player 2's is the lower case
    king: tuple[int, int]  # from, to (Player 1's cells; Player 2's are mirrored by rank)
    rook: tuple[int, int]


@dataclass
class Variant:
    name: str
    title: str
    geometry: RectGeometry
    pieces: list[PieceType]
    start_fen: str
    en_passant: bool
    reprogrammable: bool
    repetition_claim: int
    repetition_auto: int
    move_rule_claim: int
    move_rule_auto: int
    promotion_choices: list[str]
    promotion_default: str
    castling: list[Castling]
    capture_consequence: hooks.CaptureConsequence | None
    insufficient_material: hooks.InsufficientMaterial
    # holdings (Superchess): a captured piece joins its owner's holdings, promotion takes from them
    holdings: bool = False
    setup: dict = field(default_factory=dict)  # data for the variant's set-up generator, if any
    # variants whose movement is not `PieceType.movement` (diagram variants: XBetza): compiles one
    # piece type for one side, (side, type index) -> (per-cell groups, attack entries) as tables.py
    piece_compiler: Callable[[int, int], tuple[list, list]] | None = None
    by_letter: dict[str, PieceType] = field(init=False)

    def __post_init__(self) -> None:
        self.by_letter = {p.letter: p for p in self.pieces}

    def type_index(self, letter: str) -> int:
        """1-based index of a piece type, as used in piece codes."""
        return self.pieces.index(self.by_letter[letter]) + 1


def _load(name: str) -> Variant:
    text = resources.files(__package__).joinpath("data", f"{name}.toml").read_text()
    d = tomllib.loads(text)
    geo = RectGeometry(d["files"], d["ranks"])
    pieces = [piece_from_data(letter, p) for letter, p in d["pieces"].items()]
    castling = [
        Castling(right, (geo.parse_cell(c["king"][0]), geo.parse_cell(c["king"][1])),
                 (geo.parse_cell(c["rook"][0]), geo.parse_cell(c["rook"][1])))
        for right, c in d.get("castling", {}).items()
    ]
    hk = d.get("hooks", {})
    return Variant(
        name=d["name"], title=d["title"], geometry=geo, pieces=pieces, start_fen=d["start_fen"],
        en_passant=d.get("en_passant", False), reprogrammable=d.get("reprogrammable", False),
        repetition_claim=d["repetition"]["claim"], repetition_auto=d["repetition"]["auto"],
        move_rule_claim=d["move_rule"]["claim"], move_rule_auto=d["move_rule"]["auto"],
        promotion_choices=list(d["promotion"]["choices"]),
        promotion_default=d["promotion"]["default"],
        castling=castling,
        capture_consequence=hooks.CAPTURE_CONSEQUENCES[hk["capture_consequence"]]
        if "capture_consequence" in hk else None,
        insufficient_material=hooks.INSUFFICIENT_MATERIAL[hk.get("insufficient_material", "fide")],
        holdings=d.get("holdings", False), setup=d.get("setup", {}),
    )


VARIANT_NAMES = ("super16", "chess", "superchess")
#: Variants not on the core yet: their own Board class over a reference rules module
#: (name -> "module:class" inside this package); `Board(name)` makes one.
STANDALONE_BOARDS = {"intergrid": "intergrid_board:IntergridBoard",
                     "tilingrider": "tiling_board:TilingBoard"}
#: Every variant `Board(name)` plays: the core's, the diagram variants (Vanguard) on their own
#: position, and the standalone boards. The CLI and UCI offer these; the server the core ones.
BOARD_VARIANT_NAMES = VARIANT_NAMES + DIAGRAM_VARIANT_NAMES + tuple(STANDALONE_BOARDS)
_cache: dict[str, Variant] = {}


def get_variant(name: str) -> Variant:
    """The registered variant of that name; ValueError naming the known ones otherwise."""
    if name in DIAGRAM_VARIANT_NAMES:  # Vanguard: the core variant made from its diagram
        from .diagram_rules import get_diagram_variant
        from .diagram_tables import diagram_parts
        return diagram_parts(get_diagram_variant(name))[0]
    if name not in VARIANT_NAMES:
        raise ValueError(f"unknown variant {name!r} (known: {', '.join(VARIANT_NAMES)})")
    if name not in _cache:
        _cache[name] = _load(name)
    return _cache[name]
