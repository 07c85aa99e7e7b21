"""The search: mates, material, draws, limits, levels and the root-move restriction of Private mode."""
from __future__ import annotations

import time

import pytest

from superchess.engine import choose_move
from superchess.engine.levels import get_level, load_levels
from superchess.engine.play import lenient_move, level_limits, make_board, search_position
from superchess.engine.search import MATE, Limits
from superchess.engine.timing import budget
from superchess.rules import Board, Roster
from tests.rules.helpers import make_fen


def search(variant, fen, moves=(), rosters=None, **limits):
    board = make_board(variant, fen, rosters)
    for text in moves:
        board.push_text(text)
    return board, search_position(board, Limits(**limits))


def mate_in(score: int) -> int | None:
    """Moves to mate for a winning mate score (None otherwise)."""
    return (MATE - score + 1) // 2 if score > MATE - 1000 else None


# -- mates ----------------------------------------------------------------------------------------
def test_mate_in_one_chess():
    _, (move, r) = search("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", depth=3)
    assert move == "a1a8" and mate_in(r.score) == 1


def test_mate_in_two_chess():
    # Kb6 is not available at once: Kc6-c7 (or similar) first, then the Rook mates
    board, (move, r) = search("chess", "k7/8/2K5/8/8/8/8/7R w - - 0 1", depth=4)
    assert mate_in(r.score) == 2
    board.push_text(move)
    for reply in board.legal_moves:  # every defence allows mate in one
        board.push(reply)
        assert any(_mates(board, m) for m in board.legal_moves), reply.text
        board.pop()


def _mates(board: Board, move) -> bool:
    board.push(move)
    mated = board.is_checkmate()
    board.pop()
    return mated


def test_mate_in_one_super16_and_the_position_is_mate():
    fen = make_fen("super16", {"i1": "K", "a16": "k", "b14": "R", "c13": "R"})
    board, (move, r) = search("super16", fen, depth=3)
    assert mate_in(r.score) == 1
    board.push_text(move)
    assert board.is_checkmate()


def test_mate_in_two_super16():
    fen = make_fen("super16", {"i1": "K", "p16": "k", "a13": "R", "b14": "R"})
    board, (move, r) = search("super16", fen, depth=4)
    assert mate_in(r.score) == 2
    assert len(r.pv) >= 3
    for m in r.pv[:3]:
        board.push_code(m)
    assert board.is_checkmate()


def test_mutual_destruction_is_counted_as_losing_the_capturer():
    # R4: the Knight taking the Rook garrisoned by the Fortress on d10 is removed too; Rook for
    # Knight is still a good trade, so the engine takes, and the capture square ends up empty
    fen = make_fen("super16", {"i1": "K", "i16": "k", "c7": "N", "d9": "r", "d10": "f"})
    board, (move, _) = search("super16", fen, depth=3)
    assert move == "c7d9"
    board.push_text(move)
    assert board.piece_at("d9") is None and board.piece_at("c7") is None


# -- material and draws ------------------------------------------------------------------------------
def test_wins_a_hanging_piece():
    _, (move, r) = search("chess", "4k3/8/8/3q4/8/8/3R4/K7 b - - 0 1", depth=3)
    assert move == "d5d2" and r.score > 700
    fen = make_fen("super16", {"i1": "K", "i16": "k", "d4": "N", "e6": "r", "m13": "b"}, side="w")
    _, (move, r) = search("super16", fen, depth=3)
    assert move == "d4e6"


def test_does_not_take_a_piece_guarded_by_the_fortress_rule_with_a_valuable_piece():
    # taking the Rook on d9 with the Knight costs the Knight too (garrisoned by the Fortress on d10):
    # still a gain (Rook > Knight); taking a garrisoned pawn with the Rook costs the Rook: refused
    fen = make_fen("super16", {"i1": "K", "i16": "k", "a9": "R", "d9": "p", "d10": "f", "p1": "B"})
    _, (move, _) = search("super16", fen, depth=2)
    assert move != "a9d9"


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_avoids_stalemating_when_winning(depth):
    # Qb6 and several other queen moves stalemate the bare King on a8; Qb7 mates
    board, (move, r) = search("chess", "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1", depth=depth)
    board.push_text(move)
    assert not board.is_stalemate()
    assert r.score > 500


