"""Tiling Rider Chess (../shared/rules/tiling-rider.md, rulings R1-R16): the rules over a small,
explicit, immutable state.

Pure module: no Position, no tables, no I/O. It is the test-only oracle that the core's Tiling Rider
(superchess/rules/tiling/) is checked against (tests/rules/tiling/), so
clarity wins over speed; every function returns a new `State`.

Board (section 1)
    18 files ``a``..``r`` x 16 ranks. A square is an integer ``sq = rank0 * 18 + file0``
    (``square('a1') == 0``, ``square('r16') == 287``). Units are the fixed 2x2 blocks
    ``U(i, j)`` (i = 0..8, j = 0..7); a unit is named by its lower-left and upper-right squares
    (``c5-d6``). Orange units (i + j even) hold two vertical tiles, blue units two horizontal ones
    (R3). ``partner(sq)`` is the other square of the tile of sq.

State
    ``board`` is a 288-character string: ``.`` empty, ``WFGNK`` White, ``wfgnk`` Black; a giant
    King writes its letter on each of its four squares (always one whole unit). The per-turn
    bookkeeping (4.1) is kept by square, because a piece is identified by where it stands:
    ``moved`` = squares of pieces that moved individually this turn, ``done`` = squares of pieces
    that took part in an aggregate move (frozen for the rest of the turn, R10), ``king_moved``.
    ``start`` is the state at the start of the turn, so `undo` (R12) replays ``made[:-1]`` from it
    and the text form can be "start position + moves so far".

Turn (4.1, R9-R13)
    ``allowance`` is the maximum number of moves of this turn; ``exact`` marks the two opening
    turns (``4!`` / ``8!``) that must use all of it, unless no further legal move exists (R13).
    After an exact White turn Black gets ``8!``, after an exact Black turn White gets ``9``; after
    any other turn of n moves the opponent gets ``n + 1`` (R11). `moves_in_turn` lists the moves
    still possible now; `play` makes one; `can_end_turn` / `end_turn` close the turn; `undo`
    takes back the last move of the unfinished turn.

Text (1.1, R16)
    Position text at a turn boundary is the spec's FEN. Mid-turn, `text` writes the FEN of the
    turn's start followed by `` | `` and the moves made so far (``... w 9 0 3 | c7c6 @c5c9``);
    `parse` replays them, so the allowance, the moves made and who moved are all restored.
    Moves: ``c7c6`` (an elongated move names its final square), ``i1g1`` (King: lower-left squares
    of the units), ``@c5c9`` (aggregate: lower-left squares of the units).

Checkmate (4.3) is "in check at the start of the turn and no legal whole turn exists". A turn is a
sequence of up to ``allowance`` moves, so `legal_turn` searches sequences depth-first with a
transposition set and a node budget. When the budget runs out the answer is *unknown*: `legal_turn`
raises `SearchLimit`, and `is_checkmate` then answers False (a game is never lost on an unfinished
search); every test position is searched exhaustively. Stalemate needs no search: a player not in
check who has any legal first move can end the turn after it (non-exact turns) or keeps going until
no move is left (R13), so stalemate = not in check and no legal move now.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import NamedTuple

FILES = 18
RANKS = 16
SIZE = FILES * RANKS
UNITS_X = FILES // 2  # 9 units across
UNITS_Y = RANKS // 2  # 8 units up
FILE_LETTERS = "abcdefghijklmnopqr"

EMPTY = "."
SMALL = "WFGN"  # the four small piece types (upper case = White)
KING = "K"

# Basic move/capture patterns of the small pieces (3.1). All symmetric, so the same vectors serve
# both sides and, reversed, find the attackers of a square.
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
LEAPS = {"W": ORTH, "F": DIAG, "G": ORTH + DIAG, "N": KNIGHT}

# Aggregates (3.2): the same vectors on the 9x8 grid of units, repeated. All four are riders; the
# Nightrider's "path" is the units landed on before the last.
RIDES = {"W": ORTH, "F": DIAG, "G": ORTH + DIAG, "N": KNIGHT}
RIDER_NAMES = {"W": "Rook", "F": "Bishop", "G": "Queen", "N": "Nightrider"}

START_FEN = ("ngngngngkk2ngngng/wfwfwfwfkk2wfwfwf/ngngngngngngngngng/wfwfwfwfwfwfwfwfwf/18/18/18/18/18/18/18/18/"
             "WFWFWFWFWFWFWFWFWF/NGNGNGNGNGNGNGNGNG/WFWFWFWFKK2WFWFWF/NGNGNGNGKK2NGNGNG w 4! 0 1")

# Draws (4.3, R15): threefold repetition at turn boundaries; 50 turns of each player = 100 turns
# without a capture.
REPETITIONS = 3
QUIET_TURNS = 100


class TilingError(ValueError):
    """Bad position text, bad move text, or an illegal move / turn end."""


class SearchLimit(RuntimeError):
    """The whole-turn search ran out of its node budget before deciding."""


# ---------------------------------------------------------------- geometry

def square(name: str) -> int:
    f = FILE_LETTERS.find(name[:1])
    if f < 0 or not name[1:].isdigit() or not 1 <= int(name[1:]) <= RANKS:
        raise TilingError(f"bad square {name!r}")
    return (int(name[1:]) - 1) * FILES + f


def square_name(sq: int) -> str:
    return FILE_LETTERS[sq % FILES] + str(sq // FILES + 1)


def coords(sq: int) -> tuple[int, int]:
    return sq % FILES, sq // FILES


def at(f: int, r: int) -> int | None:
    """Square at 0-based (file, rank), or None off the board."""
    return r * FILES + f if 0 <= f < FILES and 0 <= r < RANKS else None


def unit_of(sq: int) -> tuple[int, int]:
    f, r = coords(sq)
    return f // 2, r // 2


def unit_squares(i: int, j: int) -> tuple[int, int, int, int]:
    """The four squares of U(i, j), lower-left first."""
    ll = 2 * j * FILES + 2 * i
    return ll, ll + 1, ll + FILES, ll + FILES + 1


def unit_name(i: int, j: int) -> str:
    s = unit_squares(i, j)
    return f"{square_name(s[0])}-{square_name(s[3])}"


def unit_colour(i: int, j: int) -> str:
    return "orange" if (i + j) % 2 == 0 else "blue"


def partner(sq: int) -> int:
    """The other square of sq's tile: vertical tiles in orange units, horizontal in blue (R3)."""
    f, r = coords(sq)
    if unit_colour(*unit_of(sq)) == "orange":
        return sq + FILES if r % 2 == 0 else sq - FILES
    return sq + 1 if f % 2 == 0 else sq - 1


