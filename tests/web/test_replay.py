"""Issue 23 item 1: the replay. Clicking a move, the arrow keys, Home/End and the on-screen buttons
show an earlier position (board, last move, captured pieces); a move arriving meanwhile is signalled,
not forced on the view; players, watchers and finished games alike."""
from __future__ import annotations

from playwright.sync_api import expect

from .conftest import watch_for_page_errors
from .helpers import play, shots, start_match


def sq(page, name):
    return page.locator(f'#board [data-square="{name}"]')


def test_replay_by_click_keys_and_buttons_while_the_game_goes_on(two_players, server, browser):
    a, b = two_players
    game_id = start_match(two_players, server, variant="chess")
    play(a, b, "e2", "e4", 0)
    play(b, a, "d7", "d5", 1)
    play(a, b, "e4", "d5", 2)  # takes the d5 pawn
    expect(a.locator("#captured-0 .piece-icon")).to_have_count(1)

    # a click on the first move shows the position after it
    a.click('#moves [data-ply="0"]')
    expect(a.locator("#replay-info")).to_have_text("Move 1 of 3")
    expect(sq(a, "e4")).to_have_attribute("data-piece", "P")
    expect(sq(a, "d5")).not_to_have_class("piece")
    expect(a.locator('#moves .ply.current')).to_have_attribute("data-ply", "0")
    expect(a.locator("#captured-0 .piece-icon")).to_have_count(0)
    assert "last" in sq(a, "e4").get_attribute("class")
    expect(a.locator("#replay-live")).to_be_visible()
    shots(a, "replay-move1")
    a.set_viewport_size({"width": 1280, "height": 1000})

    # keys: Home = the start, → one move on, ← one back
    a.keyboard.press("Home")
    expect(a.locator("#replay-info")).to_have_text("Move 0 of 3 (start)")
    expect(sq(a, "e2")).to_have_attribute("data-piece", "P")
    a.keyboard.press("ArrowRight")
    a.keyboard.press("ArrowRight")
    expect(a.locator("#replay-info")).to_have_text("Move 2 of 3")
    expect(sq(a, "d5")).to_have_attribute("data-piece", "p")
    a.keyboard.press("ArrowLeft")
    expect(a.locator("#replay-info")).to_have_text("Move 1 of 3")
    # looking back, the board takes no moves
    a.click('#board [data-square="d2"]')
    expect(a.locator("#board .dest")).to_have_count(0)

    # the opponent moves meanwhile: signalled, the view stays
    play(b, a, "d8", "d5", 3)
    expect(a.locator("#replay-live")).to_have_class("small primary new-move")
    expect(a.locator("#replay-live")).to_contain_text("New move (1)")
    expect(a.locator("#replay-info")).to_have_text("Move 1 of 4")
    expect(sq(a, "d8")).to_have_attribute("data-piece", "q")

    # the buttons: next, then back to live
    a.click("#replay-next")
    expect(a.locator("#replay-info")).to_have_text("Move 2 of 4")
    a.click("#replay-live")
    expect(a.locator("#replay-live")).to_be_hidden()
    expect(sq(a, "d5")).to_have_attribute("data-piece", "q")
    expect(a.locator("#captured-1 .piece-icon")).to_have_count(1)
    a.click('#board [data-square="b1"]')  # live again: the board plays
    expect(a.locator("#board .dest")).not_to_have_count(0)

    # a watcher looks back too, and so does everyone after the end
    watcher = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    w = watcher.new_page()
    watch_for_page_errors(w, problems)
    w.goto(f"{server.url}/game/{game_id}")
    expect(w.locator('#moves [data-ply="3"]')).to_have_count(1)
    w.click("#replay-first")
    expect(sq(w, "e2")).to_have_attribute("data-piece", "P")
    b.on("dialog", lambda d: d.accept())
    b.click("#resign")
    expect(w.locator("#status")).to_contain_text("resigned")
    expect(w.locator("#replay-info")).to_have_text("Move 0 of 4 (start)")  # still looking back
    w.keyboard.press("End")
    expect(sq(w, "d5")).to_have_attribute("data-piece", "q")
    a.click('#moves [data-ply="1"]')
    expect(sq(a, "d5")).to_have_attribute("data-piece", "p")
    shots(a, "replay-after-end")
    shots(w, "replay-watcher")
    watcher.close()
    assert not problems, problems
