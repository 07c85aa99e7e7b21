"""XBetza interpreter (superchess.rules.xbetza): modifier by modifier, every Vanguard piece string on
an empty board for both sides against the resolved move sets of vanguard.md 3.2, and the worked
examples V2-V9 on hand-built boards."""
from __future__ import annotations

import dataclasses

import pytest

from superchess.rules.diagram.xbetza import (
    INF,
    Move,
    Req,
    XBetzaError,
    generate,
    moves,
    occupancy_from,
    parse,
    patterns,
    square,
    square_name,
)
from tests.rules.diagram.helpers import SEED_LINE_XB, cells, empty_board_offsets, images, ray_offsets


def texts(xb: str, origin: str, board: dict[str, str] | None = None, side: int = 0, unmoved: bool = False,
          files: int = 16, ranks: int = 16, with_kind: bool = False) -> set:
    """Moves in the rules file's text form: origin + dest + 'x'+sq for every off-destination capture."""
    o = square(origin)
    out = set()
    for m in moves(xb, side, o, occupancy_from(board or {}), files, ranks, unmoved):
        t = origin + square_name(m.dest) + "".join("x" + square_name(c) for c in m.captured if c != m.dest)
        out.add((t, m.kind) if with_kind else t)
    return out


def dests(xb: str, origin: str, board: dict[str, str] | None = None, side: int = 0, unmoved: bool = False,
          files: int = 16, ranks: int = 16) -> set[str]:
    return {square_name(m.dest) for m in moves(xb, side, square(origin), occupancy_from(board or {}),
                                               files, ranks, unmoved)}


def sq(*names: str) -> set[str]:
    return set(names)


# ------------------------------------------------------------------ parsing

def test_parse_terms_of_every_seed_string():
    assert [t.text for t in parse(SEED_LINE_XB["W"]).terms] == ["F", "afsF", "afsafF", "udF", "udN", "udC"]
    assert [t.text for t in parse(SEED_LINE_XB["Br"]).terms] == ["K", "N", "A", "D", "caK", "mcabK"]
    assert [t.text for t in parse(SEED_LINE_XB["Bo"]).terms] == ["nN", "afsafmpafzcabmpafzK"]
    assert [t.text for t in parse(SEED_LINE_XB["H"]).terms] == ["R", "camfR", "idaufmR", "sb(caf)14R"]
    assert [t.text for t in parse(SEED_LINE_XB["Gn"]).terms] == ["B", "nDD"]
    assert [t.text for t in parse("fmWfcFifmR4").terms] == ["fmW", "fcF", "ifmR4"]


def test_ranges_and_riders_parse():
    t = {x.text: x for x in parse("R4F3W2N2NNDDWWR").terms}
    assert t["R4"].max_steps == 4 and t["F3"].max_steps == 3 and t["W2"].max_steps == 2
    assert t["N2"].max_steps == 2
    assert t["NN"].max_steps == INF and t["DD"].max_steps == INF and t["WW"].max_steps == INF
    assert t["R"].max_steps == INF
    assert parse("K").terms[0].max_steps == 1


def test_group_repetition_expands_to_alternatives():
    term = parse("sb(caf)14R").terms[0]
    assert len(term.alternatives) == 15
    assert [len(a) for a in term.alternatives] == list(range(1, 16))
    assert term.alternatives[2][0].modes == "c" and term.alternatives[2][0].dirs == "sb"
    assert term.alternatives[2][1].dirs == "f" and term.alternatives[2][1].modes == "c"
    assert term.alternatives[2][2].modes == "" and term.alternatives[2][2].dirs == "f"


@pytest.mark.parametrize("bad, words", [
    ("", "empty"), ("fm", "no atom"), ("mY", "unknown atom 'Y'"), ("xW", "not supported"),
    ("wW", "unknown modifier 'w'"), ("RR", "already a rider"), ("(caf)R", "repeat count"),
    ("W0", "at least 1"), ("pN", "'p' on the final leg"),
])
def test_bad_strings_name_the_problem(bad, words):
    with pytest.raises(XBetzaError, match=words):
        patterns(bad, 0)


