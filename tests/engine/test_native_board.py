"""The engine on either core's board: a native board is searched natively as it stands; a Python
core board (a Private game's believed model replayed leniently) is copied into a native position
in the same state (its pieces listed in cell order, so a search's move order, and with it which of
two equal lines it keeps, may differ from the board's own position)."""
from __future__ import annotations

import pytest

from superchess import _native
from superchess.engine import native_search
from superchess.engine.evaluate import evaluator_for
from superchess.engine.play import search_position
from superchess.engine.search import Limits
from superchess.rules import Board
from superchess.rules.core import native


@pytest.mark.skipif(not native.available(), reason="the native core is not built")
@pytest.mark.parametrize("variant, moves", [("chess", ["e2e4", "e7e5"]), ("vanguard", [])])
def test_both_cores_boards_are_searched_alike(variant, moves):
    nat, py = Board(variant, core="native"), Board(variant, core="python")
    for text in moves:
        nat.push_text(text)
        py.push_text(text)
    own, history = nat.native_position()
    assert own is nat.native_position()[0] and history == []  # the board's own position, with its history
    copy, history = py.native_position()
    assert copy.hash == py.zobrist_hash() and len(history) == len(moves)  # a copy, the history's hashes beside
    ev = native_search.evaluation(evaluator_for(own.variant, own.rosters))
    probe = _native.Searcher(1)
    assert probe.evaluate(own, ev)[:2] == probe.evaluate(copy, ev)[:2]  # the same material and tables
    assert {m.text for m in nat.legal_moves} == {m.text for m in py.legal_moves}
    legal = {m.text for m in nat.legal_moves}
    for board in (nat, py):
        native_search.forget()
        move, result = search_position(board, Limits(depth=3), seed=1)
        assert move in legal and result.depth == 3
    assert nat.fen() == py.fen()


def test_with_the_python_core_selected_the_python_search_plays(monkeypatch):
    monkeypatch.setenv("SUPERCHESS_CORE", "python")
    board = Board("chess")
    assert board.core == "python" and board.native_position() is None
    move, r = search_position(board, Limits(depth=2), seed=1)
    assert move in {m.text for m in board.legal_moves} and r.seldepth == 0  # the native search reports one