def tile(sq: int) -> frozenset[int]:
    return frozenset((sq, partner(sq)))


# ---------------------------------------------------------------- moves and state

class Move(NamedTuple):
    """``kind`` is ``piece`` (a small piece alone), ``agg`` (an aggregate) or ``king``; for agg and
    king moves ``frm``/``to`` are the lower-left squares of the origin and destination units."""
    kind: str
    frm: int
    to: int

    @property
    def text(self) -> str:
        t = square_name(self.frm) + square_name(self.to)
        return "@" + t if self.kind == "agg" else t

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class State:
    board: str
    side: int = 0                      # 0 White, 1 Black: the player of the current turn
    allowance: int = 4                 # most moves this turn
    exact: bool = True                 # the opening turns: exactly `allowance` moves (R11, R13)
    quiet: int = 0                     # whole turns since the last capture, at the turn's start
    number: int = 1                    # turn number; grows after Black's turn
    made: tuple[Move, ...] = ()        # moves made so far in this turn
    moved: frozenset[int] = frozenset()   # squares of pieces that moved individually this turn
    done: frozenset[int] = frozenset()    # squares of pieces that took part in an aggregate move
    king_moved: bool = False
    captured: bool = False             # some move of this turn captured
    start: State | None = field(default=None, compare=False, repr=False)  # the state at turn start
    history: tuple = field(default=(), compare=False, repr=False)  # boundary keys of earlier turns

    def piece_at(self, sq: int) -> str:
        return self.board[sq]


