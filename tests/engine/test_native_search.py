"""The native search (native/src/search, engine/native_search.py): fixed-depth and node-limited
searches, the stop request, the GIL released while it thinks, the incrementally kept evaluation,
the table bounded by Hash, bad input, and every variant the native core plays."""
from __future__ import annotations

import random
import threading
import time

import pytest

from superchess.engine import native_search
from superchess.engine.evaluate import evaluator_for
from superchess.engine.play import make_board, replay, search_position
from superchess.engine.search import MATE, Limits
from superchess.rules import Board, Roster
from tests.rules.helpers import make_fen

_native = pytest.importorskip("superchess._native", reason="the native core is not built")


def native_evaluation(board: Board):
    """The board's native position and the native copy of its evaluator's tables."""
    pos, _ = board.native_position()
    return pos, native_search.evaluation(evaluator_for(pos.variant, pos.rosters))


def fresh_search(variant, fen=None, **limits):
    native_search.forget()
    board = make_board(variant, fen, None)
    seen = []
    move, r = search_position(board, Limits(**limits), info=seen.append)
    return board, move, r, seen


def test_boards_of_the_native_core_are_searched_natively():
    board = make_board("chess", None, None)
    assert board.core == "native" and board.native_position() is not None
    _, _, r, _ = fresh_search("chess", depth=3)
    assert r.seldepth >= 3  # only the native search reports its selective depth


@pytest.mark.parametrize("variant, depth", [("chess", 7), ("super16", 5)])
def test_a_fixed_depth_search_reports_each_iteration_and_repeats_itself(variant, depth):
    board, move, r, seen = fresh_search(variant, depth=depth)
    assert [it.depth for it in seen] == list(range(1, depth + 1))
    assert r.depth == depth and move in {m.text for m in board.legal_moves}
    assert r.pv and board.parse_move(move).code == r.pv[0]
    _, move2, r2, _ = fresh_search(variant, depth=depth)
    assert (move2, r2.nodes, r2.score) == (move, r.nodes, r.score)
    assert board.fen() == Board(variant).fen()


@pytest.mark.parametrize("variant", ["chess", "super16", "superchess", "vanguard"])
def test_the_node_limit_is_exact(variant):
    _, move, r, _ = fresh_search(variant, nodes=3000)
    assert 2900 <= r.nodes <= 3000
    assert move in {m.text for m in Board(variant).legal_moves}


def _mates_within(board: Board, moves: int) -> bool:
    """Can the side to move force mate within `moves` moves? (Brute force, small positions.)"""
    for m in board.legal_moves:
        board.push(m)
        if board.is_checkmate():
            board.pop()
            return True
        forced = moves > 1 and not board.is_game_over() and all(
            _after(board, reply, lambda b: _mates_within(b, moves - 1)) for reply in board.legal_moves)
        board.pop()
        if forced:
            return True
    return False


def _after(board: Board, move, check) -> bool:
    board.push(move)
    try:
        return check(board)
    finally:
        board.pop()


def test_finds_a_mate_in_three():
    fen = "6k1/6pp/8/8/8/8/1Q6/1R4K1 w - - 0 1"  # no mate in two
    board = Board("chess", fen)
    _, move, r, _ = fresh_search("chess", fen, depth=7)
    assert r.score == MATE - 5 and not _mates_within(board, 2)
    assert _after(board, board.parse_move(move), lambda b: all(
        _after(b, reply, lambda c: _mates_within(c, 2)) for reply in b.legal_moves))


def test_a_stop_request_ends_an_infinite_search():
    board = make_board("super16", None, None)
    stop = native_search.StopRequest()
    out = {}
    thread = threading.Thread(target=lambda: out.update(r=search_position(board, Limits(infinite=True),
                                                                           stop_event=stop)))
    thread.start()
    time.sleep(0.3)
    assert thread.is_alive()
    stop.set()
    thread.join(timeout=5)
    assert not thread.is_alive()
    move, r = out["r"]
    assert move in {m.text for m in board.legal_moves} and r.depth >= 1


def test_the_search_releases_the_gil():
    """Another Python thread runs while the search thinks: the main thread counts for 0.3 s and
    the search is still running when it is done."""
    board = make_board("super16", None, None)
    thread = threading.Thread(target=search_position, args=(board, Limits(hard_ms=2000, soft_ms=2000)))
    thread.start()
    time.sleep(0.05)  # past the set-up, which holds the GIL as any Python code does
    t0, count = time.monotonic(), 0
    while time.monotonic() - t0 < 0.3:
        count += 1
    alive = thread.is_alive()
    thread.join()
    assert alive and count > 10_000


def test_a_vanguard_search_and_move_generation_in_another_thread_share_the_tables():
    """Diagram records are interned through Python: the searching thread (without the GIL) and a
    thread generating moves on the same tables never wait on each other."""
    board = make_board("vanguard", None, None)
    other = Board("vanguard")
    thread = threading.Thread(target=search_position, args=(board, Limits(hard_ms=1500, soft_ms=1500)))
    thread.start()
    rng = random.Random(3)
    for _ in range(30):
        moves = other.legal_moves
        other.push(rng.choice(moves))
        if other.is_game_over():
            break
    thread.join(timeout=30)
    assert not thread.is_alive()


