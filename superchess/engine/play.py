"""How the engine plays the variants on the core's position (the core and diagram families): a
board set up from a game record, lenient moves, the search at a level (the native search of
`native_search.py` where the native core plays the variant, the Python alpha-beta of `search.py`
otherwise), the computer's move for the server and the UCI `go`. Plain arguments, so the server can
run it in a worker process pool.

In Private mode the engine searches a believed model (its own roster, the opponent's assumed
default): past moves and root moves that the model calls illegal are still played, by finding them
among the mover's pseudo-legal moves (which depend only on its own roster) or by building the move
integer from the squares (`lenient_move`).
"""
from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from ..rules import Board, IllegalMoveError
from ..rules.core.board import MOVE_TEXT, CoreBoard
from ..rules.core.encoding import DESTROY, DOUBLE, EP, PROMO_SHIFT, TO_SHIFT
from ..rules.core.program import Roster
from ..rules.core.tables import NO_CELLS
from . import native_search
from .evaluate import evaluate, evaluator_for
from .levels import get_level
from .search import MATE, MATE_BOUND, Limits, Result, Searcher, TranspositionTable
from .timing import budget, level_limits

_TT_CACHE: OrderedDict = OrderedDict()  # (variant, rosters, size) -> TranspositionTable, per process
_TT_KEEP = 2


def make_board(variant: str, start_fen: str | None, rosters, core: str | None = None) -> CoreBoard:
    """A board for `variant` from a FEN (None: the start array) and JSON rosters (None or `{}`:
    default), on `core` ("python", "native" or None: as SUPERCHESS_CORE selects)."""
    rs = None
    if rosters is not None:
        rs = tuple(r if isinstance(r, Roster) else Roster.from_data(r or {}) for r in rosters)
    return Board(variant, start_fen, rs, core=core)


def replay(variant: str, start_fen: str | None, moves: list[str], rosters) -> CoreBoard:
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
        board.push_code(lenient_move(board, text))
    return board


def move_text(board: CoreBoard, m: int) -> str:
    return board.move_of(m).text


def legal_by_text(board: CoreBoard) -> dict[str, int]:
    return {move_text(board, m): m for m in board.legal_codes()}


def lenient_move(board: CoreBoard, text: str) -> int:
    """The move integer for `text` in the board's position: the legal move if there is one;
    otherwise a pseudo-legal move with that text; otherwise one built from the squares (a move
    that only the opponent's true, hidden roster allows). IllegalMoveError if it cannot be a move
    of the side to move at all."""
    try:
        return board.parse_move(text).code
    except IllegalMoveError:
        pass
    pos = board.engine_position()
    mm = MOVE_TEXT.match(text.strip())
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
    consequence = pos.variant.capture_consequence
    garrison = consequence(pos, side ^ 1) if consequence else NO_CELLS
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


def clear_tables() -> None:
    """Forget the transposition tables and native searchers kept between searches (a new game)."""
    _TT_CACHE.clear()
    native_search.forget()


