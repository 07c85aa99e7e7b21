"""The engine on Vanguard (diagram variant): the main search (TT, levels) over the core position,
values from movement, multi-capture moves valued by all they take (Berserker double capture V6,
Helepolis run R6), mate by the two-royal rules (4.3, 4.4, R15), and a short UCI conversation."""
from __future__ import annotations

from superchess.engine import choose_move
from superchess.engine.diagram_values import piece_values
from superchess.engine.play import search_position
from superchess.engine.search import MATE_BOUND, Limits
from superchess.rules import Board
from tests.engine.conversation import Conversation
from tests.rules.diagram.helpers import DOUBLE_MATE, fen_of

V6 = {"b2": "E", "a1": "R", "b1": "B", "c1": "N", "a2": "P", "a3": "P", "b3": "P", "c2": "P", "c3": "n",
      "d4": "p", "p1": "K", "p16": "k"}


def test_values_come_from_movement():
    b = Board("vanguard")
    v = piece_values(b.variant)
    idx = b.variant.type_index
    assert v[idx("K")] == 0
    assert v[idx("Q")] > v[idx("R")] > v[idx("B")]
    assert v[idx("S")] > v[idx("B")] and v[idx("C")] > v[idx("R")]  # Princess, Chancellor add Knight leaps
    assert v[idx("H")] == v[idx("R")]  # the Helepolis's extra moves need victims or an unmoved right
    assert v[idx("N")] > v[idx("I")]  # Teutonic Knight: 20 leaps; Prince: 12
    assert min(x for x in v[1:] if x) >= 100


def test_multi_capture_moves_are_valued_by_all_they_take():
    b = Board("vanguard", fen_of(V6))
    v = piece_values(b.variant)
    value = [0] * 128  # by piece code: side << 6 | type index
    for ti, x in enumerate(v):
        value[ti] = value[64 | ti] = x
    double = b.parse_move("b2d4xc3")
    single = b.parse_move("b2c3")
    n, p = v[b.variant.type_index("N")], v[b.variant.type_index("P")]
    assert b.engine_position().capture_gain(double.code, value) == n + p
    assert [piece.letter for _, piece in b.captures(single)] == ["N"]
    text, result = search_position(b, Limits(depth=1))  # deeper, the Pawn falls on the next move anyway
    assert text == "b2d4xc3"
    assert result.root_scores[double.code] > result.root_scores[b.parse_move("b2d3xc3").code]


def test_search_takes_both_rooks_with_a_helepolis_run():
    b = Board("vanguard", fen_of({"d4": "H", "f4": "r", "h4": "r", "d6": "n", "p1": "K", "a16": "k"}))
    text, _ = search_position(b, Limits(depth=1))
    assert [piece.letter for _, piece in b.captures(b.parse_move(text))] == ["R", "R"]
    assert text in {"d4h4xf4"} | {f"d4{f}4xf4xh4" for f in "ijklmnop"}


def test_uci_conversation_vanguard():
    uci = Conversation()
    try:
        uci.send("uci")
        assert "var vanguard" in next(line for line in uci.until("uciok") if "name UCI_Variant" in line)
        uci.send("setoption name UCI_Variant value vanguard")
        uci.send("position startpos moves c2d4 n15m13")
        uci.send("go depth 1")
        lines = uci.until("bestmove")
        assert any(line.startswith("info depth 1 ") for line in lines)
        board = Board("vanguard")
        board.push_text("c2d4")
        board.push_text("n15m13")
        assert lines[-1].split()[1] in {m.text for m in board.legal_moves}
        uci.send(f"position fen {fen_of(V6)}")
        uci.send("go depth 1")
        assert uci.until("bestmove")[-1] == "bestmove b2d4xc3"
        assert uci.close() == 0
    finally:
        if uci.proc.poll() is None:
            uci.proc.kill()


def test_capture_search_sees_the_recapture():
    """Depth 1 plus quiescence: the Queen does not take a Pawn that another Pawn defends."""
    b = Board("vanguard", fen_of({"d4": "Q", "e5": "p", "f6": "p", "p1": "K", "a16": "k"}))
    assert "d4e5" in {m.text for m in b.legal_moves}
    text, _ = search_position(b, Limits(depth=1))
    assert text != "d4e5"
    undefended = Board("vanguard", fen_of({"d4": "Q", "e5": "p", "p1": "K", "a16": "k"}))
    assert search_position(undefended, Limits(depth=1))[0] == "d4e5"


def test_main_search_finds_a_double_checkmate():
    """4.4 in the tree: the Falconer's G leap checks the King while the Prince is attacked and
    every square it could step to is covered; the search scores the mate and plays it."""
    pieces = {k: v for k, v in DOUBLE_MATE.items() if k != "d13"} | {"b11": "F"}
    b = Board("vanguard", fen_of(pieces))
    text, result = search_position(b, Limits(depth=2))
    assert result.score > MATE_BOUND
    b.push_text(text)
    assert b.is_checkmate() and b.outcome().winner == 0


def test_choose_move_plays_vanguard_at_a_level():
    """The server's entry point: the level's limits, the main search, a legal move text."""
    text = choose_move("vanguard", None, ["c2d4"], None, level=2, time_left_ms=60_000, increment_ms=0, seed=1)
    b = Board("vanguard")
    b.push_text("c2d4")
    assert text in {m.text for m in b.legal_moves}


def test_warm_up_prepares_vanguard():
    """The AI's process-pool initializer compiles Vanguard's tables and evaluator too."""
    from superchess.engine import warm_up
    from superchess.engine.evaluate import _own_evaluators
    warm_up(("vanguard",))
    variant = Board("vanguard").engine_position().variant
    assert _own_evaluators[id(variant)][0] is variant


def test_self_play_keeps_the_position_and_plays_legal_moves():
    """The main search over many Vanguard positions (captures forced early so pieces meet): each
    answer is legal and the searched board is left as it was (make/unmake, records, unmoved
    rights and the hash restored)."""
    import random
    rng = random.Random(5)
    b = Board("vanguard")
    for ply in range(60):
        moves = b.legal_moves
        if not moves:
            break
        if ply < 12:
            b.push(rng.choice([m for m in moves if m.captured] or moves))
            continue
        fen, h = b.fen(), b.zobrist_hash()
        text, _ = search_position(b, Limits(depth=1, nodes=5_000))
        assert (b.fen(), b.zobrist_hash()) == (fen, h)
        assert text in {m.text for m in moves}
        b.push_text(text)
