"""The board of the core's one-move variants, modelled on python-chess: `CoreBoard` over the core's
`Position` (integer moves, make/unmake, compiled tables), on the Python or the native core.

Generalised to any board size and roster: a move may remove several pieces (see `effects` and
`captures`); a turn is one move (the one-move case of `contract.BaseBoard`). The engine of the core
family plays its integer moves through `legal_codes`, `move_of` and `push_code`.
"""
from __future__ import annotations

import re
from functools import partial
from operator import attrgetter

from .contract import BaseBoard, IllegalMoveError, Move, Piece
from .encoding import CASTLE, CELL_MASK, DESTROY, MAX_CODE, PROMO_MASK, PROMO_SHIFT, SIDE_SHIFT, TO_SHIFT, code_of
from .fen import get_fen, set_fen
from .native import NativePosition, core_of, core_position, python_position, search_start
from .outcome import Outcome, Termination
from .position import Position, lone_piece_destinations
from .program import Roster
from .variant import Variant, load_variant

#: A core move text: origin, destination and an optional promotion letter (`h2h4`, `c15c16q`).
MOVE_TEXT = re.compile(r"([a-z][0-9]+)([a-z][0-9]+)([a-z]?)\Z")
_ROUTE = CELL_MASK | CELL_MASK << TO_SHIFT  # the origin and destination bits of a move code


def pieces_of(variant: Variant) -> list[Piece | None]:
    """Piece code -> Piece, built once per variant (a server asks for every piece after each move)."""
    letters = tuple(p.letter for p in variant.pieces)  # codes depend only on the piece order
    table = _PIECES.get(letters)
    if table is None:
        table = _PIECES[letters] = [None] * MAX_CODE
        for side in (0, 1):
            for ti, letter in enumerate(letters, 1):
                table[side << SIDE_SHIFT | ti] = Piece(letter, side)
    return table


_PIECES: dict[tuple[str, ...], list[Piece | None]] = {}


def _set_up(variant: Variant, rosters: tuple[Roster, Roster], fen: str) -> Position:
    """A Python core position set up from FEN text (FenError when it is bad)."""
    pos = Position(variant, rosters)
    set_fen(pos, fen)
    return pos


_TEXT = attrgetter("text")