def side_of(letter: str) -> int | None:
    if letter == EMPTY:
        return None
    return 0 if letter.isupper() else 1


def king_unit(state: State, side: int) -> tuple[int, int]:
    sq = state.board.find("K" if side == 0 else "k")
    if sq < 0:
        raise TilingError("no King")
    return unit_of(sq)


def aggregate_at(board: str, i: int, j: int) -> str | None:
    """The letter of the aggregate filling U(i, j) (four like small pieces, 3.2), else None."""
    a, b, c, d = (board[s] for s in unit_squares(i, j))
    if a == b == c == d and a.upper() in SMALL:
        return a
    return None


def aggregates(state: State, side: int | None = None) -> list[tuple[int, int, str]]:
    """All aggregates on the board as (i, j, letter): recognition is automatic (R6)."""
    out = []
    for j in range(UNITS_Y):
        for i in range(UNITS_X):
            a = aggregate_at(state.board, i, j)
            if a and (side is None or side_of(a) == side):
                out.append((i, j, a))
    return out


def _unit_empty(board: str, i: int, j: int) -> bool:
    return all(board[s] == EMPTY for s in unit_squares(i, j))


# ---------------------------------------------------------------- attacks and check

def _small_attacks(board: str, sq: int, by: int) -> bool:
    """Is sq a basic capture target of a small piece of side `by`? (Patterns are symmetric, so
    the attackers are found by leaping back from sq; elongations never attack, 4.2.)"""
    f, r = coords(sq)
    for t in SMALL:
        letter = t if by == 0 else t.lower()
        for dx, dy in LEAPS[t]:
            s = at(f + dx, r + dy)
            if s is not None and board[s] == letter:
                return True
    return False


def _unit_reached(board: str, i: int, j: int, by: int) -> bool:
    """Is U(i, j) reached by the King or an aggregate of side `by`? (Unit-wide attacks, 4.2.)"""
    king = board.find("K" if by == 0 else "k")
    if king >= 0:
        ki, kj = unit_of(king)
        if abs(ki - i) + abs(kj - j) == 1:  # the giant wazir attacks the units beside it
            return True
    # Walk out from the unit: the first non-empty unit on each line is the only one whose
    # aggregate can reach it (R6: every unit passed must be empty).
    for t in SMALL:
        letter = t if by == 0 else t.lower()
        for di, dj in RIDES[t]:
            ui, uj = i + di, j + dj
            while 0 <= ui < UNITS_X and 0 <= uj < UNITS_Y:
                if not _unit_empty(board, ui, uj):
                    if aggregate_at(board, ui, uj) == letter:
                        return True
                    break
                ui, uj = ui + di, uj + dj
    return False


def _unit_attacked(board: str, i: int, j: int, by: int) -> bool:
    """Is some square of U(i, j) attacked by side `by` (4.2)?"""
    return (any(_small_attacks(board, s, by) for s in unit_squares(i, j))
            or _unit_reached(board, i, j, by))


def attacked(state: State, sq: int, by: int) -> bool:
    """Is square sq attacked by side `by`? (Aggregate reach and King adjacency are unit-wide.)"""
    return _small_attacks(state.board, sq, by) or _unit_reached(state.board, *unit_of(sq), by)


def is_check(state: State, side: int | None = None) -> bool:
    """Is `side`'s King (default: the player of the turn) attacked on any of its squares (4.2)?"""
    side = state.side if side is None else side
    return _unit_attacked(state.board, *king_unit(state, side), 1 - side)


