"""Superchess (../shared/rules/superchess.md): the worked examples E1-E9 and rulings R1-R12."""
from __future__ import annotations

import pytest

from superchess.rules import Board, IllegalMoveError, get_variant
from superchess.rules.core.fen import FenError
from superchess.rules.game.setups import random_substitution, substitution_fen, substitution_setups
from tests.rules.helpers import board_with, dests

V = get_variant("superchess")


def sc(pieces, **kw) -> Board:
    return board_with(pieces, variant="superchess", **kw)


def texts(board: Board, square: str | None = None) -> set[str]:
    return {m.text for m in board.legal_moves if square is None or m.text.startswith(square)}


# -- set-up: R1-R3, E1, E2 ----------------------------------------------------------------------
def test_e1_explicit_setup():
    fen = substitution_fen(V, {"b1": "V", "d1": "A", "f1": "S", "g1": "E"})
    b = Board("superchess", fen)
    assert fen.split()[0].startswith("rvbakser/pppppppp/8/8/8/8/PPPPPPPP/RVBAKSER[")
    assert b.holdings(0) == {"N": 2, "Q": 1, "B": 1} == b.holdings(1)
    assert b.fen() == Board("superchess", "rvbakser/pppppppp/8/8/8/8/PPPPPPPP/RVBAKSER[NQBNnqbn] w KQkq - 0 1").fen()


def test_e2_exactly_432_setups_and_invalid_ones_are_refused():
    setups = substitution_setups(V)
    assert len(setups) == 432 == len({tuple(sorted(s.items())) for s in setups})
    fens = {substitution_fen(V, s) for s in setups}
    assert len(fens) == 432
    for s in setups:  # R1: two per wing, never e1, one of each substitute
        assert sorted(s.values()) == ["A", "E", "S", "V"] and "e1" not in s
        assert sum(sq[0] in "abcd" for sq in s) == 2 and sum(sq[0] in "fgh" for sq in s) == 2
    for bad, message in (({"e1": "V", "d1": "A", "f1": "S", "g1": "E"}, "e1 cannot"),
                         ({"a1": "V", "b1": "A", "c1": "S", "g1": "E"}, "exactly 2 squares among a1"),
                         ({"b2": "V", "d1": "A", "f1": "S", "g1": "E"}, "b2 cannot"),
                         ({"b1": "V", "d1": "V", "f1": "S", "g1": "E"}, "exactly once"),
                         ({"b1": "Q", "d1": "A", "f1": "S", "g1": "E"}, "not a substitute")):
        with pytest.raises(FenError, match=message):
            substitution_fen(V, bad)


def test_random_setups_are_reproducible_from_a_seed_and_vary():
    assert random_substitution(V, 7) == random_substitution(V, 7)
    assert len({tuple(sorted(random_substitution(V, seed).items())) for seed in range(40)}) > 20


def test_r2_queen_and_rooks_may_be_replaced_and_r3_they_are_held():
    b = Board("superchess", substitution_fen(V, {"a1": "E", "d1": "A", "g1": "V", "h1": "S"}))
    assert b.holdings(0) == {"R": 2, "Q": 1, "N": 1}
    assert b.piece_at("d8").symbol() == "a" and b.piece_at("a8").symbol() == "e"  # Black copies file by file


# -- pieces: E3, E4, R8 ---------------------------------------------------------------------------
def test_e3_amazon_has_exactly_26_destinations():
    b = sc({"d4": "A", "c2": "K", "b2": "P", "f6": "P", "h8": "k", "d6": "p", "e6": "b", "g4": "n"})
    assert dests(b, "d4") == set("d5 d6 d3 d2 d1 e4 f4 g4 c4 b4 a4 e5 c5 b6 a7 e3 f2 g1 c3 "
                                 "b3 b5 c6 e2 e6 f3 f5".split())