class CoreBoard(BaseBoard):
    """A game position with its move history, one move per turn (see `BaseBoard`)."""

    native_class: type[NativePosition] = NativePosition  # its positions on the native core

    def __init__(self, variant: str | Variant = "super16", fen: str | None = None,
                 rosters: tuple[Roster, Roster] | None = None, core: str | None = None) -> None:
        self.variant = load_variant(variant) if isinstance(variant, str) else variant
        rosters = rosters or (Roster(), Roster())
        if any(rosters) and not self.variant.reprogrammable:
            raise ValueError(f"{self.variant.name} pieces cannot be reprogrammed")
        for r in rosters:
            r.validate(self.variant.by_letter)
        self.geometry = self.variant.geometry
        self._piece_of = pieces_of(self.variant)
        self.starting_fen = fen or self.variant.start_fen
        set_up = partial(_set_up, self.variant, (Roster(rosters[0]), Roster(rosters[1])), self.starting_fen)
        self._pos = core_position(set_up, core, self.native_class)  # the core switch (native.py): `core` or SUPERCHESS_CORE
        self.move_stack: list[Move] = []
        self._moves = self._pos.tables.move_cache
        self._legal_cache: tuple[tuple, list[int], list[Move] | None] | None = None

    # -- state ------------------------------------------------------------------------------
    @property
    def rosters(self) -> tuple[Roster, Roster]:
        return self._pos.rosters

    @property
    def core(self) -> str:
        """The rules core this board plays on: "python" or "native"."""
        return core_of(self._pos)

    def engine_position(self) -> Position:
        """The Python core position the engine searches: the board's own on the Python core, a
        copy in the same state with the same history on the native core."""
        return python_position(self._pos)

    def native_position(self) -> tuple[NativePosition, list[int]] | None:
        """Where the engine's native search starts: a native position in this state and the hashes
        of earlier positions it does not hold; None where the Python search plays the board (see
        `native.search_start`)."""
        return search_start(self._pos, self.native_class)

    @property
    def turn(self) -> int:
        """The side to move: 0 = Player 1, 1 = Player 2."""
        return self._pos.side

    @property
    def halfmove_clock(self) -> int:
        return self._pos.halfmove

    @property
    def fullmove_number(self) -> int:
        return self._pos.fullmove

    @property
    def ep_square(self) -> str | None:
        return self.geometry.name(self._pos.ep) if self._pos.ep >= 0 else None

    def fen(self) -> str:
        return get_fen(self._pos)

    def zobrist_hash(self) -> int:
        return self._pos.hash

    def piece_at(self, cell: int | str) -> Piece | None:
        if isinstance(cell, str):
            cell = self.cell(cell)
        p = self._pos.board[cell]
        return self._piece(p)

    def _piece(self, code: int) -> Piece | None:
        return self._piece_of[code]

    def pieces(self) -> dict[str, Piece]:
        """Square name -> piece, for every occupied square."""
        names, board, of = self.geometry.names, self._pos.board, self._piece_of
        return {names[c]: of[board[c]] for s in (0, 1) for c in sorted(self._pos.occ[s])}

    def piece_symbols(self) -> dict[str, str]:
        """Square name -> piece symbol ("K", "p"), for every occupied square: `pieces()` as text,
        what a server sends after every move."""
        names, board, sym = self.geometry.names, self._pos.board, self._pos.tables.symbol
        return {names[c]: sym[board[c]] for s in (0, 1) for c in sorted(self._pos.occ[s])}

    def holdings(self, side: int) -> dict[str, int]:
        """Piece letter -> count held by `side` (Superchess); empty for variants without holdings."""
        hold = self._pos.hold
        if hold is None:
            return {}
        return {self.variant.pieces[ti - 1].letter: n for ti, n in enumerate(hold[side]) if ti and n}

    def copy(self) -> CoreBoard:
        """A board in the same position, with the same history."""
        b = type(self)(self.variant, self.starting_fen, self.rosters, self.core)
        for m in self.move_stack:
            b.push_code(m.code)
        return b

    def _turned_fen(self) -> str:
        fields = self.fen().split(" ")
        fields[1], fields[3] = "wb"[self.turn ^ 1], "-"
        return " ".join(fields)

    def _lone_piece_cells(self, letter: str, cell: int, side: int) -> list[int]:
        return lone_piece_destinations(Position(self.variant, self.rosters), cell,
                                       code_of(side, self.variant.type_index(letter)))

    # -- moves ------------------------------------------------------------------------------
    def move_of(self, m: int) -> Move:
        """The public move of the move integer `m` (legal or pseudo-legal in the current position)."""
        mv = self._moves.get(m)
        if mv is None:
            fr, to = m & CELL_MASK, (m >> TO_SHIFT) & CELL_MASK
            promo = 0 if m & CASTLE else (m >> PROMO_SHIFT) & PROMO_MASK
            letter = self.variant.pieces[promo - 1].letter if promo else None
            text = self.geometry.name(fr) + self.geometry.name(to) + (letter.lower() if letter else "")
            mv = self._moves[m] = Move(fr, to, letter, text, m)
        return mv

    def legal_destinations(self) -> dict[str, list[str]]:
        """The legal moves grouped by origin square, each written as its text after the origin (the
        destination and any promotion letter): {"h2": ["h3", "h4"], "c15": ["c16q", ...]}, what a
        board UI highlights. Cheaper than `legal_moves`: no Move objects, no sorting."""
        tails, names = self._pos.tables.tail_cache, self.geometry.names
        by_origin: dict[int, list[str]] = {}
        current, group = -1, []
        for m in self.legal_codes():  # the generator yields each piece's moves together
            origin = m & CELL_MASK
            if origin != current:
                current = origin
                group = by_origin.setdefault(origin, [])
            tail = tails.get(m)
            if tail is None:
                tail = tails[m] = self.move_of(m).text[len(names[origin]):]
            group.append(tail)
        return {names[c]: g for c, g in by_origin.items()}

    def legal_codes(self) -> list[int]:
        """The legal move integers, in the generator's order: the board's cached list, not to be
        changed (generated once per position: a game server asks for the end of the game, the
        highlights and the parse of the next move in the same position)."""
        key = self._pos.hash, len(self.move_stack)
        if self._legal_cache is None or self._legal_cache[0] != key:
            self._legal_cache = (key, self._pos.legal(), None)
        return self._legal_cache[1]

    def _legal_list(self) -> list[Move]:
        codes = self.legal_codes()
        key, _, moves = self._legal_cache
        if moves is None:  # sorted only when asked for: deciding the game's end needs no Move objects
            moves = self._public_moves(codes)
            self._legal_cache = (key, codes, moves)
        return moves

    def _public_moves(self, codes: list[int]) -> list[Move]:
        """The public moves of legal move codes, sorted by text (diagram boards merge codes that
        share a text)."""
        cache = self._moves
        return sorted((cache.get(m) or self.move_of(m) for m in codes), key=_TEXT)

    def parse_move(self, text: str) -> Move:
        """The legal move written `text` (e.g. `h2h4`, `i1k1`, `c15c16q`), or IllegalMoveError."""
        m = MOVE_TEXT.match(text.strip())
        if not m:
            raise IllegalMoveError(f"bad move text {text!r} (expected origin, destination and an optional "
                                   f"promotion letter, e.g. h2h4 or c15c16q)")
        try:
            fr, to = self.cell(m.group(1)), self.cell(m.group(2))
        except ValueError as e:
            raise IllegalMoveError(f"bad move text {text!r}: {e}") from None
        promo = m.group(3).upper() or None
        if promo and promo not in self.variant.by_letter:
            raise IllegalMoveError(f"bad move text {text!r}: unknown piece letter {m.group(3)!r}")
        route = fr | to << TO_SHIFT
        candidates = [self.move_of(m) for m in self.legal_codes() if m & _ROUTE == route]
        if promo is None and any(mv.promotion for mv in candidates):
            promo = self.variant.promotion_default  # a promotion without a letter takes the default
        for mv in candidates:
            if mv.promotion == promo:
                return mv
        if candidates and promo:
            choices = ", ".join(mv.promotion.lower() for mv in candidates if mv.promotion)
            if not choices:
                raise IllegalMoveError(f"illegal move {text}: {text[:-1]} is not a promotion")
            raise IllegalMoveError(f"illegal promotion in {text}: the choices are {choices}")
        raise IllegalMoveError(f"illegal move {text} in {self.fen()}")

    def _legal_instance(self, move: Move) -> Move | None:
        # a move taken from a legal list carries its code: compare integers before whole moves
        if move.code >= 0 and move.code in self.legal_codes():
            return move
        return next((mv for mv in self._legal_list() if mv == move), None)

    def _play(self, move: Move) -> None:
        self.push_code(move.code)

    def push_code(self, m: int) -> None:
        """Play the move integer `m`, unchecked: a legal move, or one the engine's believed model
        plays although only a hidden roster allows it."""
        self._pos.make(m)
        self.move_stack.append(self.move_of(m))

    def pop(self) -> Move:
        if not self.move_stack:
            raise IndexError("no move to take back")
        self._pos.unmake()
        return self.move_stack.pop()

    def perft(self, depth: int) -> int:
        """Leaf nodes of the legal move tree `depth` plies deep."""
        return self._pos.perft(depth)

    def divide(self, depth: int) -> list[tuple[Move, int]]:
        """(move, leaf count below it) for each legal move, sorted by move text."""
        pos = self._pos
        out = []
        for m in pos.legal():
            pos.make(m)
            out.append((self.move_of(m), pos.perft(depth - 1)))
            pos.unmake()
        return sorted(out, key=lambda r: r[0].text)

    def effects(self, move: Move) -> list[tuple[str, Piece | None, Piece | None]]:
        """What the move changes, cell by cell: (square, piece before, piece after)."""
        board = self._pos.board
        return [(self.geometry.name(c), self._piece(board[c]), self._piece(new))
                for c, new in self._pos.changes(move.code)]

    def captures(self, move: Move) -> list[tuple[str, Piece]]:
        """Pieces the move removes from the board: enemy pieces and, under the Fortress rule, the
        mover itself."""
        effects = self.effects(move)
        out = [(sq, before) for sq, before, after in effects
               if before and before.side != self.turn and after != before]
        if move.code & DESTROY:
            out.append((self.geometry.name(move.from_cell), self.piece_at(move.from_cell)))
        return out

    # -- check and game end -----------------------------------------------------------------
    def is_check(self) -> bool:
        return self._pos.in_check()

    def is_attacked_by(self, side: int, cell: int | str) -> bool:
        if isinstance(cell, str):
            cell = self.cell(cell)
        return self._pos.is_attacked(cell, side)

    def king(self, side: int) -> str | None:
        k = self._pos.kings[side]
        return self.geometry.name(k) if k >= 0 else None

    def is_checkmate(self) -> bool:
        return self.is_check() and not self.legal_codes()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self.legal_codes()

    def has_insufficient_material(self, side: int) -> bool:
        """Can `side` never checkmate? (Also decides a flag fall: super16 R12.)"""
        return self.variant.insufficient_material(self._pos, side)

    def repetition_count(self) -> int:
        """How often the current position has occurred (same pieces, side, castling and capturable
        en passant)."""
        return self._pos.repetitions()

    def can_claim_repetition(self) -> bool:
        """The position occurred `repetition_claim` times, or a legal move makes it so."""
        claim = self.variant.repetition_claim
        if self.repetition_count() >= claim:
            return True
        pos = self._pos
        if not pos.move_could_repeat(claim):
            return False
        for m in pos.legal():
            pos.make(m)
            reached = pos.repetitions() >= claim
            pos.unmake()
            if reached:
                return True
        return False

    def _move_rule_reached(self, limit: int) -> bool:
        return self._pos.halfmove >= limit and bool(self.legal_codes())

    def can_claim_move_rule(self) -> bool:
        """The 50-move rule (100-move rule in super16, R11) may be claimed now or by the next move."""
        claim = self.variant.move_rule_claim
        if self._move_rule_reached(claim):
            return True
        pos = self._pos
        if pos.halfmove >= claim - 1:
            for m in pos.legal():
                pos.make(m)
                reached = self._move_rule_reached(claim)
                pos.unmake()
                if reached:
                    return True
        return False

    def can_claim_draw(self) -> bool:
        return self.can_claim_move_rule() or self.can_claim_repetition()

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """The game's end by the rules alone (checkmate, stalemate, automatic draws and, with
        `claim_draw`, the draws the side to move could claim), or None."""
        legal = self.legal_codes()
        if not legal and self.is_check():
            return Outcome(Termination.CHECKMATE, self.turn ^ 1)
        if self.is_insufficient_material():
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        if not legal:
            return Outcome(Termination.STALEMATE, None)
        if self._pos.halfmove >= self.variant.move_rule_auto:
            return Outcome(Termination.MOVE_RULE, None)
        if self.repetition_count() >= self.variant.repetition_auto:
            return Outcome(Termination.REPETITION, None)
        if claim_draw:
            if self.can_claim_move_rule():
                return Outcome(Termination.MOVE_RULE, None, claimed=True)
            if self.can_claim_repetition():
                return Outcome(Termination.REPETITION, None, claimed=True)
        return None

    def __str__(self) -> str:
        rows = []
        geo = self.geometry
        for r in range(geo.ranks - 1, -1, -1):
            cells = [self.piece_at(geo.cell(f, r)) for f in range(geo.files)]
            rows.append(f"{r + 1:>2} " + " ".join(p.symbol() if p else "." for p in cells))
        rows.append("   " + " ".join(chr(97 + f) for f in range(geo.files)))
        return "\n".join(rows)