# ---------------------------------------------------------------- move generation

def _piece_moves(state: State, sq: int) -> list[Move]:
    """Individual moves of the small piece on sq (3.1, R5): basic targets plus elongations."""
    board = state.board
    side = side_of(board[sq])
    f, r = coords(sq)
    out: dict[int, Move] = {}
    for dx, dy in LEAPS[board[sq].upper()]:
        t = at(f + dx, r + dy)
        if t is None:
            continue
        occ = board[t]
        if occ == EMPTY:
            out[t] = Move("piece", sq, t)
            # Elongation: only through an empty basic target on another tile, onto an empty
            # partner; never a capture (R5).
            p = partner(t)
            if p != sq and board[p] == EMPTY and partner(sq) != t:
                out[p] = Move("piece", sq, p)
        elif occ.upper() != KING and side_of(occ) != side:
            out[t] = Move("piece", sq, t)  # captures that one piece only
    return list(out.values())


def _aggregate_moves(state: State, i: int, j: int) -> list[Move]:
    """Rider moves of the aggregate on U(i, j) (3.2, R6, R7)."""
    board = state.board
    letter = aggregate_at(board, i, j)
    side = side_of(letter)
    frm = unit_squares(i, j)[0]
    out = []
    for di, dj in RIDES[letter.upper()]:
        ui, uj = i + di, j + dj
        while 0 <= ui < UNITS_X and 0 <= uj < UNITS_Y:
            occupants = [board[s] for s in unit_squares(ui, uj)]
            if all(o == EMPTY for o in occupants):
                out.append(Move("agg", frm, unit_squares(ui, uj)[0]))
            else:
                if not any(o != EMPTY and (o.upper() == KING or side_of(o) == side) for o in occupants):
                    out.append(Move("agg", frm, unit_squares(ui, uj)[0]))  # captures all there
                break
            ui, uj = ui + di, uj + dj
    return out


def _king_moves(state: State, side: int) -> list[Move]:
    """One orthogonal unit step into a unit with no friendly piece and no King (3.3, R4, R8)."""
    board = state.board
    i, j = king_unit(state, side)
    out = []
    for di, dj in ORTH:
        ui, uj = i + di, j + dj
        if not (0 <= ui < UNITS_X and 0 <= uj < UNITS_Y):
            continue
        occupants = [board[s] for s in unit_squares(ui, uj)]
        if any(o != EMPTY and (side_of(o) == side or o.upper() == KING) for o in occupants):
            continue
        out.append(Move("king", unit_squares(i, j)[0], unit_squares(ui, uj)[0]))
    return out


def pseudo_moves(state: State) -> Iterator[Move]:
    """Moves allowed by movement and the per-turn limits, before the King-safety test (lazily)."""
    if len(state.made) >= state.allowance:
        return
    side = state.side
    board = state.board
    for sq in range(SIZE):
        c = board[sq]
        # A piece moves individually at most once and never after an aggregate move (4.1).
        if (c != EMPTY and side_of(c) == side and c.upper() in SMALL
                and sq not in state.moved and sq not in state.done):
            yield from _piece_moves(state, sq)
    for i, j, _ in aggregates(state, side):
        # Form-then-move (R10): individually moved pieces may still join; aggregate movers may not.
        if not any(s in state.done for s in unit_squares(i, j)):
            yield from _aggregate_moves(state, i, j)
    if not state.king_moved:
        yield from _king_moves(state, side)


