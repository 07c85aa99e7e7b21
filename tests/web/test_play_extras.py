"""Issue 23 item 7: premove (queued, shown, cancelled, played when the turn comes), sounds with a
remembered mute, a takeback asked and accepted, the players' and watchers' chats, the spectator count."""
from __future__ import annotations

from playwright.sync_api import expect

from .conftest import watch_for_page_errors
from .helpers import api_match, play, shots


def sq(page, name):
    return page.locator(f'#board [data-square="{name}"]')


def test_premove_queued_cancelled_and_played_when_the_turn_comes(two_players, server):
    a, b = two_players
    api_match(two_players, server)
    play(a, b, "e2", "e4", 0)
    # Player 1 queues d2-d4 during Player 2's turn, cancels it, queues g1-f3
    a.click('#board [data-square="d2"]')
    a.click('#board [data-square="d4"]')
    expect(a.locator("#board")).to_have_attribute("data-premove", "d2d4")
    expect(sq(a, "d4")).to_have_class("square dark dest")
    shots(a, "premove-queued")
    a.set_viewport_size({"width": 1280, "height": 1000})
    a.click('#board [data-square="h5"]')
    expect(a.locator("#board")).to_have_attribute("data-premove", "")
    a.click('#board [data-square="g1"]')
    a.click('#board [data-square="f3"]')
    expect(a.locator("#board")).to_have_attribute("data-premove", "g1f3")
    play(b, a, "e7", "e5", 1)
    expect(a.locator('#moves [data-ply="2"]')).to_have_attribute("data-move", "g1f3")  # played at once
    expect(b.locator('#moves [data-ply="2"]')).to_have_attribute("data-move", "g1f3")


def test_premove_dropped_when_illegal_and_sounds_with_a_remembered_mute(two_players, server):
    a, b = two_players
    api_match(two_players, server)
    play(a, b, "e2", "e4", 0)
    a.click('#board [data-square="d1"]')
    a.click('#board [data-square="h5"]')
    expect(a.locator("#board")).to_have_attribute("data-premove", "d1h5")
    a.click('#board [data-square="a1"]')  # cancel
    a.click('#board [data-square="a1"]')
    a.click('#board [data-square="a3"]')  # the Rook cannot go there
    play(b, a, "d7", "d5", 1)
    expect(a.locator("#message")).to_contain_text("Premove a1–a3 is not legal now")
    expect(a.locator("#board")).to_have_attribute("data-premove", "")
    play(a, b, "e4", "d5", 2)
    played = a.evaluate("() => window.superchess.sounds.played")
    assert "capture" in played and "move" in played, played
    a.click("#mute")
    expect(a.locator("#mute")).to_have_attribute("aria-pressed", "true")
    a.reload()
    expect(a.locator("#mute")).to_have_attribute("aria-pressed", "true")
    expect(a.locator("#mute")).to_have_text("Sound off")


def test_a_takeback_asked_and_accepted(two_players, server):
    a, b = two_players
    api_match(two_players, server)
    play(a, b, "e2", "e4", 0)
    a.click("#takeback")
    expect(a.locator("#takeback")).to_have_text("Takeback asked")
    expect(b.locator("#accept-takeback")).to_be_visible()
    shots(b, "takeback-asked")
    b.set_viewport_size({"width": 1280, "height": 1000})
    b.click("#accept-takeback")
    for p in (a, b):
        expect(p.locator('#moves [data-ply="0"]')).to_have_count(0)
        expect(sq(p, "e2")).to_have_attribute("data-piece", "P")
    expect(a.locator("#status")).to_have_text("Your move.")


def test_players_and_watchers_chat_and_the_spectator_count(two_players, server, browser):
    a, b = two_players
    game_id = api_match(two_players, server)
    watcher = browser.new_context(viewport={"width": 1366, "height": 768})
    problems: list[str] = []
    w = watcher.new_page()
    watch_for_page_errors(w, problems)
    w.goto(f"{server.url}/game/{game_id}")
    for p in (a, b, w):
        expect(p.locator("#spectators")).to_have_text("1 watching")
    a.fill("#chat-input", "good luck <script>alert(1)</script>")
    a.press("#chat-input", "Enter")
    for p in (a, b, w):
        expect(p.locator("#chat-players li")).to_have_count(1)
        expect(p.locator("#chat-players li .chat-text")).to_have_text("good luck <script>alert(1)</script>")
    expect(a.locator("#chat-input")).to_have_value("")
    expect(w.locator("#chat-room-watchers")).to_be_visible()
    expect(a.locator("#chat-room-watchers")).to_be_hidden()
    w.fill("#chat-input", "nice game")
    w.click("#chat-send")
    expect(w.locator("#chat-watchers li .chat-text")).to_have_text("nice game")
    expect(a.locator("#chat-watchers li")).to_have_count(0)
    b.fill("#chat-input", "x" * 300)
    assert b.locator("#chat-input").input_value() == "x" * 200  # the field holds at most 200
    shots(w, "chat-watcher")
    watcher.close()
    for p in (a, b):
        expect(p.locator("#spectators")).to_be_hidden()
    assert not problems, problems