def search_position(board: CoreBoard, limits: Limits, root_moves: list[str] | None = None, *,
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
    native = board.native_position()  # None: the Python search (search.py) plays the board
    pos = native[0] if native is not None else board.engine_position()
    # a pasted diagram's table is its own (two diagrams may share a name and so Zobrist keys)
    name = board.variant.name if pos.variant.piece_compiler is None else id(pos.variant)
    key = (name, pos.rosters[0].key(), pos.rosters[1].key())
    if native is not None:
        result = native_search.search(*native, key, limits, ints, noise=noise, margin=margin, rng=rng,
                                      hash_mb=hash_mb, t0=t0, info=info, stop_event=stop_event)
    else:
        searcher = Searcher(pos, evaluator_for(pos.variant, pos.rosters), _tt_for(key, hash_mb), noise=noise,
                            seed=rng.getrandbits(64))
        searcher.info = info
        searcher.stop_event = stop_event
        result = searcher.search(limits, ints, forced, margin=margin, rng=rng, t0=t0)
    if result.move not in by_int:
        result.move = ints[0]
    return by_int[result.move], result


def static_evaluation(board: CoreBoard) -> int:
    """The evaluation the engine's search uses, of the board's position from the side to move's
    point of view (the native one where the native search plays the board)."""
    native = board.native_position()
    if native is not None:
        return native_search.static_evaluation(native[0])
    return evaluate(board)


def choose_core_move(variant: str, start_fen: str | None, moves: list[str], rosters: tuple[dict, dict] | None,
                     level: int, time_left_ms: int | None, increment_ms: int,
                     root_moves: list[str] | None = None, seed: int | None = None, stop=None) -> str:
    """`families.choose_move` for the variants on the core's position (see there)."""
    t0 = time.monotonic()
    lv = get_level(level)
    board = replay(variant, start_fen, moves, rosters)
    limits = level_limits(level, time_left_ms, increment_ms, board.fullmove_number)
    text, _ = search_position(board, limits, root_moves, noise=lv.noise_cp, margin=lv.margin_cp,
                              seed=seed, hash_mb=lv.hash_mb, t0=t0, stop_event=stop)
    return text


def format_score(score: int) -> str:
    """A search score as UCI writes it: `cp <centipawns>` or `mate <moves>`."""
    if score > MATE_BOUND:
        return f"mate {(MATE - score + 1) // 2}"
    if score < -MATE_BOUND:
        return f"mate {-((MATE + score) // 2)}"
    return f"cp {score}"


def think_uci(board: CoreBoard, opts: dict[str, int], infinite: bool, stop: threading.Event,
              send: Callable[[str], None]) -> None:
    """The UCI `go` on the core's position at the Level option (`opts["level"]`) with a table of
    `opts["hash"]` MB: depth, nodes, mate, movetime or the clock (with no limit at all, or with only
    a clock below level 8, the level's limits exactly as in `choose_move`); `info` per iteration,
    then `bestmove` (in infinite mode once `stop` is set)."""
    t0 = time.monotonic()
    if not board.legal_codes():
        send("info string the game is over: no legal move")
        send("bestmove 0000")
        return
    level = opts["level"]
    lv = get_level(level)
    limits = Limits(depth=min(lv.depth, opts.get("depth", lv.depth)), infinite=infinite)
    if "mate" in opts:
        limits.depth = min(limits.depth, 2 * opts["mate"] + 1)
    if "nodes" in opts:
        limits.nodes = max(1, opts["nodes"])
    if "movetime" in opts:
        limits.soft_ms = limits.hard_ms = max(1, opts["movetime"] - 20)
    side = "w" if board.turn == 0 else "b"
    explicit = {"movetime", "depth", "nodes", "mate"} & set(opts)
    if not infinite and not explicit and (level < 8 or f"{side}time" not in opts):
        # as the server plays a level: its caps, and its time plan from the clock if given
        limits = level_limits(level, opts.get(f"{side}time"), opts.get(f"{side}inc", 0), board.fullmove_number)
    elif not infinite and f"{side}time" in opts:
        soft, hard = budget(opts[f"{side}time"], opts.get(f"{side}inc", 0), opts.get("movestogo"),
                            board.fullmove_number)
        if limits.hard_ms is None or hard < limits.hard_ms:
            limits.soft_ms, limits.hard_ms = soft, hard
    if infinite:
        limits.soft_ms = limits.hard_ms = None

    def info(r: Result) -> None:
        ms = int(r.elapsed * 1000)
        nps = int(r.nodes / r.elapsed) if r.elapsed > 0 else r.nodes
        pv = " ".join(move_text(board, m) for m in _legal_prefix(board, r.pv))
        extra = f" seldepth {r.seldepth} hashfull {r.hashfull}" if r.seldepth else ""
        send(f"info depth {r.depth}{extra} score {format_score(r.score)} nodes {r.nodes} nps {nps} time {ms} "
             f"pv {pv}")

    try:
        text, _ = search_position(board, limits, None, noise=lv.noise_cp, margin=lv.margin_cp, seed=None,
                                  hash_mb=opts["hash"], t0=t0, info=info, stop_event=stop)
    except Exception as e:  # noqa: BLE001 - the session answers whatever happens
        send(f"info string error: search failed: {e}")
        moves = board.legal_moves
        text = moves[0].text if moves else "0000"
    if infinite:  # UCI: in infinite mode bestmove waits for stop
        stop.wait()
    send(f"bestmove {text}")


def _legal_prefix(board: CoreBoard, pv: list[int]) -> list[int]:
    """The longest prefix of the PV that is legal move by move (a PV from the table could be cut by
    a hash collision; a client checks every move)."""
    out = []
    for m in pv:
        if m not in board.legal_codes():
            break
        board.push_code(m)
        out.append(m)
    for _ in out:
        board.pop()
    return out


def warm_up_core(name: str) -> None:
    """Compile the default-roster tables and evaluator of the variant `name` and run a small search,
    so the first move does not spend its clock on it (about 1 s for super16, 2 s for Vanguard)."""
    search_position(make_board(name, None, None), Limits(depth=2), hash_mb=1)
