"""InterGrid Chess behind the public Board API (`Board("intergrid")`), over the reference rules module
`intergrid.py` and the general multi-move turn mechanism of `turns.py` (through `turn_board.TurnBoard`).

Not on the core yet: positions are the reference module's immutable `State`s (one per move pushed),
so this board is correct but slow compared with the core's `Position`; the core integration (points as
a second layer of cells, per-step cross-layer blocking in the tables, enclosures as extra cell
changes) is still to come.

Cells: squares a1..h8 are 0..63, points A0..I8 are 64..144 (`POINT_BASE` + the point's index).
A turn is the square move, then a point move or the end-of-turn move `end` (intergrid R8); after a
point move the turn ends by itself. Check, checkmate and the game's end are judged at turn starts
(R7); mid-turn `outcome()` is None.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import intergrid as ig
from .board import IllegalMoveError, Move, Piece
from .intergrid_layout import GEOMETRY, POINT_BASE, IntergridGeometry
from .outcome import Outcome, Termination
from .program import Roster
from .turn_board import END_MOVE, TurnBoard
from .turns import TURN_RULES, TurnRule, TurnSearch

_SIDE = {"w": 0, "b": 1}
_RESULTS = {"checkmate": Termination.CHECKMATE, "king captured": Termination.KING_CAPTURED,
            "stalemate": Termination.STALEMATE, "threefold repetition": Termination.REPETITION,
            "50-turn rule": Termination.MOVE_RULE, "insufficient material": Termination.INSUFFICIENT_MATERIAL}
_WINNER = {"1-0": 0, "0-1": 1, "1/2-1/2": None}


@dataclass(frozen=True)
class IntergridVariant:
    """What the game record and the CLI ask of a variant."""
    name: str
    title: str
    start_fen: str
    turn_rule: TurnRule
    promotion_default: str = "Q"
    # what the server asks of any variant: no holdings, no reprogramming, no generated set-ups
    promotion_choices: tuple[str, ...] = tuple(ig.PROMOTIONS)
    move_rule_claim: int = 100  # the 50-turn rule, in the half-move units the server's texts use
    holdings: bool = False
    reprogrammable: bool = False
    setup: dict | None = None
    geometry: IntergridGeometry = GEOMETRY


VARIANT = IntergridVariant("intergrid", "InterGrid Chess", ig.START_FEN, TURN_RULES["one_then_optional"])


class IntergridModel:
    """The reference module's states as `turns.TurnModel`."""

    def moves(self, state: ig.State) -> list[ig.Move]:
        if state.king("w") is None or state.king("b") is None:
            return []  # a King captured by the square move ends the game (R7)
        return ig.square_moves(state) if state.phase == "square" else ig.point_moves(state)

    def play(self, state: ig.State, move: ig.Move) -> ig.State:
        if move.layer == "s":
            return ig.apply_square(state, move).state
        return ig.apply_point(state, move).state  # the point move also closes the turn

    def end_turn(self, state: ig.State) -> ig.State:
        return ig.apply_point(state, None).state if state.phase == "point" else state

    def turn_ok(self, ended: ig.State, mover: int) -> bool:
        return ig._turn_ok(ended, "wb"[mover])


def cell_name(cell: int) -> str:
    return ig.square_name(cell) if cell < POINT_BASE else ig.point_name(cell - POINT_BASE)


def parse_cell(name: str) -> int:
    """Cell index of a square (`e4`) or point (`E4`) name; ValueError otherwise."""
    return ig.parse_square(name) if name[:1].islower() else POINT_BASE + ig.parse_point(name)


def _piece(letter: str | None) -> Piece | None:
    return Piece(letter.upper(), 0 if letter.isupper() else 1) if letter else None


