"""Tiling Rider Chess behind the board contract (`Board("tilingrider")`), on the core's terms: one
mutable `TilingPosition` (position.py: core move integers, cell-change make/unmake, Zobrist) under
the multi-move turn mechanism of `core/turns.py` (through `core/turn_board.TurnBoard`, in place: every
move the turn search tries is made and unmade on the same position).

Cells: squares a1..r16 are 0..287. A small piece's move goes from square to square; a giant King's
move names the lower-left squares of its units (`i1g1`); an aggregate move goes from unit to unit,
its public cells `UNIT_BASE` + the unit's index i + 9j, its text `@` + the units' lower-left squares
(`@c5c9`). A turn is 1 to `allowance` moves (exactly 4 / 8 in the opening turns, R11, R13); it ends
by itself after its last allowed move, otherwise by the move `end` (R12). Check, checkmate and the
game's end are judged at turn starts (4.3); mid-turn `outcome()` is None.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..core.contract import Move, Piece
from ..core.encoding import CELL_MASK, TO_SHIFT
from ..core.native import validate_core
from ..core.outcome import Outcome, Termination
from ..core.program import Roster
from ..core.turn_board import TurnBoard
from ..core.turns import TurnModel, TurnRule, TurnSearch
from .escape import can_escape
from .position import TilingPosition
from .tables import AGGREGATE, UNIT_MOVE
from .variant import TilingVariant, get_tiling_variant

VARIANT = get_tiling_variant("tilingrider")
_GEO = VARIANT.geometry
UNIT_BASE = _GEO.size


def turn_rule(pos: TilingPosition) -> TurnRule:
    """The rule of `pos`'s turn: exactly the allowance in the opening turns (or fewer when no move
    is left, R13), otherwise 1 to the allowance (4.1, R11)."""
    n = pos.allowance
    if pos.exact:
        return TurnRule(f"exactly {n}", n, n, stop_when_stuck=True)
    return TurnRule(f"1 to {n}", 1, n)


class TilingModel(TurnModel):
    """The turn model over one mutable `TilingPosition` (so it has `undo`) with a sound bound."""

    def moves(self, pos: TilingPosition) -> Iterable[int]:
        if not pos.in_check():
            return pos.iter_legal()  # lazily: the turn search mostly needs one completion
        # in check, the likely answers first (King moves, captures)
        board = pos.board
        return sorted(pos.iter_legal(), key=lambda m: not m & UNIT_MOVE and not board[(m >> TO_SHIFT) & CELL_MASK])

    def play(self, pos: TilingPosition, move: int) -> TilingPosition:
        pos.make(move)  # the move comes from `moves`: no second legality test
        return pos

    def end_turn(self, pos: TilingPosition) -> TilingPosition:
        pos.end_turn()
        return pos

    def undo(self, pos: TilingPosition) -> None:
        pos.unmake()

    def turn_ok(self, ended: TilingPosition, mover: int) -> bool:
        return not ended.in_check(mover)  # 4.2: the mover's King is not in check at the end

    def out_of_reach(self, pos: TilingPosition, moves_left: int) -> bool:
        """Can the King not be out of check within `moves_left` moves (tiling_escape's sound bound)?"""
        return not can_escape(pos, moves_left)


#: The turn model every Tiling Rider turn search uses (the engine's too).
MODEL = TilingModel()
#: States one `legal_moves` may visit deciding which moves can still complete the turn (see
#: turns.TurnSearch: past it a move is offered, undecided, so a position is never mate on an
#: unfinished search).
SEARCH_BUDGET = 50_000
#: The check-escape bound's cost counted in moves tried (a bound test in check takes about as long as
#: trying BOUND_COST moves), so a budget stands for about the same time as without the bound.
BOUND_COST = 6


def search_key(pos: TilingPosition) -> tuple:
    """What the rest of a turn depends on: placement (hash), who moved, how many moves."""
    return pos.key()


def _piece(pos: TilingPosition, cell: int) -> Piece | None:
    code = pos.board[cell]
    return Piece(pos.tables.symbol[code].upper(), code >> 6) if code else None


class TilingBoard(TurnBoard):
    """A Tiling Rider position with its move history (the python-chess-like public API)."""

    def __init__(self, variant: str | TilingVariant = "tilingrider", fen: str | None = None,
                 rosters: tuple[Roster, Roster] | None = None, core: str | None = None) -> None:
        if variant not in (VARIANT.name, VARIANT):
            raise ValueError(f"TilingBoard plays tilingrider, not {variant!r}")
        if rosters and any(rosters):
            raise ValueError("tilingrider pieces cannot be reprogrammed")
        validate_core(core)  # the Python core plays it, whichever is asked for
        self.variant = VARIANT
        self.geometry = _GEO
        self.starting_fen = fen or VARIANT.start_fen
        self._set_up(self.starting_fen)

    # -- hooks of TurnBoard -----------------------------------------------------------------
    def _turn_search(self, pos: TilingPosition) -> TurnSearch:
        return TurnSearch(turn_rule(pos), MODEL, search_key, SEARCH_BUDGET, BOUND_COST)

    def _side(self, pos: TilingPosition) -> int:
        return pos.side

    def _public(self, m: int) -> Move:
        fr, to = m & CELL_MASK, (m >> TO_SHIFT) & CELL_MASK
        if m & AGGREGATE:
            return Move(UNIT_BASE + _GEO.unit_of[fr], UNIT_BASE + _GEO.unit_of[to], None, self._state.move_text(m))
        return Move(fr, to, None, self._state.move_text(m))

    def _reference(self, mv: Move) -> int:
        if mv.from_cell >= UNIT_BASE:
            fr, to = (_GEO.unit_cells[c - UNIT_BASE][0] for c in (mv.from_cell, mv.to_cell))
            return fr | to << TO_SHIFT | UNIT_MOVE | AGGREGATE
        pos = self._state
        giant = pos.board[mv.from_cell] == pos.tables.king_code[pos.side]
        return mv.from_cell | mv.to_cell << TO_SHIFT | (UNIT_MOVE if giant else 0)

    def _start_text(self, pos: TilingPosition) -> str:
        return pos.fen()

    def _parse_start(self, text: str) -> TilingPosition:
        return TilingPosition.from_fen(text)

    def _turned_fen(self) -> str:
        fields = self.fen().partition(" | ")[0].split(" ")  # placement, side, allowance, quiet turns, turn
        fields[1], fields[2] = "wb"[self.turn ^ 1], fields[2].rstrip("!")  # an exact allowance is the opening's
        return " ".join(fields)

    def _lone_piece_cells(self, letter: str, cell: int, side: int) -> list[int]:
        """A small piece's steps and elongations (R5); the giant King's steps from the unit holding
        `cell`, each destination unit as its four cells."""
        pos = TilingPosition()
        tables, code = pos.tables, pos.code_for(side, letter)
        if code == tables.king_code[side]:
            return [c for v, _ in tables.king_steps[_GEO.unit_of[cell]] for c in _GEO.unit_cells[v]]
        return [c for to, _, partner, _ in tables.steps[code][cell] for c in (to, partner) if c >= 0]

    # -- state ------------------------------------------------------------------------------
    @property
    def position(self) -> TilingPosition:
        """The current position (the core's mutable `TilingPosition`; what the engine searches)."""
        return self._state

    @property
    def allowance(self) -> int:
        """The most moves of the current turn (4.1)."""
        return self._state.allowance

    @property
    def exact(self) -> bool:
        """Must this turn use its whole allowance (the opening turns 4! and 8!, R11, R13)?"""
        return self._state.exact

    @property
    def moves_left(self) -> int:
        """How many more moves the current turn may hold."""
        return self.allowance - self.moves_in_turn

    @property
    def halfmove_clock(self) -> int:
        """Whole turns since the last capture, at the current turn's start (4.3)."""
        return self._state.halfmove

    @property
    def fullmove_number(self) -> int:
        return self._state.fullmove

    def _cell(self, cell: int | str) -> int:
        return _GEO.parse_cell(cell) if isinstance(cell, str) else cell

    def piece_at(self, cell: int | str) -> Piece | None:
        return _piece(self._state, self._cell(cell))

    def pieces(self) -> dict[str, Piece]:
        """Square name -> piece, for every occupied square (a giant King on each of its four)."""
        pos = self._state
        return {_GEO.names[c]: _piece(pos, c) for c in range(_GEO.size) if pos.board[c]}

    def tile(self, cell: int | str) -> tuple[str, str]:
        """The two squares of the tile holding `cell`, the given one first (1, R3)."""
        c = self._cell(cell)
        return _GEO.names[c], _GEO.names[_GEO.partner[c]]

    def unit(self, cell: int | str) -> tuple[str, str]:
        """(unit name `c5-d6`, colour `orange` / `blue`) of the unit holding `cell` (1)."""
        u = _GEO.unit_of[self._cell(cell)]
        return _GEO.unit_name(u), _GEO.unit_colour[u]

    def unit_squares(self, unit: str) -> tuple[str, str, str, str]:
        """The four squares of a unit named by any of them or as `c5-d6`, lower-left first (1)."""
        cells = _GEO.unit_cells[_GEO.unit_of[self._cell(unit.split("-")[0])]]
        return tuple(_GEO.names[c] for c in cells)

    def aggregates(self) -> list[tuple[str, Piece]]:
        """The aggregates formed now (3.2, R6): (unit name `c5-d6`, piece type and side)."""
        pos = self._state
        return [(_GEO.unit_name(u), _piece(pos, _GEO.unit_cells[u][0])) for u, _ in pos.aggregates()]

    def king(self, side: int) -> str | None:
        """The lower-left square of `side`'s King unit."""
        return _GEO.names[self._state.kings[side]]

    # -- moves ------------------------------------------------------------------------------
    def effects(self, move: Move) -> list[tuple[str, Piece | None, Piece | None]]:
        """What the move changes, square by square: (square name, piece before, piece after)."""
        if move.from_cell < 0:
            return []
        pos = self._state
        after = dict(pos.changes(self._reference(move)))
        out = []
        for c in sorted(after):
            if after[c] != pos.board[c]:
                code = after[c]
                out.append((_GEO.names[c], _piece(pos, c),
                            Piece(pos.tables.symbol[code].upper(), code >> 6) if code else None))
        return out

    # -- check and game end -----------------------------------------------------------------
    def is_check(self) -> bool:
        """Is any of the four squares of the mover's King attacked (4.2)? Only turn ends must be free
        of it."""
        return self._state.in_check()

    def is_attacked_by(self, side: int, cell: int | str) -> bool:
        return self._state.is_attacked(self._cell(cell), side)

    def is_checkmate(self) -> bool:
        """At a turn's start: in check and no legal whole turn (4.3)."""
        return not self.moves_in_turn and self.is_check() and not self._legal_list()

    def is_stalemate(self) -> bool:
        """At a turn's start: not in check and no legal move (4.3)."""
        return not self.moves_in_turn and not self.is_check() and not self._legal_list()

    def repetition_count(self) -> int:
        """How often the current turn's start position has occurred (4.3)."""
        return self._state.repetitions()

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """The game's end by the rules, judged at the start of a turn; None mid-turn."""
        if self.moves_in_turn:
            return None
        if self.is_checkmate():
            return Outcome(Termination.CHECKMATE, 1 - self.turn)
        if self.is_stalemate():
            return Outcome(Termination.STALEMATE, None)
        if self.repetition_count() >= VARIANT.repetition:
            return Outcome(Termination.REPETITION, None)
        if self._state.halfmove >= VARIANT.quiet_turns:
            return Outcome(Termination.MOVE_RULE, None)
        return None

    def __str__(self) -> str:
        """The board as in the rules file (rank 16 on top)."""
        pos = self._state
        lines = [f"{r + 1:2d}  " + " ".join(pos.tables.symbol[pos.board[r * _GEO.files + f]] or "."
                                            for f in range(_GEO.files)) for r in range(_GEO.ranks - 1, -1, -1)]
        return "\n".join(lines + ["    " + " ".join(_GEO.names[f][0] for f in range(_GEO.files))])
