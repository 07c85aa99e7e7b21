"""A turn search for Tiling Rider Chess, over the core's `TilingPosition` (make/unmake).

A turn is searched as a sequence of moves: from the current position (a turn's start or its middle)
the `width` best lines one move longer are kept, expanded again, and so on up to the allowance; every
kept line after which the turn may end (tiling 4.1, 4.2, R13) is a candidate turn. Lines are kept as
move integers and replayed on the one position (each at most the allowance long).

Evaluation (`evaluate`, from the mover's side): material (each small piece's value from its data: how
many squares it reaches, basic and elongated, averaged over the board), a bonus per aggregate, half
the value of each own piece an enemy small piece attacks, a small bonus for advanced and central
pieces (progress), less a small cost per move made (each move of this turn is one more move for the
opponent's next turn, R11).

A candidate turn's end is then judged at the opponent's turn start (4.3): a position seen before at a
turn start scores as a draw (0, from the mover's side: the mover repeats only when behind), as do
stalemate and the quiet-turn limit; checkmate wins. With look-ahead (the stronger levels), the best
`candidates` turns by evaluation are scored by the opponent's best reply turn, found by the same beam,
`reply_width` wide, whose ends are judged the same way (a reply that mates loses the line) without
looking further. The levels (levels.toml, each level's `tiling` table) set the widths, the look-ahead
and a random noise on the candidates' scores.
"""
from __future__ import annotations

import random
import threading
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..rules.core.turns import END_TURN, TurnSearch
from ..rules.tiling.board import BOUND_COST, MODEL, VARIANT, TilingBoard, search_key, turn_rule
from ..rules.tiling.position import TilingPosition
from ..rules.tiling.tables import tiling_tables
from .timing import uci_think_ms

VALUE_PER_SQUARE = 19  # centipawns per square a small piece reaches on average (W 124, F 135, G 187, N 252)
AGGREGATE_BONUS = 60
MOVE_COST = 5
ADVANCE_CP = 3         # per rank forward of the mover's back rank, up to ADVANCE_RANKS
ADVANCE_RANKS = 10
CENTRE_CP = 2          # per file nearer the centre
MATE = 100_000
DRAW = 0
MATE_BUDGET = 500      # states spent proving that a side in check has no legal turn (past it: not mate)
COMPLETION_BUDGET = 20_000  # states spent finding any legal completion when the beam found none
LAST_RESORT_BUDGET = 400_000  # the same after taking back all it may: slow, but the turn must be finished
DEFAULT_MOVETIME_MS = 1000
DEFAULT_LEVEL = 8


@dataclass(frozen=True)
class TilingLevel:
    """How a level searches a Tiling Rider turn (levels.toml, each level's `tiling` table)."""
    width: int          # lines kept per move of the turn
    reply_width: int    # the opponent's reply beam (0: no look-ahead)
    candidates: int     # turn ends scored by the opponent's reply
    noise_cp: int       # +/- random centipawns on each candidate turn's score


@lru_cache(maxsize=1)
def tiling_levels() -> dict[int, TilingLevel]:
    """Every level's Tiling Rider search, from levels.toml."""
    data = tomllib.loads(resources.files(__package__).joinpath("levels.toml").read_text())
    return {int(n): TilingLevel(**d["tiling"]) for n, d in data.items()}


@dataclass
class TurnResult:
    moves: list[str]  # the best line from the current state to the turn's end (`end` when it stops early)
    score: int        # the line's score, from the mover's side
    nodes: int        # states evaluated


@lru_cache(maxsize=1)
def piece_values() -> dict[int, int]:
    """Each small piece code's value: VALUE_PER_SQUARE x the squares it reaches (basic targets and
    elongations, 3.1, R5), averaged over the board."""
    t = tiling_tables()
    size = t.geometry.size
    return {code: round(VALUE_PER_SQUARE * sum(len(s) + sum(p >= 0 for _, _, p, _ in s) for s in t.steps[code]) / size)
            for code in range(len(t.symbol)) if t.symbol[code] and t.small[code]}


