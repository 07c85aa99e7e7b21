"""Playing the computer from the home page: the form, the game page, moves by clicking and the
computer's replies arriving over the websocket (it thinks in the real server's process pool)."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import screenshot
from .helpers import FIRST_REPLY_MS, play_the_computer, shots

REPLY_MS = 30_000


def api_state(page, server, game_id):
    return page.context.request.get(f"{server.url}/api/games/{game_id}").json()


def click_move(page, frm, to):
    page.click(f'#board [data-square="{frm}"]')
    expect(page.locator(f'#board [data-square="{to}"].dest')).to_have_count(1)
    page.click(f'#board [data-square="{to}"]')


def expect_reply(page, server, game_id, ply, timeout):
    """Waits for the computer's move number `ply` (0-based) in the move list; checks the board shows
    it; returns the move."""
    expect(page.locator(f'#moves [data-ply="{ply}"]')).to_have_count(1, timeout=timeout)
    move = page.get_attribute(f'#moves [data-ply="{ply}"]', "data-move")
    frm, to = move[:2], move[2:4]
    assert re.fullmatch(r"[a-h][1-8][a-h][1-8][a-z]?", move), move
    square = page.locator(f'#board [data-square="{to}"]')
    expect(square).to_have_attribute("data-side", "1")
    expect(square).to_have_class(re.compile(r"\blast\b"))
    expect(page.locator(f'#board [data-square="{frm}"]')).not_to_have_class(re.compile(r"\bpiece\b"))
    st = api_state(page, server, game_id)
    assert st["moves"][ply] == move and st["turn"] == 0 and st["pieces"][to].islower()
    return move


def test_play_the_computer_at_level_one(two_players, server):
    page = two_players[0]
    page.goto(server.url + "/")
    expect(page.locator('#computer-variant option[value="superchess"]')).to_have_count(1)
    assert page.eval_on_selector_all("#level option", "es => es.map(e => e.value)") == [str(n) for n in range(1, 9)]
    page.select_option("#computer-variant", "superchess")
    expect(page.locator("#computer-setup")).to_be_visible()    # Superchess: the set-up chooser
    expect(page.locator("#computer-mode-label")).to_be_visible()  # default or prelude (no rosters)
    assert page.eval_on_selector_all("#computer-mode option:not([disabled])", "es => es.map(e => e.value)") == \
        ["default", "prelude"]
    page.select_option("#computer-setup-mode", "seed")
    page.fill("#computer-setup-seed", "robot")
    expect(page.locator("#computer-setup")).to_have_attribute("data-preview", "ok")
    fen = page.text_content("#computer-setup-fen")
    game_id = play_the_computer(page, level=1, side=0)
    expect(page.locator("#status")).to_have_attribute("data-status", "active")
    expect(page.locator("#name-1")).to_have_text("Computer level 1")
    st = api_state(page, server, game_id)
    assert st["you"] == 0 and st["variant"] == "superchess"
    assert st["fen"].split("[")[0] == fen.split("[")[0]            # the seed's set-up
    expect(page.locator("#holdings-0 .held")).not_to_have_count(0)

    click_move(page, "e2", "e4")
    expect(page.locator('#moves [data-ply="0"]')).to_have_attribute("data-move", "e2e4")
    first = expect_reply(page, server, game_id, 1, FIRST_REPLY_MS)

    # the second move: d2d4 when it is legal (it always is after 1 e4 in these set-ups), else any
    legal = page.evaluate("window.superchess.state.legal")
    frm, to = ("d2", "d4") if "d4" in legal.get("d2", []) else \
        next((o, re.match(r"[a-z]+[0-9]+", ms[0])[0]) for o, ms in legal.items() if ms)
    click_move(page, frm, to)
    expect(page.locator('#moves [data-ply="2"]')).to_have_attribute("data-move", f"{frm}{to}")
    second = expect_reply(page, server, game_id, 3, REPLY_MS)
    assert page.eval_on_selector_all("#moves .ply[data-ply]", "es => es.map(e => e.dataset.move)") == \
        ["e2e4", first, f"{frm}{to}", second]
    expect(page.locator("#status")).to_have_text(re.compile("Your move"))
    screenshot(page, "computer-level-1")


def test_the_computer_moves_first_when_it_is_player_one(two_players, server):
    page = two_players[0]
    page.goto(server.url + "/")
    expect(page.locator('#computer-variant option[value="chess"]')).to_have_count(1)
    page.select_option("#computer-variant", "chess")
    expect(page.locator("#computer-setup")).to_be_hidden()       # no generated set-ups for chess
    game_id = play_the_computer(page, level=1, side=1)
    expect(page.locator("#name-0")).to_have_text("Computer level 1")
    expect(page.locator('#moves [data-ply="0"]')).to_have_count(1, timeout=FIRST_REPLY_MS)
    move = page.get_attribute('#moves [data-ply="0"]', "data-move")
    expect(page.locator(f'#board [data-square="{move[2:4]}"]')).to_have_attribute("data-side", "0")
    assert page.get_attribute("#board", "data-flipped") == "true"   # Player 2's view
    st = api_state(page, server, game_id)
    assert st["you"] == 1 and st["moves"] == [move] and st["turn"] == 1
    expect(page.locator("#holdings-0")).to_be_hidden()             # chess has no holdings


def test_the_computer_grants_a_takeback_at_once(two_players, server):
    """Issue 23: in a (casual) game against the computer a takeback is granted at once, as on lichess:
    the human's move and the computer's reply go, and the game goes on from there."""
    page = two_players[0]
    page.goto(server.url + "/")
    page.select_option("#computer-variant", "chess")
    game_id = play_the_computer(page, level=1, side=0)
    click_move(page, "e2", "e4")
    expect_reply(page, server, game_id, 1, FIRST_REPLY_MS)
    expect(page.locator("#takeback")).to_be_visible()
    page.click("#takeback")
    expect(page.locator('#moves [data-ply="0"]')).to_have_count(0)
    expect(page.locator('#board [data-square="e2"]')).to_have_attribute("data-piece", "P")
    expect(page.locator("#status")).to_have_text("Your move.")
    expect(page.locator("#message")).to_contain_text("Taken back: e2e4")
    shots(page, "takeback-computer")
    page.set_viewport_size({"width": 1280, "height": 1000})
    assert api_state(page, server, game_id)["moves"] == []
    click_move(page, "d2", "d4")
    expect_reply(page, server, game_id, 1, REPLY_MS)
    assert api_state(page, server, game_id)["moves"][0] == "d2d4"
