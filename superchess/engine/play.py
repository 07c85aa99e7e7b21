"""`choose_move`: the engine's entry point for the server (plain arguments, so it can run in a
worker process pool), and the helpers that set up a searchable position from a game record.

In Private mode the engine searches a believed model (its own roster, the opponent's assumed
default): past moves and root moves that the model calls illegal are still played, by finding them
among the mover's pseudo-legal moves (which depend only on its own roster) or by building the move
integer from the squares (`lenient_move`).
"""
from __future__ import annotations

import random
import time
from collections import OrderedDict

from ..rules.board import _MOVE_RE, Board, IllegalMoveError
from ..rules.encoding import DESTROY, DOUBLE, EP, PROMO_SHIFT, TO_SHIFT
from ..rules.program import Roster
from ..rules.tables import NO_CELLS
from ..rules.variant import STANDALONE_BOARDS
from . import native_search
from .evaluate import evaluate, evaluator_for
from .intergrid_search import choose_intergrid_move
from .levels import get_level
from .search import Limits, Result, Searcher, TranspositionTable
from .tiling_search import choose_tiling_move
from .timing import budget

_TT_CACHE: OrderedDict = OrderedDict()  # (variant, rosters, size) -> TranspositionTable, per process
_TT_KEEP = 2


def make_board(variant: str, start_fen: str | None, rosters, core: str | None = None) -> Board:
    """A board for `variant` from a FEN (None: the start array) and JSON rosters (None or `{}`:
    default), on `core` ("python", "native" or None: as SUPERCHESS_CORE selects)."""
    rs = None
    if rosters is not None:
        rs = tuple(r if isinstance(r, Roster) else Roster.from_data(r or {}) for r in rosters)
    return Board(variant, start_fen, rs, core=core)


def replay(variant: str, start_fen: str | None, moves: list[str], rosters) -> Board:
    """The board after `moves` under the rosters the engine believes in. A move only the
    opponent's hidden roster allows (Private games) is played leniently on the Python core
    (`lenient_move`), which then replays the whole game."""
    board = make_board(variant, start_fen, rosters)
    try:
        for text in moves:
            board.push_text(text)
        return board
    except IllegalMoveError:
        board = make_board(variant, start_fen, rosters, core="python")
    for text in moves:
        board._push_code(lenient_move(board, text))
    return board


def move_text(board: Board, m: int) -> str:
    return board._move(m).text


def legal_by_text(board: Board) -> dict[str, int]:
    return {move_text(board, m): m for m in board._pos.legal()}