class IntergridBoard(TurnBoard):
    """An InterGrid game position with its move history (the python-chess-like public API). Legal
    moves are sorted by text: square moves at a turn's start, then point moves, then `end`."""

    def __init__(self, variant: str = "intergrid", fen: str | None = None,
                 rosters: tuple[Roster, Roster] | None = None) -> None:
        if variant not in ("intergrid", VARIANT):
            raise ValueError(f"IntergridBoard plays intergrid, not {variant!r}")
        if rosters and any(rosters):
            raise ValueError("intergrid pieces cannot be reprogrammed")
        self.variant = VARIANT
        self.geometry = GEOMETRY
        self._search = TurnSearch(VARIANT.turn_rule, IntergridModel())
        self.starting_fen = fen or VARIANT.start_fen
        self._set_up(self.starting_fen)  # mid-turn: the turn's start and its moves so far

    # -- hooks of TurnBoard -----------------------------------------------------------------
    def _turn_search(self, state: ig.State) -> TurnSearch:
        return self._search  # one turn rule for the whole game (R8)

    def _side(self, state: ig.State) -> int:
        return _SIDE[state.turn]

    def _public(self, m: ig.Move) -> Move:
        base = 0 if m.layer == "s" else POINT_BASE
        return Move(base + m.frm, base + m.to, m.promo, m.text())

    def _reference(self, mv: Move) -> ig.Move:
        if mv.from_cell < POINT_BASE:
            return ig.Move("s", mv.from_cell, mv.to_cell, mv.promotion)
        return ig.Move("p", mv.from_cell - POINT_BASE, mv.to_cell - POINT_BASE, mv.promotion)

    def _start_text(self, state: ig.State) -> str:
        return ig.fen(state)  # both layers (1.1)

    def _parse_start(self, text: str) -> ig.State:
        return ig.parse_fen(text)

    # -- state ------------------------------------------------------------------------------
    @property
    def halfmove_clock(self) -> int:
        return self._state.halfmove

    @property
    def fullmove_number(self) -> int:
        return self._state.fullmove

    def cell(self, name: str) -> int:
        return parse_cell(name)

    def piece_at(self, cell: int | str) -> Piece | None:
        if isinstance(cell, str):
            cell = parse_cell(cell)
        s = self._state
        return _piece(s.squares[cell] if cell < POINT_BASE else s.points[cell - POINT_BASE])

    def pieces(self) -> dict[str, Piece]:
        """Cell name (square or point) -> piece, for every occupied cell."""
        s = self._state
        cells = [(ig.square_name(i), c) for i, c in enumerate(s.squares)] + \
                [(ig.point_name(i), c) for i, c in enumerate(s.points)]
        return {name: _piece(c) for name, c in cells if c}

    def king(self, side: int) -> str | None:
        k = self._state.king("wb"[side])
        return None if k is None else ig.square_name(k)

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
        """What the move changes, cell by cell: (square or point name, piece before, piece after)."""
        if move == END_MOVE:
            return []
        before, after = self._state, self._search.model.play(self._state, self._reference(move))
        return [(name(i), _piece(a), _piece(b))
                for name, xs, ys in ((ig.square_name, before.squares, after.squares),
                                     (ig.point_name, before.points, after.points))
                for i, (a, b) in enumerate(zip(xs, ys)) if a != b]

    def captures(self, move: Move) -> list[tuple[str, Piece]]:
        """Every enemy piece the move removes: displacement, en passant, enclosures and the edge rule."""
        return [(name, b) for name, b, a in self.effects(move) if b and b.side != self.turn]

    # -- check and game end -----------------------------------------------------------------
    def is_check(self) -> bool:
        """Is the King of the side to move attacked (5)? Only the end of a turn must be free of it."""
        return ig.is_check(self._state)

    def is_attacked_by(self, side: int, cell: int | str) -> bool:
        if isinstance(cell, str):
            cell = parse_cell(cell)
        if cell >= POINT_BASE:
            raise ValueError("attacks are defined on squares (5)")
        return ig.square_attacked(self._state, cell, "wb"[side])

    def is_checkmate(self) -> bool:
        return self.is_check() and not self._legal_list()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self._legal_list()

    def has_insufficient_material(self, side: int) -> bool:
        """Can `side` never checkmate? Conservative (R14): only when the whole position is dead."""
        return ig.insufficient_material(self._state)

    def is_insufficient_material(self) -> bool:
        return ig.insufficient_material(self._state)

    def _history(self) -> list[tuple]:
        """Repetition keys of the turn-start positions before the current turn's."""
        current = self._turn_start()
        return [ig.repetition_key(self._states[i]) for i, made in enumerate(self._made[:current]) if made == 0]

    def repetition_count(self) -> int:
        """How often the current turn's start position has occurred (5, R14)."""
        key = ig.repetition_key(self._states[self._turn_start()])
        return 1 + sum(1 for k in self._history() if k == key)

    def is_repetition(self, count: int = 3) -> bool:
        return self.repetition_count() >= count

    def can_claim_draw(self) -> bool:
        """Draws here are automatic (5): nothing is left to claim."""
        return False

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """The game's end by the rules, judged at the start of a turn; None mid-turn."""
        if self.moves_in_turn:
            return None
        result = ig.outcome(self._state, self._history())
        return Outcome(_RESULTS[result.reason], _WINNER[result.result]) if result else None

    def is_game_over(self, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw) is not None

    def __repr__(self) -> str:
        return f"Board('intergrid', {self.fen()!r})"