@pytest.mark.parametrize("variant, rosters", [
    ("chess", None), ("super16", None), ("superchess", None), ("vanguard", None),
    ("super16", (Roster.parse("N:slide:1,2/2,1"), Roster.parse("B:jump:1,1/2,2/3,3"))),
])
def test_the_evaluation_kept_move_by_move_equals_a_fresh_one(variant, rosters):
    """Along random games (captures preferred: promotions, en passant, castling, mutual
    destruction, multi-captures come up), the sums the search keeps at each make equal sums made
    from scratch."""
    rng = random.Random(11)
    board = Board(variant, None, rosters)
    _, ev = native_evaluation(board)
    searcher = _native.Searcher(1)
    codes = []
    for _ in range(60):
        moves = board.legal_moves
        if not moves or board.is_game_over():
            break
        captures = [m for m in moves if board.captures(m)]
        move = rng.choice(captures if captures and rng.random() < 0.7 else moves)
        codes.append(move.code)
        board.push(move)
    start = Board(variant, None, rosters)
    for k in range(0, len(codes) + 1, 5):
        kept, fresh, quiet = searcher.evaluate(start.native_position()[0], ev, codes[:k])
        assert kept == fresh, (variant, k)
        assert abs(quiet) < 100_000


def test_the_table_is_bounded_by_hash():
    for mb in (1, 4, 16):
        s = _native.Searcher(mb)
        pos, ev = native_evaluation(make_board("super16", None, None))
        s.search(pos, ev, depth=4)
        ordering = 12 * 128 * 256 + 2 * 170 * 6144  # super16's continuation history: 170 rows of 2 x 12 x 256 keys
        assert mb * 2 ** 20 - 64 <= s.nbytes() - ordering <= mb * 2 ** 20
        assert s.nbytes() <= mb * 2 ** 20 + native_search.MEMORY_CONSTANT_BYTES


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        _native.Searcher(0)
    chess, super16 = make_board("chess", None, None), make_board("super16", None, None)
    super16_pos, ev = native_evaluation(super16)
    s = _native.Searcher(1)
    with pytest.raises(ValueError):
        s.search(chess.native_position()[0], ev)  # an evaluation of another board
    with pytest.raises(ValueError):
        s.evaluate(super16_pos, ev, [12345])  # not a legal move
    with pytest.raises(TypeError):
        search_position(chess, Limits(depth=1), stop_event=threading.Event())
    with pytest.raises(ZeroDivisionError):  # a failing progress report ends the search with its error
        search_position(chess, Limits(depth=3), info=lambda r: 1 / 0)
    assert chess.fen() == Board("chess").fen()


def test_private_game_history_replayed_leniently_is_searched_with_its_repetitions():
    """A Knight move only the hidden roster allows: the game is replayed on the Python core and
    searched natively from a copy that keeps the earlier positions' hashes, so the move that
    repeats the start position a third time scores as a draw although White is a Queen up."""
    rosters = (Roster(), Roster.parse("N:jump:0,3/0,-3/1,2/2,1/-1,2/-2,1"))
    fen = make_fen("super16", {"i1": "K", "b16": "n", "p16": "k", "a2": "Q"}, side="b")
    moves = ["b16b13", "a2a3", "b13b16", "a3a2", "b16b13", "a2a3", "b13b16"]
    truth = Board("super16", fen, rosters)
    for text in moves:
        truth.push_text(text)
    believed = replay("super16", fen, moves, ({}, {}))
    assert believed.core == "python" and believed.zobrist_hash() == truth.zobrist_hash()
    move, r = search_position(believed, Limits(depth=3), root_moves=["a3a2", "a3b3"])
    assert r.root_scores[believed.parse_move("a3a2").code] == 0 and move == "a3b3"


def test_a_reprogrammed_piece_moves_and_is_valued_by_its_program():
    """super16 with Player 1's Knights reprogrammed to ride (1,2) lines: the search finds the far
    capture only the program allows, and a riding Knight is worth more than a leaping one."""
    rosters = (Roster.parse("N:slide:1,2/2,1/-1,2/-2,1/1,-2/2,-1/-1,-2/-2,-1"), Roster())
    fen = make_fen("super16", {"i1": "K", "p16": "k", "b1": "N", "h13": "q", "a16": "p"})
    board = make_board("super16", fen, (rosters[0].to_data(), {}))
    move, r = search_position(board, Limits(depth=3))
    assert move == "b1h13" and r.score > 500  # b1-c3-d5-e7-f9-g11-h13: a Queen for nothing
    riding = evaluator_for("super16", rosters).value
    leaping = evaluator_for("super16", (Roster(), Roster())).value
    knight = board.native_position()[0].code_for(0, "N")
    assert riding[knight] > leaping[knight]


def test_the_soft_limit_stretches_for_an_unstable_search():
    """No new iteration starts after 0.55 x soft_ms x this scale (alphabeta.rs `time_scale`)."""
    scale = _native.soft_time_scale
    assert scale(0.0, 0) == scale(0.05, 0) == 1.0  # the best move held four iterations: the plain share
    assert 1.0 < scale(0.25, 0) < scale(0.5, 0) < scale(1.0, 0) < scale(1.5, 0) == 2.2  # it changed lately
    assert scale(0.0, 0) < scale(0.0, 30) < scale(0.0, 150) == scale(0.0, 1000) == 1.5  # the score fell
    assert scale(0.0, -300) == scale(0.0, 0)  # a rising score changes nothing
    assert scale(1.0, 150) == scale(9.0, 9999) == 2.2  # never more
