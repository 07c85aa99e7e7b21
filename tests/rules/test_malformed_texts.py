"""Malformed position texts in every format (core FEN with and without holdings, the diagram
variants', InterGrid's two layers, Tiling Rider's): `Board(variant, text)` answers a Board or the
rules layer's FenError, never another exception, and reading a bad text allocates nothing in
proportion to the numbers written in it."""
from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from superchess.rules import VARIANTS, Board, FenError

START = {name: Board(name).fen() for name in tuple(VARIANTS)}
#: Counts no rank can hold: one that a list of that many cells would take 1.5 GB for, and one past
#: what a machine-sized integer holds.
HUGE_COUNTS = ("100000000", "10000000000000000000")


def with_empty_run(variant: str, count: str) -> str:
    """The start position text with its first empty rank (each format writes one as its width)
    written as `count` empty cells."""
    fields = START[variant].split(" ")
    ranks = fields[0].split("/")
    i = next(k for k, r in enumerate(ranks) if r.isdigit())
    ranks[i] = count
    return " ".join(["/".join(ranks)] + fields[1:])


def peak_bytes(text: str, variant: str) -> tuple[int, str]:
    """(peak bytes allocated while reading `text`, how it ended: "board" or the exception's type)."""
    tracemalloc.start()
    try:
        Board(variant, text)
        ended = "board"
    except Exception as e:  # the test reports which type escaped
        ended = type(e).__name__
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, ended


@pytest.mark.parametrize("variant", tuple(VARIANTS))
@pytest.mark.parametrize("count", HUGE_COUNTS)
def test_an_empty_run_longer_than_its_rank_is_refused_before_anything_is_allocated(variant, count):
    peak, ended = peak_bytes(with_empty_run(variant, count), variant)
    assert ended in ("FenError", "TilingError") and peak < 2_000_000


@pytest.mark.parametrize("variant", tuple(VARIANTS))
def test_every_reader_refuses_what_is_not_an_ascii_number_with_a_fen_error(variant):
    """Superscript and other non-ASCII digits pass `str.isdigit` but not `int`: refused as FenError
    in a rank and in every counter field; so are counters of more than nine digits."""
    start = START[variant]
    placement, rest = start.split(" ", 1)
    ranks, counters = placement.rsplit("/", 1), start.rsplit(" ", 2)[0]
    for text in (f"{ranks[0]}/\u00b2{ranks[1]} {rest}", start[:-1] + "\u00b2", start[:-1] + "\u0663",
                 start[:-1] + "+1", start[:-1] + "1" * 10, counters + " \u00b2 1", counters + " -1 1"):
        with pytest.raises(FenError):
            Board(variant, text)


def test_superchess_holdings_beyond_what_a_side_can_own_are_refused():
    """Superchess: a side's pieces of one type, on the board and held, are at most MAX_HELD (32):
    captures and promotions only move them between board and holdings, so the hash keys per count
    always exist (40 held Queens raised IndexError)."""
    start = START["superchess"]
    assert Board("superchess", start.replace("[", "[" + "Q" * 30)).holdings(0)["Q"] == 31
    with pytest.raises(FenError, match="more than 32"):
        Board("superchess", start.replace("[", "[" + "Q" * 40))


@pytest.mark.parametrize("variant", ["tilingrider", "intergrid"])
def test_a_mid_turn_text_with_a_bad_move_or_moves_past_the_turn_is_a_fen_error(variant):
    """The moves after `|` are those of one turn from its start (tiling R16, InterGrid 1.1)."""
    start = START[variant]
    with pytest.raises(FenError, match="illegal move"):
        Board(variant, start + " | z9z9")
    b = Board(variant)
    while b.turn == 0:
        b.push(next(m for m in b.legal_moves if m.text != "end"))
    played = " ".join(m.text for m in b.move_stack)
    with pytest.raises(FenError, match="one turn"):
        Board(variant, f"{start} | {played} {b.legal_moves[0].text}")


# -- property: any text -> a Board or FenError ---------------------------------------------------

NOISE = st.text(alphabet=st.sampled_from("0123456789/ -![]|@kKqQnNwWbBpPgG\u00b2\u0663\t"), max_size=8)


@st.composite
def mutated(draw, variant: str) -> str:
    """The variant's start text with a few slices replaced by noise, long digit runs among them."""
    text = START[variant]
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 6)))
        piece = draw(st.one_of(NOISE, st.sampled_from(HUGE_COUNTS + ("0", "00", "99", "1" * 30))))
        text = text[:i] + piece + text[j:]
    return text


def board_or_fen_error(variant: str, text: str) -> None:
    """Reading `text` gives a usable Board (legal moves, outcome, its own text read back) or FenError;
    at most 4 MB allocated on the way."""
    tracemalloc.start()
    try:
        b = Board(variant, text)
    except FenError:
        return
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < 4_000_000, (text, peak)
    if variant != "tilingrider":  # a Tiling Rider listing in check may search long; its FEN is enough
        b.legal_moves
        b.outcome()
    assert Board(variant, b.fen()).fen() == b.fen()


@pytest.mark.parametrize("variant", tuple(VARIANTS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_position_texts_give_a_board_or_a_fen_error(variant, data):
    board_or_fen_error(variant, data.draw(mutated(variant)))


@pytest.mark.parametrize("variant", tuple(VARIANTS))
@settings(max_examples=40, deadline=None)
@given(text=st.text(max_size=120))
def test_arbitrary_texts_give_a_board_or_a_fen_error(variant, text):
    board_or_fen_error(variant, text)