def lenient_move(board: Board, text: str) -> int:
    """The move integer for `text` in the board's position: the legal move if there is one;
    otherwise a pseudo-legal move with that text; otherwise one built from the squares (a move
    that only the opponent's true, hidden roster allows). IllegalMoveError if it cannot be a move
    of the side to move at all."""
    try:
        return board.parse_move(text).code
    except IllegalMoveError:
        pass
    pos = board.engine_position()
    mm = _MOVE_RE.match(text.strip())
    if not mm:
        raise IllegalMoveError(f"bad move text {text!r}")
    geo = board.geometry
    try:
        fr, to = geo.parse_cell(mm.group(1)), geo.parse_cell(mm.group(2))
    except ValueError as e:
        raise IllegalMoveError(f"bad move text {text!r}: {e}") from None
    for m in pos.pseudo_legal():
        if move_text(board, m) == text:
            return m
    code = pos.board[fr]
    t = pos.tables
    side = pos.side
    if not code or not t.own[side][code] or fr == to:
        raise IllegalMoveError(f"{text}: no piece of the side to move on {mm.group(1)}")
    target = pos.board[to]
    if target and t.own[side][target]:
        raise IllegalMoveError(f"{text}: {mm.group(2)} holds a piece of the mover")
    variant = board.variant
    if t.checkable[code]:
        for bit, kf, kt, rf, rt, empty, passing, cm in t.castles[side]:
            if pos.castling & bit and kf == fr and kt == to and not target:
                return cm
    m = fr | to << TO_SHIFT
    letter = mm.group(3).upper()
    last = geo.ranks - 1 if side == 0 else 0
    if t.pawn[code] and to // geo.files == last:
        letter = letter or variant.promotion_default
    if letter:
        if letter not in variant.by_letter:
            raise IllegalMoveError(f"{text}: unknown piece letter")
        m |= variant.type_index(letter) << PROMO_SHIFT
    garrison = pos._garrison(pos, side ^ 1) if pos._garrison else NO_CELLS
    if t.pawn[code]:
        if to == pos.ep and not target and fr % geo.files != to % geo.files:
            m |= EP
            captured = fr - fr % geo.files + to % geo.files
            if not t.royal[code] and captured in garrison:
                m |= DESTROY
            return m
        if fr % geo.files == to % geo.files and abs(to // geo.files - fr // geo.files) == 2:
            m |= DOUBLE
    if target and not t.royal[code] and to in garrison:
        m = (m | DESTROY) & ~(0x3F << PROMO_SHIFT)
    return m


def _tt_for(key: tuple, megabytes: int) -> TranspositionTable:
    k = key + (megabytes,)
    tt = _TT_CACHE.get(k)
    if tt is None:
        tt = TranspositionTable(megabytes)
        _TT_CACHE[k] = tt
        while len(_TT_CACHE) > _TT_KEEP:
            _TT_CACHE.popitem(last=False)
    else:
        _TT_CACHE.move_to_end(k)
    return tt


def level_limits(level: int, time_left_ms: int | None, increment_ms: int, fullmove: int) -> Limits:
    """The search limits of a level given the clock (None: untimed)."""
    lv = get_level(level)
    cap = lv.movetime_ms or None
    if time_left_ms is not None:
        soft, hard = budget(time_left_ms, increment_ms, fullmove=fullmove)
        soft *= lv.time_share
        if (not lv.use_clock or lv.number < 8) and cap is not None:  # the level's own pace
            soft = min(soft, cap)
        if lv.max_ms:
            hard = min(hard, lv.max_ms)
            soft = min(soft, hard)
    else:
        soft = cap
        hard = lv.max_ms or None
    return Limits(depth=lv.depth, nodes=lv.nodes or None, soft_ms=soft, hard_ms=hard)


def search_position(board: Board, limits: Limits, root_moves: list[str] | None = None, *,
                    noise: int = 0, margin: int = 0, seed: int | None = None, hash_mb: int = 16,
                    t0: float | None = None, info=None, stop_event=None) -> tuple[str, Result]:
    """Search the board's position; returns (move text, result)."""
    rng = random.Random(seed)
    legal = legal_by_text(board)
    if root_moves is not None:
        if not root_moves:
            raise ValueError("root_moves is empty: no move to choose from")
        ints, forced = [], set()
        for text in dict.fromkeys(root_moves):
            if text in legal:
                ints.append(legal[text])
            else:
                m = lenient_move(board, text)
                ints.append(m)
                forced.add(m)
        by_int = {m: text for m, text in zip(ints, dict.fromkeys(root_moves))}
    else:
        if not legal:
            raise ValueError("the game is over: no legal move")
        ints, forced = list(legal.values()), set()
        by_int = {m: t for t, m in legal.items()}
    # a pasted diagram's table is its own (two diagrams may share a name and so Zobrist keys)
    variant = board._pos.variant
    name = variant.name if variant.piece_compiler is None else id(variant)
    key = (name, board.rosters[0].key(), board.rosters[1].key())
    if native_search.usable(board):  # issue 21: the native search; search.py is the fallback
        result = native_search.search(board, key, limits, ints, noise=noise, margin=margin, rng=rng,
                                      hash_mb=hash_mb, t0=t0, info=info, stop_event=stop_event)
        if result.move not in by_int:
            result.move = ints[0]
        return by_int[result.move], result
    pos = board.engine_position()
    ev = evaluator_for(pos.variant, pos.rosters)
    searcher = Searcher(pos, ev, _tt_for(key, hash_mb), noise=noise, seed=rng.getrandbits(64))
    searcher.info = info
    searcher.stop_event = stop_event
    result = searcher.search(limits, ints, forced, margin=margin, rng=rng, t0=t0)
    if result.move not in by_int:
        result.move = ints[0]
    return by_int[result.move], result


def static_evaluation(board: Board) -> int:
    """The evaluation the engine's search uses, of the board's position from the side to move's
    point of view (the native one where the native search plays the board)."""
    if native_search.usable(board):
        return native_search.static_evaluation(board)
    return evaluate(board)


def choose_move(variant: str, start_fen: str | None, moves: list[str], rosters: tuple[dict, dict] | None,
                level: int, time_left_ms: int | None, increment_ms: int,
                root_moves: list[str] | None = None, seed: int | None = None) -> str:
    """The computer's move text for the game `variant` from `start_fen` (None: the start array)
    after `moves` (move texts), with the rosters the engine believes in (JSON `Roster.from_data`
    form; None or {} = default), at `level` 1-8, with `time_left_ms` on its clock (None: untimed)
    and `increment_ms` per move. With `root_moves`, the answer is one of exactly those texts."""
    t0 = time.monotonic()
    lv = get_level(level)
    if variant == "tilingrider":  # a beam over the rest of the turn, the level's clock share per move
        return choose_tiling_move(start_fen, moves, level,
                                  lambda fullmove: level_limits(level, time_left_ms, increment_ms, fullmove).soft_ms)
    if variant in STANDALONE_BOARDS:  # a turn variant (intergrid): its own turn search, same level limits
        return choose_intergrid_move(start_fen, moves, level,
                                     lambda fullmove: level_limits(level, time_left_ms, increment_ms, fullmove).soft_ms)
    board = replay(variant, start_fen, moves, rosters)
    limits = level_limits(level, time_left_ms, increment_ms, board.fullmove_number)
    text, _ = search_position(board, limits, root_moves, noise=lv.noise_cp, margin=lv.margin_cp,
                              seed=seed, hash_mb=lv.hash_mb, t0=t0)
    return text


def warm_up(variants: tuple[str, ...] | None = None) -> None:
    """Compile the default-roster tables and evaluators of `variants` (default: all) and run a
    small search in each, so the first `choose_move` of a worker process does not spend its clock
    on it (about 1 s for super16, 2 s for Vanguard). Suitable as a process-pool initializer."""
    from ..rules import VARIANT_NAMES
    from ..rules.diagram_rules import DIAGRAM_VARIANT_NAMES
    for name in variants or VARIANT_NAMES + DIAGRAM_VARIANT_NAMES:
        board = make_board(name, None, None)
        search_position(board, Limits(depth=2), hash_mb=1)
