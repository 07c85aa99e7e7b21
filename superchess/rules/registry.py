"""The variant registry: every variant the project plays, by name, with its family and capabilities.

This is the one place that knows which variants exist. The CLI, the server, the engine and the
browser list and use what `VARIANTS` holds; a board of any of them is `Board(name)`. A family is a
package under `superchess/rules/` (its board class, its variant loader, the engine entry that plays
it, what its boards can do); a variant is one line below naming its data and its family.

Adding a variant:
- a data-only variant (pieces as vectors, one move per turn, as chess, super16, superchess): one file
  `core/data/<name>.toml` and one line `VariantSpec("<name>", CORE)` in `VARIANTS`;
- a variant of a new kind: a family package (its geometry, tables, position, position text, board,
  data), one `Family` here and one line in `VARIANTS`; the engine adds its search under the family's
  `engine` key (`superchess/engine/families.py`).
See docs/contract.md for what a family's board and variant must offer.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from types import MappingProxyType

from .core.board import CoreBoard
from .core.contract import BaseBoard, VariantInfo
from .core.program import Roster
from .core.variant import Variant, load_variant
from .diagram.board import DiagramBoard
from .diagram.tables import diagram_parts
from .diagram.variant import get_diagram_variant
from .intergrid.board import IntergridBoard
from .intergrid.variant import get_intergrid_variant
from .tiling.board import TilingBoard
from .tiling.variant import get_tiling_variant


@dataclass(frozen=True)
class Capabilities:
    """What a variant's boards can do beyond one move per turn, and what the server offers for it."""
    multi_move: bool = False        # a turn may hold several moves (`moves_in_turn`, the move `end`)
    drafted_turns: bool = False     # an unfinished turn is the mover's draft: private, retractable (tiling R12)
    lists_captures: bool = False    # a move may capture off its destination: its captures are listed with it
    searched_listing: bool = False  # listing the legal moves is a search (can take tenths of a second)
    allowance: bool = False         # turns have a move allowance and aggregates (`contract.AllowanceBoard`)
    named_pieces: bool = True       # one piece per letter, each with a name (the board page draws them)
    vector_pieces: bool = False     # pieces move by vectors: rosters describe them, previews show them
    reprogrammable: bool = False    # rosters may reprogram the pieces (from the variant's data)
    holdings: bool = False          # captured pieces join their owner's holdings (from the data)
    setups: bool = False            # the start position is a generated set-up (from the data)


@dataclass(frozen=True)
class Family:
    """A kind of variant with its own machinery: its package's board class and variant loader, the
    engine entry that plays it and what its boards can do."""
    name: str
    board: Callable[..., BaseBoard]     # (variant name or object, fen, rosters, core) -> a board
    load: Callable[[str], VariantInfo]  # variant name -> its description, read once
    engine: str                         # the engine's key for the search that plays it
    capabilities: Capabilities
    # the core `Variant` its positions are built on (`get_variant`), for families on the core's position
    core_variant: Callable[[VariantInfo], Variant] | None = None


CORE = Family("core", CoreBoard, load_variant, "core", Capabilities(vector_pieces=True),
              core_variant=lambda variant: variant)
DIAGRAM = Family("diagram", DiagramBoard, get_diagram_variant, "core", Capabilities(lists_captures=True),
                 core_variant=lambda rules: diagram_parts(rules)[0])
INTERGRID = Family("intergrid", IntergridBoard, get_intergrid_variant, "intergrid",
                   Capabilities(multi_move=True, lists_captures=True, named_pieces=False))
TILING = Family("tiling", TilingBoard, get_tiling_variant, "tiling",
                Capabilities(multi_move=True, drafted_turns=True, lists_captures=True, searched_listing=True,
                             allowance=True))
FAMILIES = MappingProxyType({f.name: f for f in (CORE, DIAGRAM, INTERGRID, TILING)})


@dataclass(frozen=True)
class VariantSpec:
    """A registered variant: its name and family; its description and capabilities on first use."""
    name: str
    family: Family

    @cached_property
    def variant(self) -> VariantInfo:
        return self.family.load(self.name)

    @cached_property
    def capabilities(self) -> Capabilities:
        """The family's capabilities with what the variant's data says."""
        v = self.variant
        return replace(self.family.capabilities, reprogrammable=v.reprogrammable, holdings=v.holdings,
                       setups=bool(v.setup))

    @property
    def engine(self) -> str:
        return self.family.engine

    def board(self, fen: str | None = None, rosters: tuple[Roster, Roster] | None = None,
              core: str | None = None) -> BaseBoard:
        return self.family.board(self.name, fen, rosters, core)


#: Every variant, in the order the CLI, the engine and the match forms list them.
VARIANTS = MappingProxyType({spec.name: spec for spec in (
    VariantSpec("super16", CORE),
    VariantSpec("chess", CORE),
    VariantSpec("superchess", CORE),
    VariantSpec("capablanca", CORE),
    VariantSpec("intergrid", INTERGRID),
    VariantSpec("vanguard", DIAGRAM),
    VariantSpec("tilingrider", TILING),
)})


def spec_of(name: str) -> VariantSpec:
    """The registered variant of that name; ValueError naming the known ones otherwise."""
    spec = VARIANTS.get(name)
    if spec is None:
        raise ValueError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")
    return spec


def Board(variant: str | VariantInfo = "super16", fen: str | None = None,  # noqa: N802 - python-chess's name
          rosters: tuple[Roster, Roster] | None = None, core: str | None = None) -> BaseBoard:
    """A new board of `variant` (a registered name, or a variant description such as a pasted
    diagram's `DiagramVariant`) from `fen` (default: the start array), with `rosters` (reprogrammed
    pieces) on `core` ("python", "native"; default SUPERCHESS_CORE): an instance of the family's
    board class, a `BaseBoard`."""
    if isinstance(variant, str):
        return spec_of(variant).board(fen, rosters, core)
    return FAMILIES[variant.family].board(variant, fen, rosters, core)


def get_variant(name: str) -> Variant:
    """The core `Variant` of a registered variant that plays on the core's position (the core and
    diagram families); ValueError otherwise."""
    spec = VARIANTS.get(name)
    if spec is None or spec.family.core_variant is None:
        known = ", ".join(n for n, s in VARIANTS.items() if s.family.core_variant)
        raise ValueError(f"unknown variant {name!r} (known: {known})")
    return spec.family.core_variant(spec.variant)
