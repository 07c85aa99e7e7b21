"""`superchess engine`: UCI over a pipe, with a plain conversation (super16) and with python-chess's
engine module as a real client (orthodox chess)."""
from __future__ import annotations

import random

import chess
import chess.engine
import pytest

from superchess.rules import Board
from tests.engine.conversation import ENGINE, TIMEOUT


def test_super16_conversation(uci):
    uci.send("uci")
    lines = uci.until("uciok")
    assert any(line.startswith("id name ") for line in lines)
    variant = next(line for line in lines if "name UCI_Variant" in line)
    assert "var super16" in variant and "var chess" in variant and "type combo" in variant
    uci.send("setoption name UCI_Variant value super16")
    uci.send("isready")
    assert uci.until("readyok")[-1] == "readyok"
    uci.send("position startpos moves h2h4")
    uci.send("go depth 2")
    lines = uci.until("bestmove")
    infos = [line.split() for line in lines if line.startswith("info depth")]
    assert [int(w[2]) for w in infos] == [1, 2]
    for w in infos:
        assert "score" in w and "nodes" in w and "nps" in w and "pv" in w
    move = lines[-1].split()[1]
    board = Board("super16")
    board.push_text("h2h4")
    assert move in {m.text for m in board.legal_moves}
    assert uci.close() == 0


def test_intergrid_turn_in_two_parts(uci):
    """UCI_Variant intergrid: the engine answers the next move of its turn; in I4 (intergrid) the
    square move b2d2 takes the Knight by displacement and the Bishop on E2 by enclosure."""
    uci.send("uci")
    assert "var intergrid" in next(line for line in uci.until("uciok") if "name UCI_Variant" in line)
    uci.send("setoption name UCI_Variant value intergrid")
    uci.send("position startpos moves e2e4 G1E2 e7e5")
    uci.send("go depth 1")
    move = uci.until("bestmove")[-1].split()[1]
    board = Board("intergrid")
    for text in ("e2e4", "G1E2", "e7e5"):
        board.push_text(text)
    assert move in {m.text for m in board.legal_moves}  # a point move or `end` of Black's turn
    uci.send("position fen 8/7k/8/7K/8/4R3/1Q1n4/8 9/9/9/9/9/9/4b4/9/9 w - - 0 1")
    uci.send("go depth 1")
    assert uci.until("bestmove")[-1] == "bestmove b2d2"
    assert uci.close() == 0


def test_stop_ends_an_infinite_search(uci):
    uci.send("setoption name UCI_Variant value super16")
    uci.send("position startpos")
    uci.send("go infinite")
    uci.until("info depth 2")  # it is thinking
    uci.send("isready")        # answered while searching
    uci.until("readyok")
    uci.send("stop")
    move = uci.until("bestmove")[-1].split()[1]
    assert move in {m.text for m in Board("super16").legal_moves}
    assert uci.close() == 0


def test_bad_input_gives_info_string_errors_and_the_session_survives(uci):
    for bad in ("position fen not a fen", "position startpos moves e2e5", "setoption name UCI_Variant value xiangqi",
                "go depth x", "frobnicate", "setoption name Roster1 value N:jump:0,0", "position"):
        uci.send(bad)
        line = uci.until("info string")[-1]
        assert line.startswith("info string error:"), line
    uci.send("isready")
    uci.until("readyok")
    uci.send("position startpos moves e2e4")  # the last good position is used
    uci.send("go depth 1")
    move = uci.until("bestmove")[-1].split()[1]
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(move) in board.legal_moves
    assert uci.close() == 0


def test_a_reprogrammed_roster_over_uci(uci):
    uci.send("setoption name UCI_Variant value super16")
    uci.send("setoption name Roster1 value N:jump:0,3/1,2/2,1/-1,2/-2,1")
    uci.send("position startpos moves b1b4")  # legal only with the reprogrammed Knight
    uci.send("go depth 1")
    lines = uci.until("bestmove")
    assert not any("error" in line for line in lines)
    assert uci.close() == 0


# -- python-chess as the client ----------------------------------------------------------------
@pytest.fixture(scope="module")
def engine():
    eng = chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=TIMEOUT)
    yield eng
    eng.quit()


def play_game(engine, limit_white, limit_black, plies: int, rng: random.Random | None = None) -> chess.Board:
    """Engine (or a random mover, for the side whose limit is None) until the end or `plies`."""
    board = chess.Board()
    engine.configure({"Hash": 8})
    for _ in range(plies):
        if board.is_game_over(claim_draw=True):
            break
        limit = limit_white if board.turn == chess.WHITE else limit_black
        if limit is None:
            move = rng.choice(list(board.legal_moves))
        else:
            result = engine.play(board, limit)
            move = result.move
            assert move in board.legal_moves, (board.fen(), move)
        board.push(move)
    return board


def test_python_chess_games_against_itself_at_several_limits(engine):
    play_game(engine, chess.engine.Limit(depth=2), chess.engine.Limit(nodes=400), 40)
    play_game(engine, chess.engine.Limit(time=0.05), chess.engine.Limit(depth=1), 30)


def test_python_chess_game_against_a_random_mover_is_won(engine):
    rng = random.Random(5)
    board = play_game(engine, chess.engine.Limit(depth=3), None, 120, rng)
    # the engine does not lose to random moves; usually it mates well within the cap
    assert board.outcome() is None or board.outcome().winner in (chess.WHITE, None)
    assert board.outcome() is not None and board.outcome().winner == chess.WHITE


def test_python_chess_analyse_and_promotion(engine):
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=3))
    assert info["depth"] == 3
    assert isinstance(info["score"].relative.score(), int)
    board = chess.Board()
    for move in info["pv"]:
        assert move in board.legal_moves
        board.push(move)
    # the Black King beside the pawn: promoting at once is the only move that keeps it
    board = chess.Board("8/P7/1k6/8/8/8/8/K7 w - - 0 1")
    result = engine.play(board, chess.engine.Limit(depth=2))
    assert result.move == chess.Move.from_uci("a7a8q")
    mate = engine.analyse(chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), chess.engine.Limit(depth=3))
    assert mate["score"].relative.mate() == 1


def test_superchess_conversation_with_holdings(uci):
    """UCI_Variant superchess: a FEN with holdings, moves after it, promotion only to a held piece."""
    uci.send("uci")
    assert "var superchess" in next(line for line in uci.until("uciok") if "name UCI_Variant" in line)
    uci.send("setoption name UCI_Variant value superchess")
    uci.send("position fen 4k3/1P6/8/3E4/8/5b2/8/4K3[] b - - 0 1 moves f3d5")
    uci.send("go depth 3")
    assert uci.until("bestmove")[-1] == "bestmove b7b8e"  # the captured Empress came back to hand
    uci.send("position startpos moves e2e4")
    uci.send("go depth 2")
    board = Board("superchess")
    board.push_text("e2e4")
    assert uci.until("bestmove")[-1].split()[1] in {m.text for m in board.legal_moves}
    assert uci.close() == 0
