"""The InterGrid turn search (engine/intergrid_search.py): a turn searched as its two parts."""
from __future__ import annotations

from superchess.engine.intergrid_search import MATE, best_turn
from superchess.engine.play import choose_move
from superchess.rules import Board
from tests.rules import intergrid_reference as ig
from tests.rules.test_intergrid import pos


def test_finds_the_two_part_king_capture():
    """intergrid R7: g4g5 opens H3-G4-F5 for the point Bishop, which encloses e5 with E4."""
    b = Board("intergrid", ig.fen(pos({"g4": "P", "H3": "B", "E4": "R", "e5": "k", "a1": "K"})))
    result = best_turn(b, max_turns=1, movetime_ms=None)
    assert result.score > MATE // 2 and len(result.moves) == 2
    for text in result.moves:
        b.push_text(text)
    assert b.king(1) is None


def test_answers_mid_turn_with_a_legal_continuation():
    """intergrid R8: from the middle of a turn the search continues that turn."""
    b = Board("intergrid")
    b.push_text("e2e4")
    result = best_turn(b, max_turns=1, movetime_ms=None)
    assert result.moves[0] in {m.text for m in b.legal_moves} and result.depth == 1


def test_choose_move_plays_intergrid_through_the_servers_entry_point():
    """The server's `choose_move` answers an InterGrid position mid-turn with a legal continuation
    (intergrid R8: after the square move, a point move or `end`)."""
    board = Board("intergrid")
    board.push_text("e2e4")
    text = choose_move("intergrid", None, ["e2e4"], None, 1, 60_000, 0)
    assert text in {m.text for m in board.legal_moves}


def test_evaluation_is_symmetric_and_rewards_mobility():
    """The piece-square evaluation: 0 in the (mirror-symmetric) start array (intergrid 2) for either
    side to move; a Knight in the centre is worth more than one in the corner."""
    from superchess.engine.intergrid_search import evaluate
    start = Board("intergrid")
    assert evaluate(start.position) == 0
    start.push_turn("e2e4")
    start.push_turn("e7e5")
    assert evaluate(start.position) == 0
    centre = Board("intergrid", ig.fen(pos({"d4": "N", "a1": "K", "h8": "k"})))
    corner = Board("intergrid", ig.fen(pos({"h1": "N", "a1": "K", "h8": "k"})))
    assert evaluate(centre.position) > evaluate(corner.position) > 0


def test_incremental_evaluation_follows_every_cell_change():
    """The search keeps the piece-square sum by each move's cell changes (enclosures included,
    intergrid 4): along random turns it equals the sum computed from scratch."""
    import random

    from superchess.engine.intergrid_search import _Searcher, evaluate
    rng = random.Random(5)
    b = Board("intergrid")
    pos = b.position
    searcher = _Searcher(pos, None, None)
    for _ in range(40):
        moves = pos.moves()
        if not moves or min(pos.kings) < 0:
            break
        pos.make(rng.choice(moves))  # the square move
        searcher.material += searcher._delta()
        points = pos.moves()
        if points and rng.random() < 0.8:  # then a point move, or none (R8)
            pos.make(rng.choice(points))
            searcher.material += searcher._delta()
        pos.end_turn()
        assert searcher.material == evaluate(pos) * (-1 if pos.side else 1)
