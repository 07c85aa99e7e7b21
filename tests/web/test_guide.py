"""Issue 23 item 4: the piece guide names every piece type with a diagram drawn from the rules'
own destinations on an empty board; hovering a piece of either side names it and lights where it
could move; reprogrammed pieces are marked on the board and their programs shown."""
from __future__ import annotations

from playwright.sync_api import expect

from superchess.rules import Board, Roster
from superchess.rules.game.preview import empty_board_destinations

from .helpers import api_match, shots

KNIGHT_03 = {"N": {"mode": "jump", "vectors": [[0, 3]]}}


def dests(page, selector):
    return set(filter(None, page.get_attribute(selector, "data-destinations").split(",")))


def test_the_guide_diagrams_are_the_rules_destinations_and_hover_names_a_piece(two_players, server):
    a, b = two_players
    api_match(two_players, server, variant="super16")
    a.set_viewport_size({"width": 1366, "height": 768})
    guide = a.locator("#guide")
    expect(guide).to_be_visible()
    guide.locator("summary").click()
    items = a.locator("#guide-list > li.guide-piece")
    expect(items).to_have_count(11)  # every type of the game
    variant = Board("super16").variant
    geo = variant.geometry
    for letter in ("U", "A", "I", "N"):
        rules = {geo.name(c) for c in empty_board_destinations(variant, Roster(), letter, geo.parse_cell("h8"))}
        assert dests(a, f'#guide-list > li[data-letter="{letter}"] > .guide-diagram') == rules, letter
    expect(a.locator('#guide-list > li[data-letter="U"]')).to_contain_text("Super Knight (U)")
    expect(a.locator("#guide-notes")).to_contain_text("Fortress rule")
    shots(a, "guide")
    # hovering the opponent's Knight on Player 1's turn: its name, and where it could go
    a.set_viewport_size({"width": 1366, "height": 768})
    a.hover('#board [data-square="b16"]')
    expect(a.locator("#piece-tip")).to_contain_text("Knight (Player 2) on b16")
    expect(a.locator("#board .dest")).to_have_count(2)  # a14 and c14 (d15 holds its own pawn)
    expect(a.locator('#board [data-square="c14"].dest')).to_have_count(1)
    a.mouse.move(2, 2)
    expect(a.locator("#piece-tip")).to_be_hidden()
    expect(a.locator("#board .dest")).to_have_count(0)
    # and a click still plays
    a.click('#board [data-square="h2"]')
    a.click('#board [data-square="h4"]')
    expect(b.locator('#moves [data-ply="0"]')).to_have_count(1)


def test_reprogrammed_pieces_are_marked_and_their_programs_shown(two_players, server):
    a, b = two_players
    api_match(two_players, server, variant="super16", mode="symmetric", roster=KNIGHT_03)
    for p in (a, b):
        expect(p.locator('#board [data-square="b1"].programmed .hl-programmed')).to_have_count(1)
        expect(p.locator('#board [data-square="b16"].programmed')).to_have_count(1)
    expect(a.locator('#board [data-square="e1"].programmed')).to_have_count(0)
    b.locator("#guide summary").click()
    program = b.locator('#guide-list > li[data-letter="N"] .guide-programs li[data-side="1"]')
    expect(program).to_contain_text("programmed — jump: (0, 3)")
    assert dests(b, '#guide-list > li[data-letter="N"] .guide-programs li[data-side="1"] .guide-diagram') == {"h11"}
    b.hover('#board [data-square="b1"]')
    expect(b.locator("#piece-tip")).to_contain_text("Knight (Player 1) on b1: 1 square")
    shots(b, "guide-programmed")


def test_other_families_diagrams_and_the_reach_of_a_piece_not_to_move(two_players, server):
    """Issue 23: Vanguard's, Tiling Rider's and InterGrid's diagrams come from the board contract
    (`lone_piece_reach`, checked against the rules in tests/rules/test_lone_piece_reach.py); hovering
    a piece of the side not to move lights its reach there too (an InterGrid point piece: its moves
    after the square move)."""
    a, _ = two_players
    for variant, origin, letters, hovered, tip, reach in (
            ("vanguard", "h8", ("N", "W", "E", "L"), "b15", "(Player 2) on b15", {"a12", "a13", "c12", "c13"}),
            ("tilingrider", "i8", ("K", "N", "G"), "a13", "Wazir (Player 2) on a13", {"a12", "b12"}),
            ("intergrid", "d4", ("N", "Q"), "B7", "Knight (Player 2) on B7", {"A5", "C5", "D8"})):
        api_match(two_players, server, variant=variant)
        a.set_viewport_size({"width": 1366, "height": 768})
        a.locator("#guide summary").click()
        board = Board(variant)
        for letter in letters:
            diagram = f'#guide-list > li[data-letter="{letter}"] > .guide-diagram'
            assert dests(a, diagram) == set(board.lone_piece_reach(letter, origin)), (variant, letter)
        shots(a, f"guide-{variant}")
        a.set_viewport_size({"width": 1366, "height": 768})
        a.hover(f'#board [data-square="{hovered}"]')
        expect(a.locator("#piece-tip")).to_contain_text(tip)
        expect(a.locator("#board .dest")).to_have_count(len(reach))
        for square in reach:
            expect(a.locator(f'#board [data-square="{square}"].dest')).to_have_count(1)
