"""Tiling Rider Chess behind the public Board API (`Board("tilingrider")`), over the reference rules
module `tiling.py` and the multi-move turn mechanism of `turns.py` (through `turn_board.TurnBoard`).

Not on the core yet: positions are the reference module's immutable `State`s (one per move pushed).

Cells: squares a1..r16 are 0..287 (`tiling.square`). A small piece's move goes from square to square;
a giant King's move names the lower-left squares of its units (`i1g1`); an aggregate move goes from
unit to unit, its cells `UNIT_BASE` + the unit's index i + 9j, its text `@` + the units' lower-left
squares (`@c5c9`). A turn is 1 to `allowance` moves (exactly 4 / 8 in the opening turns, R11, R13);
it ends by itself after its last allowed move, otherwise by the move `end` (R12). Check, checkmate
and the game's end are judged at turn starts (4.3); mid-turn `outcome()` is None.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from . import tiling as T
from .board import Move, Piece
from .outcome import Outcome, Termination
from .program import Roster
from .tiling_layout import GEOMETRY, TilingGeometry
from .turn_board import TurnBoard
from .turns import TurnRule, TurnSearch

UNIT_BASE = T.SIZE
_RESULTS = {"checkmate": Termination.CHECKMATE, "stalemate": Termination.STALEMATE,
            "repetition": Termination.REPETITION, "turn_rule": Termination.MOVE_RULE}


@dataclass(frozen=True)
class TilingVariant:
    """What the game record, the CLI and the server ask of a variant."""
    name: str
    title: str
    start_fen: str
    # the widest turn (the server's "multi_move"); each turn's own rule is `turn_rule(state)`
    turn_rule: TurnRule = TurnRule("1 to 9", 1, 9)
    # what the server asks of any variant: no promotion, holdings, reprogramming or generated set-ups
    promotion_choices: tuple[str, ...] = ()
    move_rule_claim: int = T.QUIET_TURNS  # 100 quiet turns = 50 of each player: the server says "50-move rule"
    holdings: bool = False
    reprogrammable: bool = False
    setup: dict | None = None
    geometry: TilingGeometry = GEOMETRY


VARIANT = TilingVariant("tilingrider", "Tiling Rider Chess", T.START_FEN)


def turn_rule(state: T.State) -> TurnRule:
    """The rule of `state`'s turn: exactly the allowance in the opening turns (or fewer when no move
    is left, R13), otherwise 1 to the allowance (4.1, R11)."""
    n = state.allowance
    if state.exact:
        return TurnRule(f"exactly {n}", n, n, stop_when_stuck=True)
    return TurnRule(f"1 to {n}", 1, n)


class TilingModel:
    """The reference module's states as `turns.TurnModel`."""

    def moves(self, state: T.State) -> Iterator[T.Move]:
        if not T.is_check(state):
            return T.iter_moves(state)  # lazily: the turn search mostly needs one completion
        # in check, the likely answers first (King moves, captures), as in tiling.legal_turn
        return iter(sorted(T.iter_moves(state), key=lambda m: m.kind != "king" and state.board[m.to] == T.EMPTY))

    def play(self, state: T.State, move: T.Move) -> T.State:
        return T._apply(state, move)  # the move comes from `moves`: no second legality test

    def end_turn(self, state: T.State) -> T.State:
        return T.close_turn(state)

    def turn_ok(self, ended: T.State, mover: int) -> bool:
        return not T.is_check(ended, mover)  # 4.2: the mover's King is not in check at the end


_MODEL = TilingModel()
#: States one `legal_moves` may visit deciding which moves can still complete the turn (see
#: turns.TurnSearch: past it a move is offered, undecided, as tiling.is_checkmate answers "not mate").
SEARCH_BUDGET = 5_000


def search_key(state: T.State) -> tuple:
    """What the rest of a turn depends on (as in tiling.legal_turn): placement, who moved, how many moves."""
    return state.board, state.moved, state.done, state.king_moved, len(state.made)


def _unit_index(sq: int) -> int:
    i, j = T.unit_of(sq)
    return i + T.UNITS_X * j


