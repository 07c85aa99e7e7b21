"""InterGrid Chess behind the public Board API (`Board("intergrid")`), over the reference rules module
`intergrid.py` and the general multi-move turn mechanism of `turns.py`.

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
from .turns import END_TURN, TURN_RULES, TurnRule, TurnSearch

END_MOVE = Move(-1, -1, None, END_TURN)
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


def _public(m: ig.Move) -> Move:
    base = 0 if m.layer == "s" else POINT_BASE
    return Move(base + m.frm, base + m.to, m.promo, m.text())


def _reference(mv: Move) -> ig.Move:
    if mv.from_cell < POINT_BASE:
        return ig.Move("s", mv.from_cell, mv.to_cell, mv.promotion)
    return ig.Move("p", mv.from_cell - POINT_BASE, mv.to_cell - POINT_BASE, mv.promotion)


def _piece(letter: str | None) -> Piece | None:
    return Piece(letter.upper(), 0 if letter.isupper() else 1) if letter else None


class IntergridBoard:
    """An InterGrid game position with its move history (the python-chess-like public API)."""

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
        start_text, _, moves_text = self.starting_fen.partition("|")
        try:
            self._states = [ig.parse_fen(start_text.strip())]
        except ValueError as e:
            raise ValueError(f"bad intergrid position: {e}") from None
        self._made = [0]  # moves made in the current turn, after each push
        self._stack: list[Move] = []  # every move pushed, those of a mid-turn start position first
        self._legal_cache: tuple[ig.State, list[Move]] | None = None  # keyed by the state object
        for text in moves_text.split():  # a mid-turn position: the turn's start and its moves so far
            self.push_text(text)
        self._base = len(self._stack)

    # -- state ------------------------------------------------------------------------------
    @property
    def _state(self) -> ig.State:
        return self._states[-1]

    @property
    def move_stack(self) -> list[Move]:
        """The moves played since the starting position (each turn's moves and `end` moves)."""
        return self._stack[self._base:]

    @property
    def reference_state(self) -> ig.State:
        """The current position as the reference module's state (what the engine searches)."""
        return self._state

    @property
    def turn_search(self) -> TurnSearch:
        """The turn mechanism this board uses (rule and model)."""
        return self._search

    @property
    def rosters(self) -> tuple[Roster, Roster]:
        return Roster(), Roster()

    @property
    def turn(self) -> int:
        """The side to move: 0 = White (Player 1), 1 = Black; it changes when the turn ends."""
        return _SIDE[self._state.turn]

    @property
    def moves_in_turn(self) -> int:
        """Moves already made in the current turn (0 at a turn's start)."""
        return self._made[-1]

    @property
    def halfmove_clock(self) -> int:
        return self._state.halfmove

    @property
    def fullmove_number(self) -> int:
        return self._state.fullmove

    def _turn_start(self) -> int:
        return len(self._states) - 1 - self.moves_in_turn

    def fen(self) -> str:
        """Both layers (1.1); mid-turn, the turn's start position, ` | ` and the moves made so far."""
        start = self._turn_start()
        text = ig.fen(self._states[start])
        if start < len(self._states) - 1:
            text += " | " + " ".join(m.text for m in self._stack[start:])
        return text

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

    def copy(self) -> "IntergridBoard":
        b = IntergridBoard(VARIANT.name, self.starting_fen)
        for mv in self.move_stack:
            b.push(mv)
        return b

    # -- moves ------------------------------------------------------------------------------
    @property
    def legal_moves(self) -> list[Move]:
        """The moves that can continue the turn, sorted by text (square moves at a turn's start,
        then point moves), followed by `end` when the turn may stop here."""
        return list(self._legal_list())

    def _legal_list(self) -> list[Move]:
        if self._legal_cache is None or self._legal_cache[0] is not self._state:
            moves, may_end = self._search.continuations(self._state, self.moves_in_turn, self.turn)
            legal = sorted((_public(m) for m in moves), key=lambda mv: mv.text)
            self._legal_cache = (self._state, legal + ([END_MOVE] if may_end else []))
        return self._legal_cache[1]

    def parse_move(self, text: str) -> Move:
        """The legal move written `text` (`e2e4`, `G1E2`, `e7e8q`, `E7E8Q`, `end`), or IllegalMoveError."""
        text = text.strip()
        legal = self._legal_list()
        for mv in legal:
            if mv.text == text:
                return mv
        promoted = [mv for mv in legal if mv.promotion and mv.text[:4] == text]
        default = VARIANT.promotion_default
        for mv in promoted:  # a promotion without a letter takes the default
            if mv.promotion == default:
                return mv
        raise IllegalMoveError(f"illegal move {text!r} in {self.fen()}")

    def push(self, move: Move) -> None:
        """Play a legal move (IllegalMoveError otherwise); the turn ends after its last move."""
        if move not in self._legal_list():
            raise IllegalMoveError(f"illegal move {move.text or move} in {self.fen()}")
        model = self._search.model
        state = self._state if move == END_MOVE else model.play(self._state, _reference(move))
        made = self.moves_in_turn + 1
        if move == END_MOVE or made >= VARIANT.turn_rule.max_moves:
            state, made = model.end_turn(state), 0
        self._states.append(state)
        self._made.append(made)
        self._stack.append(move)

    def push_text(self, text: str) -> Move:
        mv = self.parse_move(text)
        self.push(mv)
        return mv

    def push_turn(self, text: str) -> list[Move]:
        """Play a whole turn written as its square move and optional point move (`e2e4 G1E2`)."""
        if self.moves_in_turn:
            raise IllegalMoveError("a turn is in progress")
        played = []
        try:
            for word in text.split():
                played.append(self.push_text(word))
            if self.moves_in_turn:
                played.append(self.push_text(END_TURN))
        except IllegalMoveError:
            for _ in played:
                self.pop()
            raise
        return played

    def pop(self) -> Move:
        """Take back the last move (within the turn, or the last move of the previous turn)."""
        if len(self._stack) == self._base:
            raise IndexError("no move to take back")
        self._states.pop()
        self._made.pop()
        return self._stack.pop()

    def peek(self) -> Move | None:
        return self._stack[-1] if len(self._stack) > self._base else None

    def turn_texts(self) -> list[str]:
        """The game's turns as text: square move and optional point move (the last one may be
        unfinished)."""
        out: list[str] = []
        for j in range(self._base, len(self._stack)):
            mv = self._stack[j]
            if mv == END_MOVE:
                continue
            if self._made[j] == 0 or not out:
                out.append(mv.text)
            else:
                out[-1] += " " + mv.text
        return out

    def perft(self, depth: int) -> int:
        """Leaf nodes of the legal move tree `depth` moves deep (square, point and `end` moves)."""
        if depth == 0:
            return 1
        return sum(n for _, n in self.divide(depth))

    def divide(self, depth: int) -> list[tuple[Move, int]]:
        """(move, leaf count below it) for each legal move, in `legal_moves` order."""
        rows = []
        for mv in self.legal_moves:
            self.push(mv)
            rows.append((mv, self.perft(depth - 1)))
            self.pop()
        return rows

    def effects(self, move: Move) -> list[tuple[str, Piece | None, Piece | None]]:
        """What the move changes, cell by cell: (square or point name, piece before, piece after)."""
        if move == END_MOVE:
            return []
        before, after = self._state, self._search.model.play(self._state, _reference(move))
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
