"""The main search on a pasted diagram that promotes by choice (issue 7, promoChoice): every choice
is a root move of its own, and the search takes the Rook while promoting to the Queen."""
from __future__ import annotations

from superchess.engine.play import search_position
from superchess.engine.search import Limits
from superchess.rules import Board
from superchess.rules.diagram.variant import rules_from_diagram
from tests.rules.diagram.helpers import ORTHODOX_BY_CHOICE


def test_search_promotes_to_the_queen_with_a_capture():
    b = Board(rules_from_diagram(ORTHODOX_BY_CHOICE), "r3k3/1P6/8/8/8/8/8/4K3 w - 0 1")
    text, result = search_position(b, Limits(depth=2))
    assert text == "b7a8q"
    scores = {b.move_of(m).text: s for m, s in result.root_scores.items()}
    assert {f"b7a8{p}" for p in "qrbn"} <= scores.keys()
    assert scores["b7a8q"] > scores["b7a8n"] and scores["b7a8q"] > scores["b7b8q"]