def _unit_square(cell: int) -> int:
    """Lower-left square of the unit of an aggregate move's cell."""
    index = cell - UNIT_BASE
    return T.unit_squares(index % T.UNITS_X, index // T.UNITS_X)[0]


def _piece(letter: str) -> Piece | None:
    return None if letter == T.EMPTY else Piece(letter.upper(), 0 if letter.isupper() else 1)


class TilingBoard(TurnBoard):
    """A Tiling Rider position with its move history (the python-chess-like public API)."""

    def __init__(self, variant: str = "tilingrider", fen: str | None = None,
                 rosters: tuple[Roster, Roster] | None = None) -> None:
        if variant not in (VARIANT.name, VARIANT):
            raise ValueError(f"TilingBoard plays tilingrider, not {variant!r}")
        if rosters and any(rosters):
            raise ValueError("tilingrider pieces cannot be reprogrammed")
        self.variant = VARIANT
        self.geometry = GEOMETRY
        self.starting_fen = fen or VARIANT.start_fen
        self._set_up(self.starting_fen)

    # -- hooks of TurnBoard -----------------------------------------------------------------
    def _turn_search(self, state: T.State) -> TurnSearch:
        return TurnSearch(turn_rule(state), _MODEL, search_key, SEARCH_BUDGET)

    def _side(self, state: T.State) -> int:
        return state.side

    def _public(self, m: T.Move) -> Move:
        if m.kind == "agg":
            return Move(UNIT_BASE + _unit_index(m.frm), UNIT_BASE + _unit_index(m.to), None, m.text)
        return Move(m.frm, m.to, None, m.text)

    def _reference(self, mv: Move) -> T.Move:
        if mv.from_cell >= UNIT_BASE:
            return T.Move("agg", _unit_square(mv.from_cell), _unit_square(mv.to_cell))
        return T.Move("king" if self._state.board[mv.from_cell].upper() == T.KING else "piece",
                      mv.from_cell, mv.to_cell)

    def _start_text(self, state: T.State) -> str:
        return T.fen(state)

    def _parse_start(self, text: str) -> T.State:
        return T.parse(text)

    # -- state ------------------------------------------------------------------------------
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
        return self._state.quiet

    @property
    def fullmove_number(self) -> int:
        return self._state.number

    def cell(self, name: str) -> int:
        return T.square(name)

    def piece_at(self, cell: int | str) -> Piece | None:
        if isinstance(cell, str):
            cell = T.square(cell)
        return _piece(self._state.board[cell])

    def pieces(self) -> dict[str, Piece]:
        """Square name -> piece, for every occupied square (a giant King on each of its four)."""
        return {T.square_name(s): _piece(c) for s, c in enumerate(self._state.board) if c != T.EMPTY}

    def tile(self, cell: int | str) -> tuple[str, str]:
        """The two squares of the tile holding `cell`, the given one first (1, R3)."""
        sq = T.square(cell) if isinstance(cell, str) else cell
        return T.square_name(sq), T.square_name(T.partner(sq))

    def unit(self, cell: int | str) -> tuple[str, str]:
        """(unit name `c5-d6`, colour `orange` / `blue`) of the unit holding `cell` (1)."""
        sq = T.square(cell) if isinstance(cell, str) else cell
        i, j = T.unit_of(sq)
        return T.unit_name(i, j), T.unit_colour(i, j)

    def unit_squares(self, unit: str) -> tuple[str, str, str, str]:
        """The four squares of a unit named by any of them or as `c5-d6`, lower-left first (1)."""
        i, j = T.unit_of(T.square(unit.split("-")[0]))
        return tuple(T.square_name(s) for s in T.unit_squares(i, j))

    def aggregates(self) -> list[tuple[str, Piece]]:
        """The aggregates formed now (3.2, R6): (unit name `c5-d6`, piece type and side)."""
        return [(T.unit_name(i, j), _piece(letter)) for i, j, letter in T.aggregates(self._state)]

    def king(self, side: int) -> str | None:
        """The lower-left square of `side`'s King unit."""
        return T.square_name(T.unit_squares(*T.king_unit(self._state, side))[0])

    # -- moves ------------------------------------------------------------------------------
    def effects(self, move: Move) -> list[tuple[str, Piece | None, Piece | None]]:
        """What the move changes, square by square: (square name, piece before, piece after)."""
        if move.from_cell < 0:
            return []
        before, after = self._state.board, T._apply(self._state, self._reference(move)).board
        return [(T.square_name(s), _piece(a), _piece(b)) for s, (a, b) in enumerate(zip(before, after)) if a != b]

    def captures(self, move: Move) -> list[tuple[str, Piece]]:
        """Every enemy piece the move removes (an aggregate or King move may take up to four)."""
        return [(name, b) for name, b, _ in self.effects(move) if b and b.side != self.turn]

    # -- check and game end -----------------------------------------------------------------
    def is_check(self) -> bool:
        """Is any of the four squares of the mover's King attacked (4.2)? Only turn ends must be free
        of it."""
        return T.is_check(self._state)

    def is_attacked_by(self, side: int, cell: int | str) -> bool:
        if isinstance(cell, str):
            cell = T.square(cell)
        return T.attacked(self._state, cell, side)

    def is_checkmate(self) -> bool:
        """At a turn's start: in check and no legal whole turn (4.3)."""
        return not self.moves_in_turn and self.is_check() and not self._legal_list()

    def is_stalemate(self) -> bool:
        """At a turn's start: not in check and no legal move (4.3)."""
        return not self.moves_in_turn and not self.is_check() and not self._legal_list()

    def has_insufficient_material(self, side: int) -> bool:
        """Tiling Rider has no insufficient-material rule (4.3, R15): never."""
        return False

    def is_insufficient_material(self) -> bool:
        return False

    def repetition_count(self) -> int:
        """How often the current turn's start position has occurred (4.3)."""
        start = self._states[self._turn_start()]
        return 1 + start.history.count(T.boundary_key(start))

    def is_repetition(self, count: int = 3) -> bool:
        return self.repetition_count() >= count

    def can_claim_draw(self) -> bool:
        """Draws here are automatic (4.3, R15): nothing is left to claim."""
        return False

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """The game's end by the rules, judged at the start of a turn; None mid-turn."""
        if self.moves_in_turn:
            return None
        if self.is_checkmate():
            return Outcome(Termination.CHECKMATE, 1 - self.turn)
        result = T.outcome(self._state)
        return Outcome(_RESULTS[result[0]], result[1]) if result else None

    def is_game_over(self, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw) is not None

    def __str__(self) -> str:
        return T.diagram(self._state)

    def __repr__(self) -> str:
        return f"Board('tilingrider', {self.fen()!r})"
