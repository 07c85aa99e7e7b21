"""The variant contract: what every board, variant description, geometry and piece offers.

The server, the engine, the CLI and the game records use a board only through `BaseBoard`'s public
names, and a variant only through `VariantInfo`; what a variant can do beyond that (multi-move
turns, drafted turns, moves listed with their captures, a per-turn allowance, ...) is a capability
in the registry (`rules/registry.py`), never probed on the objects. docs/contract.md is this page
in prose.

`BaseBoard` is the one base of every board: a single-move variant's board (`board.CoreBoard`) is the
one-move case of a turn (`moves_in_turn` is always 0), a multi-move variant's (`turn_board.TurnBoard`)
holds several moves per turn. The common surface is defined here once; a family's board fills in
the abstract methods and overrides a shared one only to do it faster or by its own rules.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .outcome import Outcome
from .program import Roster
from .turns import END_TURN


class IllegalMoveError(ValueError):
    """A move text that is malformed or not legal in the position."""


@dataclass(frozen=True)
class Piece:
    letter: str  # upper case
    side: int    # 0 = Player 1, 1 = Player 2

    def symbol(self) -> str:
        return self.letter if self.side == 0 else self.letter.lower()

    def __str__(self) -> str:
        return self.symbol()


@dataclass(frozen=True)
class Move:
    from_cell: int  # -1 for the end-of-turn move
    to_cell: int
    promotion: str | None = None  # upper-case letter of the promoted-to type
    text: str = field(default="", compare=False)
    code: int = field(default=-1, compare=False, repr=False)  # the family's move integer

    @property
    def via(self) -> tuple[int, ...]:
        """The cells other than the destination whose pieces the move captures and its text names
        (a diagram move's, `x<square>`): none here."""
        return ()

    def uci(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


class PieceInfo(Protocol):
    """A piece type as a variant describes it."""
    letter: str  # upper case; Player 2's pieces are written in lower case

    @property
    def name(self) -> str:
        """Its name ("Knight"): a board page chooses the drawing by it."""

    @property
    def label(self) -> str:
        """The text shown where it has no drawing (its letter, or a diagram piece's ID)."""

    @property
    def drawing(self) -> str:
        """The drawing a board page shows where its name would choose another one ("": by name)."""


class GeometryInfo(Protocol):
    """A board's cells as boards, records and clients name and draw them."""
    files: int
    ranks: int
    names: Sequence[str]  # cell -> name, for every cell a move may name

    def name(self, cell: int) -> str: ...

    def parse_cell(self, text: str) -> int:
        """The cell named `text`; ValueError with a clear message otherwise."""

    def layout(self) -> dict:
        """The board description a client draws: width, height, every cell with its shape, centre
        and size in board units, labels, and what the family adds (tiles, multi-cell pieces)."""


class VariantInfo(Protocol):
    """What every variant description offers (`board.variant`)."""
    family: str  # the registry's name of the family whose board plays it
    name: str
    title: str
    start_fen: str
    geometry: GeometryInfo
    pieces: Sequence[PieceInfo]
    promotion_choices: Sequence[str]  # upper-case letters a player may choose (empty: none or fixed)
    promotion_default: str            # a core promotion written without its letter takes this one
    move_rule_claim: int              # the move rule in half-moves (100: "the 50-move rule")
    holdings: bool                    # captured pieces join their owner's holdings (Superchess)
    reprogrammable: bool              # rosters may reprogram its pieces (super16)
    setup: Any                        # data of its generated set-ups; falsy without any


@runtime_checkable
class AllowanceBoard(Protocol):
    """What the board of a variant with the `allowance` capability adds (Tiling Rider: a turn of up
    to `allowance` moves, pieces riding together as aggregates over 2 x 2 units)."""

    @property
    def allowance(self) -> int:
        """The most moves of the current turn."""

    @property
    def moves_left(self) -> int:
        """How many more moves the current turn may hold."""

    def aggregates(self) -> list[tuple[str, Piece]]:
        """The aggregates formed now: (unit name, piece type and side)."""

    def unit_squares(self, unit: str) -> tuple[str, ...]:
        """The squares of a unit, lower-left first."""


class BaseBoard(ABC):
    """A game position with its move history: the public surface every variant's board offers.

    Made by `superchess.rules.Board(name or variant, fen, rosters, core)`, which the registry sends
    to the family's class; every family's class takes these four arguments. Cells are integers of
    the variant's geometry; moves are `Move`s taken from `legal_moves` (a family may add fields,
    e.g. a diagram move's captured cells)."""

    variant: VariantInfo
    geometry: GeometryInfo
    starting_fen: str  # the position the history starts from
    move_stack: list[Move]  # the moves played since `starting_fen` (turn variants: `end` moves too)

    # -- state ------------------------------------------------------------------------------
    @property
    @abstractmethod
    def turn(self) -> int:
        """The side to move: 0 = Player 1, 1 = Player 2 (it changes when a turn ends)."""

    @property
    def moves_in_turn(self) -> int:
        """Moves already made in the current turn: 0 at a turn's start, always 0 where a turn is one
        move."""
        return 0

    @property
    @abstractmethod
    def halfmove_clock(self) -> int:
        """The move-rule counter (in the variant's own units: half-moves, or turns)."""

    @property
    @abstractmethod
    def fullmove_number(self) -> int: ...

    @property
    def rosters(self) -> tuple[Roster, Roster]:
        """Each side's reprogrammed pieces (empty where pieces cannot be reprogrammed)."""
        return Roster(), Roster()

    @property
    def core(self) -> str:
        """The rules core this board plays on: "python" or "native"."""
        return "python"

    @abstractmethod
    def fen(self) -> str:
        """The position text (a turn variant mid-turn: the turn's start, ` | ` and its moves)."""

    @abstractmethod
    def engine_position(self) -> Any:
        """The position the engine of the variant's family searches (see the family's board)."""

    def cell(self, name: str) -> int:
        return self.geometry.parse_cell(name)

    @abstractmethod
    def piece_at(self, cell: int | str) -> Piece | None: ...

    @abstractmethod
    def pieces(self) -> dict[str, Piece]:
        """Cell name -> piece, for every occupied cell."""

    def piece_symbols(self) -> dict[str, str]:
        """Cell name -> piece symbol ("K", "p"), for every occupied cell: `pieces()` as text."""
        return {name: p.symbol() for name, p in self.pieces().items()}

    def holdings(self, side: int) -> dict[str, int]:
        """Piece letter -> count held by `side`; empty for variants without holdings."""
        return {}

    @abstractmethod
    def king(self, side: int) -> str | None:
        """The cell name of `side`'s King (a giant King: its lower-left square), None without one."""

    @abstractmethod
    def copy(self) -> BaseBoard:
        """A board in the same position, with the same history."""

    def reach(self, square: str) -> list[str]:
        """Where the piece on `square` could move if it were its side's turn (the legal moves of the
        position with its side to move, `turned`; none where the rules refuse that position), by cell
        name, sorted: the game page's hover. ValueError when there is no piece there."""
        piece = self.piece_at(square)
        if piece is None:
            raise ValueError(f"no piece on {square}")
        board = self
        if self.turn != piece.side:
            try:
                board = self.turned()
            except ValueError:  # e.g. the other King left in check: no such position
                return []
        names = self.geometry.names
        return sorted({names[m.to_cell] for m in board._legal_list() if m.from_cell >= 0 and names[m.from_cell] == square})

    def turned(self) -> BaseBoard:
        """A board of the position as it stands with the other side to move, without history (where
        would its pieces go if it were their turn: the piece guide). A turn variant mid-turn ends the
        turn where the rules let it end now, else starts from the turn's start. ValueError (FenError)
        where the rules refuse that position (the side that moved would stand in check)."""
        if self.moves_in_turn:
            ends = [mv for mv in self._legal_list() if mv.from_cell < 0]
            if ends:
                board = self.copy()
                board.push(ends[0])
                return board
        return type(self)(self.variant, self._turned_fen(), self.rosters, self.core)

    @abstractmethod
    def _turned_fen(self) -> str:
        """The position text of the current turn's start with the other side to move (no en passant
        target; a per-turn allowance kept as a maximum)."""

    def lone_piece_reach(self, letter: str, square: str, side: int = 0) -> list[str]:
        """The cells a piece of type `letter` of `side` (with this board's rosters) reaches standing
        alone on `square` of an empty board, by the variant's own movement, in cell order (a piece
        that covers several cells: every cell it would cover): the piece guide's diagrams.
        ValueError for an unknown letter or a square it cannot stand on."""
        cell = self.cell(square)
        letter = letter.upper()
        if all(p.letter != letter for p in self.variant.pieces):
            raise ValueError(f"{self.variant.name} has no piece {letter!r}")
        names = self.geometry.names
        return [names[c] for c in sorted(set(self._lone_piece_cells(letter, cell, side)) - {cell})]

    @abstractmethod
    def _lone_piece_cells(self, letter: str, cell: int, side: int) -> Iterable[int]:
        """`lone_piece_reach`'s cells (the origin may be among them: it is dropped)."""

    # -- moves ------------------------------------------------------------------------------
    @abstractmethod
    def _legal_list(self) -> list[Move]:
        """The legal moves, sorted by text (turn variants: `end` last when the turn may stop here);
        the board's cached list, not to be changed."""

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves, sorted by their text (turn variants: the moves that can continue the
        turn, followed by `end` when the turn may stop here)."""
        return list(self._legal_list())

    def legal_destinations(self) -> dict[str, list[str]]:
        """The legal moves grouped by origin cell name, each written as its text after the origin
        (the destination and any promotion letter): {"h2": ["h3", "h4"], "c15": ["c16q", ...]}."""
        names = self.geometry.names
        by_origin: dict[str, list[str]] = {}
        for mv in self._legal_list():
            if mv.from_cell >= 0:
                origin = names[mv.from_cell]
                by_origin.setdefault(origin, []).append(mv.text[len(origin):])
        return by_origin

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The legal move written `text`, or IllegalMoveError."""

    @abstractmethod
    def _legal_instance(self, move: Move) -> Move | None:
        """The legal move equal to `move` (`move` itself where that is cheaper to tell), or None."""

    @abstractmethod
    def _play(self, move: Move) -> None:
        """Play a move known to be legal."""

    def push(self, move: Move) -> None:
        """Play a legal move (IllegalMoveError otherwise); a turn ends by itself after its last
        allowed move."""
        legal = self._legal_instance(move)
        if legal is None:
            raise IllegalMoveError(f"illegal move {move.text or move} in {self.fen()}")
        self._play(legal)

    def push_text(self, text: str) -> Move:
        """Play the legal move written `text` (IllegalMoveError otherwise); returns it."""
        mv = self.parse_move(text)
        self._play(mv)
        return mv

    def push_turn(self, text: str) -> list[Move]:
        """Play a whole turn written as its moves in order (`c7c6 @c5c9`, `e2e4 G1E2`) and end it;
        on an illegal move nothing is played."""
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

    @abstractmethod
    def pop(self) -> Move:
        """Take back the last move (IndexError when there is none)."""

    def peek(self) -> Move | None:
        stack = self.move_stack
        return stack[-1] if stack else None

    def turn_texts(self) -> list[str]:
        """The game's turns as text, each its moves in order (one move each where a turn is one)."""
        return [mv.text for mv in self.move_stack]

    def perft(self, depth: int) -> int:
        """Leaf nodes of the legal move tree `depth` moves deep."""
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

    @abstractmethod
    def effects(self, move: Move) -> list[tuple[str, Piece | None, Piece | None]]:
        """What the legal `move` changes, cell by cell: (cell name, piece before, piece after)."""

    def captures(self, move: Move) -> list[tuple[str, Piece]]:
        """Every enemy piece the legal `move` removes: (cell name, piece)."""
        return [(name, before) for name, before, _ in self.effects(move) if before and before.side != self.turn]

    # -- check and game end -----------------------------------------------------------------
    @abstractmethod
    def is_check(self) -> bool:
        """Is the King of the side to move attacked?"""

    @abstractmethod
    def is_attacked_by(self, side: int, cell: int | str) -> bool: ...

    def is_checkmate(self) -> bool:
        return self.is_check() and not self._legal_list()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self._legal_list()

    def has_insufficient_material(self, side: int) -> bool:
        """Can `side` never checkmate? (Also decides a flag fall.) Never, for variants without an
        insufficient-material rule."""
        return False

    def is_insufficient_material(self) -> bool:
        return self.has_insufficient_material(0) and self.has_insufficient_material(1)

    @abstractmethod
    def repetition_count(self) -> int:
        """How often the current position (a turn variant's: the turn's start) has occurred."""

    def is_repetition(self, count: int = 3) -> bool:
        return self.repetition_count() >= count

    def can_claim_draw(self) -> bool:
        """May the side to move claim a draw now? Never, where every draw is automatic."""
        return False

    @abstractmethod
    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """The game's end by the rules alone (with `claim_draw`, the draws the side to move could
        claim too), or None; a turn variant judges it at a turn's start."""

    def is_game_over(self, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw) is not None

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, {self.fen()!r})"
