"""Superchess's prelude (rules 2.3) in the browser: the players choose the substitutions in turn by
clicking (a substitute button, then a highlighted square of their own back rank), Player 2 may
exchange two substitutes or decline, then Player 1 makes the first move. The home page's forms
offer the mode; the computer makes its own prelude choices; at the deadline the missing choices are
made at random."""
from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .conftest import screenshot
from .helpers import glyph, holdings, play, state, wait_for_names

START = {"a1": "R", "b1": "N", "c1": "B", "d1": "Q", "e1": "K", "f1": "B", "g1": "N", "h1": "R"}


def record_sent(page):
    """The prelude messages this page sends over its websockets (a list filled as they go)."""
    sent = []

    def on_ws(ws):
        def on_frame(payload):
            try:
                msg = json.loads(payload)
            except (TypeError, ValueError):
                return
            if isinstance(msg, dict) and str(msg.get("type", "")).startswith("prelude"):
                sent.append(msg)
        ws.on("framesent", on_frame)

    page.on("websocket", on_ws)
    return sent


def start_prelude_match(pages, server):
    """A creates a Superchess prelude match on the home page, B accepts; both on the game page."""
    a, b = pages
    a.goto(server.url + "/")
    expect(a.locator('#variant option[value="superchess"]')).to_have_count(1)
    a.select_option("#variant", "superchess")
    expect(a.locator("#mode-label")).to_be_visible()
    assert a.eval_on_selector_all("#mode option:not([disabled])", "es => es.map(e => e.value)") == ["default", "prelude"]
    expect(a.locator("#setup")).to_be_visible()
    a.select_option("#mode", "prelude")
    expect(a.locator("#setup")).to_be_hidden()           # the players choose the set-up in the game
    expect(a.locator("#fen-label")).to_be_hidden()
    with a.expect_request(lambda r: r.url.endswith("/api/matches")) as req:
        a.click("#create")
    body = req.value.post_data_json
    assert body["mode"] == "prelude" and body["fen"] is None
    assert not any(k in body for k in ("setup_seed", "setup_squares"))
    link = a.locator("#invite-link")
    expect(link).to_be_visible()
    b.goto(link.get_attribute("href"))
    expect(b.locator("#inv-mode")).to_have_attribute("data-mode", "prelude")
    b.click("#accept")
    b.wait_for_url(re.compile(r"/game/"))
    a.click("#game-link")
    a.wait_for_url(re.compile(r"/game/"))
    for p in pages:
        wait_for_names(p)
        expect(p.locator("#status")).to_have_attribute("data-status", "setup")
        expect(p.locator("#prelude")).to_be_visible()
    return a.url.rsplit("/", 1)[1]


def marked(page):
    """The squares highlighted for the prelude (class dest), sorted."""
    return sorted(page.eval_on_selector_all("#board .square.dest", "es => es.map(e => e.dataset.square)"))


def back_ranks(page):
    """{square: letter} of ranks 1 and 8 as the board shows them."""
    return page.eval_on_selector_all(
        '#board .square.piece',
        "es => Object.fromEntries(es.filter(e => /^[a-h][18]$/.test(e.dataset.square))"
        ".map(e => [e.dataset.square, e.dataset.piece]))")


def expected_ranks(rank1):
    out = {}
    for sq, letter in rank1.items():
        out[sq] = letter
        out[sq[0] + "8"] = letter.lower()
    return out


def check_both(pages, rank1, held, steps):
    """Both pages show this back rank (Player 2's mirrored), these holdings and this many steps."""
    want = expected_ranks(rank1)
    for p in pages:
        expect(p.locator("#prelude-steps li[data-step]")).to_have_count(steps)
        for sq, letter in want.items():
            expect(p.locator(f'#board [data-square="{sq}"]')).to_have_attribute("data-piece", letter)
        assert back_ranks(p) == want
        assert holdings(p, 0) == held and holdings(p, 1) == held


