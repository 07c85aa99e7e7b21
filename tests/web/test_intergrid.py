"""InterGrid in the browser (issue 8, ../shared/rules/intergrid.md): two people play a turn of a
square move and a point move that captures by enclosure, then a turn ended with "End turn", by
clicking; both lattices are drawn from the server's layout and clickable."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.rules.intergrid.helpers import board

from .conftest import screenshot
from .helpers import play, start_match, state

# intergrid I6: White's point Knight E2-C1 encloses the pawn b2 and the Bishop b1 (two captures)
I6 = {"E2": "N", "B0": "Q", "B2": "P", "b2": "p", "b1": "b", "a1": "r", "h8": "k", "h5": "K"}


def test_a_two_part_turn_with_an_enclosure_capture_then_end_turn(two_players, server):
    a, b = two_players
    a.goto(server.url + "/")  # offered for a match with a person and with the computer
    expect(a.locator('#computer-variant option[value="intergrid"]')).to_have_count(1)
    game_id = start_match(two_players, server, variant="intergrid", fen=board(I6).fen())
    for p in (a, b):  # intergrid R1: the 64 squares and the 81 intersections, point-pieces on points
        expect(p.locator("#board .square.point")).to_have_count(81)
        expect(p.locator("#board [data-square]")).to_have_count(145)
        expect(p.locator('#board [data-square="E2"][data-piece="N"]')).to_have_count(1)
    expect(a.locator("#end-turn")).to_be_hidden()
    play(a, b, "h5", "h4", 0)  # the square move (R8)
    expect(a.locator("#end-turn")).to_be_visible()
    expect(a.locator("#status")).to_contain_text("a point move, or End turn")
    expect(b.locator("#end-turn")).to_be_hidden()

    a.click('#board [data-square="E2"]')  # the point move: destinations on the intersections light up
    expect(a.locator('#board [data-square="C1"].dest')).to_have_count(1)
    a.click('#board [data-square="C1"]')  # a capturing move: its captures are shown before it is sent
    for cell in ("b2", "b1"):
        expect(a.locator(f'#board [data-square="{cell}"].would-capture')).to_have_count(1)
    expect(a.locator("#board .would-capture")).to_have_count(2)
    assert state(a, game_id)["moves"] == ["h5h4"]  # not sent yet
    a.click('#board [data-square="C1"]')  # confirmed
    for p in (a, b):
        expect(p.locator('#moves [data-ply="1"]')).to_have_count(1)
        expect(p.locator('#board [data-square="b1"].piece')).to_have_count(0)
        expect(p.locator('#board [data-square="b2"].piece')).to_have_count(0)
        expect(p.locator('#board [data-square="C1"][data-piece="N"]')).to_have_count(1)
    screenshot(a, "intergrid-after-enclosure")

    play(b, a, "h8", "g8", 2)  # Black's square move, then no point move
    b.click("#end-turn")
    for p in (a, b):
        expect(p.locator('#moves [data-ply="3"]')).to_have_count(1)
    st = state(a, game_id)
    assert st["moves"] == ["h5h4", "E2C1", "h8g8", "end"] and st["turn"] == 0
    screenshot(b, "intergrid-player2")
