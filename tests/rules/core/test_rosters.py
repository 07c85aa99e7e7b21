"""Reprogrammed pieces in the rules layer: super16 R13-R17."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from superchess.rules import Board, Program, ProgramError, Roster, get_variant
from superchess.rules.game.preview import validate_roster
from tests.rules.helpers import board_with, dests, line_targets

KINGS = {"a2": "K", "p15": "k"}


def roster(**programs) -> Roster:
    return Roster({letter: Program(mode, tuple(vecs)) for letter, (mode, vecs) in programs.items()})


def with_rosters(pieces, r1=None, r2=None, **kw):
    return board_with(pieces, rosters=(r1 or Roster(), r2 or Roster()), **kw)


# -- R14: valid programs --------------------------------------------------------------------
@pytest.mark.parametrize("program,message", [
    (Program("jump", ((1, 2), (0, 0))), r"\(0, 0\)"),
    (Program("jump", ((16, 1),)), r"\(16, 1\).*-15\.\.15"),
    (Program("step", ((1, -16),)), r"\(1, -16\)"),
    (Program("slide", ((1, 2), (3, 1), (1, 2))), r"\(1, 2\) is listed twice"),
    (Program("slide", ()), "1 to 64 vectors"),
    (Program("slide", tuple((dx, dy) for dx in range(-4, 5) for dy in range(1, 9))), "1 to 64 vectors"),
    (Program("fly", ((1, 2),)), "unknown mode 'fly'"),
])
def test_r14_invalid_programs_are_refused_naming_the_bad_vector(program, message):
    with pytest.raises(ProgramError, match=message):
        Board("super16", rosters=(Roster({"N": program}), Roster()))


def test_r14_sixty_four_vectors_are_allowed():
    vecs = tuple((dx, dy) for dx in range(-4, 4) for dy in range(1, 9))
    assert len(vecs) == 64
    Board("super16", rosters=(Roster({"Q": Program("jump", vecs)}), Roster()))


def test_roster_names_only_known_pieces_and_orthodox_chess_is_not_reprogrammable():
    with pytest.raises(ProgramError, match="unknown piece 'X'"):
        Board("super16", rosters=(roster(X=("jump", [(1, 0)])), Roster()))
    with pytest.raises(ValueError, match="cannot be reprogrammed"):
        Board("chess", rosters=(roster(N=("jump", [(1, 0)])), Roster()))


def test_roster_text_round_trip_and_errors():
    r = roster(N=("jump", [(1, 2), (-3, 4)]), Q=("slide", [(0, 1)]))
    assert r.text() == "N:jump:1,2/-3,4 Q:slide:0,1"
    assert Roster.parse(r.text()) == r
    with pytest.raises(ProgramError, match="bad vector"):
        Roster.parse("N:jump:1;2")
    assert Roster.from_data({"n": {"mode": "step", "vectors": [[0, 4]]}}) == roster(N=("step", [(0, 4)]))


# -- R13: the three modes -------------------------------------------------------------------
def test_r13_jump_ignores_what_stands_between():
    r = roster(N=("jump", [(0, 3), (2, 0)]))
    b = with_rosters({"h8": "N", "h9": "p", "h10": "P", "i8": "P", **KINGS}, r)
    assert dests(b, "h8") == {"h11", "j8"}


def test_r13_step_needs_the_intermediate_squares_empty():
    r = roster(N=("step", [(0, 4), (2, 4), (1, 1)]))
    assert dests(with_rosters({"h8": "N", **KINGS}, r), "h8") == {"h12", "j12", "i9"}
    # (0,4) passes h9, h10, h11; (2,4) passes i10 (g = 2)
    assert dests(with_rosters({"h8": "N", "h10": "p", **KINGS}, r), "h8") == {"j12", "i9"}
    assert dests(with_rosters({"h8": "N", "i10": "P", **KINGS}, r), "h8") == {"h12", "i9"}
    assert dests(with_rosters({"h8": "N", "j9": "P", **KINGS}, r), "h8") == {"h12", "j12", "i9"}


def test_r13_slide_repeats_the_vector_until_blocked():
    r = roster(R=("slide", [(1, 2)]))  # a Nightrider
    assert dests(with_rosters({"h8": "R", **KINGS}, r), "h8") == {"i10", "j12", "k14", "l16"}
    assert dests(with_rosters({"h8": "R", "j12": "n", **KINGS}, r), "h8") == {"i10", "j12"}
    assert dests(with_rosters({"h8": "R", "j12": "N", **KINGS}, r), "h8") == {"i10"}
    # squares between two landing squares do not block (i9 is not on the path)
    assert dests(with_rosters({"h8": "R", "i9": "N", **KINGS}, r), "h8") == {"i10", "j12", "k14", "l16"}


def test_r13_unit_vectors_give_king_and_rook_moves():
    orth = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    assert dests(with_rosters({"h8": "B", **KINGS}, roster(B=("step", orth))), "h8") == line_targets("h8", orth)
    assert dests(with_rosters({"h8": "B", **KINGS}, roster(B=("slide", orth))), "h8") == \
        line_targets("h8", orth, 15)


def test_r13_captures_enemies_never_friends():
    r = roster(N=("jump", [(0, 3)]))
    assert dests(with_rosters({"h8": "N", "h11": "n", **KINGS}, r), "h8") == {"h11"}
    assert dests(with_rosters({"h8": "N", "h11": "B", **KINGS}, r), "h8") == set()


# -- R13: Player 2 mirrored -----------------------------------------------------------------
def test_r13_player2_vectors_have_the_rank_change_negated_files_not_mirrored():
    r = roster(N=("jump", [(1, 3)]))
    b = with_rosters({"h8": "n", **KINGS}, None, r, side="b")
    assert dests(b, "h8") == {"i5"}
    b = with_rosters({"h8": "N", **KINGS}, r, r)
    assert dests(b, "h8") == {"i11"}


def test_each_side_has_its_own_roster():
    r1 = roster(U=("jump", [(0, 1)]))
    b = with_rosters({"h8": "U", "e11": "u", **KINGS}, r1)
    assert dests(b, "h8") == {"h9"}
    b = with_rosters({"h8": "U", "e11": "u", **KINGS}, r1, side="b")
    assert len(dests(b, "e11")) == 16  # Player 2's Super Knight moves by default


# -- attacks, check and legality follow the rosters -----------------------------------------
def test_check_follows_the_attackers_roster():
    pieces = {"h8": "N", "h11": "k", "a2": "K"}
    assert not board_with(pieces, side="b").is_check()
    b = with_rosters(pieces, roster(N=("jump", [(0, 3)])), side="b")
    assert b.is_check()
    for mv in b.legal_moves:
        b.push(mv)
        assert not b.is_attacked_by(0, b.king(1))
        b.pop()


def test_a_king_may_not_step_onto_a_square_a_reprogrammed_piece_attacks():
    r1 = roster(B=("slide", [(0, 1)]))  # a "Bishop" that slides straight up only
    b = with_rosters({"d1": "B", "e10": "k", "a2": "K"}, r1, side="b")
    got = dests(b, "e10")
    assert "d9" not in got and "d10" not in got and "d11" not in got
    assert {"e9", "e11", "f9", "f10", "f11"} <= got


def test_reprogrammed_king_still_castles_and_is_checked():
    r1 = roster(K=("jump", [(0, 2)]))
    b = with_rosters({"a1": "R", "i1": "K", "p1": "R", "i16": "k"}, r1, castling="KQ")
    assert {m.text for m in b.legal_moves if m.from_cell == b.cell("i1")} == {"i1i3", "i1k1", "i1g1"}
    b.push_text("i1k1")
    assert b.piece_at("j1").letter == "R"


# -- the Fortress rule by piece type --------------------------------------------------------
def test_fortress_rule_applies_by_type_to_reprogrammed_pieces():
    jump4 = ("jump", [(4, 0)])
    b = with_rosters({"a5": "R", "e5": "n", "f6": "f", **KINGS}, roster(R=jump4))
    b.push_text("a5e5")
    assert b.piece_at("e5") is None and b.piece_at("a5") is None  # a Rook is not royal
    b = with_rosters({"a5": "Q", "e5": "n", "f6": "f", **KINGS}, roster(Q=jump4))
    b.push_text("a5e5")
    assert b.piece_at("e5").symbol() == "Q"  # a Queen is royal whatever its program


# -- promotion and en passant stay for Super Pawns ------------------------------------------
def test_reprogrammed_pawn_promotes_and_the_promoted_piece_follows_the_roster():
    r1 = roster(P=("jump", [(1, 1), (0, 1)]), Q=("jump", [(0, -1)]))
    b = with_rosters({"c15": "P", "d16": "n", **KINGS}, r1)
    texts = {m.text for m in b.legal_moves if m.from_cell == b.cell("c15")}
    assert {t[:6] for t in texts} == {"c15c16", "c15d16"} and len(texts) == 18
    b.push_text("c15d16q")
    b.push_text("p15p14")
    assert dests(b, "d16") == {"d15"}


def test_reprogrammed_pawn_double_advance_grants_en_passant():
    r1 = roster(P=("step", [(0, 2)]))
    b = with_rosters({"e5": "P", "d7": "p", **KINGS}, r1)
    b.push_text("e5e7")
    assert "d7e6" in {m.text for m in b.legal_moves}


# -- a special move and a programmed plain move with the same text --------------------------
def test_castling_takes_the_text_when_the_king_could_also_step_there():
    r1 = roster(K=("jump", [(2, 0), (-2, 0)]))
    pieces = {"a1": "R", "i1": "K", "p1": "R", "i16": "k"}
    b = with_rosters(pieces, r1, castling="KQ")
    assert sorted(m.text for m in b.legal_moves if m.from_cell == b.cell("i1")) == ["i1g1", "i1k1"]
    b.push_text("i1k1")
    assert b.piece_at("j1").letter == "R" and b.piece_at("p1") is None
    b = with_rosters(pieces, r1, castling="-")  # without the right it is the King's own move
    b.push_text("i1k1")
    assert b.piece_at("p1").letter == "R" and b.piece_at("j1") is None


def test_en_passant_takes_the_text_when_the_pawn_could_also_move_there():
    r2 = roster(P=("jump", [(0, 1), (1, 1), (-1, 1)]))  # Player 2's pawns also move diagonally
    b = with_rosters({"e5": "P", "d7": "p", **KINGS}, None, r2)
    b.push_text("e5e7")
    assert [m.text for m in b.legal_moves].count("d7e6") == 1
    b.push_text("d7e6")
    assert b.piece_at("e7") is None  # the double-stepped pawn was captured


# -- what a roster does: the editor's preview and the pre-game check (rules/preview.py) --------
def names(variant, cells) -> set[str]:
    return {variant.geometry.name(c) for c in cells}


def test_preview_on_an_empty_board_follows_the_program_and_the_default():
    from superchess.rules import get_variant
    from superchess.rules.game.preview import empty_board_destinations
    v = get_variant("super16")
    h8 = v.geometry.parse_cell("h8")
    slide = roster(N=("slide", [(1, 1)]))
    step = roster(N=("step", [(1, 1)]))
    assert names(v, empty_board_destinations(v, slide, "N", h8)) == {f"{chr(ord('h') + k)}{8 + k}" for k in range(1, 9)}
    assert names(v, empty_board_destinations(v, step, "N", h8)) == {"i9"}
    # a letter without a program moves by default: the Knight's eight leaps
    assert names(v, empty_board_destinations(v, Roster(), "N", h8)) == {"g10", "i10", "j9", "j7", "i6", "g6", "f7", "f9"}
    # Player 2's program is mirrored by rank
    assert names(v, empty_board_destinations(v, roster(N=("jump", [(1, 2)])), "N", h8, side=1)) == {"i6"}


def test_preview_in_the_start_position_lists_each_piece_of_the_type():
    from superchess.rules import get_variant
    from superchess.rules.game.preview import start_moves
    v = get_variant("super16")
    moves = start_moves(v, roster(N=("jump", [(0, 3), (0, 2)])), "N")
    assert {v.geometry.name(fr): names(v, tos) for fr, tos in moves.items()} == {
        "b1": {"b4", "b3"}, "o1": {"o4", "o3"}}
    # blocked: a step past the pawns is impossible
    assert start_moves(v, roster(N=("step", [(0, 3)])), "N") == {}


def test_a_roster_attacking_the_opponents_king_at_the_start_is_refused_for_either_side():
    from superchess.rules import get_variant
    from superchess.rules.game.preview import roster_problem
    v = get_variant("super16")
    reach_king = roster(N=("jump", [(7, 15)]))  # b1 + (7, 15) = i16, Player 2's King; mirrored for Player 2
    assert "attacks the opponent's King" in roster_problem(v, reach_king, 0)
    assert "attacks the opponent's King" in roster_problem(v, reach_king, 1)
    assert roster_problem(v, roster(N=("jump", [(7, 14)])), 0) is None
    with pytest.raises(ProgramError, match=r"\(0, 0\)"):
        roster_problem(v, roster(N=("jump", [(0, 0)])), 0)


def test_roster_json_form_round_trips_and_rejects_bad_shapes():
    r = roster(N=("jump", [(1, 2), (-3, 0)]), Q=("slide", [(0, 1)]))
    assert Roster.from_data(r.to_data()) == r
    for bad, message in (([1, 2], "mapping"), ({"N": {"mode": "jump"}}, "mode, vectors"),
                         ({"N": {"mode": "jump", "vectors": 5}}, "list of")):
        with pytest.raises(ProgramError, match=message):
            Roster.from_data(bad)


# -- roster keys and shapes: exactly one letter of the variant's pieces, valid programs only --------
PROGRAM = {"mode": "jump", "vectors": [[1, 2]]}


@pytest.mark.parametrize("key", ["", "KQ", "NA", "X", "k ", 1, None, ("N",)])
def test_a_roster_key_is_exactly_one_letter_of_the_variants_pieces(key):
    """super16 R13: a roster maps piece letters to programs. A key that merely occurs in the letters
    ("", "KQ", "NA" passed a substring test) or is not one of them at all is refused, naming it,
    whether the roster comes as data, as text or built directly."""
    super16 = get_variant("super16")
    with pytest.raises(ProgramError, match=f"unknown piece {key!r}|one piece letter, not {re.escape(repr(key))}"):
        validate_roster(super16, Roster.from_data({key: PROGRAM}))
    with pytest.raises(ProgramError, match="unknown piece"):
        Board("super16", rosters=(Roster({key: Program("jump", ((1, 2),))}), Roster()))
    if isinstance(key, str):
        with pytest.raises(ProgramError):
            validate_roster(super16, Roster.parse(f"{key}:jump:1,2"))


@pytest.mark.parametrize("data", [
    {"N": PROGRAM, "n": PROGRAM},                         # the same piece twice
    {"N": {"mode": ["jump"], "vectors": [[1, 2]]}},       # a mode that is not a string
    {"N": {"mode": "jump", "vectors": "12"}},             # vectors that are not a list
    {"N": {"mode": "jump", "vectors": {"1": 2}}},
    {"N": {"mode": "jump", "vectors": [[1, 2]] * 10**5}},  # far too many
    {"N": {"mode": "jump", "vectors": [[True, 2]]}},      # bools, floats, huge and nested components
    {"N": {"mode": "jump", "vectors": [[1.0, 2]]}},
    {"N": {"mode": "jump", "vectors": [[10**100, 2]]}},
    {"N": {"mode": "jump", "vectors": [[[1], 2]]}},
    {"N": {"mode": "jump", "vectors": [1, 2]}},
    {"N": {"mode": "jump", "vectors": [[1, 2, 3]]}},
    {"N": [PROGRAM]},
])
def test_roster_data_of_the_wrong_shape_is_refused_with_a_program_error(data):
    with pytest.raises(ProgramError):
        Roster.from_data(data)


@pytest.mark.parametrize("text", [
    "N:jump:1,2 n:jump:2,1", "N:jump:1,2/", "N:jump:\u0663,1", "N:jump:1_0,1", "N:jump: 1,2", "N:fly:1,2",
    "N:jump:" + "/".join(["1,2"] * 65), "N:jump:1,2:3", "\u00df:jump:1,2",
])
def test_roster_text_of_the_wrong_shape_is_refused_with_a_program_error(text):
    with pytest.raises(ProgramError):
        Roster.parse(text)
    with pytest.raises(ProgramError):
        Roster.parse([text])


JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-20, 20), st.integers(), st.floats(), st.text(max_size=3))
JSON = st.recursive(JSON_LEAF, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner,
                                                                                          max_size=4), max_leaves=20)
PROGRAMS = st.fixed_dictionaries({
    "mode": st.sampled_from(["jump", "step", "slide", "fly", "", 1]) | JSON,
    "vectors": st.lists(st.lists(st.integers(-16, 16) | JSON_LEAF, min_size=1, max_size=3), max_size=4) | JSON})
ROSTER_DATA = st.dictionaries(st.sampled_from(list("KQNRBkqnrb") + ["", "KQ", "é"]) | JSON_LEAF, PROGRAMS | JSON,
                              max_size=4) | JSON


@settings(max_examples=300, deadline=None)
@given(ROSTER_DATA)
def test_any_json_like_data_gives_a_valid_roster_or_a_program_error(data):
    """Whatever a request carries: a roster whose keys are single upper-case letters and whose
    programs are valid (R14), which round-trips through its text and data forms; or ProgramError."""
    try:
        r = Roster.from_data(data)
    except ProgramError:
        return
    assert all(len(letter) == 1 and letter.isupper() for letter in r)
    r.validate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert Roster.parse(r.text()) == r == Roster.from_data(r.to_data())