def pick(page, other, piece, square, steps_before):
    """`page` (the player to choose) clicks the substitute then the square."""
    expect(page.locator("#prelude")).to_have_attribute("data-mine", "true")
    expect(other.locator("#prelude")).to_have_attribute("data-mine", "false")
    expect(other.locator("#prelude-swap-box")).to_be_hidden()
    # the waiting player sees the substitutes read-only, and no highlighted squares
    expect(other.locator("#prelude-pieces button[data-piece]").first).to_be_disabled()
    assert marked(other) == []
    page.click(f'#prelude-pieces button[data-piece="{piece}"]')
    expect(page.locator(f'#prelude-pieces button[data-piece="{piece}"]')).to_have_attribute("aria-pressed", "true")
    page.click(f'#board [data-square="{square}"]')
    for p in (page, other):
        expect(p.locator("#prelude-steps li[data-step]")).to_have_count(steps_before + 1)


def test_a_whole_prelude_by_clicking_then_the_first_move(two_players, server, browser):
    a, b = two_players
    sent_b = record_sent(b)
    sent_a = record_sent(a)
    game_id = start_prelude_match(two_players, server)

    # a watcher sees the panel read-only
    watcher_ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    w = watcher_ctx.new_page()
    w.goto(f"{server.url}/game/{game_id}")
    wait_for_names(w)
    expect(w.locator("#prelude")).to_be_visible()
    expect(w.locator("#prelude")).to_have_attribute("data-mine", "false")
    expect(w.locator("#prelude-turn")).to_contain_text("Player 1")
    pages = (a, b, w)

    st = state(a, game_id)
    assert st["status"] == "setup" and isinstance(st["setup_deadline"], int)
    assert st["prelude"]["to_move"] == 0 and st["prelude"]["expects"] == "king wing"
    check_both(pages, START, {}, 0)
    expect(a.locator("#prelude-turn")).to_contain_text("Your turn")
    expect(a.locator("#prelude-turn")).to_contain_text("king wing")
    expect(b.locator("#prelude-turn")).to_contain_text("Player 1")
    expect(a.locator("#prelude-deadline")).to_contain_text("left for the prelude")
    assert sorted(a.eval_on_selector_all("#prelude-pieces button[data-piece]", "es => es.map(e => e.dataset.piece)")) == \
        ["A", "E", "S", "V"]
    assert a.get_attribute('#prelude-pieces button[data-piece="A"] .piece-art', "data-glyph") == "queen-knight"
    assert a.get_attribute('#prelude-pieces button[data-piece="S"] .piece-art', "data-glyph") == "bishop-knight"
    assert marked(a) == ["f1", "g1", "h1"]                     # Player 1's free king-wing squares
    screenshot(a, "prelude-start-player1")

    # 1. White: Amazon on g1 (Black's g8 mirrors it)
    pick(a, b, "A", "g1", 0)
    rank1 = {**START, "g1": "A"}
    check_both(pages, rank1, {"N": 1}, 1)
    assert sent_a[-1] == {"type": "prelude_pick", "square": "g1", "piece": "A"}
    assert glyph(b, "g8") == "queen-knight"
    expect(b.locator("#status")).to_contain_text("your turn")

    # 2. Black: Empress on its queen wing, b8 (the message names Player 1's square, b1)
    expect(b.locator("#prelude")).to_have_attribute("data-expects", "queen wing")
    assert marked(b) == ["a8", "b8", "c8", "d8"]
    assert sorted(b.eval_on_selector_all("#prelude-pieces button[data-piece]", "es => es.map(e => e.dataset.piece)")) == \
        ["E", "S", "V"]
    b.click('#board [data-square="e8"]')                      # not a free square: nothing is sent
    expect(b.locator("#message")).to_contain_text("highlighted")
    pick(b, a, "E", "b8", 1)
    assert sent_b == [{"type": "prelude_pick", "square": "b1", "piece": "E"}]
    rank1["b1"] = "E"
    check_both(pages, rank1, {"N": 2}, 2)
    expect(a.locator("#message")).to_contain_text("Empress on b8")
    screenshot(b, "prelude-player2-after-pick")

    # 3. White: Princess on f1
    assert marked(a) == ["f1", "h1"]
    pick(a, b, "S", "f1", 2)
    rank1["f1"] = "S"
    check_both(pages, rank1, {"N": 2, "B": 1}, 3)

    # 4. Black: the last substitute, the Veteran, on d8
    assert marked(b) == ["a8", "c8", "d8"]
    pick(b, a, "V", "d8", 3)
    assert sent_b[-1] == {"type": "prelude_pick", "square": "d1", "piece": "V"}
    rank1["d1"] = "V"
    check_both(pages, rank1, {"N": 2, "B": 1, "Q": 1}, 4)
    st = state(a, game_id)
    assert st["status"] == "setup" and st["prelude"]["expects"] == "swap" and st["prelude"]["to_move"] == 1
    assert st["prelude"]["steps"] == [["g1", "A"], ["b1", "E"], ["f1", "S"], ["d1", "V"]]

    # 5. Black exchanges the Amazon (g8) and the Empress (b8)
    expect(b.locator("#prelude-swap-box")).to_be_visible()
    expect(a.locator("#prelude-swap-box")).to_be_hidden()
    expect(a.locator("#prelude-choose")).to_be_hidden()
    assert marked(b) == ["b8", "d8", "f8", "g8"]               # Black's substitutes
    expect(b.locator("#prelude-swap")).to_be_disabled()
    b.click('#board [data-square="g8"]')
    expect(b.locator('#board [data-square="g8"].origin')).to_have_count(1)
    expect(b.locator("#prelude-swap")).to_be_disabled()
    b.click('#board [data-square="b8"]')
    expect(b.locator("#prelude-swap")).to_be_enabled()
    expect(b.locator("#prelude-swap-hint")).to_contain_text("Amazon on g8")
    screenshot(b, "prelude-exchange")
    b.click("#prelude-swap")
    assert sent_b[-1] == {"type": "prelude_swap", "squares": ["g1", "b1"]}
    rank1.update({"g1": "E", "b1": "A"})
    for p in pages:
        expect(p.locator("#status")).to_have_attribute("data-status", "active")
        expect(p.locator("#prelude")).to_be_hidden()
        for sq, letter in expected_ranks(rank1).items():
            expect(p.locator(f'#board [data-square="{sq}"]')).to_have_attribute("data-piece", letter)
        assert back_ranks(p) == expected_ranks(rank1)
        assert holdings(p, 0) == {"N": 2, "B": 1, "Q": 1} == holdings(p, 1)
        assert marked(p) == []
    assert glyph(a, "b1") == "queen-knight" and glyph(b, "g8") == "rook-knight"
    st = state(b, game_id)
    assert st["fen"] == "rabvkser/pppppppp/8/8/8/8/PPPPPPPP/RABVKSER[QBNNqbnn] w KQkq - 0 1", st["fen"]
    assert st["prelude"]["steps"][-1] == ["swap", "g1", "b1"]

    # White makes the first move
    expect(a.locator("#status")).to_contain_text("Your move")
    play(a, b, "e2", "e4", 0)
    expect(w.locator('#moves [data-ply="0"]')).to_have_attribute("data-move", "e2e4")
    assert state(a, game_id)["moves"] == ["e2e4"]
    screenshot(a, "prelude-first-move")
    watcher_ctx.close()