def _apply(state: State, move: Move) -> State:
    """Make `move` without any legality test (the caller has generated it)."""
    b = list(state.board)
    moved, done = set(state.moved), set(state.done)
    captured = state.captured
    king_moved = state.king_moved
    if move.kind == "piece":
        captured |= b[move.to] != EMPTY
        b[move.to], b[move.frm] = b[move.frm], EMPTY
        moved.discard(move.frm)
        moved.add(move.to)
    else:
        src = unit_squares(*unit_of(move.frm))
        dst = unit_squares(*unit_of(move.to))
        letters = [b[s] for s in src]
        captured |= any(b[s] != EMPTY for s in dst)
        for s in src:
            b[s] = EMPTY
        for s, c in zip(dst, letters):
            b[s] = c
        if move.kind == "agg":
            moved.difference_update(src)
            done.update(dst)
        else:
            king_moved = True
    return replace(state, board="".join(b), made=state.made + (move,), moved=frozenset(moved),
                   done=frozenset(done), king_moved=king_moved, captured=captured,
                   start=state.start if state.made else state)


def iter_moves(state: State) -> Iterator[Move]:
    """The moves the player may make now (4.1, 4.2), lazily: a King move must not end in check;
    any other move must not leave the King in check unless it was in check just before (R9)."""
    before = is_check(state)
    for m in pseudo_moves(state):
        if (m.kind == "king" or not before) and is_check(_apply(state, m)):
            continue
        yield m


def moves_in_turn(state: State) -> list[Move]:
    """`iter_moves` as a list. Moves that lead nowhere (no legal turn end after them) are still
    offered; `end_turn` refuses (R12)."""
    return list(iter_moves(state))


def parse_move(state: State, text: str) -> Move:
    """The legal move whose text is `text` (parsed through the legal list)."""
    for m in moves_in_turn(state):
        if m.text == text:
            return m
    raise TilingError(f"illegal or unknown move {text!r}")


def play(state: State, move: Move | str) -> State:
    """Make one move of the current turn; refuses illegal moves."""
    if isinstance(move, str):
        return _apply(state, parse_move(state, move))
    if move not in moves_in_turn(state):
        raise TilingError(f"illegal move {move.text}")
    return _apply(state, move)


def undo(state: State) -> State:
    """Take back the last move of the unfinished turn (R12)."""
    if not state.made:
        raise TilingError("no move of this turn to take back")
    s = state.start
    for m in state.made[:-1]:
        s = _apply(s, m)
    return s


def can_end_turn(state: State) -> bool:
    """At least one move, the King not in check, and in the exact opening turns the full count
    unless no further legal move exists (4.1, 4.2, R13)."""
    if not state.made or is_check(state):
        return False
    if state.exact and len(state.made) < state.allowance:
        return next(iter_moves(state), None) is None
    return True


def next_allowance(state: State) -> tuple[int, bool]:
    """The opponent's allowance after this turn (R11): 4! -> 8! -> 9, then moves made + 1."""
    if state.exact:
        return (8, True) if state.side == 0 else (9, False)
    return len(state.made) + 1, False


def boundary_key(state: State) -> tuple:
    """What makes two turn-boundary positions "the same" for repetition (4.3)."""
    return state.board, state.side, state.allowance, state.exact


def end_turn(state: State) -> State:
    """Close the turn; the opponent's turn starts."""
    if not can_end_turn(state):
        raise TilingError("the turn cannot end here")
    return close_turn(state)


def close_turn(state: State) -> State:
    """The opponent's turn start after this turn, without asking whether the turn may end here."""
    allowance, exact = next_allowance(state)
    start = state.start
    return State(board=state.board, side=1 - state.side, allowance=allowance, exact=exact,
                 quiet=0 if state.captured else state.quiet + 1,
                 number=state.number + (1 if state.side == 1 else 0),
                 history=start.history + (boundary_key(start),))


def play_turn(state: State, texts: str | list[str]) -> State:
    """Play a whole turn given as its move texts (``"c7c6 @c5c9"``) and end it."""
    if isinstance(texts, str):
        texts = texts.split()
    for t in texts:
        state = play(state, t)
    return end_turn(state)


# ---------------------------------------------------------------- whole turns: mate, stalemate, draws

