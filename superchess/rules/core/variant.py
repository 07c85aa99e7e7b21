"""A variant is data (geometry, pieces, array, rule switches) plus named hooks; see data/*.toml.

The data-only variants are one file each in data/; `load_variant` reads one by name (the registry,
`rules/registry.py`, says which names exist and which family plays them)."""
from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import ClassVar

from . import hooks
from .geometry import RectGeometry
from .pieces import PieceType, piece_from_data


def variant_data(package: str, name: str) -> dict:
    """The parsed data file data/<name>.toml of a family's package; ValueError without one."""
    try:
        text = resources.files(package).joinpath("data", f"{name}.toml").read_text()
    except FileNotFoundError:
        raise ValueError(f"no variant data named {name!r}") from None
    return tomllib.loads(text)


class PlainVariant:
    """The data flags (`contract.VariantInfo`) of a variant without holdings, reprogrammable pieces or
    generated set-ups."""
    holdings: ClassVar[bool] = False
    reprogrammable: ClassVar[bool] = False
    setup: ClassVar[None] = None


@dataclass(frozen=True)
class Castling:
    right: str  # FEN letter for Player 1 (upper case); Player 2's is the lower case
    king: tuple[int, int]  # from, to (Player 1's cells; Player 2's are mirrored by rank)
    rook: tuple[int, int]


@dataclass
class Variant:
    """A variant on the core's position and tables (the `VariantInfo` of the core family)."""
    family: ClassVar[str] = "core"
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


@cache
def load_variant(name: str) -> Variant:
    """The data-only variant of that name (data/<name>.toml), read once; ValueError without one."""
    d = variant_data(__package__, name)
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