def test_stalemate_and_checkmate_are_scored():
    # the side to move has no legal move: the search reports it without crashing
    _, (_, r) = search("chess", "k7/8/1QK5/8/8/8/8/8 w - - 0 1", depth=2)  # white to move: fine
    assert r.score > 500
    b = Board("chess", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")  # black stalemated
    with pytest.raises(ValueError):
        search_position(b, Limits(depth=2))


def test_scores_a_draw_by_repetition():
    # White has an extra Queen; Black's Kh8-g8 repeats the position after ...: the search sees the
    # repetition as a draw (score 0) and Black takes it
    _, (move, r) = search("chess", "6k1/8/8/8/8/8/8/1Q4K1 w - - 0 1", ("g1h1", "g8h8", "h1g1"), depth=3)
    assert move == "h8g8" and r.score == 0
    # without the history the same position is simply lost for Black
    _, (_, r2) = search("chess", "7k/8/8/8/8/8/8/1Q4K1 b - - 0 1", depth=3)
    assert r2.score < -500


def test_move_rule_counts_as_a_draw():
    # 99 half-moves without capture or pawn move: any quiet move reaches 100 (claimable) -> 0;
    # a capture resets the count and wins the Queen
    fen = "4k3/8/8/3q4/8/8/3R4/K7 b - - 99 80"
    _, (move, r) = search("chess", fen, depth=2)
    assert move == "d5d2"
    fen = "7k/8/8/8/8/8/8/1Q4K1 b - - 99 80"
    _, (_, r) = search("chess", fen, depth=3)
    assert r.score == 0


# -- limits ---------------------------------------------------------------------------------------
def test_respects_the_depth_limit():
    seen = []
    board = make_board("super16", None, None)
    search_position(board, Limits(depth=2), info=lambda res: seen.append(res.depth))
    assert seen == [1, 2]


@pytest.mark.parametrize("variant", ["chess", "super16"])
def test_respects_the_node_limit(variant):
    board = make_board(variant, None, None)
    move, r = search_position(board, Limits(nodes=700))
    assert 600 <= r.nodes <= 702
    assert move in {m.text for m in board.legal_moves}
    assert board.fen() == Board(variant).fen()  # the position is restored


def test_movetime_is_honoured_loosely():
    board = make_board("super16", None, None)
    t0 = time.monotonic()
    move, _ = search_position(board, Limits(soft_ms=200, hard_ms=200))
    assert time.monotonic() - t0 < 3.0  # generous: no timing flakiness, only "does stop"
    assert move in {m.text for m in board.legal_moves}


def test_time_budget_is_sane():
    soft, hard = budget(60_000, 0, fullmove=1)
    assert 500 < soft <= hard < 20_000
    soft, hard = budget(1_000, 0)
    assert hard < 1_000
    soft, hard = budget(100, 0)  # nearly flagging: tiny but positive
    assert 0 < soft <= hard <= 100
    soft2, _ = budget(60_000, 2_000, fullmove=1)
    assert soft2 > soft
    _, hard = budget(10_000, 0, movestogo=1)
    assert hard < 10_000


# -- levels and the server API --------------------------------------------------------------------
def test_levels_load_and_differ():
    levels = load_levels()
    assert sorted(levels) == list(range(1, 9))
    depths = [levels[n].depth for n in range(1, 9)]
    assert depths == sorted(depths) and depths[0] < depths[-1]
    noise = [levels[n].noise_cp for n in range(1, 9)]
    assert noise == sorted(noise, reverse=True) and noise[0] > 0 and noise[-1] == 0
    assert levels[8].use_clock and not levels[1].use_clock
    with pytest.raises(ValueError):
        get_level(9)


def test_weak_levels_vary_and_strong_levels_take_free_material():
    fen = "4k3/8/8/3q4/8/8/3R4/K7 b - - 0 1"
    chosen = {choose_move("chess", None, [], None, 1, None, 0, seed=s) for s in range(12)}
    assert len(chosen) >= 3  # deliberate randomness at level 1
    for level in (6, 8):
        assert choose_move("chess", fen, [], None, level, 60_000, 0, seed=1) == "d5d2"


def test_choose_move_plays_legal_moves_in_both_variants():
    for variant in ("chess", "super16"):
        moves: list[str] = []
        board = Board(variant)
        for ply in range(4):
            text = choose_move(variant, None, moves, None, 3, 30_000, 0, seed=ply)
            assert text in {m.text for m in board.legal_moves}
            board.push_text(text)
            moves.append(text)


def test_root_moves_restrict_the_choice():
    # the hanging Rook is free, but the AI may only choose among the given moves
    fen = "4k3/8/8/3q4/8/8/3R4/K7 b - - 0 1"
    allowed = ["e8e7", "d5d6"]
    for level in (1, 5, 8):
        assert choose_move("chess", fen, [], None, level, 3_000, 0, root_moves=allowed, seed=3) in allowed


PRIVATE_FEN = make_fen("super16", {"a1": "K", "c3": "n", "p16": "k", "h2": "P"}, side="w")
TRUE_ROSTERS = (Roster(), Roster.parse("N:jump:1,1/-1,1/1,-1/-1,-1"))  # the hidden Knight: diagonal leaps


def test_root_move_illegal_in_the_believed_model_is_still_playable():
    # Under the true rosters the black Knight on c3 leaps diagonally, so Ka1-b1 is legal; the AI
    # believes in a default Knight (which attacks b1) and must still play the move it is given.
    truth = Board("super16", PRIVATE_FEN, TRUE_ROSTERS)
    legal = [m.text for m in truth.legal_moves]
    assert "a1b1" in legal
    believed = Board("super16", PRIVATE_FEN)
    assert "a1b1" not in {m.text for m in believed.legal_moves}
    assert choose_move("super16", PRIVATE_FEN, [], ({}, {}), 4, None, 0, root_moves=["a1b1"]) == "a1b1"
    for level in (1, 8):
        assert choose_move("super16", PRIVATE_FEN, [], ({}, {}), level, 5_000, 0, root_moves=legal, seed=1) in legal


def test_history_with_moves_only_the_hidden_roster_allows():
    # Player 2's Knight moves b16-b13 (a (0,3) leap in its hidden program); the AI (Player 1,
    # believing in default rosters) replays the game anyway and answers with a legal move
    rosters = (Roster(), Roster.parse("N:jump:0,3/1,2/2,1/-1,2/-2,1"))
    truth = Board("super16", None, rosters)
    for text in ("h2h4", "b16b13"):
        truth.push_text(text)
    legal = [m.text for m in truth.legal_moves]
    answer = choose_move("super16", None, ["h2h4", "b16b13"], ({}, {}), 3, 10_000, 0, root_moves=legal, seed=2)
    assert answer in legal
    believed = Board("super16")
    believed.push_text("h2h4")
    assert lenient_move(believed, "b16b13") & 0xFFFFF == (believed.cell("b16") | believed.cell("b13") << 10)


def test_choose_move_rejects_finished_games_and_bad_arguments():
    with pytest.raises(ValueError):
        choose_move("chess", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", [], None, 3, None, 0)
    with pytest.raises(ValueError):
        choose_move("chess", None, [], None, 9, None, 0)
    with pytest.raises(ValueError):
        choose_move("nochess", None, [], None, 3, None, 0)


def test_transposition_table_stays_bounded():
    from superchess.engine.evaluate import evaluator_for
    from superchess.engine.search import Searcher, TranspositionTable
    tt = TranspositionTable(0.2)
    size = len(tt)
    assert size & (size - 1) == 0  # a power of two, indexed by the hash's low bits
    board = make_board("chess", None, None)
    searcher = Searcher(board.engine_position(), evaluator_for("chess", board.engine_position().rosters), tt)
    searcher.search(Limits(depth=5))
    assert len(tt.slots) == size
    stored = [e for e in tt.slots if e is not None]
    assert stored and all(e[1] >= 1 for e in stored)
    assert board.fen() == Board("chess").fen()


def test_warm_up_prepares_every_variant():
    from superchess.engine import warm_up
    warm_up(("chess",))
    assert choose_move("chess", None, [], None, 1, 1_000, 0, seed=1) in {m.text for m in Board("chess").legal_moves}


def test_choose_move_runs_in_a_process_pool():
    from concurrent.futures import ProcessPoolExecutor

    from superchess.engine import warm_up
    with ProcessPoolExecutor(max_workers=1, initializer=warm_up, initargs=(("chess",),)) as pool:
        text = pool.submit(choose_move, "chess", None, ["e2e4"], ({}, {}), 2, 10_000, 100, None, 4).result(timeout=60)
    board = Board("chess")
    board.push_text("e2e4")
    assert text in {m.text for m in board.legal_moves}


def test_under_a_clock_each_timed_level_thinks_longer_than_the_one_below():
    """Levels 5-8 plan from the clock; below 8 a level uses a share of the plan, so the ladder holds
    at fast time controls, where the top levels' depth caps are never reached."""
    for clock in (10_000, 180_000, 1_800_000):
        soft = [level_limits(n, clock, 1_000, fullmove=10).soft_ms for n in (5, 6, 7, 8)]
        assert soft == sorted(soft) and len(set(soft)) == 4, (clock, soft)
        assert soft[-1] == budget(clock, 1_000, fullmove=10)[0]
