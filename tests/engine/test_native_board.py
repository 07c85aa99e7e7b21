"""The engine on either core's board: a native board is searched natively as it stands; a Python
core board (a Private game's believed model replayed leniently) is copied into a native position
in the same state, so both find the same move."""
from __future__ import annotations

import pytest

from superchess.engine import native_search
from superchess.engine.play import search_position
from superchess.engine.search import Limits
from superchess.rules import Board, native


@pytest.mark.skipif(not native.available(), reason="the native core is not built")
@pytest.mark.parametrize("variant, moves", [("chess", ["e2e4", "e7e5"]), ("vanguard", [])])
def test_both_cores_boards_are_searched_alike(variant, moves):
    nat, py = Board(variant, core="native"), Board(variant, core="python")
    for text in moves:
        nat.push_text(text)
        py.push_text(text)
    assert native_search.usable(nat) and native_search.usable(py)
    limits = dict(depth=3)
    native_search.forget()
    first = search_position(nat, Limits(**limits), seed=1)
    native_search.forget()
    second = search_position(py, Limits(**limits), seed=1)
    assert first[0] == second[0] and first[1].score == second[1].score
    assert nat.fen() == py.fen()
