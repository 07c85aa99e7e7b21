"""InterGrid in the browser (issue 8, ../shared/rules/intergrid.md): two people play a turn of a
square move and a point move that captures by enclosure, then a turn ended with "End turn", by
clicking; both lattices are drawn from the server's layout and clickable."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.rules.intergrid.helpers import board

from .conftest import screenshot
from .helpers import api_match, play, shots, start_match, state

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


def test_a_premove_starts_the_next_turn_and_a_takeback_removes_whole_turns(two_players, server):
    """Issue 23 item 1 in InterGrid: a premove queued during the opponent's turn is the first move of
    the next turn, played when that turn comes; a takeback takes back the asker's whole last turn."""
    a, b = two_players
    game_id = api_match(two_players, server, variant="intergrid")
    play(a, b, "e2", "e3", 0)
    a.click("#end-turn")
    expect(a.locator('#moves [data-ply="1"]')).to_have_count(1)
    a.click('#board [data-square="d2"]')  # Player 2's turn: Player 1 queues d2-d3
    a.click('#board [data-square="d3"]')
    expect(a.locator("#board")).to_have_attribute("data-premove", "d2d3")
    shots(a, "intergrid-premove-queued")
    a.set_viewport_size({"width": 1366, "height": 768})
    play(b, a, "e7", "e6", 2)
    b.click("#end-turn")
    for p in (a, b):  # played as soon as the turn came: the square move of Player 1's turn
        expect(p.locator('#moves [data-ply="4"]')).to_have_attribute("data-move", "d2d3")
    expect(a.locator("#end-turn")).to_be_visible()  # the rest of the turn is played as usual
    a.click("#end-turn")
    expect(b.locator('#moves [data-ply="5"]')).to_have_count(1)
    a.click("#takeback")
    expect(b.locator("#accept-takeback")).to_be_visible()
    shots(b, "intergrid-takeback-asked")
    b.set_viewport_size({"width": 1366, "height": 768})
    b.click("#accept-takeback")
    for p in (a, b):
        expect(p.locator('#moves [data-ply="4"]')).to_have_count(0)
        expect(p.locator('#board [data-square="d2"]')).to_have_attribute("data-piece", "P")
    assert state(a, game_id)["moves"] == ["e2e3", "end", "e7e6", "end"]
    expect(a.locator("#status")).to_contain_text("Your move")
