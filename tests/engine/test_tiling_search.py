"""The Tiling Rider turn search (engine/tiling_search.py): a turn searched as a sequence of moves (beam
search), judged at its end (repetition, mate, the opponent's reply), the levels from levels.toml, and
`UCI_Variant tilingrider` answering the next move of its turn."""
from __future__ import annotations

import random
import tomllib
from dataclasses import asdict, replace
from importlib import resources

import pytest

from superchess.engine import tiling_search
from superchess.engine import choose_move
from superchess.engine.tiling_search import (
    MATE,
    RETRACT,
    TurnSearcher,
    best_turn,
    board_after,
    position_after,
    search_turn,
    tiling_levels,
)
from superchess.rules import Board, Piece
from superchess.rules.core.turns import END_TURN
from tests.oracles import tiling as T
from tests.oracles.tiling import position, random_position
from tests.rules.tiling.helpers import DEAD_END, board


def test_forms_an_aggregate_then_captures_a_whole_unit():
    """tiling T10, R10, R6: c7c6 forms the Rook c5-d6, which then takes all four Guards on c9-d10."""
    b = board({"c5": "W", "d5": "W", "d6": "W", "c7": "W", "c9": "g", "c10": "g", "d9": "g", "d10": "g"},
              allowance="3")
    result = best_turn(b, movetime_ms=None)
    assert result.moves[:2] == ["c7c6", "@c5c9"]
    for text in result.moves:  # the line is a legal turn, move by move
        b.push_text(text)
    if b.moves_in_turn:
        b.push_text(END_TURN)
    assert b.turn == 1 and Piece("G", 1) not in b.pieces().values()


def test_in_check_the_line_ends_safe():
    """tiling T9: the only legal turn is the King's step to g1-h2."""
    result = best_turn(board({"k4": "n"}), movetime_ms=None)
    assert result.moves == ["i1g1"]


def test_uci_plays_a_turn_move_by_move(uci):
    """UCI_Variant tilingrider: each `go` answers the next move of the turn (R12: `end` included),
    always legal; four answers complete White's exact first turn (R11)."""
    uci.send("setoption name UCI_Variant value tilingrider")
    played: list[str] = []
    b = Board("tilingrider")
    while b.turn == 0:
        uci.send("position startpos moves " + " ".join(played))
        uci.send("go movetime 300")
        move = uci.until("bestmove")[-1].split()[1]
        assert move in {m.text for m in b.legal_moves}
        b.push_text(move)
        played.append(move)
    assert len(played) == 4
    assert uci.close() == 0


def test_the_server_replay_reaches_the_same_position_as_the_board_and_the_computer_moves_legally():
    """board_after (what choose_move replays a game with) against pushing every move on the Board:
    the same position text, through the exact opening turns (R11, R13), turns ended
    by `end` and turns ended by their last allowed move (4.1)."""
    rng = random.Random(9)
    b = Board("tilingrider")
    while b.fullmove_number < 4:
        b.push(rng.choice(b.legal_moves))
        if len(b.move_stack) % 5 == 0 or not b.moves_in_turn:  # mid-turn (slow in exact turns) and at turn ends
            assert board_after(None, [m.text for m in b.move_stack]).fen() == b.fen()
    mid = Board("tilingrider", b.fen())  # a start position with an unfinished turn in it
    text = choose_move("tilingrider", b.fen(), [], None, 1, 10_000, 0)
    assert text in {m.text for m in mid.legal_moves}
    mid.push_text(text)
    assert board_after(b.fen(), [text]).fen() == mid.fen()


# ---------------------------------------------------------------- judging turn ends, look-ahead, levels

def shuffled(pieces: dict[str, str], history: list[str], **kw) -> Board:
    """The board after `history` (one-move turns, each `move end` or a last allowed move) from the
    position of `pieces`, so its earlier turn starts are known (4.3 repetition)."""
    b = board(pieces, **kw)
    for text in history:
        b.push_text(text)
        if b.moves_in_turn:
            b.push_text(END_TURN)
    return b


def turn_end_repeats(b: Board, moves: list[str]) -> bool:
    """Does ending the turn after `moves` reach a turn start seen before (4.3)?"""
    b = b.copy()
    for text in moves:
        b.push_text(text)
    if b.moves_in_turn:
        b.push_text(END_TURN)
    return b.repetition_count() > 1


SHUFFLE = ["c5d6", "p12p11", "d6c5", "p11p12"]  # White's and Black's Wazirs out and back: the start again