@lru_cache(maxsize=1)
def progress() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per side, per cell: the bonus for a small piece standing there (advanced, central)."""
    geo = tiling_tables().geometry
    middle = (geo.files - 1) / 2
    out = []
    for side in (0, 1):
        row = []
        for cell in range(geo.size):
            rank, file = divmod(cell, geo.files)
            forward = rank if side == 0 else geo.ranks - 1 - rank
            row.append(ADVANCE_CP * min(forward, ADVANCE_RANKS) + CENTRE_CP * int(middle - abs(file - middle)))
        out.append(tuple(row))
    return out[0], out[1]


def evaluate(pos: TilingPosition, side: int) -> int:
    """Material, aggregates, attacked pieces and progress from `side`'s point of view (no King is
    material), less the cost of the moves made this turn."""
    board, small, values, bonus = pos.board, pos.tables.small, piece_values(), progress()
    total = 0
    for s in (0, 1):
        here = bonus[s]
        for cell in pos.occ[s]:
            code = board[cell]
            if not small[code]:
                continue
            value = values[code] + here[cell]
            if s == side:
                total += value - values[code] // 2 if pos.small_attacked(cell, 1 - side) else value
            else:
                total -= value
    for _, code in pos.aggregates():
        total += AGGREGATE_BONUS if code >> 6 == side else -AGGREGATE_BONUS
    return total - MOVE_COST * pos.made


def _replay(pos: TilingPosition, line: tuple[int, ...], fn: Callable[..., object], *args: object) -> object:
    """`fn(*args)` with `line` made on the position, which is then restored."""
    for m in line:
        pos.make(m)
    try:
        return fn(*args)
    finally:
        for _ in line:
            pos.unmake()


def _may_end(pos: TilingPosition) -> bool:
    return TurnSearch(turn_rule(pos), MODEL).can_end(pos, pos.made, pos.side)


def judge_turn_start(pos: TilingPosition) -> int | None:
    """At a turn's start, the game's result from the side that just ended its turn, if it is decided
    by 4.3 here: MATE when the player to move is checkmated, DRAW on stalemate, on a position seen
    before at a turn start (a repetition is as good as a draw) or at the quiet-turn limit; else None."""
    if pos.repetitions() > 1 or pos.halfmove >= pos.tables.variant.quiet_turns:
        return DRAW
    if pos.in_check():
        search = TurnSearch(turn_rule(pos), MODEL, search_key, MATE_BUDGET)
        return None if search.completable(pos, 0, pos.side) else MATE
    return None if any(True for _ in pos.iter_legal()) else DRAW


class TurnSearcher:
    """The beam over one turn, and the look-ahead into the opponent's reply, on one position."""

    def __init__(self, pos: TilingPosition, level: TilingLevel, deadline: float | None,
                 stop: threading.Event | None = None, seed: int = 0) -> None:
        self.pos, self.level, self.deadline, self.stop = pos, level, deadline, stop
        self.rng = random.Random(seed)
        self.nodes = 0

    def out_of_time(self) -> bool:
        return (self.deadline is not None and time.monotonic() > self.deadline) or (
            self.stop is not None and self.stop.is_set())

    def candidates(self, width: int) -> tuple[list[tuple[int, tuple[int, ...]]], list[tuple[int, tuple[int, ...]]]]:
        """(evaluation, line) of the turns the beam finds from the current state, best first; and
        the turns that end giving check which the beam dropped (each may be a checkmate, 4.3)."""
        pos, side = self.pos, self.pos.side
        found = [(evaluate(pos, side), ())] if _may_end(pos) else []
        checks = []
        beam: list[tuple[int, ...]] = [()]
        while beam and not self.out_of_time():
            seen: set = set()
            children: list[tuple[int, tuple[int, ...], bool]] = []
            for line in beam:
                _replay(pos, line, self._expand, side, line, seen, children)
            self.nodes += len(children)
            children.sort(key=lambda x: x[0], reverse=True)
            beam = [line for _, line, _ in children[:width]]
            found += [(score, line) for score, line, _ in children[:width] if _replay(pos, line, _may_end, pos)]
            checks += [(score, line) for score, line, check in children[width:]
                       if check and _replay(pos, line, _may_end, pos)]
        return sorted(found, key=lambda x: x[0], reverse=True), checks

    def _expand(self, side: int, line: tuple[int, ...], seen: set, children: list) -> None:
        """Each legal move from the position (reached by `line`) not seen yet, into `children` with
        its evaluation and whether it checks the opponent."""
        pos = self.pos
        for m in pos.legal():
            pos.make(m)
            if pos.key() not in seen:
                seen.add(pos.key())
                children.append((evaluate(pos, side), line + (m,), pos.in_check(1 - side)))
            pos.unmake()

    def turn_end(self, line: tuple[int, ...], score: int, look_ahead: bool) -> int | None:
        """The score of ending the turn after `line` (its evaluation `score`), from the mover's side:
        4.3's verdict at the opponent's turn start, else (with `look_ahead`) minus the opponent's best
        reply, else `score`; None when time ran out during the reply."""
        pos = self.pos
        for m in line:
            pos.make(m)
        pos.end_turn()
        try:
            verdict = judge_turn_start(pos)
            if verdict is not None or not look_ahead:
                return score if verdict is None else verdict
            replies, checks = self.candidates(self.level.reply_width)
            if self.out_of_time():
                return None
            best = None
            for reply_score, reply in replies + checks:
                if self.out_of_time():
                    return None
                value = self.turn_end(reply, reply_score, False)
                best = value if best is None or value > best else best
                if best == MATE:
                    break
            return -evaluate(pos, pos.side) if best is None else -best
        finally:
            for _ in range(len(line) + 1):
                pos.unmake()

    def completion(self, budget: int) -> tuple[int, ...] | None:
        """A line that completes the turn legally within `budget` states, None when none was found:
        the rules' turn search (turns.TurnSearch.completion: shortest first, in check King moves and
        captures first, the sound cut on lines that cannot get the King out of check)."""
        pos = self.pos
        search = TurnSearch(turn_rule(pos), MODEL, search_key, budget, BOUND_COST)
        line, visited = search.completion(pos, pos.made, pos.side)
        self.nodes += visited
        return None if line is None else tuple(line)

    def best(self) -> tuple[int, tuple[int, ...]] | None:
        """(score, line) of the best turn found from the current state; None when the beam found none.
        Every turn found that checkmates wins (4.3); the level's first `candidates` turns by evaluation
        are judged at their ends (with the reply when the level looks ahead), each with the level's
        noise; once time is up, no further one."""
        lv = self.level
        found, checks = self.candidates(lv.width)
        scored = [(MATE, line) for score, line in found[lv.candidates:] + checks
                  if not self.out_of_time() and self.turn_end(line, score, False) == MATE]
        for score, line in found[:lv.candidates]:
            if scored and self.out_of_time():
                break
            value = self.turn_end(line, score, lv.reply_width > 0)
            if value is None:  # time ran out in the reply: the first candidate keeps its own evaluation
                if scored:
                    break
                value = score
            scored.append((value + self.rng.randint(-lv.noise_cp, lv.noise_cp) if abs(value) < MATE else value, line))
        return max(scored, key=lambda x: x[0]) if scored else None


