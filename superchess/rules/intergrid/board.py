"""InterGrid Chess behind the board contract (`Board("intergrid")`), on the core's representation
(`position.IntergridPosition`: integer moves, cell-change make/unmake, the tables of `tables.py`) and
the general multi-move turn mechanism of `core/turns.py` (through `core/turn_board.TurnBoard`, whose
states here are `core/cursor.Cursor`s on one position).

Cells: squares a1..h8 are 0..63, points A0..I8 are 64..144 (`POINT_BASE` + the point's index).
A turn is the square move, then a point move or the end-of-turn move `end` (intergrid R8); after a
point move the turn ends by itself. Check, checkmate and the game's end are judged at turn starts
(R7); mid-turn `outcome()` is None.
"""
from __future__ import annotations

from ..core.contract import IllegalMoveError, Move, Piece
from ..core.cursor import Cursor
from ..core.encoding import CASTLE, CELL_MASK, PROMO_MASK, PROMO_SHIFT, SIDE_SHIFT, TO_SHIFT
from ..core.native import validate_core
from ..core.outcome import Outcome, Termination
from ..core.program import Roster
from ..core.turn_board import END_MOVE, TurnBoard
from ..core.turns import TurnModel, TurnSearch
from .fen import intergrid_fen, parse_intergrid_fen
from .geometry import POINTS, SQUARES
from .position import IntergridPosition
from .variant import IntergridVariant, get_intergrid_variant

VARIANT = get_intergrid_variant("intergrid")
GEOMETRY = VARIANT.geometry
POINT_BASE = GEOMETRY.point_base


class IntergridModel(TurnModel):
    """The core position, through cursors (immutable states), as a turn model: moves are move integers."""

    def moves(self, cur: Cursor) -> list[int]:
        pos = cur.get()
        if min(pos.kings) < 0:
            return []  # a King captured by the square move ends the game (R7)
        return pos.moves()

    def play(self, cur: Cursor, move: int) -> Cursor:
        cur.get().make(move)
        return Cursor(cur.position)

    def end_turn(self, cur: Cursor) -> Cursor:
        cur.get().end_turn()
        return Cursor(cur.position)

    def turn_ok(self, ended: Cursor, mover: int) -> bool:
        """Legal if the mover's King is not attacked at the end of the turn, or if the turn took the
        enemy King (5, R7)."""
        pos = ended.get()
        return pos.kings[mover ^ 1] < 0 or not pos.king_attacked(mover)


def _piece(code: int) -> Piece | None:
    return Piece(VARIANT.pieces[(code & 63) - 1].letter, code >> SIDE_SHIFT) if code else None


def move_text(m: int) -> str:
    """`e2e4`, `G1E2`, `e7e8q`, `E7E8Q`, castling as the King's move (1.1)."""
    geo = VARIANT.geometry
    fr, to = m & CELL_MASK, (m >> TO_SHIFT) & CELL_MASK
    promo = 0 if m & CASTLE else (m >> PROMO_SHIFT) & PROMO_MASK
    text = geo.names[fr] + geo.names[to]
    if promo:
        letter = VARIANT.pieces[promo - 1].letter
        text += letter.lower() if geo.layer[fr] == SQUARES else letter
    return text


_MOVES: dict[int, Move] = {}  # move integer -> public Move (immutable, shared by all boards)