def test_a_repeating_turn_is_not_preferred_when_another_is_as_good():
    """tiling 4.3, R15, R5: after the Wazirs went out and back, White's best-looking turn c5d6 (the
    elongated step, forward and central) would repeat the position after White's first turn; the
    engine plays another turn, though without that history it plays exactly c5d6."""
    pieces = {"c5": "W", "p12": "w"}
    fresh = board(pieces, allowance="2")
    assert best_turn(fresh, movetime_ms=None).moves == ["c5d6"]
    b = shuffled(pieces, SHUFFLE, allowance="2")
    assert b.fen().split()[:3] == fresh.fen().split()[:3] and b.repetition_count() == 2
    result = best_turn(b, movetime_ms=None)
    assert not turn_end_repeats(b, result.moves)


def test_a_side_behind_repeats_for_the_draw():
    """tiling 4.3: a repetition scores as a draw from the mover's side, so a White a Knight and
    Guard down repeats (c5d6 back to the position after its first turn) rather than play on."""
    pieces = {"c5": "W", "p12": "w", "n14": "n", "g14": "g"}
    b = shuffled(pieces, SHUFFLE, allowance="2")
    result = best_turn(b, movetime_ms=None)
    assert turn_end_repeats(b, result.moves) and result.score == 0


MATING = {"q11": "W", "r11": "W", "q12": "W", "r12": "W",   # a Rook aggregate: @q11q15 checks along ranks 15-16
          "o13": "W", "p13": "W", "o14": "W", "p14": "W",   # a Rook aggregate holding ranks 13-14 (the King's escape)
          "g4": "W", "g5": "n"}                             # bait: a Knight for the taking


@pytest.mark.parametrize("level", [1, 8])
def test_a_mate_in_one_turn_is_found_at_every_level(level):
    """tiling 4.3, 4.2, 3.2: the Black King on a15-b16 with nothing to parry; one move (allowance 1)
    can take a Knight or mate by the Rook aggregate's ride to q15-r16. Every level mates."""
    b = board(MATING, allowance="1", kings=("i1", "a15"))
    result = best_turn(b, level, movetime_ms=None)
    assert result.moves == ["@q11q15"] and result.score == MATE
    b.push_text("@q11q15")
    assert b.is_checkmate()


HANGING = {"e5": "G", "e6": "f", "e7": "w"}  # Guard takes Ferz on e6, and the Wazir on e7 takes it back


def test_look_ahead_avoids_a_capture_that_loses_the_piece():
    """tiling 3.1, 4.1: GxF on e6 wins a Ferz now (and the evaluation alone plays it) but the Wazir
    on e7 takes the Guard back in Black's turn; the look-ahead (level 8) plays another move."""
    b = board(HANGING, allowance="1")
    greedy = TurnSearcher(b.position, replace(tiling_levels()[8], reply_width=0), None).best()
    assert greedy is not None and [b.position.move_text(m) for m in greedy[1]] == ["e5e6"]
    assert best_turn(b, 8, movetime_ms=None).moves != ["e5e6"]


def test_levels_are_read_from_the_levels_data_and_differ():
    """levels.toml: each level's `tiling` table is its Tiling Rider search; no two levels alike, the
    width never narrower up the levels, look-ahead at the top and not at the bottom."""
    data = tomllib.loads(resources.files("superchess.engine").joinpath("levels.toml").read_text())
    levels = tiling_levels()
    assert {n: asdict(lv) for n, lv in levels.items()} == {int(n): d["tiling"] for n, d in data.items()}
    assert len({lv for lv in levels.values()}) == len(levels) == 8
    assert [lv.width for lv in levels.values()] == sorted(lv.width for lv in levels.values())
    assert levels[1].reply_width == 0 < levels[8].reply_width and levels[1].noise_cp > levels[8].noise_cp


def test_the_server_plays_a_planned_turn_and_the_level_decides():
    """choose_move at level 8 follows one plan through its turn (R12: the moves one by one, each
    legal); level 3 (no look-ahead) takes the Ferz that level 8 leaves (tiling 3.1)."""
    fen = T.text(position(HANGING, allowance="1"))
    assert choose_move("tilingrider", fen, [], None, 3, None, 0) == "e5e6"
    assert choose_move("tilingrider", fen, [], None, 8, None, 0) != "e5e6"
    b, played = Board("tilingrider"), []
    while b.turn == 0:
        text = choose_move("tilingrider", None, played, None, 8, 2_000, 0)
        assert text in {m.text for m in b.legal_moves}
        b.push_text(text)
        played.append(text)
    assert len(played) == 4