def test_e4_veteran_steps_and_leaps_r8_and_is_not_royal():
    b = sc({"a1": "K", "g1": "V", "h1": "R", "f2": "P", "g2": "P", "h2": "P", "h8": "k", "f3": "n"})
    assert dests(b, "g1") == {"f1", "e2", "h3", "f3"}
    attacked = sc({"a1": "K", "d4": "V", "h8": "k", "d8": "r"}, side="w")
    assert not attacked.is_check()  # a Veteran under attack is no check
    assert "d4d5" in texts(attacked)


# -- holdings, captures, promotion: R4-R7, E5-E8 ------------------------------------------------------
def test_e5_promotion_offers_exactly_the_held_types_and_uses_one():
    b = sc({"e1": "K", "e7": "P", "a5": "k"}, holdings="NQBN")
    assert texts(b, "e7") == {"e7e8q", "e7e8b", "e7e8n"}
    b.push_text("e7e8q")
    assert b.holdings(0) == {"N": 2, "B": 1}
    with pytest.raises(IllegalMoveError, match="choices"):
        sc({"e1": "K", "e7": "P", "a5": "k"}, holdings="NQBN").push_text("e7e8r")


def test_e6_with_empty_holdings_a_pawn_cannot_reach_the_last_rank_but_still_gives_check():
    b = sc({"a1": "K", "g7": "P", "h8": "k"}, side="b")
    assert b.is_check()
    assert texts(b) == {"h8g8", "h8h7", "h8g7"}
    assert texts(sc({"a1": "K", "g7": "P", "a8": "k"}), "g7") == set()


def test_e7_a_captured_piece_joins_its_owners_holdings_and_can_return_by_promotion():
    b = sc({"e1": "K", "d4": "E", "b7": "P", "h8": "k", "f6": "b"}, side="b")
    b.push_text("f6d4")
    assert b.holdings(0) == {"E": 1} and b.holdings(1) == {}
    assert texts(b, "b7") == {"b7b8e"}
    b.push_text("b7b8e")
    assert b.holdings(0) == {} and b.piece_at("b8").symbol() == "E"
    b.pop()
    b.pop()
    assert b.holdings(0) == {} and b.piece_at("d4").symbol() == "E"  # unmake restores holdings


def test_e8_a_captured_amazon_or_pawn_leaves_the_game():
    b = sc({"e1": "K", "d4": "A", "b7": "P", "h8": "k", "f6": "b"}, side="b")
    b.push_text("f6d4")
    assert b.holdings(0) == {} and texts(b, "b7") == set()
    b = sc({"e1": "K", "d4": "P", "h8": "k", "f6": "b"}, side="b")
    b.push_text("f6d4")
    assert b.holdings(0) == {}


def test_r5_a_promoted_piece_returns_as_its_current_type():
    b = sc({"e1": "K", "b7": "P", "h8": "k", "c8": "r"}, holdings="S")
    b.push_text("b7b8s")
    b.push_text("c8b8")
    assert b.holdings(0) == {"S": 1}


# -- castling: R9, E9 ---------------------------------------------------------------------------
def test_e9_a_substituted_rook_square_loses_that_castling_right_for_good():
    fen = substitution_fen(V, {"a1": "E", "d1": "A", "f1": "S", "g1": "V"})
    assert fen.split()[2] == "Kk"
    b = Board("superchess", fen)
    for text in ("b2b3", "b7b6", "c1b2", "c8b7", "e2e3", "e7e6", "f1e2", "f8e7", "g1f3", "g8f6"):
        b.push_text(text)
    assert "e1g1" in texts(b)  # king side: the original h1 Rook
    with pytest.raises(FenError, match="castling right 'Q'"):
        Board("superchess", "er2k3/8/8/8/8/8/8/E3K3[] w Q - 0 1")  # an Empress on a1 never castles


# -- R10, R11: draws; R12: text -------------------------------------------------------------------
def test_r11_repetition_counts_holdings_and_r10_fifty_moves():
    b = sc({"e1": "K", "a1": "R", "e8": "k", "h8": "r"}, holdings="Nn")
    other = sc({"e1": "K", "a1": "R", "e8": "k", "h8": "r"}, holdings="Qn")
    assert b.fen() != other.fen() and b._pos.hash != other._pos.hash
    for _ in range(2):
        for text in ("a1a2", "h8h7", "a2a1", "h7h8"):
            b.push_text(text)
    assert b.can_claim_draw() and b.is_repetition(3)


