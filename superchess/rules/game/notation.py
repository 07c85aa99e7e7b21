"""Readable move notation (docs/notation.md): SAN-like text for every variant, written from a board
and a legal move, and read back through the board's legal moves.

The machine text (`Move.text`: `g1f3`, `b2d4xc3`, `@c5c9`) stays what records, the API and the
engine exchange; the readable text is derived from a move and its position only, through the board
contract (`effects`, `captures`, `piece_at`, the end of the game):

- piece letter (none for the pawn `P`), disambiguation only when needed (origin file, rank, or
  square, as SAN does), `x` for a capture, the destination, `=` and the promotion piece;
- castling `O-O` (towards the higher files) and `O-O-O`;
- the Fortress rule (super16): a capture that removes the capturer too is `xx` (`Nxxe5`);
- variants whose moves capture off their destination (`lists_captures`: Vanguard, InterGrid, Tiling
  Rider) name every other captured cell after the destination, `x` + cell, in path order
  (`Yg5xi6`, `Hi4xf4xg4`, `Qxd2xE2`); a move that does not leave its square is the piece, `@`, its
  square and what it captures (`A@e5xd7`, a Berserker's pass `E@b2`); a Wizard's swap is `W~e2`;
- an aggregate (four like pieces moving as one, tiling R6) is its letter doubled (`WWc9`);
- `+` when the move leaves the opponent in check, `#` when it wins the game (checkmate, a King taken).
  In multi-move turns the mark belongs to the move that ends the turn; the end-of-turn move `end` is
  written as that mark alone (usually the empty text), and a turn is one line: its moves joined by
  `,` (`turn_line`).

Every legal move's text is unique in its position and differs from every other legal move's machine
text, so a reader may take either form (`read`); where the short forms would clash (an InterGrid
point pawn on the B file against a point Bishop), the clashing moves are written in full (letter,
origin square, the rest), and as a last resort by their machine text.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core.contract import BaseBoard, IllegalMoveError, Move, Piece
from ..core.outcome import Termination
from ..core.turns import END_TURN
from ..registry import FAMILIES

PAWN = "P"  # the piece written without its letter
CHECK, MATE = "+", "#"
TURN_SEPARATOR = ","
_WINS = (Termination.CHECKMATE, Termination.KING_CAPTURED)
_MARKS = "+#"


@dataclass(frozen=True)
class _Parts:
    """What a move's readable text is made of: the piece (its letter, "" for the pawn), its origin
    (a file letter and a rank), what follows the origin, and whether the text names the origin
    already (castling, a move that stays on its square)."""
    letter: str
    origin: str
    body: str
    captures: bool
    fixed: bool

    def short(self, prefix: str) -> str:
        return self.body if self.fixed else self.letter + prefix + self.body

    def full(self) -> str:
        return self.body if self.fixed else (self.letter or PAWN) + self.origin + self.body


def _split(name: str) -> tuple[str, str]:
    """A cell name's file letter(s) and rank (`c15` -> `c`, `15`)."""
    digits = len(name) - len(name.lstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    return name[:digits], name[digits:]


def _parts(board: BaseBoard, move: Move, lists_captures: bool) -> _Parts:
    names = board.geometry.names
    origin, dest = names[move.from_cell], names[move.to_cell]
    piece = board.piece_at(origin)
    mover = board.turn
    group = board.cell(origin) != move.from_cell  # a cell named by its lower-left square: a unit moving
    effects = board.effects(move)
    landing = {cell for cell, _, after in effects if after is not None and after.side == mover}
    # an enemy piece removed or replaced by the mover's (not one that changes and stays the
    # opponent's: a royal successor, vanguard R-succession)
    captured = [cell for cell, before, after in effects
                if before is not None and before.side != mover and (after is None or after.side == mover)]
    promotion = f"={move.promotion}" if move.promotion else ""
    letter = piece.letter * 2 if group else "" if piece.letter == PAWN else piece.letter
    if move.from_cell == move.to_cell and not group:  # a pass, or a capture without moving
        return _Parts(letter, origin, f"{piece.letter}@{origin}" + _listed(_ordered(board, move, captured)),
                      bool(captured), True)
    if any(cell == dest and before is not None and before.side == mover for cell, before, _ in effects):
        return _Parts(letter, origin, f"~{dest}{promotion}", False, False)  # a swap with a friend
    if _castles(effects, origin, piece, mover):
        side = "O-O" if _split(dest)[0] > _split(origin)[0] else "O-O-O"
        return _Parts(letter, origin, side + (_listed(captured) if lists_captures else ""), bool(captured), True)
    if not lists_captures:
        take = "xx" if captured and not landing else "x" if captured else ""  # xx: the Fortress rule
        return _Parts(letter, origin, f"{take}{dest}{promotion}", bool(captured), False)
    on_dest = {dest} | landing
    extra = [cell for cell in _ordered(board, move, captured) if cell not in on_dest]
    take = "x" if len(extra) < len(captured) else ""
    return _Parts(letter, origin, f"{take}{dest}{_listed(extra)}{promotion}", bool(captured), False)


def _castles(effects: list[tuple[str, Piece | None, Piece | None]], origin: str, piece: Piece, mover: int) -> bool:
    """Does another piece of the mover, of another type, move too (a castling Rook)?"""
    return any(cell != origin and before is not None and before.side == mover and before.letter != piece.letter
               and after != before for cell, before, after in effects)


def _ordered(board: BaseBoard, move: Move, captured: list[str]) -> list[str]:
    """The captured cells in path order: those the machine text names (`via`) first."""
    via = [board.geometry.names[c] for c in move.via]
    return [c for c in via if c in captured] + [c for c in captured if c not in via]


def _listed(cells: Iterable[str]) -> str:
    return "".join("x" + c for c in cells)


def _disambiguated(parts: _Parts, rivals: list[_Parts]) -> str:
    """The SAN prefix: the origin's file, rank or both, as far as needed to tell the move from its
    rivals (same piece, same rest of the text); a pawn's capture always names its file."""
    file, rank = _split(parts.origin)
    pawn_file = not parts.letter and parts.captures
    others = [_split(r.origin) for r in rivals]
    if pawn_file:
        others = [o for o in others if o[0] == file]
        return file + (rank if others else "")
    if not others:
        return ""
    same_file = any(f == file for f, _ in others)
    same_rank = any(r == rank for _, r in others)
    return (file if same_rank or not same_file else "") + (rank if same_file else "")


def _forms(board: BaseBoard, moves: Iterable[Move] | None = None) -> dict[str, tuple[str, str]]:
    """Machine text -> (readable text without its mark, the same with its whole origin square) of
    `moves` (default: every legal move in the board's position; `end` not included); the readable
    texts are unique among them and none is another of their machine texts."""
    lists_captures = _lists_captures(board)
    parts = {mv.text: _parts(board, mv, lists_captures)
             for mv in (board.legal_moves if moves is None else moves) if mv.from_cell >= 0}
    by_rest: dict[tuple[str, str], list[_Parts]] = {}
    for p in parts.values():
        if not p.fixed:
            by_rest.setdefault((p.letter, p.body), []).append(p)
    texts = {}
    for text, p in parts.items():
        rivals = [] if p.fixed else [r for r in by_rest[(p.letter, p.body)] if r is not p]
        texts[text] = p.short(_disambiguated(p, rivals))
    texts = _unique(texts, parts)
    return {m: (t, parts[m].full()) for m, t in texts.items()}


def move_texts(board: BaseBoard) -> dict[str, str]:
    """Machine text -> readable text (without its mark) of every legal move in the board's position
    (`end` not included)."""
    return {m: t for m, (t, _) in _forms(board).items()}


def _unique(texts: dict[str, str], parts: dict[str, _Parts]) -> dict[str, str]:
    """The texts with every clash written out in full (then, if that clashes too, as machine text):
    a clash is two moves with one text, or a text equal to another move's machine text."""
    for fallback in (lambda m: parts[m].full(), lambda m: m):
        seen: dict[str, list[str]] = {}
        for machine, text in texts.items():
            seen.setdefault(text, []).append(machine)
        clashing = {m for ms in seen.values() if len(ms) > 1 for m in ms}
        clashing |= {m for m, text in texts.items() if text in texts and text != m}
        if not clashing:
            break
        texts = {m: fallback(m) if m in clashing else t for m, t in texts.items()}
    return texts


def plain_text(board: BaseBoard, move: Move) -> str:
    """The readable text of the legal `move` in the board's position, without its check mark (`end`:
    the empty text)."""
    if move.from_cell < 0:
        return ""
    if _lists_captures(board):
        return move_texts(board)[move.text]
    # Without listed captures a text is the piece, its origin (castling, a move in place) or its
    # destination and what follows: only moves sharing the origin or the destination can write the
    # same text, and no readable text can be a machine text, so those moves decide this one's.
    near = [mv for mv in board.legal_moves if mv.to_cell == move.to_cell or mv.from_cell == move.from_cell]
    return _forms(board, near)[move.text][0]


def _lists_captures(board: BaseBoard) -> bool:
    return FAMILIES[board.variant.family].capabilities.lists_captures


def mark(board: BaseBoard, mover: int) -> str:
    """The mark of the move `mover` just played on `board`: `#` when it won the game, `+` when the
    opponent is in check, and nothing mid-turn (the move that ends the turn carries the mark)."""
    if board.turn == mover or board.moves_in_turn:
        return ""
    king = board.king(board.turn)
    check = king is not None and board.is_check()
    if king is None or check:
        outcome = board.outcome()
        if outcome and outcome.winner == mover and outcome.termination in _WINS:
            return MATE
    return CHECK if check else ""


def readable(board: BaseBoard, move: Move) -> str:
    """The readable text of the legal `move` with its mark; the board is left as it was."""
    text = played_text(board, move)
    board.pop()
    return text


def played_text(board: BaseBoard, move: Move) -> str:
    """Play the legal `move` on `board` and return its readable text with its mark."""
    text, mover = plain_text(board, move), board.turn
    board.push(move)
    return text + mark(board, mover)


def _played(board: BaseBoard, moves: list[Move]) -> list[tuple[str, bool]]:
    """(readable text, whether it ended its turn) of each of `moves` played in turn from the board's
    position (on a copy)."""
    replay = board.copy()
    out = []
    for mv in moves:
        mover = replay.turn
        out.append((played_text(replay, mv), replay.turn != mover))
    return out


def _turn_lines(played: list[tuple[str, bool]]) -> list[str]:
    turns: list[list[str]] = [[]]
    for text, ends in played:
        turns[-1].append(text)
        if ends:
            turns.append([])
    return [turn_line(t) for t in turns if t]


def _history(board: BaseBoard) -> list[tuple[str, bool]]:
    """`_played` of the board's history, from its start."""
    start = board.copy()
    for _ in board.move_stack:
        start.pop()
    return _played(start, list(board.move_stack))


def readable_moves(board: BaseBoard) -> list[str]:
    """The readable text of every move of the board's history (`move_stack`, `end` moves included:
    their mark alone), in order."""
    return [text for text, _ in _history(board)]


def readable_turns(board: BaseBoard) -> list[str]:
    """The board's history as turns, each on one line (`turn_line`); the last may be unfinished."""
    return _turn_lines(_history(board))


def line_turns(board: BaseBoard, moves: list[Move]) -> list[str]:
    """The legal line `moves` from the board's position as turns, each on one line (an engine's
    best line); the board is left as it was."""
    return _turn_lines(_played(board, moves))


def read(board: BaseBoard, text: str) -> Move:
    """The legal move written `text` in readable or machine text (marks `+`/`#` ignored, `0-0` taken
    for `O-O`, the empty text or a mark alone for `end`); IllegalMoveError when no legal move or more
    than one is written so."""
    word = text.strip().rstrip(_MARKS).replace("0-0", "O-O")
    legal = {mv.text: mv for mv in board.legal_moves}
    if not word and END_TURN in legal:  # the end of a turn is written as its mark alone
        return legal[END_TURN]
    if word in legal:
        return legal[word]
    forms = _forms(board)
    found = [m for m, (t, _) in forms.items() if t == word] or [m for m, (_, f) in forms.items() if f == word]
    if len(found) > 1:
        raise IllegalMoveError(f"{text.strip()!r} is ambiguous here: it could be {' or '.join(found)}")
    if found:
        return legal[found[0]]
    try:
        return board.parse_move(word)  # the machine text's own leniency (a promotion's default letter)
    except IllegalMoveError:
        raise IllegalMoveError(f"no legal move is written {text.strip()!r} in {board.fen()}") from None


def turn_line(texts: list[str]) -> str:
    """A multi-move turn on one line: its moves' readable texts joined by `,`; the text of its `end`
    (its mark alone, if any) joins the last move's."""
    words: list[str] = []
    for t in texts:
        if words and t in ("", CHECK, MATE):
            words[-1] = words[-1].rstrip(_MARKS) + t
        elif t:
            words.append(t)
    return TURN_SEPARATOR.join(words)