class IntergridBoard(TurnBoard):
    """An InterGrid game position with its move history (the python-chess-like public API). Legal
    moves are sorted by text: square moves at a turn's start, then point moves, then `end`."""

    def __init__(self, variant: str | IntergridVariant = "intergrid", fen: str | None = None,
                 rosters: tuple[Roster, Roster] | None = None, core: str | None = None) -> None:
        if variant not in (VARIANT.name, VARIANT):
            raise ValueError(f"IntergridBoard plays intergrid, not {variant!r}")
        if rosters and any(rosters):
            raise ValueError("intergrid pieces cannot be reprogrammed")
        validate_core(core)  # the Python core plays it, whichever is asked for
        self.variant = VARIANT
        self.geometry = GEOMETRY
        self._search = TurnSearch(VARIANT.turn_rule, IntergridModel())
        self.starting_fen = fen or VARIANT.start_fen
        self._set_up(self.starting_fen)  # mid-turn: the turn's start and its moves so far

    # -- hooks of TurnBoard -----------------------------------------------------------------
    def _turn_search(self, state: Cursor) -> TurnSearch:
        return self._search  # one turn rule for the whole game (R8)

    def _side(self, state: Cursor) -> int:
        return state.get().side

    def _public(self, m: int) -> Move:
        mv = _MOVES.get(m)
        if mv is None:  # built once per move integer
            promo = 0 if m & CASTLE else (m >> PROMO_SHIFT) & PROMO_MASK
            mv = _MOVES[m] = Move(m & CELL_MASK, (m >> TO_SHIFT) & CELL_MASK,
                                  VARIANT.pieces[promo - 1].letter if promo else None, move_text(m), m)
        return mv

    def _reference(self, mv: Move) -> int:
        return mv.code

    def _start_text(self, state: Cursor) -> str:
        return state.view(intergrid_fen)  # both layers (1.1)

    def _parse_start(self, text: str) -> Cursor:
        return Cursor(parse_intergrid_fen(text))

    def reach(self, square: str) -> list[str]:
        """`BaseBoard.reach`; a point piece at the start of its side's turn, whose moves come after
        the square move (R8): its point moves as if the square move changed nothing around it."""
        cell = self.cell(square)
        piece = self.piece_at(cell)
        if piece is None or GEOMETRY.layer[cell] != POINTS or (piece.side == self.turn and self.moves_in_turn):
            return super().reach(square)
        try:
            start = self if piece.side == self.turn else self.turned()
        except ValueError:
            return []
        pos = parse_intergrid_fen(start.fen())
        pos.phase = 1  # the square move made
        return sorted({GEOMETRY.name((m >> TO_SHIFT) & CELL_MASK) for m in pos.moves() if m & CELL_MASK == cell})

    def _turned_fen(self) -> str:
        fields = self.fen().partition(" | ")[0].split(" ")  # squares, points, side, castling, en passant, ...
        fields[2], fields[4] = "wb"[self.turn ^ 1], "-"
        return " ".join(fields)

    def _lone_piece_cells(self, letter: str, cell: int, side: int) -> list[int]:
        """The piece of that letter of the cell's lattice (a square or a point piece, R1)."""
        layer = GEOMETRY.layer[cell]
        pos = IntergridPosition()
        pos.put(cell, side << SIDE_SHIFT | VARIANT.type_index(layer, letter))
        pos.side, pos.phase = side, layer  # a turn's square moves (phase 0), then its point moves
        return [(m >> TO_SHIFT) & CELL_MASK for m in pos.moves()]

    # -- state ------------------------------------------------------------------------------
    @property
    def _pos(self) -> IntergridPosition:
        """The core position of the current state."""
        return self._state.get()

    @property
    def position(self) -> IntergridPosition:
        """The current position on the core (what the engine searches; make/unmake on it are
        undone by the board's next use)."""
        return self._pos

    @property
    def halfmove_clock(self) -> int:
        return self._pos.halfmove

    @property
    def fullmove_number(self) -> int:
        return self._pos.fullmove

    def piece_at(self, cell: int | str) -> Piece | None:
        if isinstance(cell, str):
            cell = GEOMETRY.parse_cell(cell)
        return _piece(self._pos.board[cell])

    def pieces(self) -> dict[str, Piece]:
        """Cell name (square or point) -> piece, for every occupied cell."""
        board = self._pos.board
        return {name: _piece(board[c]) for c, name in enumerate(GEOMETRY.names) if board[c]}

    def king(self, side: int) -> str | None:
        k = self._pos.kings[side]
        return None if k < 0 else GEOMETRY.name(k)

    # -- moves ------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """The legal move written `text` (`e2e4`, `G1E2`, `e7e8q`, `E7E8Q`, `end`), or IllegalMoveError;
        a promotion written without its letter takes the default."""
        try:
            return super().parse_move(text)
        except IllegalMoveError:
            text = text.strip()
            for mv in self._legal_list():
                if mv.promotion == VARIANT.promotion_default and mv.text[:4] == text:
                    return mv
            raise

    def effects(self, move: Move) -> list[tuple[str, Piece | None, Piece | None]]:
        """What the move changes, cell by cell: (square or point name, piece before, piece after);
        its captures are displacement, en passant, enclosures and the edge rule."""
        if move == END_MOVE:
            return []
        return [(GEOMETRY.name(c), _piece(before), _piece(after))
                for c, before, after in sorted(self._pos.changes(move.code))]

    # -- check and game end -----------------------------------------------------------------
    def is_check(self) -> bool:
        """Is the King of the side to move attacked (5)? Only the end of a turn must be free of it."""
        pos = self._pos
        return pos.king_attacked(pos.side)

    def is_attacked_by(self, side: int, cell: int | str) -> bool:
        if isinstance(cell, str):
            cell = GEOMETRY.parse_cell(cell)
        if cell >= POINT_BASE:
            raise ValueError("attacks are defined on squares (5)")
        return self._pos.attacked(cell, side)

    def is_insufficient_material(self) -> bool:
        """R14, kept conservative: any point-piece keeps the game alive (two can enclose, one can
        block a diagonal); with the point layer empty the orthodox dead positions apply: K v K, K and
        one Bishop or Knight v K, and Kings with Bishops all on squares of one colour."""
        board = self._pos.board
        if any(board[c] for c in range(POINT_BASE, len(GEOMETRY.names))):
            return False
        rest = [(c, VARIANT.pieces[(board[c] & 63) - 1].letter) for c in range(POINT_BASE) if board[c]]
        rest = [(c, letter) for c, letter in rest if letter != "K"]
        if any(letter not in "BN" for _, letter in rest):
            return False
        if len(rest) <= 1:
            return True
        return all(letter == "B" for _, letter in rest) and len({sum(divmod(c, 8)) % 2 for c, _ in rest}) == 1

    def has_insufficient_material(self, side: int) -> bool:
        """Can `side` never checkmate? Conservative (R14): only when the whole position is dead."""
        return self.is_insufficient_material()

    def _history(self) -> list[int]:
        """Hashes of the turn-start positions before the current turn's (the hash counts en passant
        targets at a turn's start only when a capture there is possible: same rights, R14)."""
        current = self._turn_start()
        return [self._states[i].hash for i, made in enumerate(self._made[:current]) if made == 0]

    def repetition_count(self) -> int:
        """How often the current turn's start position has occurred (5, R14)."""
        key = self._states[self._turn_start()].hash
        return 1 + sum(1 for k in self._history() if k == key)

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """The game's end by the rules, judged at the start of a turn; None mid-turn."""
        if self.moves_in_turn:
            return None
        pos = self._pos
        for side in (0, 1):
            if pos.kings[side] < 0:
                return Outcome(Termination.KING_CAPTURED, side ^ 1)
        if not self._legal_list():
            if self.is_check():
                return Outcome(Termination.CHECKMATE, self.turn ^ 1)
            return Outcome(Termination.STALEMATE, None)
        if self.repetition_count() >= VARIANT.repetition:
            return Outcome(Termination.REPETITION, None)
        if self._pos.halfmove >= VARIANT.move_rule:
            return Outcome(Termination.MOVE_RULE, None)
        if self.is_insufficient_material():
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        return None