def best_turn(board: TilingBoard, level: int = DEFAULT_LEVEL, movetime_ms: float | None = DEFAULT_MOVETIME_MS,
              stop: threading.Event | None = None, seed: int = 0) -> TurnResult:
    """The best line found at `level` (1-8) for the rest of the board's turn: a whole legal completion
    (4.2: it ends with the King safe), so its first move is legal and the turn can be finished after
    it; no moves when none was found (the turn in check may have none from here)."""
    return search_turn(board.position, level, movetime_ms, stop, seed)


def search_turn(pos: TilingPosition, level: int = DEFAULT_LEVEL, movetime_ms: float | None = DEFAULT_MOVETIME_MS,
                stop: threading.Event | None = None, seed: int = 0) -> TurnResult:
    """`best_turn` on the position itself (left as it was found)."""
    deadline = None if movetime_ms is None else time.monotonic() + movetime_ms / 1000
    searcher = TurnSearcher(pos, tiling_levels()[level], deadline, stop, seed)
    best = searcher.best()
    if best is None:  # no completion in the beam (in check, or out of time): any completion found
        line = searcher.completion(COMPLETION_BUDGET)
        if line is None:
            return TurnResult([], 0, searcher.nodes)
        best = _replay(pos, line, evaluate, pos, pos.side), line
    return TurnResult([pos.move_text(m) for m in best[1]] or [END_TURN], best[0], searcher.nodes)


def retreat(pos: TilingPosition, retractable: int, level: int, movetime_ms: float | None,
            seed: int = 0) -> tuple[int, TurnResult] | None:
    """When no completion is found from here (a move of the turn was offered undecided and leads
    nowhere, R12, or the searches' budgets missed one): how many of the turn's last moves to take
    back (at most `retractable`) and the line found from there, the fewest taken back first; as a
    last resort, a completion search with a much larger budget where taking back stops; None when
    even that finds none. The position is left as it was found."""
    undone: list[int] = []
    try:
        while len(undone) < min(retractable, pos.made):
            undone.append(pos.stack[-1][0])  # a move record: (move, changes, ...)
            pos.unmake()
            result = search_turn(pos, level, movetime_ms, seed=seed)
            if result.moves:
                return len(undone), result
        searcher = TurnSearcher(pos, tiling_levels()[level], None, seed=seed)
        line = searcher.completion(LAST_RESORT_BUDGET)
        if line is None:
            return None
        score = _replay(pos, line, evaluate, pos, pos.side)
        return len(undone), TurnResult([pos.move_text(m) for m in line] or [END_TURN], score, searcher.nodes)
    finally:
        for m in reversed(undone):
            pos.make(m)


