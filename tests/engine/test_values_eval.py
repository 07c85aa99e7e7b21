"""Piece values derived from movement, the evaluation, and the rules-core helpers the engine uses."""
from __future__ import annotations

import random

import pytest

from superchess.engine.evaluate import evaluate, evaluator_for, pack, unpack
from superchess.engine.play import static_evaluation
from superchess.engine.values import piece_values
from superchess.rules import Board, Program, Roster
from superchess.rules.core.encoding import CASTLE, CELL_MASK, EP, TO_SHIFT
from superchess.rules.core.position import attacked
from tests.rules.helpers import board_with

NIGHTRIDER = Roster({"N": Program("slide", ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)))})


def test_orthodox_values_come_out_in_the_usual_order():
    v = piece_values("chess")
    assert v["Q"] > v["R"] > v["B"] >= v["N"] > v["P"] > 0
    assert abs(v["B"] - v["N"]) < 60          # B ~ N
    assert 800 < v["Q"] < 1000 and 400 < v["R"] < 600 and v["P"] == 100
    assert v["K"] == 0                        # the King is not material


def test_super16_values_follow_movement():
    v = piece_values("super16")
    assert v["K"] == 0
    assert v["Q"] > v["R"] > v["B"] > v["N"] > v["P"]
    assert v["S"] > v["R"]                    # the Princess reaches 32 squares
    assert v["I"] > v["S"]                    # the Prince reaches the same squares, jumping
    assert v["U"] > v["N"]                    # the Super Knight has the Knight's leaps and more


def test_a_reprogrammed_knight_with_slides_is_worth_more_than_the_default_knight():
    default = piece_values("super16")["N"]
    assert piece_values("super16", NIGHTRIDER)["N"] > 1.5 * default
    weak = Roster({"N": Program("jump", ((0, 1),))})
    assert piece_values("super16", weak)["N"] < default
    # only the reprogrammed side's value changes; Player 2's roster is read the same way
    assert piece_values("super16", NIGHTRIDER, side=1)["N"] == piece_values("super16", NIGHTRIDER)["N"]


def test_pack_round_trips_signed_parts():
    for mg, eg, ph in [(0, 0, 0), (-5, 7, 3), (123456, -654321, 9000), (-1, -1, 1)]:
        assert unpack(pack(mg, eg, ph)) == (mg, eg, ph)


def test_start_positions_are_about_even_and_material_counts():
    for variant in ("chess", "super16"):
        assert abs(evaluate(Board(variant))) < 50
    # a missing Queen for Player 2: Player 1 (to move) is clearly better, and the reverse
    b = Board("chess", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert evaluate(b) > 700
    b = Board("chess", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
    assert evaluate(b) < -700


def test_rosters_change_the_evaluation():
    fen = Board("super16").fen()
    plain = evaluate(Board("super16", fen))
    strong = evaluate(Board("super16", fen, (NIGHTRIDER, Roster())))
    assert strong > plain + 500


def test_pawn_advancement_and_fortress_shelter_count():
    far = board_with({"i1": "K", "i16": "k", "c12": "P"})
    near = board_with({"i1": "K", "i16": "k", "c4": "P"})
    assert static_evaluation(far) > static_evaluation(near) + 20  # as the engine evaluates
    sheltered = board_with({"i1": "K", "h2": "F", "i16": "k", "h15": "f", "c8": "Q", "d9": "q"})
    bare = board_with({"i1": "K", "b2": "F", "i16": "k", "h15": "f", "c8": "Q", "d9": "q"})
    ev = evaluator_for("super16", (Roster(), Roster()))
    assert ev.king_safety(sheltered.engine_position()) > ev.king_safety(bare.engine_position())


def test_incremental_score_matches_a_fresh_one_along_random_games():
    for variant, seed in (("chess", 1), ("super16", 2), ("super16", 3)):
        rng = random.Random(seed)
        b = Board(variant)
        pos = b.engine_position()
        ev = evaluator_for(variant, pos.rosters)
        packed = ev.packed(pos)
        for _ in range(80):
            moves = pos.legal()
            if not moves:
                break
            m = rng.choice(moves)
            packed += ev.delta(pos, m)
            pos.make(m)
            assert packed == ev.packed(pos)


@pytest.mark.parametrize("variant,plies", [("chess", 60), ("super16", 40)])
def test_pseudo_legal_and_capture_generators_agree_with_legal_moves(variant, plies):
    rng = random.Random(7)
    b = Board(variant)
    pos = b.engine_position()
    for _ in range(plies):
        side = pos.side
        kept = set()
        for m in pos.pseudo_legal():
            pos.make(m)
            k = pos.kings[side]
            if not (k >= 0 and attacked(pos.board, pos.tables.attacks[side ^ 1][k])):
                kept.add(m)
            pos.unmake()
        legal = set(pos.legal())
        assert legal <= kept and all(not m & CASTLE for m in kept - legal)
        caps = set(pos.pseudo_captures()) & kept
        assert caps == {m for m in legal if m & EP or (pos.board[(m >> TO_SHIFT) & CELL_MASK] and not m & CASTLE)}
        h, fen = pos.hash, b.fen()
        pos.make_null()
        assert pos.side != side and pos.hash != h
        pos.unmake_null()
        assert pos.hash == h and b.fen() == fen
        if not legal:
            break
        b.push(rng.choice(b.legal_moves))


def test_capture_generator_does_not_promote_a_self_destroying_capture():
    # R4: the pawn taking the garrisoned Rook on the last rank is destroyed and does not promote
    b = board_with({"a1": "K", "p16": "k", "c15": "P", "d16": "r", "e15": "f", "b16": "n"})
    pos = b.engine_position()
    caps = pos.pseudo_captures()
    legal = pos.legal()
    to_d16 = [m for m in caps if (m >> TO_SHIFT) & CELL_MASK == b.cell("d16")]
    assert len(to_d16) == 1 and to_d16[0] in legal
    to_b16 = [m for m in caps if (m >> TO_SHIFT) & CELL_MASK == b.cell("b16")]
    assert len(to_b16) == len(b.variant.promotion_choices) and set(to_b16) <= set(legal)
