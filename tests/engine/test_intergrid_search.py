"""The InterGrid turn search (engine/intergrid_search.py): a turn searched as its two parts."""
from __future__ import annotations

from superchess.engine import choose_move
from superchess.engine.intergrid_search import MATE, best_turn
from superchess.rules import Board
from tests.engine.conversation import Conversation
from tests.rules.intergrid.helpers import board


def test_finds_the_two_part_king_capture():
    """intergrid R7: g4g5 opens H3-G4-F5 for the point Bishop, which encloses e5 with E4."""
    b = board({"g4": "P", "H3": "B", "E4": "R", "e5": "k", "a1": "K"})
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
    centre = board({"d4": "N", "a1": "K", "h8": "k"})
    corner = board({"h1": "N", "a1": "K", "h8": "k"})
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


# intergrid 4.2, R4, R6: Black's point Rooks D4 and E8 guard d5 by enclosure: after Qd1xd5, E8-E5
# arrives on the corner opposite D4 and removes the Queen. Without D4 the pawn is simply lost.
POISONED_PAWN = "7k/8/8/3p4/8/8/8/K2Q4 4r4/9/9/9/3r5/9/9/9/9 w - - 0 1"
FREE_PAWN = "7k/8/8/3p4/8/8/8/K2Q4 4r4/9/9/9/9/9/9/9/9 w - - 0 1"


def _quiescence_after(fen: str, turn: str) -> tuple[int, int]:
    """(static score, capture-search score) for the side to move after `turn`."""
    from superchess.engine.intergrid_search import QS_TURNS, _Searcher
    b = Board("intergrid", fen)
    b.push_turn(turn)
    searcher = _Searcher(b.position, None, None)
    return searcher._static(), searcher._quiesce(-2 * MATE, 2 * MATE, 0, QS_TURNS)


def test_quiescence_sees_the_enclosure_answer_the_static_score_misses():
    """intergrid 4.2/R4: after Qxd5 the static score counts Black a pawn down; the capture search
    finds the quiet square move plus E8-E5 that encloses the Queen (more than a Rook's worth)."""
    from superchess.engine.intergrid_search import VALUES
    static, quiet = _quiescence_after(POISONED_PAWN, "d1d5")
    assert quiet - static > VALUES["R"]
    static, quiet = _quiescence_after(FREE_PAWN, "d1d5")  # no partner on D4: nothing to take (R6)
    assert quiet == static


def test_one_turn_search_leaves_the_poisoned_pawn():
    """intergrid 4.2: searching White's one turn, the capture search at the horizon keeps the Queen
    off d5 while an enclosure guards it, and takes the pawn when none does."""
    assert best_turn(Board("intergrid", POISONED_PAWN), max_turns=1, movetime_ms=None).moves[0] != "d1d5"
    assert best_turn(Board("intergrid", FREE_PAWN), max_turns=1, movetime_ms=None).moves[0] == "d1d5"


def test_mate_in_one_turn_is_found():
    """intergrid 5 (checkmate, judged at the end of the turn, R7): Ra1-a8 then `end` mates the
    King on h8 behind its pawns; searching one turn, the King attacked at the horizon gets its
    answers searched (none), so the search scores it as mate, and the rules agree."""
    b = Board("intergrid", "7k/6pp/8/8/8/8/8/R1K5 9/9/9/9/9/9/9/9/9 w - - 0 1")
    result = best_turn(b, max_turns=1, movetime_ms=None)
    assert result.score > MATE // 2
    for text in result.moves[:2]:
        b.push_text(text)
    assert b.moves_in_turn == 0 and b.is_checkmate()


# a sparse middlegame where the levels' depths and node caps, not the clock, decide
LEVEL_POSITION = "7k/6p1/8/3p4/8/8/1P6/K2Q4 4r4/5n3/9/9/3r5/9/9/2N6/9 w - - 0 1"


def test_levels_come_from_the_level_data(monkeypatch):
    """The levels (levels.toml) set the turns searched (`depth`), the node cap, noise and margin:
    level 1 searches one turn, level 4 deeper within its node cap; a changed level is obeyed."""
    import dataclasses

    from superchess.engine import intergrid_search
    from superchess.engine.levels import get_level
    b = Board("intergrid", LEVEL_POSITION)
    weak = intergrid_search.level_turn(b, 1, None, seed=1)
    strong = intergrid_search.level_turn(b, 4, None, seed=1)
    assert weak.depth == get_level(1).depth < strong.depth <= get_level(4).depth
    assert strong.nodes <= get_level(4).nodes + 1
    monkeypatch.setattr(intergrid_search, "get_level", lambda n: dataclasses.replace(get_level(n), depth=2, nodes=0))
    assert intergrid_search.level_turn(b, 1, None, seed=1).depth == 2


def test_low_levels_vary_their_choice_and_high_levels_do_not():
    """Level 1's noise and margin (levels.toml) spread its first moves over seeds, all legal; level 8
    has neither, so one turn searched gives the same move whatever the seed."""
    from superchess.engine.intergrid_search import level_turn
    b = Board("intergrid")
    chosen = {level_turn(b, 1, None, seed=s).moves[0] for s in range(8)}
    assert len(chosen) > 1 and chosen <= {m.text for m in b.legal_moves}  # square moves first (R8)
    assert len({level_turn(b, 8, None, max_turns=1, seed=s).moves[0] for s in range(4)}) == 1


def test_uci_level_option_sets_the_intergrid_search():
    """UCI (`UCI_Variant intergrid`, Level): a plain `go` searches as the level does (levels.toml),
    level 1 one turn, level 4 deeper; `go depth` still caps the turns."""
    from superchess.engine.levels import get_level
    uci = Conversation()
    try:
        uci.send("setoption name UCI_Variant value intergrid")
        uci.send(f"position fen {LEVEL_POSITION}")
        depths = {}
        for level, go in ((1, "go"), (4, "go"), (4, "go depth 1")):
            uci.send(f"setoption name Level value {level}")
            uci.send(go)
            lines = uci.until("bestmove")
            depths[level, go] = max(int(line.split()[2]) for line in lines if line.startswith("info depth"))
        assert depths[1, "go"] == get_level(1).depth < depths[4, "go"] <= get_level(4).depth
        assert depths[4, "go depth 1"] == 1
    finally:
        assert uci.close() == 0


def test_capture_search_counts_the_edge_rule():
    """intergrid 4.4 (edge rule, R5): a square-piece arriving on a4 removes the lone enemy
    point-piece on the edge point A4; the capture search counts it (the rules' own `captures` say
    what the move takes) and stands above the static score by about that piece."""
    from superchess.engine.intergrid_search import QS_TURNS, VALUES, _Searcher
    b = board({"a1": "R", "h1": "K", "h8": "k", "A4": "n"})
    taken = [piece.symbol() for _, piece in b.captures(b.parse_move("a1a4"))]
    assert taken == ["n"]
    searcher = _Searcher(b.position, None, None)
    gains = searcher._gains(b.position.moves())
    assert max(gains.values()) == VALUES["N"]
    assert searcher._quiesce(-2 * MATE, 2 * MATE, 0, QS_TURNS) - searcher._static() > VALUES["N"] // 2