def test_r12_fen_with_holdings_round_trips_and_bad_holdings_are_refused():
    fen = "rvbakser/pppppppp/8/8/8/8/PPPPPPPP/RVBAKSER[NQBNnqbn] w KQkq - 0 1"
    assert Board("superchess", Board("superchess", fen).fen()).fen() == Board("superchess", fen).fen()
    for bad, message in (("rvbakser/pppppppp/8/8/8/8/PPPPPPPP/RVBAKSER w KQkq - 0 1", "holdings missing"),
                         ("rvbakser/pppppppp/8/8/8/8/PPPPPPPP/RVBAKSER[NQBNnqbx] w KQkq - 0 1", "'x'"),
                         ("rvbakser/pppppppp/8/8/8/8/PPPPPPPP/RVBAKSER[Pn] w KQkq - 0 1", "'P'"),
                         ("rvbakser/pppppppp/8/8/8/8/PPPPPPPP/RVBAKSER[NQ w KQkq - 0 1", "bad holdings")):
        with pytest.raises(FenError, match=message):
            Board("superchess", bad)
    with pytest.raises(FenError, match="no holdings"):
        Board("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1")


# -- the prelude (2.3) ------------------------------------------------------------------------------
def test_prelude_alternates_wings_and_players_and_ends_with_an_optional_exchange():
    from superchess.rules.game.setups import Prelude, PreludeError
    p = Prelude(V)
    assert (p.to_move, p.expects) == (0, "king wing")
    with pytest.raises(PreludeError, match="other player"):
        p.pick(1, "g1", "A")
    with pytest.raises(PreludeError, match="king wing square"):
        p.pick(0, "b1", "A")
    p.pick(0, "g1", "A")
    assert (p.to_move, p.expects) == (1, "queen wing")
    with pytest.raises(PreludeError, match="remaining substitutes: E, S, V"):
        p.pick(1, "b1", "A")
    p.pick(1, "b1", "E")
    p.pick(0, "f1", "S")
    with pytest.raises(PreludeError, match="a1, c1, d1"):
        p.pick(1, "b1", "V")
    p.pick(1, "d1", "V")
    assert (p.to_move, p.expects) == (1, "swap")
    with pytest.raises(PreludeError, match="not finished"):
        p.choice()
    p.swap(1, ("g1", "b1"))
    assert p.choice() == {"g1": "E", "b1": "A", "f1": "S", "d1": "V"}
    assert p.choice() in substitution_setups(V)  # the same family as the random set-ups
    declined = Prelude(V)
    for side, sq, letter in ((0, "h1", "V"), (1, "a1", "S"), (0, "g1", "E"), (1, "c1", "A")):
        declined.pick(side, sq, letter)
    declined.swap(1, None)
    assert declined.choice() == {"h1": "V", "a1": "S", "g1": "E", "c1": "A"} and declined.expects == "done"


def test_prelude_replays_from_its_steps_and_completes_at_random_keeping_the_picks():
    from superchess.rules.game.setups import Prelude
    p = Prelude(V)
    p.pick(0, "h1", "S")
    p.pick(1, "b1", "A")
    again = Prelude.replay(V, p.steps())
    assert again.picks == p.picks and again.to_move == 0 == p.to_move and again.expects == "king wing"
    full = p.completed_at_random(3)
    assert full["h1"] == "S" and full["b1"] == "A" and full in substitution_setups(V)
    fen = substitution_fen(V, p.picks, partial=True)
    assert Board("superchess", fen).holdings(0) == {"R": 1, "N": 1}
    done = Prelude.replay(V, [["g1", "A"], ["a1", "E"], ["f1", "S"], ["c1", "V"], ["swap", "g1", "a1"]])
    assert done.choice() == {"g1": "E", "a1": "A", "f1": "S", "c1": "V"} and done.steps()[-1] == ["swap", "g1", "a1"]