def test_player_two_declines_the_exchange(two_players, server):
    a, b = two_players
    sent_b = record_sent(b)
    game_id = start_prelude_match(two_players, server)
    pick(a, b, "V", "h1", 0)
    pick(b, a, "A", "a8", 1)
    pick(a, b, "E", "g1", 2)
    # the last substitute is chosen already: one click on the square is enough
    expect(b.locator('#prelude-pieces button[data-piece="S"]')).to_have_attribute("aria-pressed", "true")
    b.click('#board [data-square="c8"]')
    rank1 = {**START, "h1": "V", "a1": "A", "g1": "E", "c1": "S"}
    check_both((a, b), rank1, {"R": 2, "N": 1, "B": 1}, 4)
    expect(b.locator("#prelude-swap-box")).to_be_visible()
    b.click("#prelude-decline")
    assert sent_b[-1] == {"type": "prelude_swap", "squares": None}
    for p in (a, b):
        expect(p.locator("#status")).to_have_attribute("data-status", "active")
        expect(p.locator("#prelude")).to_be_hidden()
        assert back_ranks(p) == expected_ranks(rank1)
    st = state(a, game_id)
    assert st["prelude"]["steps"] == [["h1", "V"], ["a1", "A"], ["g1", "E"], ["c1", "S"], ["swap"]]
    # both Rooks were replaced: no castling
    assert st["fen"].split()[2] == "-" and st["holdings"] == [{"R": 2, "N": 1, "B": 1}] * 2
    screenshot(b, "prelude-declined")
    play(a, b, "d2", "d4", 0)