def position_after(start_fen: str | None, moves: list[str]) -> TilingPosition:
    """The position after a game's `moves` from `start_fen` (None: the start; it may carry moves of an
    unfinished turn after ` | `), replayed on one `TilingPosition`: each move is found among the
    moves the position allows now (the server judged the whole turn when it was played), without
    the turn search a `TilingBoard` runs before accepting a move. Mid-turn, the turn's moves are made
    on it (they can be unmade); every turn start is in its history (repetitions, 4.3)."""
    start_text, _, first = (start_fen or VARIANT.start_fen).partition("|")
    pos = TilingPosition.from_fen(start_text.strip())
    made: list[str] = []
    for text in first.split() + list(moves):
        if text != END_TURN:
            m = next((m for m in pos.iter_legal() if pos.move_text(m) == text), None)
            if m is None:
                raise ValueError(f"no move {text!r} in {pos.fen()} | {' '.join(made)}")
            pos.make(m)
            made.append(text)
        if text == END_TURN or pos.made >= pos.allowance:  # the last allowed move ends the turn
            pos.end_turn()
            made = []
    return pos


def board_after(start_fen: str | None, moves: list[str]) -> TilingBoard:
    """`position_after` as a board: it starts at the current turn's start (the turn's moves so far
    pushed on it); the earlier turn starts are kept as hashes (repetitions, 4.3)."""
    pos = position_after(start_fen, moves)
    made = " ".join(pos.move_text(record[0]) for record in pos.stack[len(pos.stack) - pos.made:])
    board = TilingBoard(VARIANT.name, f"{pos.fen()} | {made}" if made else pos.fen())
    board.position.history[:0] = pos.history[:-1]  # the earlier turn starts: repetitions (4.3) are seen
    return board


_PLANS: dict[tuple, list[str]] = {}  # (level, start, moves) -> the rest of a turn planned there
_PLANS_KEPT = 64
#: The computer's answer when the unfinished turn it is in has no completion it can find: take back
#: the turn's last move (R12; the server's `retract` action), then follow the line found before it.
RETRACT = "retract"


def choose_tiling_move(start_fen: str | None, moves: list[str], level: int,
                       soft_ms: Callable[[int], int | None]) -> str:
    """The computer's next move of its turn (`end` included) for the server, at `level`, or RETRACT.
    Only a move of a whole legal completion found is played (4.2: the turn can always be finished).
    The whole turn is planned at its first move, for the level's share of the clock (`soft_ms(turn
    number)`, None: the default), and the next calls in this process follow the plan; without a
    plan (another process made it) the rest of the turn is searched for that share divided among
    the moves the turn may still hold. Mid-turn with no completion found (an earlier move was
    offered undecided, R12), the turn's last moves are taken back one RETRACT at a time until a
    completion is found, and the plan is to follow it."""
    plan = _PLANS.get((level, start_fen, tuple(moves)))
    if plan:
        return plan[0]
    pos = position_after(start_fen, moves)
    movetime = soft_ms(pos.fullmove)
    movetime = DEFAULT_MOVETIME_MS if movetime is None else movetime
    share = 1 if pos.made == 0 else max(1, pos.allowance - pos.made)
    line = search_turn(pos, level, movetime / share, seed=len(moves)).moves
    back = 0
    if not line:
        found = retreat(pos, len(moves), level, movetime / share, seed=len(moves))
        if found is None:
            raise ValueError(f"no legal completion of the turn found from {pos.fen()} (made: {pos.made})")
        back, line = found[0], found[1].moves
    if len(_PLANS) > _PLANS_KEPT:
        _PLANS.clear()
    base = tuple(moves[:len(moves) - back])
    plan = [RETRACT] * back + line
    for i in range(1, len(plan)):  # the plan as seen after each of its steps but the last
        after = tuple(moves[:len(moves) - i]) if i <= back else base + tuple(line[:i - back])
        _PLANS[(level, start_fen, after)] = plan[i:]
    return plan[0]


def think_uci(board: TilingBoard, opts: dict[str, int], infinite: bool, stop: threading.Event,
              send: Callable[[str], None]) -> None:
    """The UCI `go` for Tiling Rider at the Level option (`opts["level"]`, default 8): movetime, or a
    share of the clock; one `info` line with the line found, then `bestmove` with its next move
    (`end` included); mid-turn with no completion found, `bestmove 0000` and an `info string` to
    take the turn's last move back (R12)."""
    if not board.legal_moves and not board.moves_in_turn:
        send("info string the game is over: no legal move")
        send("bestmove 0000")
        return
    movetime = uci_think_ms(opts, board.turn, board.fullmove_number, infinite, DEFAULT_MOVETIME_MS)
    t0 = time.monotonic()
    result = best_turn(board, opts.get("level", DEFAULT_LEVEL), movetime, stop)
    if not result.moves:  # mid-turn with no completion found: only taking moves back helps (R12)
        send("info string no legal completion of this turn found: take back its last move")
        send("bestmove 0000")
        return
    send(f"info depth {len(result.moves)} score cp {result.score} nodes {result.nodes} "
         f"time {int((time.monotonic() - t0) * 1000)} pv {' '.join(result.moves)}")
    if infinite:  # UCI: in infinite mode bestmove waits for stop
        stop.wait()
    send(f"bestmove {result.moves[0]}")
