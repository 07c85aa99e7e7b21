"""The rules layer: pure game logic, no I/O."""
from .board import Board, IllegalMoveError, Move, Piece
from .fen import FenError
from .outcome import Outcome, Termination
from .program import Program, ProgramError, Roster
from .variant import BOARD_VARIANT_NAMES, VARIANT_NAMES, Variant, get_variant

__all__ = ["Board", "Move", "Piece", "IllegalMoveError", "FenError", "Outcome", "Termination",
           "Program", "ProgramError", "Roster", "VARIANT_NAMES", "BOARD_VARIANT_NAMES", "Variant", "get_variant"]
