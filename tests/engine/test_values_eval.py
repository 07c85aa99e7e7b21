"""Piece values derived from movement, the evaluation, and the rules-core helpers the engine uses."""
from __future__ import annotations

import random

import pytest

from superchess.engine.evaluate import Evaluator, default_params, evaluate, evaluator_for, pack, unpack
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


def native_eval(fen: str, tables: dict[str, int] | None = None, **terms: int) -> int:
    """The native static evaluation of a chess position (side to move's view), with some of
    eval.toml's [tables] and [terms] replaced."""
    native_search = pytest.importorskip("superchess.engine.native_search")
    if native_search._native is None:
        pytest.skip("the native core is not built")
    params = default_params()
    ev = Evaluator("chess", (Roster(), Roster()),
                   {"tables": params["tables"] | (tables or {}), "terms": params["terms"] | terms})
    pos = Board("chess", fen).native_position()[0]
    return native_search._native.Searcher(1).evaluate(pos, native_search.evaluation(ev))[0]


def term_share(fen: str, **terms: int) -> int:
    """How much the named terms, at the values given, add to a chess position's evaluation."""
    return native_eval(fen, **terms) - native_eval(fen, **dict.fromkeys(terms, 0))


def test_two_bishops_on_both_colours_make_a_pair():
    pair = {"pair_mg": 30, "pair_eg": 50}
    assert 30 <= term_share("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", **pair) <= 50
    assert term_share("4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1", **pair) == 0  # both on one colour
    assert term_share("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1", **pair) == 0


def test_pieces_hitting_the_king_zone_together_count_as_an_attack():
    units = {"attacker_weight": 2, "zone_hit": 3}
    # the Queen and the Knight both hit the cells around Black's castled King
    assert term_share("r4rk1/ppp2ppp/8/6N1/7Q/8/PPP2PPP/R5K1 w - - 0 1", **units) > 30
    # one attacker alone is no attack
    assert term_share("r4rk1/ppp2ppp/8/8/7Q/8/PPP2PPP/R5K1 w - - 0 1", **units) == 0


def test_a_king_without_pawns_in_front_is_weaker():
    gaps = {"shelter_missing": 15, "shelter_semi_open": 15, "shelter_open": 25}
    assert term_share("rn1q1rk1/ppp2ppp/8/8/8/8/PPP2PPP/RN1Q1RK1 w - - 0 1", **gaps) == 0
    # White's g- and h-pawns gone: two files near its King without own pawns
    assert term_share("rn1q1rk1/ppp2ppp/8/8/8/8/PPP2P2/RN1Q1RK1 w - - 0 1", **gaps) < -40


def test_a_rook_on_an_open_file_counts():
    files = {"file_open_mg": 35, "file_open_eg": 15, "file_semi_mg": 15, "file_semi_eg": 10}
    assert term_share("4k3/pp3ppp/8/8/8/8/PP3PPP/3RK3 w - - 0 1", **files) > 0
    assert term_share("4k3/pp1p1ppp/8/8/8/8/PP1P1PPP/3RK3 w - - 0 1", **files) == 0


def test_a_passed_pawn_counts_less_when_blocked():
    share = {"passed_blocked_pct": 60}
    assert term_share("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", **share) == 0
    assert term_share("4k3/3n4/3P4/8/8/8/8/4K3 w - - 0 1", **share) > 0  # 0% of the bonus would remain


def test_enemy_pawns_storming_the_king_count():
    storm = {"storm": 8}
    assert term_share("rq4k1/5ppp/8/8/8/8/5PPP/RQ4K1 w - - 0 1", **storm) == 0
    # Black's g- and h-pawns two and three ranks ahead of White's King
    assert term_share("rq4k1/5p2/8/8/7p/6p1/5PPP/RQ4K1 w - - 0 1", **storm) < 0


def test_a_castled_king_and_developed_light_pieces_count_in_the_middlegame():
    def share(fen: str, **tables: int) -> int:
        return native_eval(fen, tables) - native_eval(fen, dict.fromkeys(tables, 0))

    castled = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w kq - 0 1"
    assert share(castled, king_file_mg=12) > 10  # White's King on the g-file, Black's on the e-file
    developed = "rnbqkbnr/pppppppp/8/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 0 1"
    assert share(developed, undeveloped_mg=15) > 20  # two Knights out, the Bishops (and Black's) home
    assert share("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", undeveloped_mg=15) == 0
