"""Issue 23 item 8: at 390x844 the board takes the width with both clocks and the status next to it
and the actions in a bar at the bottom, no horizontal scroll, a zoom for 16x16 boards; at 1366x768
the board, both clocks and the move list fit the screen; a dark theme follows the system and a toggle."""
from __future__ import annotations

from playwright.sync_api import expect

from .conftest import screenshot
from .helpers import api_match, play


def box(page, selector):
    b = page.locator(selector).bounding_box()
    assert b is not None, selector
    return b


def test_phone_layout_keeps_board_clocks_status_and_actions_in_the_first_screen(browser, server):
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
                for _ in range(2)]
    a, b = pages = [c.new_page() for c in contexts]
    api_match(pages, server, variant="super16")
    play(a, b, "h2", "h4", 0)
    for own, p in enumerate(pages):
        board = box(p, "#board")
        assert board["width"] >= 370, board  # the full width
        for sel in ("#clock-0", "#clock-1", "#status", "#board"):
            r = box(p, sel)
            assert r["y"] >= 0 and r["y"] + r["height"] <= 844, (sel, r)
        assert box(p, f"#clock-{1 - own}")["y"] < board["y"] < box(p, f"#clock-{own}")["y"]  # opponent above, you below
        bar = box(p, "#actions")
        assert bar["y"] + bar["height"] == 844 and bar["width"] == 390  # the actions bar at the bottom
        assert p.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(a, "phone-layout-390x844")
    # the zoom: the board twice as large inside its frame, still without a page-wide scroll
    a.click("#zoom")
    expect(a.locator("#zoom")).to_have_attribute("aria-pressed", "true")
    assert box(a, "#board")["width"] >= 700
    assert a.evaluate("() => document.documentElement.scrollWidth") <= 390
    a.locator('#board [data-square="h15"]').scroll_into_view_if_needed()
    a.tap('#board [data-square="h15"]')
    a.tap('#board [data-square="h13"]')
    expect(b.locator('#moves [data-ply="1"]')).to_have_count(0)  # it is not Player 2's page: nothing sent
    b.click("#zoom")
    b.locator('#board [data-square="h15"]').scroll_into_view_if_needed()
    b.tap('#board [data-square="h15"]')
    b.tap('#board [data-square="h13"]')
    expect(a.locator('#moves [data-ply="1"]')).to_have_count(1)
    screenshot(b, "phone-zoomed-390x844")
    for c in contexts:
        c.close()


def test_desktop_fits_board_clocks_and_moves_and_the_dark_theme(two_players, server):
    a, _ = two_players
    api_match(two_players, server, variant="super16")
    a.set_viewport_size({"width": 1366, "height": 768})
    for sel in ("#board", "#clock-0", "#clock-1", "#moves", "#status"):
        r = box(a, sel)
        assert r["y"] >= 0 and r["y"] + r["height"] <= 768 and r["x"] + r["width"] <= 1366, (sel, r)
    assert a.evaluate("() => document.documentElement.scrollHeight") <= 768
    a.emulate_media(color_scheme="dark")
    a.reload()
    expect(a.locator("html")).to_have_attribute("data-theme", "dark")
    screenshot(a, "dark-theme-1366x768")
    a.set_viewport_size({"width": 390, "height": 844})
    screenshot(a, "dark-theme-390x844")
    a.click("#theme")  # system -> dark -> light
    a.click("#theme")
    expect(a.locator("html")).to_have_attribute("data-theme", "light")
    a.reload()
    expect(a.locator("#theme")).to_have_text("Theme: light")
    expect(a.locator("html")).to_have_attribute("data-theme", "light")


def test_phone_roster_editor_has_the_pieces_and_the_board_in_one_screen(browser, server):
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    page.goto(server.url + "/rosters")
    expect(page.locator("#piece-picker button[data-letter]").first).to_be_visible()
    for sel in ("#board", "#piece-picker"):
        r = box(page, sel)
        assert r["y"] >= 0 and r["y"] + r["height"] <= 844, (sel, r)
    page.tap('#piece-picker button[data-letter="N"]')
    page.tap('#board [data-square="h10"]')  # the piece stands on h8: (0, 2) added without a scroll
    expect(page.locator('#vectors li[data-vector="0,2"]')).to_have_count(1)
    screenshot(page, "phone-roster-editor-390x844")
    page.close()


def centre(page, square):
    b = box(page, f'#board [data-square="{square}"]')
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def test_a_held_touch_on_a_16x16_phone_board_opens_a_loupe_and_lifting_chooses_the_square(browser, server):
    """Issue 23 item 8: on a phone the 16x16 board's squares are 23 px; a touch held still opens a
    magnified loupe above the finger, the finger may slide to the intended square, and lifting it
    chooses that square (real touch input through Chromium's DevTools protocol)."""
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
                for _ in range(2)]
    a, b = pages = [c.new_page() for c in contexts]
    api_match(pages, server, variant="super16")
    assert box(a, '#board [data-square="h2"]')["width"] < 30  # small squares: the loupe serves them
    cdp = a.context.new_cdp_session(a)

    def touch(kind, at=None):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": at[0], "y": at[1]}] if at else []})

    def hold_and_slide(frm, to):
        (x0, y0), (x1, y1) = frm, to
        touch("touchStart", frm)
        a.wait_for_timeout(400)
        expect(a.locator(".loupe")).to_be_visible()
        for i in range(1, 6):  # the finger slides to the intended square
            touch("touchMove", (x0 + (x1 - x0) * i / 5, y0 + (y1 - y0) * i / 5))

    # the finger lands on h3 (an empty square: a 23 px tap would miss the pawn), slides to h2
    hold_and_slide(centre(a, "h3"), centre(a, "h2"))
    expect(a.locator(".loupe")).to_have_attribute("data-square", "h2")
    expect(a.locator(".loupe .loupe-target[data-square='h2'][data-piece='P']")).to_have_count(1)
    screenshot(a, "phone-loupe-390x844")
    touch("touchEnd")
    expect(a.locator(".loupe")).to_be_hidden()
    expect(a.locator("#board")).to_have_attribute("data-selected", "h2")  # chosen as a tap would
    hold_and_slide(centre(a, "g4"), centre(a, "h4"))
    touch("touchEnd")
    for p in pages:
        expect(p.locator('#moves [data-ply="0"]')).to_have_attribute("data-move", "h2h4")
    # the board zoomed (46 px squares) needs no loupe: a held touch opens none
    a.click("#zoom")
    a.locator('#board [data-square="h15"]').scroll_into_view_if_needed()
    touch("touchStart", centre(a, "h15"))
    a.wait_for_timeout(400)
    touch("touchEnd")
    expect(a.locator(".loupe")).to_be_hidden()
    for c in contexts:
        c.close()
