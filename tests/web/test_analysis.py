"""The analysis board (/analysis): a pasted record imported, its moves clicked through, a side line
made on the board, the engine's line shown with the evaluation bar, the line exported; "Analyse" at
the end of a game. Screenshots at 1366x768 and 390x844 under test-artifacts/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import screenshot, watch_for_page_errors
from .helpers import play, start_match

RECORD = """[Variant "super16"]

1. e4 k14 2. Ij3 d13 3. Il3 p13 4. Un3 Rp15 5. Uc3 p11 6. a4 Ah13 7. i3 m14 *
"""


@pytest.mark.parametrize("width,height", [(1366, 768), (390, 844)])
def test_analysis_of_an_imported_record_with_the_engine_line(browser, server, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    problems: list[str] = []
    watch_for_page_errors(page, problems)
    page.goto(server.url + "/analysis")
    expect(page.locator("#board [data-square]").first).to_be_attached()
    page.click("#setup summary")
    page.fill("#record-in", RECORD)
    page.click("#import")
    page.click("#setup summary")
    moves = page.locator("#tree .tree-move")
    expect(moves).to_have_count(14)
    expect(page.locator("#tree .tree-move.current")).to_have_text("m14")  # the end of the record
    # back to an earlier position by a click, and by the keys
    moves.filter(has_text="5. Uc3").click()
    expect(page.locator("#tree .tree-move.current")).to_have_text("5. Uc3")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tree .tree-move.current")).to_have_text("p11")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#tree .tree-move.current")).to_have_text("5. Uc3")
    # a side line: Player 2 plays another move here; the main line stays
    page.click('#board [data-square="a15"]')
    page.click('#board [data-square="a13"]')
    expect(page.locator("#tree .variation .tree-move")).to_have_text(["5… a13"])
    expect(page.locator("#tree .tree-move.current")).to_have_text("5… a13")
    expect(moves).to_have_count(15)
    # the engine's evaluation and best line of this position, in readable notation
    page.click("#engine-go")
    expect(page.locator("#engine-line")).not_to_be_empty(timeout=30000)
    expect(page.locator("#engine-score")).to_contain_text("depth")
    line = page.locator("#engine-line").inner_text()
    assert line.startswith("6. ") and not re.search(r"[a-p]\d+[a-p]\d+", line), line  # readable, numbered
    assert page.locator("#eval-bar").get_attribute("aria-valuenow") is not None
    # the line exported as a record reads the side line
    page.click("#export-box summary")
    page.click("#export")
    expect(page.locator("#record-out")).to_have_value(re.compile(r"5\. Uc3 a13 \*"))
    page.click("#export-box summary")
    screenshot(page, f"analysis-{width}x{height}")
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1  # no horizontal overflow of the board
    context.close()
    assert not problems, problems


def test_analyse_at_the_end_of_a_game(two_players, server):
    a, b = two_players
    game_id = start_match(two_players, server)
    expect(a.locator("#analyse")).to_be_hidden()
    play(a, b, "h2", "h4", 0)
    play(b, a, "h15", "h13", 1)
    b.on("dialog", lambda d: d.accept())
    b.click("#resign")
    expect(a.locator("#analyse")).to_be_visible()
    a.click("#analyse")
    a.wait_for_url(re.compile(rf"/analysis\?game={game_id}"))
    expect(a.locator("#tree .tree-move")).to_have_text(["1. h4", "h13"])
    expect(a.locator('#board [data-square="h13"]')).to_have_attribute("data-piece", "p")


def test_a_multi_move_turn_on_the_analysis_board(browser, server):
    """InterGrid: a turn's square and point moves, then "End turn"; the move list writes each move,
    the engine line writes a turn on one line; no request fails (no pieces list for InterGrid)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    problems: list[str] = []
    watch_for_page_errors(page, problems)
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(server.url + "/analysis?variant=intergrid")
    expect(page.locator('#board [data-square="G1"]')).to_be_attached()
    for frm, to in (("e2", "e4"), ("G1", "E2"), ("e7", "e5")):
        page.click(f'#board [data-square="{frm}"]')
        page.click(f'#board [data-square="{to}"]')
        expect(page.locator(f'#board [data-square="{to}"]')).to_have_attribute("data-piece", re.compile("[Pp]|N"))
    expect(page.locator("#end-turn")).to_be_visible()
    page.click("#end-turn")
    expect(page.locator("#tree .tree-move")).to_have_text(["1. e4", "NE2", "e5", "⏎"])
    expect(page.locator("#status")).to_have_text("Player 1 to move")
    page.click("#engine-go")
    expect(page.locator("#engine-line")).to_contain_text(re.compile(r"^2\. \S+,\S+"), timeout=30000)
    context.close()
    assert not problems, problems