def test_the_deadline_completes_the_prelude_at_random_keeping_the_choices(two_players, server):
    a, b = two_players
    game_id = start_prelude_match(two_players, server)
    pick(a, b, "S", "h1", 0)
    st = state(a, game_id)
    server.time.advance((st["setup_deadline"] - st["clock"]["server_time"]) / 1000 + 1)
    server.check_clocks()
    for p in (a, b):
        expect(p.locator("#status")).to_have_attribute("data-status", "active")
        expect(p.locator("#prelude")).to_be_hidden()
        expect(p.locator('#board [data-square="h1"]')).to_have_attribute("data-piece", "S")
        expect(p.locator('#board [data-square="h8"]')).to_have_attribute("data-piece", "s")
    expect(a.locator("#message")).to_contain_text("at random")
    rank1 = {sq: a.get_attribute(f'#board [data-square="{sq}"]', "data-piece") for sq in START}
    assert sorted(v for v in rank1.values() if v in "AESV") == ["A", "E", "S", "V"]


def test_prelude_against_the_computer(two_players, server):
    page = two_players[0]
    page.goto(server.url + "/")
    expect(page.locator('#computer-variant option[value="superchess"]')).to_have_count(1)
    page.select_option("#computer-variant", "superchess")
    expect(page.locator("#computer-mode-label")).to_be_visible()
    expect(page.locator("#computer-setup")).to_be_visible()
    page.select_option("#computer-mode", "prelude")
    expect(page.locator("#computer-setup")).to_be_hidden()
    page.select_option("#level", "1")
    page.select_option("#computer-side", "0")
    with page.expect_request(lambda r: r.url.endswith("/api/matches/computer")) as req:
        page.click("#play-computer")
    assert req.value.post_data_json["mode"] == "prelude"
    assert "setup_squares" not in req.value.post_data_json and "setup_seed" not in req.value.post_data_json
    page.wait_for_url(re.compile(r"/game/"))
    game_id = page.url.rsplit("/", 1)[1]
    wait_for_names(page)
    expect(page.locator("#prelude")).to_have_attribute("data-mine", "true")
    page.click('#prelude-pieces button[data-piece="E"]')
    page.click('#board [data-square="f1"]')
    # the computer answers on its queen wing; then it is our turn again
    expect(page.locator("#prelude-steps li[data-step]")).to_have_count(2, timeout=30_000)
    expect(page.locator("#prelude")).to_have_attribute("data-mine", "true")
    st = state(page, game_id)
    computer_square = st["prelude"]["steps"][1][0]
    assert computer_square in ("a1", "b1", "c1", "d1")
    expect(page.locator(f'#board [data-square="{computer_square[0]}8"]')).to_have_attribute(
        "data-piece", st["prelude"]["steps"][1][1].lower())
    free = st["prelude"]["free"]
    assert sorted(marked(page)) == sorted(free)
    remaining = st["prelude"]["remaining"]
    page.click(f'#prelude-pieces button[data-piece="{remaining[0]}"]')
    page.click(f'#board [data-square="{free[0]}"]')
    # the computer places the last substitute and decides the exchange: the game starts
    expect(page.locator("#status")).to_have_attribute("data-status", "active", timeout=30_000)
    st = state(page, game_id)
    assert len(st["prelude"]["steps"]) == 5 and st["prelude"]["steps"][-1][0] == "swap"
    letters = [page.get_attribute(f'#board [data-square="{sq}"]', "data-piece") for sq in START]
    assert sorted(x for x in letters if x in "AESV") == ["A", "E", "S", "V"]
    screenshot(page, "prelude-computer")