def legal_turn(state: State, budget: int = 5_000) -> tuple[Move, ...] | None:
    """Some sequence of moves continuing the current turn up to a legal turn end, or None when no
    such sequence exists. Depth-first over moves (captures and King moves first, since in check
    they are the likely answers), each reached position searched once. Raises `SearchLimit` after
    `budget` positions: the answer is then unknown."""
    seen: set = set()
    nodes = 0

    def key(s: State) -> tuple:
        return s.board, s.moved, s.done, s.king_moved, len(s.made)

    def search(s: State) -> tuple[Move, ...] | None:
        nonlocal nodes
        if can_end_turn(s):
            return s.made
        children = []
        for m in moves_in_turn(s):
            c = _apply(s, m)
            if can_end_turn(c):  # one move short of the end: look at all of them first
                return c.made
            children.append((m.kind != "king" and s.board[m.to] == EMPTY, c))
        children.sort(key=lambda x: x[0])
        for _, c in children:
            k = key(c)
            if k in seen:
                continue
            seen.add(k)
            nodes += 1
            if nodes > budget:
                raise SearchLimit(f"no decision within {budget} positions")
            found = search(c)
            if found is not None:
                return found
        return None

    found = search(state)
    return None if found is None else found[len(state.made):]


def is_checkmate(state: State, budget: int = 5_000) -> bool:
    """At the start of a turn: in check and no legal whole turn (4.3). False when undecided."""
    if state.made or not is_check(state):
        return False
    try:
        return legal_turn(state, budget) is None
    except SearchLimit:
        return False


def is_stalemate(state: State) -> bool:
    """At the start of a turn: not in check and no legal move (4.3). No search needed: after any
    legal first move the turn can end (or R13 ends it once nothing is left)."""
    return not state.made and not is_check(state) and not moves_in_turn(state)


def outcome(state: State) -> tuple[str, int | None] | None:
    """At a turn boundary: ("checkmate", winner), ("stalemate" | "repetition" | "turn_rule", None)
    or None while the game goes on. Draw by agreement is the players' business, not the rules'."""
    if state.made:
        return None
    if is_checkmate(state):
        return "checkmate", 1 - state.side
    if is_stalemate(state):
        return "stalemate", None
    if state.history.count(boundary_key(state)) + 1 >= REPETITIONS:
        return "repetition", None
    if state.quiet >= QUIET_TURNS:
        return "turn_rule", None
    return None


# ---------------------------------------------------------------- text

def _placement(board: str) -> str:
    rows = []
    for r in range(RANKS - 1, -1, -1):
        row, run = "", 0
        for f in range(FILES):
            c = board[r * FILES + f]
            if c == EMPTY:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += c
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows)


def fen(state: State) -> str:
    """The FEN of the turn's start position (1.1)."""
    s = state.start if state.made else state
    allowance = f"{s.allowance}!" if s.exact else str(s.allowance)
    return f"{_placement(s.board)} {'wb'[s.side]} {allowance} {s.quiet} {s.number}"


def text(state: State) -> str:
    """FEN of the turn's start, then `` | `` and the moves made so far when there are any."""
    t = fen(state)
    return t + " | " + " ".join(m.text for m in state.made) if state.made else t


def _parse_placement(placement: str) -> str:
    rows = placement.split("/")
    if len(rows) != RANKS:
        raise TilingError(f"placement needs {RANKS} ranks, got {len(rows)}")
    board = [EMPTY] * SIZE
    for n, row in enumerate(rows):
        r = RANKS - 1 - n
        f, k = 0, 0
        while k < len(row):
            if row[k].isdigit():
                e = k
                while e < len(row) and row[e].isdigit():
                    e += 1
                f += int(row[k:e])
                k = e
                continue
            if row[k].upper() not in SMALL + KING:
                raise TilingError(f"unknown piece letter {row[k]!r}")
            if f >= FILES:
                raise TilingError(f"rank {r + 1} is longer than {FILES} files")
            board[r * FILES + f] = row[k]
            f += 1
            k += 1
        if f != FILES:
            raise TilingError(f"rank {r + 1} has {f} files, not {FILES}")
    b = "".join(board)
    for letter in "Kk":
        squares = [s for s in range(SIZE) if b[s] == letter]
        if len(squares) != 4 or sorted(squares) != list(unit_squares(*unit_of(squares[0]))):
            raise TilingError(f"the {'White' if letter == 'K' else 'Black'} King must fill exactly one unit")
    return b