def test_uci_level_option_sets_the_tiling_search(uci):
    """UCI `Level` chooses the level's Tiling Rider search: level 3 (no look-ahead) takes the Ferz on
    e6 and loses the Guard; level 8 does not (tiling 3.1)."""
    uci.send("setoption name UCI_Variant value tilingrider")
    fen = T.text(position(HANGING, allowance="1"))
    answers = {}
    for level in (3, 8):
        uci.send(f"setoption name Level value {level}")
        uci.send(f"position fen {fen}")
        uci.send("go movetime 3000")
        answers[level] = uci.until("bestmove")[-1].split()[1]
    assert answers[3] == "e5e6" and answers[8] != "e5e6"
    assert uci.close() == 0


def test_in_check_a_completion_is_found_beyond_the_beam():
    """tiling T9, 4.2: in check from the Knight on k4 with one move, two captures look best to level
    1's beam (2 lines) but leave the King in check; the search still finds the only legal turn."""
    b = board({"k4": "n", "c5": "W", "c6": "f", "o5": "G", "o6": "n"}, allowance="1")
    searcher = TurnSearcher(b.position, tiling_levels()[1], None)
    assert searcher.best() is None
    assert [b.position.move_text(m) for m in searcher.completion(1_000)] == ["i1g1"]
    assert best_turn(b, 1, movetime_ms=None).moves == ["i1g1"]


# ---------------------------------------------------------------- never stuck in a turn (R12, 4.2)

def play_out(fen: str, moves: list[str], level: int) -> tuple[list[str], list[str]]:
    """choose_move until the turn from `fen` ends, taking back on RETRACT as the server does; (the
    turn's moves, every answer given)."""
    answers: list[str] = []
    while len(answers) < 10:
        text = choose_move("tilingrider", fen, moves, None, level, None, 0)
        answers.append(text)
        if text == RETRACT:
            moves.pop()
            continue
        moves.append(text)
        if text == END_TURN or len(moves) == Board("tilingrider", fen).allowance:
            return moves, answers
    raise AssertionError(f"no turn end after {answers}")


@pytest.mark.parametrize("level", [1, 8])
def test_a_turn_that_leads_nowhere_is_taken_back_and_finished(level):
    """tiling R12, 4.2: mid-turn after k2l2 no completion exists; the engine finds none, answers
    RETRACT (the old one raised), then plays a whole legal turn: every move accepted by the Board,
    which ends with the King safe."""
    assert "k2l2" not in {m.text for m in Board("tilingrider", DEAD_END).legal_moves}
    assert search_turn(position_after(DEAD_END, ["k2l2"]), level, None).moves == []
    moves, answers = play_out(DEAD_END, ["k2l2"], level)
    assert answers[0] == RETRACT and "k2l2" not in moves
    b = Board("tilingrider", DEAD_END)
    for text in moves:
        b.push_text(text)
    assert b.turn == 1 and not T.is_check(T.parse(b.fen()), 0)


def test_every_line_found_in_check_is_a_whole_legal_turn():
    """tiling 4.2, R12: in seeded random positions in check (and mid-turn after random moves), the
    line the engine answers is a completion: pushed on the Board move by move (then `end` if the turn
    is still open) it ends the turn with the mover's King safe; it never stops half way."""
    rng, seen = random.Random(7), 0
    while seen < 12:
        b = Board("tilingrider", T.text(random_position(rng)))
        if not b.is_check() or not b.legal_moves:
            continue
        seen += 1
        mover = b.turn
        for _ in range(rng.randrange(b.allowance)):  # a few random moves of the turn first
            moves = [m for m in b.legal_moves if m.text != END_TURN]
            if not moves or b.moves_left == 1:
                break
            b.push(rng.choice(moves))
        result = best_turn(b, rng.choice([1, 8]), movetime_ms=None)
        for text in result.moves:
            b.push_text(text)
        if b.moves_in_turn:
            b.push_text(END_TURN)
        assert b.turn != mover and not T.is_check(T.parse(b.fen()), mover)


def test_a_turn_the_budgets_miss_is_finished_by_the_last_resort_search(monkeypatch):
    """tiling 4.2: when neither the beam nor the completion search finds a completion within its
    budget and there is nothing to take back (the turn's start), the computer still plays a whole
    legal turn, found by a completion search with a larger budget (it raised before)."""
    monkeypatch.setattr(tiling_search, "COMPLETION_BUDGET", 0)
    monkeypatch.setattr(tiling_search.TurnSearcher, "best", lambda self: None)
    monkeypatch.setattr(tiling_search, "_PLANS", {})
    assert search_turn(position_after(DEAD_END, []), 1, None).moves == []
    moves, answers = play_out(DEAD_END, [], 1)
    assert RETRACT not in answers
    b = Board("tilingrider", DEAD_END)
    for text in moves:
        b.push_text(text)
    assert b.turn == 1 and not T.is_check(T.parse(b.fen()), 0)
