"""A tiling variant as data (Tiling Rider Chess, data/<name>.toml, ../shared/rules/tiling-rider.md):
its pieces (the giant ones cover a whole unit), start position, turn allowances and draw thresholds,
over the tile and unit geometry (`geometry.py`)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ..core.pieces import PieceType, piece_from_data
from ..core.variant import PlainVariant, variant_data
from .geometry import TilingGeometry


@dataclass(frozen=True)
class TilingVariant(PlainVariant):
    """A tiling variant (the `VariantInfo` of the family)."""
    family: ClassVar[str] = "tiling"
    # no promotion
    promotion_choices: ClassVar[tuple[str, ...]] = ()
    promotion_default: ClassVar[str] = ""
    name: str
    title: str
    start_fen: str
    geometry: TilingGeometry
    pieces: tuple[PieceType, ...]
    giant: frozenset[str]             # letters of pieces covering a whole unit (the King)
    repetition: int
    quiet_turns: int
    opening_allowances: tuple[int, ...]
    after_opening: int
    max_allowance: int                # the largest allowance a game can reach (see `_max_allowance`)

    @property
    def move_rule_claim(self) -> int:
        """100 quiet turns = 50 of each player: the server says "50-move rule"."""
        return self.quiet_turns


def _max_allowance(start_fen: str, giant: frozenset[str]) -> int:
    """One more than the most moves a turn can hold (4.1): each of a side's small pieces (no piece is
    ever added) moves alone at most once and takes part in at most one aggregate move (four pieces
    each), and the King moves once; an allowance is the opponent's last count + 1, or an opening one."""
    small = sum(ch.isupper() and ch not in giant for ch in start_fen.split()[0])
    return small + small // 4 + 1 + 1


@lru_cache(maxsize=4)
def get_tiling_variant(name: str) -> TilingVariant:
    """The tiling variant of that name (data/<name>.toml), read once; ValueError without one."""
    d = variant_data(__package__, name)
    pieces = tuple(piece_from_data(letter, p) for letter, p in d["pieces"].items())
    giant = frozenset(k for k, p in d["pieces"].items() if p.get("giant"))
    return TilingVariant(
        name=d["name"], title=d["title"], start_fen=d["start_fen"],
        geometry=TilingGeometry(d["files"], d["ranks"], giant), pieces=pieces, giant=giant,
        repetition=d["repetition"], quiet_turns=d["quiet_turns"],
        opening_allowances=tuple(d["opening_allowances"]), after_opening=d["after_opening"],
        max_allowance=max(d["after_opening"], *d["opening_allowances"], _max_allowance(d["start_fen"], giant)))