def test_patterns_are_immutable_and_cached():
    a = patterns("RcamfRidaufmRsb(caf)14R", 0)
    assert a is patterns("RcamfRidaufmRsb(caf)14R", 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a[0].legs[0].step = (0, 0)  # frozen dataclass
    assert isinstance(a, tuple)


def test_black_patterns_mirror_white():
    w = patterns("fmWfcFifmR4", 0)
    b = patterns("fmWfcFifmR4", 1)
    assert [tuple((lg.step[0], -lg.step[1]) for lg in p.legs) for p in w] == \
        [tuple(lg.step for lg in p.legs) for p in b]
    assert all(p.forward_first for p in w) and all(p.forward_first for p in b)


def test_leg_cells_from_for_tables():
    p = patterns("R4", 0)
    up = next(pt for pt in p if pt.legs[0].step == (0, 1))
    assert up.legs[0].cells_from((0, 13), 16, 16) == ((0, 14), (0, 15))
    assert up.legs[0].end == Req.EMPTY | Req.ENEMY and up.legs[0].takes == Req.ENEMY


# ------------------------------------------------------------------ atoms and ranges

ATOM_OFFSETS = {
    "W": [(1, 0)], "F": [(1, 1)], "D": [(2, 0)], "N": [(2, 1)], "A": [(2, 2)], "H": [(3, 0)],
    "C": [(3, 1)], "Z": [(3, 2)], "G": [(3, 3)], "K": [(1, 0), (1, 1)],
}


@pytest.mark.parametrize("atom", sorted(ATOM_OFFSETS))
def test_atoms_leap_over_pieces(atom):
    expected = cells("h8", [w for v in ATOM_OFFSETS[atom] for w in images(v)])
    assert dests(atom, "h8") == expected
    # leaps are unblockable: surround with friends on every W/F square
    crowd = {c: "friend" for c in cells("h8", images((1, 0)) | images((1, 1)))}
    if atom not in ("W", "F", "K"):
        assert dests(atom, "h8", crowd) == expected


def test_slides_and_ranges():
    assert dests("R", "a1", files=8, ranks=8) == cells("a1", ray_offsets((1, 0)) + ray_offsets((0, 1)), 0, 8, 8)
    assert dests("R4", "h8") == cells("h8", [w for k in range(1, 5) for w in images((k, 0))])
    assert dests("F3", "h8") == cells("h8", [w for k in range(1, 4) for w in images((k, k))])
    assert dests("W2", "h8") == cells("h8", [w for k in range(1, 3) for w in images((k, 0))])
    assert dests("N2", "h8") == cells("h8", [w for k in (1, 2) for w in images((2 * k, k))])
    # blocked: a friend stops before, an enemy is captured and stops
    b = {"h10": "friend", "k8": "enemy"}
    assert dests("R", "h8", b) >= sq("h9", "i8", "j8", "k8")
    assert not dests("R", "h8", b) & sq("h10", "h11", "l8")


def test_doubled_riders():
    assert dests("NN", "a1") == cells("a1", [w for v in images((2, 1)) for w in ray_offsets(v)])
    assert dests("DD", "b2") == cells("b2", [w for v in images((2, 0)) for w in ray_offsets(v)])
    assert dests("WW", "h8") == dests("R", "h8")
    # a rider jumps the squares between its landing points but not the landing points themselves
    assert dests("NN", "a1", {"b2": "friend", "b3": "friend", "c2": "friend"}) == set()
    assert dests("NN", "a1", {"b2": "friend", "a2": "enemy"}) == dests("NN", "a1")
    assert dests("DD", "a1", {"a2": "friend"}) >= sq("a3", "a5", "a15")
    assert "a7" not in dests("DD", "a1", {"a5": "enemy"}) and "a5" in dests("DD", "a1", {"a5": "enemy"})


# ------------------------------------------------------------------ modes m c d p

def test_m_c_and_default_mc():
    b = {"h9": "enemy", "g8": "friend", "i8": None}
    assert dests("mW", "h8", b) == sq("i8", "h7")
    assert dests("cW", "h8", b) == sq("h9")
    assert dests("W", "h8", b) == sq("i8", "h7", "h9")
    assert dests("mR", "h8", {"h10": "enemy"}) & sq("h9", "h10") == sq("h9")
    assert dests("cR", "h8", {"h12": "enemy"}) == sq("h12")


def test_d_captures_a_friend():
    ms = moves("dW", 0, square("h8"), occupancy_from({"h9": "friend", "h7": "enemy"}))
    assert ms == [Move(square("h9"), (square("h9"),), "normal")]


def test_ud_swaps_with_a_friend():
    ms = moves("udN", 0, square("h8"), occupancy_from({"i10": "friend", "g10": "enemy"}))
    assert ms == [Move(square("i10"), (), "swap")]


def test_p_cannon_hop_and_p_in_a_leg():
    b = {"h10": "enemy", "h12": "enemy", "h13": "friend"}
    assert dests("pR", "h8", b) == sq("h11", "h12")
    assert dests("pmR", "h8", b) == sq("h11")
    assert dests("pcR", "h8", b) == sq("h12")
    # p leg then a W step on: hop a piece adjacent
    assert dests("pafW", "h8", {"h9": "friend"}) == sq("h10")
    assert dests("pafW", "h8", {}) == set()
    # mp = anything
    assert dests("fmpafW", "h8", {"h9": "friend"}) == sq("h10")
    assert dests("fmpafW", "h8", {}) == sq("h10")


# ------------------------------------------------------------------ i n

def test_i_needs_an_unmoved_piece():
    assert dests("ifmR4", "h3") == set()
    assert dests("ifmR4", "h3", unmoved=True) == sq("h4", "h5", "h6", "h7")


def test_n_lame_straight_leaps():
    assert dests("nD", "h8", {"h9": "friend"}) == dests("D", "h8") - sq("h10")
    assert dests("nH", "h8", {"i8": "enemy"}) == dests("H", "h8") - sq("k8")
    assert dests("nA", "h8", {"i9": "enemy"}) == dests("A", "h8") - sq("j10")


def test_n_lame_knight_is_blocked_only_if_both_paths_are():
    # (1,2) from h8 = i10: paths via h9 (orthogonal first) and i9 (diagonal first)
    assert "i10" in dests("nN", "h8", {"h9": "friend"})
    assert "i10" in dests("nN", "h8", {"i9": "enemy"})
    assert "i10" not in dests("nN", "h8", {"h9": "friend", "i9": "enemy"})
    assert dests("nN", "h8", {"h9": "friend", "i9": "enemy"}) == dests("N", "h8") - sq("i10")


def test_n_rider_every_leap_lame():
    assert dests("nDD", "h8", {"h11": "friend"}) & cells("h8", ray_offsets((0, 2))) == sq("h10")
    assert dests("nDD", "h8", {"h9": "enemy"}) & cells("h8", ray_offsets((0, 2))) == set()


# ------------------------------------------------------------------ absolute directions

@pytest.mark.parametrize("mods, offs", [
    ("f", [(0, 1)]), ("b", [(0, -1)]), ("l", [(-1, 0)]), ("r", [(1, 0)]),
    ("s", [(-1, 0), (1, 0)]), ("v", [(0, 1), (0, -1)]), ("fs", [(0, 1), (-1, 0), (1, 0)]),
    ("sb", [(0, -1), (-1, 0), (1, 0)]),
])
def test_directions_on_w(mods, offs):
    assert dests(mods + "W", "h8") == cells("h8", offs)
    assert dests(mods + "W", "h8", side=1) == cells("h8", offs, side=1)


@pytest.mark.parametrize("mods, offs", [
    ("f", [(1, 1), (-1, 1)]), ("b", [(1, -1), (-1, -1)]), ("l", [(-1, 1), (-1, -1)]),
    ("r", [(1, 1), (1, -1)]), ("fl", [(-1, 1)]), ("br", [(1, -1)]),
])
def test_directions_on_f(mods, offs):
    assert dests(mods + "F", "h8") == cells("h8", offs)
    assert dests(mods + "F", "h8", side=1) == cells("h8", offs, side=1)


@pytest.mark.parametrize("mods, offs", [
    ("f", [(1, 2), (-1, 2), (2, 1), (-2, 1)]), ("ff", [(1, 2), (-1, 2)]), ("fs", [(2, 1), (-2, 1)]),
    ("bb", [(1, -2), (-1, -2)]), ("ll", [(-2, 1), (-2, -1)]), ("fr", [(1, 2), (2, 1)]),
])
def test_directions_on_n(mods, offs):
    assert dests(mods + "N", "h8") == cells("h8", offs)


def test_directions_on_k():
    assert dests("fK", "h8") == cells("h8", [(0, 1), (1, 1), (-1, 1)])
    assert dests("bK", "h8", side=1) == cells("h8", [(0, -1), (1, -1), (-1, -1)], side=1)


# ------------------------------------------------------------------ multi-leg, relative directions

def test_a_relative_f_s_b():
    # step W then straight on = D, lame
    assert dests("afW", "h8") == dests("D", "h8")
    assert "h10" not in dests("afW", "h8", {"h9": "enemy"})
    # W then 90 degrees = F squares via the W square
    assert dests("asW", "h8") == dests("F", "h8")
    # W then reverse = back home (pass) when the first square is empty
    assert moves("abW", 0, square("h8"), occupancy_from({})) == [Move(square("h8"), (), "pass")]
    assert moves("abW", 0, square("h8"), occupancy_from({c: "friend" for c in dests("W", "h8")})) == []


def test_a_relative_45_degrees_changes_w_to_f():
    # F then fs: orthogonal outward (knight squares), lame through the F square
    assert dests("afsF", "h8") == dests("N", "h8")
    assert dests("afsF", "h8", {"i9": "friend"}) == dests("N", "h8") - sq("i10", "j9")
    # fl / fr pick one side
    assert dests("fafrW", "h8") == sq("i10")
    assert dests("faflW", "h8") == sq("g10")


def test_a_default_directions_of_later_legs():
    # K leg: all 8 directions; W leg: the 4 orthogonal ones (no 45-degree turns)
    assert dests("mafK", "h8") == dests("A", "h8") | dests("D", "h8")
    two_k = {square_name(m.dest) for m in moves("aK", 0, square("h8"), occupancy_from({}))}
    assert two_k == dests("K", "h8") | dests("A", "h8") | dests("D", "h8") | dests("N", "h8") | sq("h8")
    assert dests("aW", "h8") == dests("D", "h8") | dests("F", "h8") | sq("h8")


def test_z_turns_opposite_to_the_previous_bend():
    # W forward, turn 45 degrees (either side), then z: the opposite 45-degree turn = forward again
    # h8 -> h9 -> (i10 | g10) -> (i11 | g11)
    assert dests("fafsafzW", "h8") == sq("i11", "g11")
    # q: the same side again -> (i10 + (1,0)) = j10 ; (g10 + (-1,0)) = f10
    assert dests("fafsafqW", "h8") == sq("j10", "f10")
    # the bend survives a straight-on and a reverse leg (Bowman)
    assert dests("fafsafafzW", "h8") == sq("j12", "f12")


def test_group_repetition_captures_every_piece_passed():
    b = {"j8": "enemy", "k8": "enemy", "m8": "enemy", "o8": "friend"}
    got = texts("r(caf)3R", "h8", b)
    assert got == {"h8i8", "h8j8", "h8k8xj8", "h8l8xj8xk8", "h8m8xj8xk8", "h8n8xj8xk8xm8"}
    # with at most one repetition: no more than two captures
    got1 = texts("r(caf)1R", "h8", b)
    assert got1 == {"h8i8", "h8j8", "h8k8xj8"}


def test_c_leg_then_return_is_capture_without_moving():
    assert texts("cabW", "h8", {"h9": "enemy"}, with_kind=True) == {("h8h8xh9", "igui")}
    assert texts("cabN", "h8", {"i10": "enemy"}, with_kind=True) == {("h8h8xi10", "rifle")}


def test_i_on_a_later_leg_has_no_effect():
    assert dests("caibN", "h8", {"i10": "enemy"}) == sq("h8")


# ------------------------------------------------------------------ the 21 Vanguard pieces, empty board

@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize("pid", sorted(SEED_LINE_XB))
@pytest.mark.parametrize("origin", ["h8", "e5"])
def test_vanguard_piece_on_empty_board(pid, side, origin):
    xb = SEED_LINE_XB[pid]
    for unmoved in (False, True):
        got = moves(xb, side, square(origin), occupancy_from({}), unmoved=unmoved)
        expected = cells(origin, empty_board_offsets(pid, unmoved), side)
        assert {square_name(m.dest) for m in got} == expected, (pid, side, unmoved)
        assert len(got) == len(expected)  # one move per destination: no duplicates
        assert all(not m.captured for m in got)
        assert all(m.kind == ("pass" if m.dest == square(origin) else "normal") for m in got)


def test_pawn_types_capture_diagonally_forward_only():
    b = {"g9": "enemy", "i9": "enemy", "g7": "enemy", "i7": "enemy", "h9": "enemy", "i8": "enemy"}
    assert dests(SEED_LINE_XB["P"], "h8", b, unmoved=True) == sq("g9", "i9")
    assert dests(SEED_LINE_XB["P"], "h8", b, side=1) == sq("g7", "i7", "h7")
    assert dests(SEED_LINE_XB["P"], "h8", {**b, "h7": "enemy"}, side=1) == sq("g7", "i7")
    assert dests(SEED_LINE_XB["Sl"], "h8", b) == sq("g9", "i9", "g8")  # i8 occupied: no sideways capture
    assert dests(SEED_LINE_XB["Sg"], "h8", b) == sq("g9", "i9", "h9", "g8")  # slide stops on h9 capture


def test_pawn_initial_push_blocked_and_no_capture():
    b = {"h6": "enemy"}
    assert dests(SEED_LINE_XB["P"], "h3", b, unmoved=True) == sq("h4", "h5")
    assert dests(SEED_LINE_XB["P"], "h14", {"h11": "friend"}, side=1, unmoved=True) == sq("h13", "h12")


def test_lancer_capture_only_slides_and_double_leap():
    xb = SEED_LINE_XB["L"]
    assert dests(xb, "h8", {"h10": "enemy", "k8": "enemy", "h5": "enemy", "h6": "friend"}) == \
        dests(xb, "h8") | sq("h10", "k8")
    assert "j12" not in dests(xb, "h8", {"i10": "friend"})
    assert "j12" not in dests(xb, "h8", {"i10": "enemy"}) and "i10" in dests(xb, "h8", {"i10": "enemy"})


def test_general_even_orthogonal_needs_odd_squares_empty():
    xb = SEED_LINE_XB["Gn"]
    assert not dests(xb, "h8", {"h9": "enemy"}) & sq("h9", "h10", "h12")
    assert "h10" in dests(xb, "h8", {"h10": "enemy"}) and "h12" not in dests(xb, "h8", {"h10": "enemy"})


def test_spy_and_falconer_and_nightrider_blocking():
    assert dests(SEED_LINE_XB["Sp"], "h8", {"h9": "friend"}) == dests(SEED_LINE_XB["Sp"], "h8") - sq("h9", "h10")
    assert dests(SEED_LINE_XB["F"], "h8", {c: "friend" for c in dests("K", "h8")}) == \
        dests(SEED_LINE_XB["F"], "h8") - dests("F", "h8")
    assert dests(SEED_LINE_XB["Nr"], "h8", {"i10": "enemy"}) & sq("i10", "j12") == sq("i10")


# ------------------------------------------------------------------ worked examples

def test_v2_wizard():
    b = {"i9": "friend", "f9": "friend", "g7": "enemy"}
    got = texts(SEED_LINE_XB["W"], "h8", b, with_kind=True)
    expected = {("h8" + d, "normal") for d in ("g9", "i7", "g10", "g11", "i6", "i5", "j7", "k7")}
    expected |= {("h8g7", "normal"), ("h8i9", "swap"), ("h8f9", "swap")}
    assert got == expected
    assert len(got) == 11


def test_wizard_swaps_ignore_the_path_r7():
    b = {"i9": "enemy", "g9": "enemy", "i7": "enemy", "g7": "enemy", "i11": "friend", "k9": "friend"}
    got = texts(SEED_LINE_XB["W"], "h8", b, with_kind=True)
    assert ("h8i11", "swap") in got and ("h8k9", "swap") in got


def test_v3_bowman():
    b = {"e5": "friend", "f6": "friend", "h5": "friend", "d6": "enemy", "c8": "enemy", "g8": "enemy",
         "i6": "enemy"}
    got = texts(SEED_LINE_XB["Bo"], "e4", b, with_kind=True)
    assert got == {("e4d6", "normal"), ("e4g5", "normal"), ("e4g5xi6", "locust"), ("e4c5", "normal"),
                   ("e4c3", "normal"), ("e4g3", "normal"), ("e4d2", "normal"), ("e4f2", "normal")}


def test_bowman_advance_capture_needs_one_free_path_r9():
    xb = SEED_LINE_XB["Bo"]
    # T = f6 (1,2) from e4; 2T = g8; paths via e5 (orthogonal first) or f5 (diagonal first)
    base = {"g8": "enemy"}
    assert "e4f6xg8" in texts(xb, "e4", {**base, "e5": "friend"})
    assert "e4f6xg8" in texts(xb, "e4", {**base, "f5": "friend"})
    blocked = texts(xb, "e4", {**base, "e5": "friend", "f5": "enemy"})
    assert "e4f6xg8" not in blocked and "e4f6" not in blocked
    # the squares between T and 2T are ignored
    assert "e4f6xg8" in texts(xb, "e4", {**base, "f7": "friend", "g7": "enemy"})
    # only one capture; a friend on 2T is not captured; T must be empty
    assert not any("x" in t for t in texts(xb, "e4", {"g8": "friend"}))
    assert texts(xb, "e4", {"f6": "enemy", "g8": "enemy"}) & {"e4f6xg8"} == set()
    # Black mirrored
    assert "e13f11xg9" in texts(xb, "e13", {"g9": "enemy"}, side=1)


def test_v4_helepolis_moved():
    b = {"b4": "friend", "d6": "enemy", "d8": "enemy", "f4": "enemy", "g4": "enemy", "d2": "enemy",
         "d1": "enemy"}
    got = texts(SEED_LINE_XB["H"], "d4", b)
    expected = {"d4d5", "d4d6", "d4d7xd6", "d4e4", "d4f4", "d4g4xf4", "d4c4", "d4d3", "d4d2", "d4d1xd2"}
    expected |= {f"d4{f}4xf4xg4" for f in "hijklmnop"}
    assert got == expected
    assert len(got) == 19


def test_v4_helepolis_unmoved_gets_sideways_jump_from_xbetza_alone_r5():
    """XBetza's idaufmR names no direction: over b4 to a4 appears; the R5 hook keeps forward only."""
    b = {"b4": "friend", "d6": "enemy", "d8": "enemy", "f4": "enemy", "g4": "enemy", "d2": "enemy",
         "d1": "enemy"}
    o = square("d4")
    got = moves(SEED_LINE_XB["H"], 0, o, occupancy_from(b), unmoved=True)
    jumps = {square_name(m.dest) for m in got if m.kind == "jump"}
    assert jumps == {"a4"}
    forward_only = tuple(p for p in patterns(SEED_LINE_XB["H"], 0) if p.term != "idaufmR" or p.forward_first)
    assert not [m for m in generate(forward_only, o, occupancy_from(b), unmoved=True) if m.kind == "jump"]


def test_v5_helepolis_initial_jump():
    b = {"a2": "friend", "b1": "friend", "a9": "enemy"}
    xb = SEED_LINE_XB["H"]
    forward_only = tuple(p for p in patterns(xb, 0) if p.term != "idaufmR" or p.forward_first)
    got = texts_from(generate(forward_only, square("a1"), occupancy_from(b), unmoved=True), "a1")
    assert got == {(f"a1a{r}", "jump") for r in range(3, 9)}
    assert generate(forward_only, square("a1"), occupancy_from(b), unmoved=False) == []
    # XBetza alone also jumps sideways over b1
    raw = texts_from(moves(xb, 0, square("a1"), occupancy_from(b), unmoved=True), "a1")
    assert raw == {(f"a1a{r}", "jump") for r in range(3, 9)} | {(f"a1{f}1", "jump") for f in "cdefghijklmnop"}
    # Black: forward is toward rank 1
    fb = tuple(p for p in patterns(xb, 1) if p.term != "idaufmR" or p.forward_first)
    gotb = texts_from(generate(fb, square("a16"), occupancy_from({"a15": "friend", "b16": "friend"}),
                               unmoved=True), "a16")
    assert gotb == {(f"a16a{r}", "jump") for r in range(1, 15)}


def texts_from(ms, origin):
    return {(origin + square_name(m.dest) + "".join("x" + square_name(c) for c in m.captured if c != m.dest),
             m.kind) for m in ms}


def test_helepolis_forward_takes_at_most_one_r6():
    b = {"d6": "enemy", "d7": "enemy"}
    got = texts(SEED_LINE_XB["H"], "d4", b)
    assert {t for t in got if t[2:4].startswith("d") and int(t[3:].split("x")[0]) > 4} == {"d4d5", "d4d6"}
    # backward run: every enemy captured, stops before a friend
    b = {"d3": "enemy", "d2": "enemy", "d1": "friend"}
    got = texts(SEED_LINE_XB["H"], "d5", b)
    assert {t for t in got if t[2] == "d" and int(t[3:].split("x")[0]) < 5} == {"d5d4", "d5d3", "d5d2xd3"}


def test_v6_berserker():
    b = {"a1": "friend", "b1": "friend", "c1": "friend", "a2": "friend", "a3": "friend", "b3": "friend",
         "c2": "friend", "c3": "enemy", "d4": "enemy"}
    got = texts(SEED_LINE_XB["Br"], "b2", b, with_kind=True)
    expected = {("b2c3", "normal"), ("b2a4", "normal"), ("b2b4", "normal"), ("b2c4", "normal"),
                ("b2d1", "normal"), ("b2d2", "normal"), ("b2d3", "normal"), ("b2d4", "normal"),
                ("b2b2xc3", "igui"), ("b2b4xc3", "locust"), ("b2c4xc3", "locust"), ("b2d2xc3", "locust"),
                ("b2d3xc3", "locust"), ("b2d4xc3", "locust")}
    assert got == expected
    assert len(got) == 14
    # the double capture lists both squares in path order
    m = [m for m in moves(SEED_LINE_XB["Br"], 0, square("b2"), occupancy_from(b))
         if m.dest == square("d4") and len(m.captured) == 2]
    assert m[0].captured == (square("c3"), square("d4"))


def test_berserker_pass_needs_an_empty_neighbour_r8():
    got = texts(SEED_LINE_XB["Br"], "b2", {"c3": "friend"}, with_kind=True)
    assert ("b2b2", "pass") in got
    assert sum(1 for t in got if t[1] == "pass") == 1


def test_v7_archer():
    b = {"f6": "friend", "c6": "friend", "c3": "enemy", "d7": "enemy", "g4": "enemy", "d3": "enemy"}
    got = texts(SEED_LINE_XB["A"], "e5", b, with_kind=True)
    expected = {("e5" + d, "normal") for d in ("d6", "c7", "b8", "f4", "g3", "h2", "d4")}
    expected |= {("e5e5xd7", "rifle"), ("e5e5xg4", "rifle"), ("e5e5xd3", "rifle")}
    assert got == expected


def test_v8_lancer():
    b = {"g8": "friend", "g10": "friend", "f8": "enemy", "h10": "enemy", "j7": "enemy", "i10": "enemy",
         "k8": "enemy", "h5": "enemy"}
    got = texts(SEED_LINE_XB["L"], "h8", b)
    expected = {"h8" + d for d in ("i10", "j7", "j9", "l10", "i6", "j4", "g6", "f4", "f7", "d6", "f9", "d10",
                                   "h10", "h5", "k8")}
    assert got == expected
    assert len(got) == 15


def test_v9_general():
    b = {"e8": "friend", "g7": "friend", "h9": "enemy", "h4": "enemy", "l8": "enemy", "j10": "enemy"}
    got = texts(SEED_LINE_XB["Gn"], "h8", b)
    expected = {"h8" + d for d in ("i9", "j10", "g9", "f10", "e11", "d12", "c13", "b14", "a15", "i7", "j6", "k5",
                                   "l4", "m3", "n2", "o1", "h6", "h4", "j8", "l8", "f8")}
    assert got == expected
    assert len(got) == 21


@pytest.mark.parametrize("pid", ["W", "Br", "A", "Bo", "L", "Gn", "H"])
def test_black_is_the_mirror_of_white_on_a_crowded_board(pid):
    xb = SEED_LINE_XB[pid]
    b = {"g9": "enemy", "i10": "friend", "h11": "enemy", "j8": "enemy", "f7": "friend", "h6": "enemy",
         "k11": "enemy", "e8": "friend", "i7": "enemy"}
    mirror = lambda name: name[0] + str(17 - int(name[1:]))
    bb = {mirror(k): v for k, v in b.items()}
    w = moves(xb, 0, square("h8"), occupancy_from(b), unmoved=True)
    blk = moves(xb, 1, square("h9"), occupancy_from(bb), unmoved=True)
    flip = lambda c: (c[0], 15 - c[1])
    assert {(flip(m.dest), tuple(flip(c) for c in m.captured), m.kind) for m in w} == set(blk)
