"""Interactive Diagram import (superchess.rules.diagram): the Vanguard seed's line gives exactly the
array of vanguard.md section 2; small hand-made lines parse; bad lines name the problem."""
from __future__ import annotations

import pytest

from superchess.rules.diagram.line import DiagramError, diagram_line, parse_diagram
from superchess.rules.diagram.xbetza import patterns
from tests.rules.diagram.helpers import seed_line

# vanguard.md section 2, file a..p
RANK1 = ["H", "Nr", "Sp", "F", "B", "W", "Pc", "Q", "K", "Pr", "C", "B", "F", "Sp", "Nr", "H"]
RANK2 = ["R", "N", "Br", "L", "A", "A", "Bo", "Gn", "Gn", "Bo", "A", "A", "L", "Br", "N", "R"]
RANK3 = ["P", "P", "P", "P", "Sl", "Sl", "Sl", "Sg", "Sg", "Sl", "Sl", "Sl", "P", "P", "P", "P"]


def test_seed_line_gives_vanguard_array():
    v = parse_diagram(seed_line())
    assert (v.files, v.ranks) == (16, 16)
    expected = {}
    for i, f in enumerate("abcdefghijklmnop"):
        for rank, row in ((1, RANK1), (2, RANK2), (3, RANK3)):
            expected[f"{f}{rank}"] = (0, row[i])
            expected[f"{f}{17 - rank}"] = (1, row[i])
    assert v.array() == expected
    for side in (0, 1):
        assert sum(1 for s, _ in v.array().values() if s == side) == 48


def test_seed_line_pieces_royals_promotion():
    v = parse_diagram(seed_line())
    assert len(v.pieces) == 21
    assert v.royals == ("Pr", "K")
    assert {p.id: p.morph for p in v.pieces if p.morph} == {"P": "N", "Sl": "H", "Sg": "L"}
    assert v.promo_zone == 1 and v.promo_choice == ("Q",) and v.promo_flags == "*"
    assert dict(v.settings)["holdingsType"] == "1"
    w = v.piece("W")
    assert (w.name, w.xbetza, w.image, w.white, w.black) == ("wizard", "FafsFafsafFudFudNudC", "moon", ("f1",), ("f16",))
    assert v.piece("H").xbetza == "RcamfRidaufmRsb(caf)14R"
    assert v.piece("Bo").xbetza == "nNafsafmpafzcabmpafzK"
    counts = {p.id: len(p.white) for p in v.pieces}
    assert counts == {"P": 8, "N": 2, "B": 2, "R": 2, "Q": 1, "Pc": 1, "C": 1, "F": 2, "Nr": 2, "Pr": 1, "Sl": 6,
                      "W": 1, "Br": 2, "A": 4, "Bo": 2, "L": 2, "H": 2, "Gn": 2, "Sg": 2, "Sp": 2, "K": 1}
    for p in v.pieces:  # every XBetza expands for both sides
        assert patterns(p.xbetza, 0) and patterns(p.xbetza, 1)


def test_small_5x5_line():
    v = parse_diagram("files=5 ranks=5 royal=1 king:K:K:king:c1,,c5 rook:R:R:rook:a1,e1,,a5,e5 "
                      "pawn:P:fmWfcF:pawn:a2-e2,,a4-e4 morph=R")
    assert (v.files, v.ranks) == (5, 5)
    assert v.royals == ("K",)
    assert v.piece("P").white == ("a2", "b2", "c2", "d2", "e2")
    assert v.piece("P").black == ("a4", "b4", "c4", "d4", "e4")
    assert v.piece("P").morph == "R"
    assert v.array()["c5"] == (1, "K") and v.array()["e1"] == (0, "R")
    assert len(v.array()) == 16


def test_orthodox_8x8_line_defaults_and_mirroring():
    v = parse_diagram("royal=6 promoChoice=NBRQ pawn::fmWfcFifmnD::a2-h2 knight:N:N::b1,g1 bishop::B::c1,f1 "
                      "rook::R::a1,h1 queen::Q::d1 king::K::e1")
    assert (v.files, v.ranks) == (8, 8)
    assert [p.id for p in v.pieces] == ["P", "N", "B", "R", "Q", "K"]
    assert v.royals == ("K",)
    assert v.promo_choice == ("N", "B", "R", "Q") and v.promo_flags == ""
    arr = v.array()
    assert arr["e8"] == (1, "K") and arr["d8"] == (1, "Q") and arr["a7"] == (1, "P") and arr["g8"] == (1, "N")
    assert len(arr) == 32


@pytest.mark.parametrize("line, words", [
    ("", "empty"),
    ("files=8 ranks=8", "no pieces"),
    ("files=x king:K:K:king:e1", "files='x'"),
    ("files=30 king:K:K:king:e1", "files='30'"),
    ("king:K:K:king", "expected name:ID:XBetza:image:squares"),
    ("king:K:K:king:e9", "off the 8x8 board"),
    ("king:K:K:king:e0", "bad square 'e0'"),
    ("king:K:K:king:e1 queen:K:Q:queen:d1", "already used"),
    ("king:K:K:king:e1 queen:Q:Q:queen:e1", "already taken"),
    ("king:K:mY:king:e1", "unknown atom 'Y'"),
    ("king:K::king:e1", "no XBetza"),
    ("royal=3 king:K:K:king:e1", "royal=3"),
    ("morph=Q king:K:K:king:e1", "before any piece"),
    ("pawn:P:fW:pawn:a2 morph=X", "morph='X'"),
    ("promoChoice=X king:K:K:king:e1", "'X' names no defined piece"),
    ("king:K:K:king:a1-b2", "not along a rank or file"),
    ("king:K:K:king:e1,,e8,,e5", "more than one empty item"),
    ("files=8 junk king:K:K:king:e1", "token 'junk'"),
    ("king:k:K:king:e1", "upper-case"),
])
def test_bad_lines_name_the_problem(line, words):
    with pytest.raises(DiagramError, match=words.replace("(", r"\(").replace("[", r"\[")):
        parse_diagram(line)


def test_diagram_line_finds_the_line():
    assert diagram_line("intro\n  files=5 ranks=5 king:K:K:king:c1  \nmore").startswith("files=5")
    with pytest.raises(DiagramError, match="files="):
        diagram_line("no diagram here")
