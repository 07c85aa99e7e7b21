"""What a roster does, for the roster editor and for checking a roster before a game (R13-R17):
a piece's destinations on an empty board, its moves in the start position, and whether a roster can
be used at all."""
from __future__ import annotations

from ..core.board import CoreBoard
from ..core.encoding import code_of
from ..core.position import Position, lone_piece_destinations
from ..core.program import ProgramError, Roster
from ..core.text import FenError
from ..core.variant import Variant
from ..registry import get_variant


def _rosters(side: int, roster: Roster) -> tuple[Roster, Roster]:
    return (roster, Roster()) if side == 0 else (Roster(), roster)


def validate_roster(variant: Variant, roster: Roster) -> None:
    """ProgramError naming the piece and the bad vector, if `roster` cannot be used in `variant`."""
    if roster and not variant.reprogrammable:
        raise ProgramError(f"{variant.name} pieces cannot be reprogrammed")
    roster.validate(variant.by_letter)


def empty_board_destinations(variant: Variant, roster: Roster, letter: str, cell: int, side: int = 0) -> list[int]:
    """Cells a piece of type `letter` reaches standing alone at `cell` on an empty board."""
    validate_roster(variant, roster)
    if letter not in variant.by_letter:
        raise ProgramError(f"{variant.name} has no piece {letter!r}")
    return sorted(set(lone_piece_destinations(Position(variant, _rosters(side, roster)), cell,
                                              code_of(side, variant.type_index(letter)))))


def start_moves(variant: Variant, roster: Roster, letter: str, fen: str | None = None) -> dict[int, list[int]]:
    """Player 1's legal moves of every piece of type `letter` in the start position (or `fen`) when
    Player 1 uses `roster`: origin cell -> destination cells."""
    board = CoreBoard(variant, fen, _rosters(0, roster))
    out: dict[int, list[int]] = {}
    for mv in board.legal_moves:
        if board.piece_at(mv.from_cell).letter == letter:
            dests = out.setdefault(mv.from_cell, [])
            if mv.to_cell not in dests:
                dests.append(mv.to_cell)
    return out


def roster_problem(variant: Variant, roster: Roster, side: int, fen: str | None = None) -> str | None:
    """Why `side` cannot start a game from the start position (or `fen`) with `roster`, or None.
    A roster whose pieces attack the opponent's King before any move would make the opening position
    illegal (or hand the first player a check it never gave)."""
    validate_roster(variant, roster)
    try:
        board = CoreBoard(variant, fen, _rosters(side, roster))
    except FenError as e:
        if "not to move is in check" not in str(e):
            raise
        return "this roster attacks the opponent's King in the start position"
    pos = board._pos
    king = pos.kings[side ^ 1]
    if king >= 0 and pos.is_attacked(king, side):
        return "this roster attacks the opponent's King in the start position"
    return None


def preview(variant_name: str, roster_data: dict, letter: str, square: str) -> dict:
    """What the roster editor shows of a piece under `roster_data` (its JSON form): where it goes
    from `square` on an empty board, Player 1's moves of that piece type in the start position, and
    why the roster cannot start a game (or None). ProgramError or ValueError names bad input."""
    variant = get_variant(variant_name)
    roster = Roster.from_data(roster_data)
    validate_roster(variant, roster)
    letter = letter.upper()
    if letter not in variant.by_letter:
        raise ProgramError(f"{variant.name} has no piece {letter!r}")
    cell = variant.geometry.parse_cell(square)
    name = variant.geometry.name
    problem = roster_problem(variant, roster, 0) or roster_problem(variant, roster, 1)
    start = {} if problem else {name(fr): [name(c) for c in tos] for fr, tos in start_moves(variant, roster, letter).items()}
    return {"empty": [name(c) for c in empty_board_destinations(variant, roster, letter, cell)],
            "start": start, "problem": problem}
