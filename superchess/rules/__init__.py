"""The rules layer: pure game logic, no I/O.

`core/` is the shared machinery, one package per family builds on it (`diagram/`, `intergrid/`,
`tiling/`), `registry.py` names every variant and its family, `game/` holds the game-level helpers
(records, set-ups, previews). A board of any variant is `Board(name)`; what every board offers is
`BaseBoard` (core/contract.py, docs/contract.md)."""
from .core.contract import BaseBoard, IllegalMoveError, Move, Piece
from .core.outcome import Outcome, Termination
from .core.program import Program, ProgramError, Roster
from .core.text import FenError
from .core.variant import Variant
from .registry import VARIANTS, Capabilities, VariantSpec, Board, get_variant, spec_of

__all__ = ["Board", "BaseBoard", "Move", "Piece", "IllegalMoveError", "FenError", "Outcome", "Termination",
           "Program", "ProgramError", "Roster", "Variant", "VARIANTS", "VariantSpec", "Capabilities",
           "get_variant", "spec_of"]
