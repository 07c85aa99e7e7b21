"""The engine on a board of the native core (issue 20): it searches a Python core copy of the
position (the search moves to the native core in issue 21) and finds what it finds on a Python
core board."""
from __future__ import annotations

import pytest

from superchess.engine.play import search_position
from superchess.engine.search import Limits
from superchess.rules import Board
from superchess.rules.core import native


@pytest.mark.skipif(not native.available(), reason="the native core is not built")
@pytest.mark.parametrize("variant, moves", [("chess", ["e2e4", "e7e5"]), ("vanguard", [])])
def test_the_engine_searches_a_python_copy_of_a_native_board(variant, moves):
    nat, py = Board(variant, core="native"), Board(variant, core="python")
    for text in moves:
        nat.push_text(text)
        py.push_text(text)
    copy = nat.engine_position()
    assert copy is not nat._pos and copy.hash == nat.zobrist_hash() and len(copy.stack) == len(moves)
    assert py.engine_position() is py._pos
    limits = dict(depth=2)
    assert search_position(nat, Limits(**limits), seed=1)[0] == search_position(py, Limits(**limits), seed=1)[0]
    assert nat.fen() == py.fen()
