"""The public API for diagram variants (Vanguard), shaped like `Board`: `Board("vanguard")` returns a
`DiagramBoard`. Moves may capture several pieces, capture without moving, swap or pass; their text
(Vanguard 1.1, R21) is origin + destination + ``x<square>`` for every captured square other than
the destination, in path order (``b2d4xc3``, ``e5e5xd7``, ``b2b2``); `parse_move` reads it back.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .board import IllegalMoveError, Piece
from .diagram_fen import get_fen, set_fen
from .diagram_position import SIDE_SHIFT, DiagramPosition, DMove
from .diagram_rules import DiagramRules, get_diagram_variant
from .outcome import Outcome, Termination
from .program import Roster

_MOVE_RE = re.compile(r"([a-z][0-9]+)([a-z][0-9]+)((?:x[a-z][0-9]+)*)\Z")


@dataclass(frozen=True)
class DiagramMove:
    from_cell: int
    to_cell: int
    captured: tuple[int, ...]       # every captured cell, in path order (destination included)
    kind: str                       # normal, locust, igui, rifle, pass, swap, jump
    text: str = field(default="", compare=False)
    promotion: str | None = field(default=None, compare=False)  # the fixed type it becomes
    code: DMove = field(default=(), compare=False, repr=False)

    @property
    def via(self) -> tuple[int, ...]:
        """The captured cells other than the destination (the squares the move text names)."""
        return tuple(c for c in self.captured if c != self.to_cell)

    def uci(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


class DiagramBoard:
    """A diagram-variant position with its move history (see `Board` for the shared API)."""

    def __init__(self, variant: str | DiagramRules = "vanguard", fen: str | None = None,
                 rosters: tuple[Roster, Roster] | None = None) -> None:
        self.variant = get_diagram_variant(variant) if isinstance(variant, str) else variant
        if rosters and any(rosters):
            raise ValueError(f"{self.variant.name} pieces cannot be reprogrammed")
        self.geometry = self.variant.geometry
        self._pos = DiagramPosition(self.variant)
        self.starting_fen = fen or self.variant.start_fen
        set_fen(self._pos, self.starting_fen)
        self.move_stack: list[DiagramMove] = []
        self._legal_cache: tuple[tuple, list[DiagramMove]] | None = None

    # -- state ------------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self._pos.side

    @property
    def halfmove_clock(self) -> int:
        return self._pos.halfmove

    @property
    def fullmove_number(self) -> int:
        return self._pos.fullmove

    @property
    def moves_in_turn(self) -> int:
        """Moves already made in the current turn: always 0, every move is a whole turn."""
        return 0

    def turn_texts(self) -> list[str]:
        """The game's turns as text (one move each)."""
        return [mv.text for mv in self.move_stack]

    def fen(self) -> str:
        return get_fen(self._pos)

    def zobrist_hash(self) -> int:
        return self._pos.hash

    def cell(self, name: str) -> int:
        return self.geometry.parse_cell(name)

    def name(self, cell: int) -> str:
        return self.geometry.name(cell)

    @property
    def rosters(self) -> tuple[Roster, Roster]:
        """Diagram pieces cannot be reprogrammed: always the default rosters."""
        return Roster(), Roster()

    def holdings(self, side: int) -> dict[str, int]:
        return {}  # R13: no drops

    def _piece(self, code: int) -> Piece | None:
        return Piece(self._pos.rule_of(code).letter, code >> SIDE_SHIFT) if code else None

    def piece_at(self, cell: int | str) -> Piece | None:
        return self._piece(self._pos.board[self.cell(cell) if isinstance(cell, str) else cell])

    def pieces(self) -> dict[str, Piece]:
        return {self.name(c): self._piece(self._pos.board[c]) for s in (0, 1) for c in sorted(self._pos.occ[s])}

    def copy(self) -> "DiagramBoard":
        b = DiagramBoard(self.variant, self.starting_fen)
        for m in self.move_stack:
            b._push_code(m.code)
        return b

    # -- moves ------------------------------------------------------------------------------
    def _move(self, m: DMove) -> DiagramMove:
        o, d, caps, kind = m
        text = self.name(o) + self.name(d) + "".join("x" + self.name(c) for c in caps if c != d)
        board = self._pos.board
        landing, arrived = (o, board[d]) if kind == "swap" else (d, board[o])  # the pawn's new cell
        promo = next((self._pos.rule_of(after).letter for c, _, after in self._pos.changes(m)
                      if c == landing and after and after != arrived and self._pos.rule_of(arrived).pawn), None)
        return DiagramMove(o, d, caps, kind, text, promo, m)

    def _legal_list(self) -> list[DiagramMove]:
        key = (self._pos.hash, len(self.move_stack))
        if self._legal_cache is None or self._legal_cache[0] != key:
            moves = {}
            for m in self._pos.legal():
                mv = self._move(m)
                moves.setdefault(mv.text, mv)
            self._legal_cache = (key, sorted(moves.values(), key=lambda mv: mv.text))
        return self._legal_cache[1]

    @property
    def legal_moves(self) -> list[DiagramMove]:
        """The legal moves (Vanguard 4.3), sorted by their text."""
        return list(self._legal_list())

    def parse_move(self, text: str) -> DiagramMove:
        """The legal move written `text` (e.g. `e4g5xi6`, `b2b2`), or IllegalMoveError."""
        t = text.strip()
        if not _MOVE_RE.match(t):
            raise IllegalMoveError(f"bad move text {text!r} (expected origin, destination and x<square> "
                                   f"for each other captured square, e.g. b2d4xc3)")
        for mv in self._legal_list():
            if mv.text == t:
                return mv
        raise IllegalMoveError(f"illegal move {t} in {self.fen()}")

    def push(self, move: DiagramMove) -> None:
        for mv in self._legal_list():
            if mv == move:
                self._push_code(mv.code)
                return
        raise IllegalMoveError(f"illegal move {move.text or move} in {self.fen()}")

    def push_text(self, text: str) -> DiagramMove:
        mv = self.parse_move(text)
        self._push_code(mv.code)
        return mv

    def _push_code(self, m: DMove) -> None:
        mv = self._move(m)
        self._pos.make(m)
        self.move_stack.append(mv)

    def pop(self) -> DiagramMove:
        if not self.move_stack:
            raise IndexError("no move to take back")
        self._pos.unmake()
        return self.move_stack.pop()

    def peek(self) -> DiagramMove | None:
        return self.move_stack[-1] if self.move_stack else None

    def perft(self, depth: int) -> int:
        if depth <= 0:
            return 1
        moves = self._pos.legal()
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            self._pos.make(m)
            total += self.perft(depth - 1)
            self._pos.unmake()
        return total

    def divide(self, depth: int) -> list[tuple[DiagramMove, int]]:
        out = []
        for mv in self._legal_list():
            self._pos.make(mv.code)
            out.append((mv, self.perft(depth - 1)))
            self._pos.unmake()
        return out

    def effects(self, move: DiagramMove) -> list[tuple[str, Piece | None, Piece | None]]:
        """The move as cell changes (square, before, after): captures, swaps, promotion, succession."""
        return [(self.name(c), self._piece(b), self._piece(a)) for c, b, a in self._pos.changes(move.code)]

    def captures(self, move: DiagramMove) -> list[tuple[str, Piece]]:
        """Every piece the move removes from the board."""
        board = self._pos.board
        return [(self.name(c), self._piece(board[c])) for c in move.captured]

    # -- check and game end -----------------------------------------------------------------
    def is_check(self) -> bool:
        """The side to move's King is attacked (the Prince is never in check: 4.3.4)."""
        return self._pos.in_check()

    def is_attacked_by(self, side: int, cell: int | str) -> bool:
        return self._pos.is_attacked(self.cell(cell) if isinstance(cell, str) else cell, side)

    def king(self, side: int) -> str | None:
        k = self._pos.king_cell(side)
        return self.name(k) if k >= 0 else None

    def _royal_lost(self) -> bool:
        return bool(self.variant.king) and self._pos.king_cell(self.turn) < 0

    def is_checkmate(self) -> bool:
        """Checkmate without a Prince, or double checkmate (4.4)."""
        return not self._royal_lost() and not self._legal_list() and self.is_check() \
            and (self._pos.prince_cell(self.turn) < 0 or self._pos.double_checkmated(self._pos.pseudo_legal()))

    def is_stalemate(self) -> bool:
        return not self._royal_lost() and not self._legal_list() and not self.is_checkmate()

    def repetition_count(self) -> int:
        return self._pos.repetitions()

    def is_repetition(self, count: int = 3) -> bool:
        return self.repetition_count() >= count

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """King captured with no Prince left (R15), checkmate or double checkmate, stalemate, the
        move rule and repetition (4.6, R20; both automatic)."""
        if self._royal_lost() or self.is_checkmate():
            return Outcome(Termination.CHECKMATE, self.turn ^ 1)
        if not self._legal_list():
            return Outcome(Termination.STALEMATE, None)
        if self._pos.halfmove >= self.variant.move_rule:
            return Outcome(Termination.MOVE_RULE, None)
        if self.repetition_count() >= self.variant.repetition:
            return Outcome(Termination.REPETITION, None)
        return None

    def has_insufficient_material(self, side: int) -> bool:
        """Vanguard has no insufficient-material draw (4.6): never."""
        return False

    def is_insufficient_material(self) -> bool:
        return False

    def can_claim_draw(self) -> bool:
        """Draws by the move rule and repetition are automatic here (4.6): nothing to claim."""
        return False

    def is_game_over(self, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw) is not None

    def __str__(self) -> str:
        rows = []
        for r in range(self._pos.ranks - 1, -1, -1):
            cells = [self._piece(self._pos.board[r * self._pos.files + f]) for f in range(self._pos.files)]
            rows.append(f"{r + 1:>2} " + " ".join(p.symbol() if p else "." for p in cells))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, {self.fen()!r})"
