"""Game records (issue: text formats): export and parse round trips (the default array, a FEN with
rosters, finished and claimed games), clear errors, and draw claims."""
from __future__ import annotations

import random

import pytest

from superchess.rules import Program, Roster, Termination
from superchess.rules.game.record import Game, RecordError
from tests.rules.helpers import board_with


def _random_game(variant, seed, plies, rosters=None, fen=None):
    rng = random.Random(seed)
    g = Game(variant, fen, rosters)
    for _ in range(plies):
        if g.outcome:
            break
        g.play(rng.choice(g.board.legal_moves).text)
    return g


def test_record_round_trip_default_array():
    g = _random_game("super16", 3, 60)
    g.resign(1)
    text = g.export()
    assert '[Variant "super16"]' in text and "[FEN" not in text and "Roster" not in text
    assert '[Result "1-0"]' in text and '[Termination "resignation"]' in text
    h = Game.parse(text)
    assert [m.text for m in h.board.move_stack] == [m.text for m in g.board.move_stack]
    assert h.board.fen() == g.board.fen() and h.outcome == g.outcome
    assert h.export() == text


def test_record_round_trip_with_fen_and_rosters():
    r1 = Roster({"N": Program("jump", ((0, 3), (1, 1)))})
    r2 = Roster({"Q": Program("step", ((0, 4), (2, 4)))})
    fen = board_with({"a1": "K", "p16": "k", "h8": "N", "h12": "q", "c4": "P"}, side="b").fen()
    g = _random_game("super16", 5, 30, (r1, r2), fen)
    text = g.export()
    assert f'[FEN "{fen}"]' in text and '[SetUp "1"]' in text
    assert '[Roster1 "N:jump:0,3/1,1"]' in text and '[Roster2 "Q:step:0,4/2,4"]' in text
    assert text.split("\n\n")[1].startswith("1...")  # Player 2 moved first
    h = Game.parse(text)
    assert h.board.rosters == g.board.rosters and h.board.fen() == g.board.fen()
    assert h.export() == text


def test_record_of_a_finished_game_keeps_its_termination():
    g = Game("super16")
    for text in ["b1a3", "b16a14", "a3b1", "a14b16"] * 2:
        g.play(text)
    assert g.outcome.termination is Termination.REPETITION
    h = Game.parse(g.export())
    assert h.outcome == g.outcome and h.result() == "1/2-1/2"


def test_chess_record_round_trip_with_claimed_draw():
    g = Game("chess")
    for text in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]:
        g.play(text)
    g.claim_draw()  # Black's f6g8 would repeat the start a third time
    assert g.outcome.claimed and g.outcome.termination is Termination.REPETITION
    h = Game.parse(g.export())
    assert h.outcome == g.outcome


@pytest.mark.parametrize("text,message", [
    ('[Variant "super16"]\n\n1. h2h5 *', "move 1: no legal move is written 'h2h5'"),
    ('[Variant "nope"]\n\n*', "unknown variant"),
    ('[Variant "super16"\n\n*', "bad header"),
    ('[Variant "super16"]\n[Result "1-0"]\n\n1. h2h4 0-1', "differs from the Result header"),
    ('[Variant "super16"]\n[Result "1-0"]\n[Termination "checkmate"]\n\n1. h2h4 1-0', "does not end in checkmate"),
    ('[Variant "super16"]\n[Roster1 "N:jump:0,0"]\n\n*', r"\(0, 0\)"),
])
def test_record_errors(text, message):
    with pytest.raises((RecordError, ValueError), match=message):
        Game.parse(text)


def test_claiming_without_a_claimable_draw_is_refused():
    g = Game("super16")
    with pytest.raises(RecordError, match="no draw can be claimed"):
        g.claim_draw()
    assert g.outcome is None