def parse(source: str = START_FEN) -> State:
    """A State from `text` output (or a plain FEN)."""
    head, _, tail = source.partition("|")
    fields = head.split()
    if len(fields) != 5:
        raise TilingError("position text needs: placement side allowance quiet-turns turn-number")
    placement, side, allowance, quiet, number = fields
    if side not in ("w", "b"):
        raise TilingError(f"side must be w or b, not {side!r}")
    exact = allowance.endswith("!")
    digits = allowance.rstrip("!")
    if not digits.isdigit() or int(digits) < 1 or not quiet.isdigit() or not number.isdigit() or int(number) < 1:
        raise TilingError("allowance, quiet-turn count and turn number must be numbers (allowance >= 1)")
    state = State(board=_parse_placement(placement), side="wb".index(side), allowance=int(digits),
                  exact=exact, quiet=int(quiet), number=int(number))
    for t in tail.split():
        state = play(state, t)
    return state


def start() -> State:
    return parse(START_FEN)


def position(pieces: dict[str, str], side: str = "w", allowance: str = "9", kings: tuple[str, str] = ("i1", "i15"),
             quiet: int = 0, number: int = 5) -> State:
    """A position with only `pieces` ({square: letter}) and the giant Kings on the units whose
    lower-left squares are `kings` (White, Black). Built through the text form."""
    board = [EMPTY] * SIZE
    for letter, ll in zip("Kk", kings):
        for s in unit_squares(*unit_of(square(ll))):
            board[s] = letter
    for name, letter in pieces.items():
        assert board[square(name)] == EMPTY, name
        board[square(name)] = letter
    return parse(f"{_placement(''.join(board))} {side} {allowance} {quiet} {number}")


def random_position(rng: random.Random) -> State:
    """A random position at a turn boundary, White to move: the two giant Kings on units that do not
    touch, 4 to 14 small pieces, up to two aggregates, and Black's King not in check."""
    while True:
        wk, bk = rng.sample([(i, j) for i in range(UNITS_X) for j in range(UNITS_Y)], 2)
        if abs(wk[0] - bk[0]) + abs(wk[1] - bk[1]) <= 1:
            continue
        board = [EMPTY] * SIZE
        for letter, u in zip("Kk", (wk, bk)):
            for q in unit_squares(*u):
                board[q] = letter
        free = [q for q in range(SIZE) if board[q] == EMPTY]
        for q in rng.sample(free, rng.randint(4, 14)):
            board[q] = rng.choice("WFGNwfgn")
        for _ in range(rng.randint(0, 2)):  # an aggregate or two
            u = (rng.randrange(UNITS_X), rng.randrange(UNITS_Y))
            if u not in (wk, bk):
                letter = rng.choice("WFGNwfgn")
                for q in unit_squares(*u):
                    board[q] = letter
        s = State(board="".join(board), allowance=rng.randint(1, 4), exact=False)
        if not is_check(s, 1):  # the opponent's King is safe at a turn boundary
            return s


def diagram(state: State) -> str:
    """The board as in the rules file (rank 16 on top), for messages and debugging."""
    lines = []
    for r in range(RANKS - 1, -1, -1):
        lines.append(f"{r + 1:2d}  " + " ".join(state.board[r * FILES: (r + 1) * FILES]))
    lines.append("    " + " ".join(FILE_LETTERS))
    return "\n".join(lines)
