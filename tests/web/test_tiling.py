"""Tiling Rider in the browser (issue 9, ../shared/rules/tiling-rider.md): the board shows unit
colours, tile borders, the giant Kings over four squares, the aggregates formed and the small pieces'
drawings; Player 1 plays a three-move turn by clicking (a move that completes an aggregate, T10; a
giant King move, R4, taken back with Undo, R12; the aggregate move capturing two pieces, R6 / T6,
chosen from a piece other than the unit's lower-left one and played on another square of the
destination unit; the King move again) and ends it; Player 2 sees nothing of it until "End turn",
then the whole turn."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.rules.tiling.helpers import board

from .conftest import screenshot
from .helpers import start_match, state

# tiling T10 with T6's Black pieces: c7c6 completes the Wazir unit c5-d6, whose aggregate (a Rook)
# can then run to c11-d12 taking the Ferz c11 and the Knight d12; Black has a Wazir on r10, White a
# Guard on p1 (out of play: it shows the drawing)
PIECES = {"c5": "W", "d5": "W", "d6": "W", "c7": "W", "c11": "f", "d12": "n", "r10": "w", "p1": "G"}


def body_fill(page, selector: str) -> str:
    """The fill of a piece drawing's body (its first shape: the side's colour)."""
    return page.locator(f"#board {selector} path").first.get_attribute("fill")


def click_move(page, frm: str, to: str, moves_left: int, confirm: bool = False) -> None:
    """Click a move (twice on the destination when it captures off it) and wait until the server
    has taken it: the turn has `moves_left` moves left."""
    page.click(f'#board [data-square="{frm}"]')
    page.click(f'#board [data-square="{to}"]')
    if confirm:
        page.click(f'#board [data-square="{to}"]')
    expect(page.locator("#turn-info")).to_have_attribute("data-moves-left", str(moves_left))


def test_a_three_move_turn_with_undo_and_an_aggregate_move(two_players, server):
    a, b = two_players
    a.goto(server.url + "/")  # offered for a match with a person and with the computer
    expect(a.locator('#computer-variant option[value="tilingrider"]')).to_have_count(1)
    fen = board(PIECES, allowance="4").fen()  # a later turn: 1 to 4 moves (4.1, R11)
    game_id = start_match(two_players, server, variant="tilingrider", fen=fen)
    for p in (a, b):  # section 1, R3, T1: 18 x 16 squares, units orange and blue, 144 tiles
        expect(p.locator("#board [data-square]")).to_have_count(288)
        expect(p.locator("#board .tile-border")).to_have_count(144)
        expect(p.locator('#board [data-square="a1"].tint-orange')).to_have_count(1)
        expect(p.locator('#board [data-square="c1"].tint-blue')).to_have_count(1)
        # the giant Kings (R4): one drawing each over four squares, every square holding the King
        expect(p.locator("#board .giant")).to_have_count(2)
        expect(p.locator('#board .giant[data-anchor="i1"][data-piece="K"]')).to_have_count(1)
        expect(p.locator('#board [data-square="j2"][data-piece="K"] .piece-art')).to_have_count(0)
        expect(p.locator("#turn-info")).to_have_attribute("data-moves-left", "4")
        # section 1: the Wazir, Ferz and Guard are drawn (no lettered disc), in their side's colour
        for sq, glyph in (("c5", "wazir"), ("r10", "wazir"), ("c11", "ferz"), ("p1", "guard")):
            expect(p.locator(f'#board [data-square="{sq}"] .piece-art[data-glyph="{glyph}"] path')).not_to_have_count(0)
        expect(p.locator('#board .piece-art[data-glyph="letter"]')).to_have_count(0)
        fills = {k: body_fill(p, sel) for k, sel in (
            ("W", '[data-square="c5"] .piece-art'), ("G", '[data-square="p1"] .piece-art'), ("K", '.giant[data-piece="K"]'),
            ("w", '[data-square="r10"] .piece-art'), ("f", '[data-square="c11"] .piece-art'), ("k", '.giant[data-piece="k"]'))}
        assert fills["W"] == fills["G"] == fills["K"] != fills["w"] == fills["f"] == fills["k"]
    expect(a.locator("#board .aggregate")).to_have_count(0)

    click_move(a, "c7", "c6", 3)  # T10: completes the unit c5-d6, marked as an aggregate
    expect(a.locator('#board .aggregate[data-cells="c5,d5,c6,d6"][data-piece="W"]')).to_have_count(1)
    expect(a.locator("#undo")).to_be_visible()
    expect(a.locator("#status")).to_contain_text("up to 3 more moves, or End turn")
    expect(a.locator("#turn-info")).to_contain_text("3 of 4 moves left · 1 aggregate formed")
    expect(a.locator("#end-turn")).to_be_visible()
    a.click('#board [data-square="j2"]')  # any square of the giant King selects it
    expect(a.locator("#board").first).to_have_attribute("data-selected", "i1")
    a.click('#board [data-square="g1"]')
    expect(a.locator("#turn-info")).to_have_attribute("data-moves-left", "2")
    expect(a.locator('#board .giant[data-anchor="g1"]')).to_have_count(1)
    a.click("#undo")  # R12: the King move is taken back
    expect(a.locator("#turn-info")).to_have_attribute("data-moves-left", "3")
    expect(a.locator('#board .giant[data-anchor="i1"][data-piece="K"]')).to_have_count(1)
    assert state(a, game_id)["moves"] == ["c7c6"]

    # R6: any piece of the aggregate offers its moves, with that piece's own; each destination unit
    # is marked whole (the moves from the rules API after c7c6 as the oracle)
    after = board(PIECES, allowance="4")
    after.push_text("c7c6")
    rook = {m.text for m in after.legal_moves if m.text.startswith("@")}
    a.click('#board [data-square="d6"]')
    expect(a.locator("#board").first).to_have_attribute("data-selected", "d6")
    expect(a.locator('#board .aggregate.selected[data-cells="c5,d5,c6,d6"]')).to_have_count(1)
    expect(a.locator("#board .dest-block")).to_have_count(len(rook))
    assert {el.get_attribute("data-move") for el in a.locator("#board .dest-block").all()} == rook
    expect(a.locator("#board .group-dest")).to_have_count(4 * len(rook))
    screenshot(a, "tilingrider-aggregate-selected")
    # d7 is both the Wazir d6's own move and a square of the Rook's unit c7-d8: a choice (R6)
    assert {"d6d7", "@c5c7"} <= {m.text for m in after.legal_moves}
    a.click('#board [data-square="d7"]')
    expect(a.locator("#promotion")).to_be_visible()
    screenshot(a, "tilingrider-choice")
    assert sorted(b.get_attribute("data-move") for b in a.locator("#promotion [data-move]").all()) == ["@c5c7", "d6d7"]
    a.click("#promotion [data-cancel]")
    a.click('#board [data-square="d12"]')  # a square of c11-d12 other than its lower-left one
    for cell in ("c11", "d12"):  # it takes both pieces of c11-d12 (T6): shown before it is sent
        expect(a.locator(f'#board [data-square="{cell}"].would-capture')).to_have_count(1)
    a.click('#board [data-square="c12"]')  # confirmed anywhere on the unit
    expect(a.locator("#turn-info")).to_have_attribute("data-moves-left", "2")
    for cell in ("c11", "d11", "c12", "d12"):
        expect(a.locator(f'#board [data-square="{cell}"][data-piece="W"]')).to_have_count(1)
    click_move(a, "i1", "g1", 1)
    screenshot(a, "tilingrider-mid-turn-player1")

    # the opponent sees the turn's start: nothing of the three moves
    expect(b.locator('#board [data-square="c7"][data-piece="W"]')).to_have_count(1)
    expect(b.locator('#board [data-square="c11"][data-piece="f"]')).to_have_count(1)
    expect(b.locator('#board .giant[data-anchor="i1"]')).to_have_count(1)
    expect(b.locator("#moves .ply")).to_have_count(0)

    a.click("#end-turn")
    for p in (a, b):  # the whole turn arrives
        expect(p.locator("#moves .ply")).to_have_count(4)  # c7c6 @c5c11 i1g1 end
        expect(p.locator('#board [data-square="c12"][data-piece="W"]')).to_have_count(1)
        expect(p.locator('#board .giant[data-anchor="g1"][data-piece="K"]')).to_have_count(1)
        expect(p.locator("#turn-info")).to_have_attribute("data-moves-left", "4")  # 3 made: Black may make 4 (4.1)
    expect(b.locator("#message")).to_contain_text("c7c6 @c5c11 i1g1")
    expect(b.locator("#undo")).to_be_hidden()
    st = state(b, game_id)
    assert st["moves"] == ["c7c6", "@c5c11", "i1g1", "end"] and st["turn"] == 1 and sorted(st["captured"][1]) == ["f", "n"]
    screenshot(b, "tilingrider-player2-after-the-turn")


def test_t9_check_on_the_giant_king_and_its_only_move(two_players, server):
    """tiling T9 / 4.2: the Black Knight k4 attacks j2, so the whole White King (four squares) is in
    check; its only legal turn is the King move i1g1, then End turn."""
    a, b = two_players
    game_id = start_match(two_players, server, variant="tilingrider", fen=board({"k4": "n"}).fen())
    for p in (a, b):
        for sq in ("i1", "j1", "i2", "j2"):
            expect(p.locator(f'#board [data-square="{sq}"].check')).to_have_count(1)
        expect(p.locator("#board .check")).to_have_count(4)
    a.click('#board [data-square="i2"]')
    expect(a.locator("#board .dest")).to_have_count(4)  # T9: only the unit g1-h2 (k1-l2 and i3-j4 are attacked)
    for sq in ("g1", "h1", "g2", "h2"):
        expect(a.locator(f'#board [data-square="{sq}"].dest.group-dest')).to_have_count(1)
    expect(a.locator('#board .dest-block[data-move="i1g1"]')).to_have_count(1)  # the unit outlined whole
    a.click('#board [data-square="h2"]')  # any square of the destination unit
    a.click("#end-turn")
    for p in (a, b):
        expect(p.locator('#board .giant[data-anchor="g1"][data-piece="K"]')).to_have_count(1)
        expect(p.locator("#board .check")).to_have_count(0)
    assert state(b, game_id)["moves"] == ["i1g1", "end"]
