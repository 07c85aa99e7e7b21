"""Reprogrammed pieces in the browser (super16 R13-R17): the roster editor, match modes on the
home and invitation pages, and a Private game's secret set-up played by two browser contexts."""
from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .conftest import screenshot

KNIGHT_DEFAULT_FROM_H8 = {"g10", "i10", "f9", "j9", "f7", "j7", "g6", "i6"}
KNIGHT_03 = {"N": {"mode": "jump", "vectors": [[0, 3]]}}


# ---- helpers ------------------------------------------------------------------------------

def squares(page, selector):
    return set(page.eval_on_selector_all(selector, "es => es.map(e => e.dataset.square)"))


def settled(page):
    """Waits until the editor's latest preview has been answered (whatever the answer)."""
    expect(page.locator("#editor")).not_to_have_attribute("data-preview", re.compile("pending|idle"))


def editor_dests(page):
    settled(page)
    return squares(page, "#board .square.dest")


def open_editor(page, server):
    page.goto(server.url + "/rosters")
    expect(page.locator('#piece-picker [data-letter="N"]')).to_be_visible()
    settled(page)


def vectors(page):
    return page.eval_on_selector_all("#vectors [data-vector]", "es => es.map(e => e.dataset.vector)")


def save_roster_in_editor(page, name):
    page.fill("#roster-name", name)
    page.click("#save-roster")
    expect(page.locator("#saved-rosters li[data-name]").filter(has_text=name)).to_have_count(1)


def create_match(page, server, mode, roster_name=None, variant="super16"):
    page.goto(server.url + "/")
    expect(page.locator(f'#variant option[value="{variant}"]')).to_have_count(1)
    page.select_option("#variant", variant)
    expect(page.locator("#mode")).to_be_visible()
    page.select_option("#mode", mode)
    if roster_name:
        expect(page.locator(f'#roster option[value="{roster_name}"]')).to_have_count(1)
        page.select_option("#roster", roster_name)
    page.click("#create")
    link = page.locator("#invite-link")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert re.search(r"/invite/[\w-]{30,}$", href), href
    return href if href.startswith("http") else server.url + href


def api_state(page, server, game_id):
    return page.context.request.get(f"{server.url}/api/games/{game_id}").json()


def play(page, other, frm, to, ply):
    page.click(f'#board [data-square="{frm}"]')
    page.click(f'#board [data-square="{to}"]')
    for p in (page, other):
        expect(p.locator(f'#moves [data-ply="{ply}"]')).to_have_count(1)


def store_locally(page, server, rosters):
    """Puts saved rosters in this browser's storage (the guests' backend) directly."""
    page.goto(server.url + "/rosters")
    page.evaluate("(data) => localStorage.setItem('superchess.rosters', JSON.stringify({rosters: data}))", rosters)


# ---- the editor -----------------------------------------------------------------------------

def test_editor_click_adds_right_click_removes_and_modes_change_destinations(two_players, server):
    page = two_players[0]
    open_editor(page, server)
    page.click('#piece-picker [data-letter="N"]')
    expect(page.locator('#piece-picker [data-letter="N"]')).to_have_attribute("aria-pressed", "true")
    assert page.locator('#board [data-square="h8"]').get_attribute("data-piece") == "N"
    assert editor_dests(page) == KNIGHT_DEFAULT_FROM_H8  # no program: the default Knight

    page.click('#board [data-square="i9"]')                  # (1, 1) from h8
    assert vectors(page) == ["1,1"]
    page.select_option("#piece-mode", "step")
    assert editor_dests(page) == {"i9"}
    page.select_option("#piece-mode", "slide")
    assert editor_dests(page) == {"i9", "j10", "k11", "l12", "m13", "n14", "o15", "p16"}
    page.select_option("#piece-mode", "jump")
    assert editor_dests(page) == {"i9"}

    page.click('#board [data-square="h11"]')                 # (0, 3)
    assert vectors(page) == ["1,1", "0,3"]
    assert editor_dests(page) == {"i9", "h11"}
    # The start position: Player 1's Knights (b1, o1) with this program.
    start = squares(page, "#start-board .square.dest")
    assert {"b4", "o4"} <= start and not ({"a3", "c3", "n3", "p3"} & start), start
    assert squares(page, "#start-board .square.origin") == {"b1", "o1"}

    page.click('#board [data-square="i9"]', button="right")  # right-click removes
    assert vectors(page) == ["0,3"]
    assert editor_dests(page) == {"h11"}
    expect(page.locator("#roster-summary [data-letter='N']")).to_contain_text("(0, 3)")

    # A long press on a touch screen removes too.
    page.dispatch_event('#board [data-square="h11"]', "pointerdown",
                        {"pointerType": "touch", "pointerId": 7, "isPrimary": True, "button": 0})
    page.wait_for_timeout(700)
    page.dispatch_event('#board [data-square="h11"]', "pointerup",
                        {"pointerType": "touch", "pointerId": 7, "isPrimary": True, "button": 0})
    assert vectors(page) == []
    assert editor_dests(page) == KNIGHT_DEFAULT_FROM_H8     # empty program = default again
    assert page.evaluate("window.superchess.roster") == {}    # never an empty vector list

    # Moving the piece: the vectors stay, the squares follow the origin.
    page.click('#board [data-square="h11"]')                 # (0, 3) again
    page.click("#place-piece")
    page.click('#board [data-square="c3"]')
    expect(page.locator("#origin")).to_have_text("c3")
    assert vectors(page) == ["0,3"]
    assert editor_dests(page) == {"c6"}
    assert page.locator('#board [data-square="c3"]').get_attribute("data-piece") == "N"
    screenshot(page, "roster-editor")


def test_editor_shows_the_servers_problem_and_errors(two_players, server):
    page = two_players[0]
    open_editor(page, server)
    page.click('#piece-picker [data-letter="Q"]')
    # A Queen (h1) that jumps onto the enemy King (i16) in the start position cannot be used.
    page.fill("#add-dx", "1")
    page.fill("#add-dy", "15")
    page.click("#add-vector")
    settled(page)
    expect(page.locator("#editor")).to_have_attribute("data-preview", "problem")
    expect(page.locator("#roster-message")).not_to_be_empty()
    assert vectors(page) == ["1,15"]
    expect(page.locator('#vectors [data-vector="1,15"]')).to_have_class(re.compile("off-board"))
    # Out of range: the server's 400 names the vector.
    page.fill("#add-dx", "0")
    page.fill("#add-dy", "16")
    page.click("#add-vector")
    settled(page)
    expect(page.locator("#editor")).to_have_attribute("data-preview", "error")
    expect(page.locator("#roster-message")).to_contain_text("(0, 16)")
    page.click('#vectors [data-vector="0,16"] button.remove')
    settled(page)
    expect(page.locator("#editor")).to_have_attribute("data-preview", "problem")
    page.click("#reset-piece")
    settled(page)
    expect(page.locator("#editor")).to_have_attribute("data-preview", "ok")
    expect(page.locator("#roster-message")).to_be_empty()
    assert page.evaluate("window.superchess.roster") == {}


def test_editor_save_reload_load_and_delete_as_a_guest(two_players, server):
    page = two_players[0]
    page.on("dialog", lambda d: d.accept())
    open_editor(page, server)
    expect(page.locator("#store-kind")).to_contain_text("browser")
    page.click('#piece-picker [data-letter="N"]')
    page.click('#board [data-square="h11"]')
    page.click('#piece-picker [data-letter="B"]')
    page.select_option("#piece-mode", "step")
    page.click('#board [data-square="j10"]')
    settled(page)
    name = "Leapers <b>&</b> co"  # user text: shown as text, never as markup
    save_roster_in_editor(page, name)
    expected = {"B": {"mode": "step", "vectors": [[2, 2]]}, "N": {"mode": "jump", "vectors": [[0, 3]]}}
    stored = json.loads(page.evaluate("localStorage.getItem('superchess.rosters')"))
    assert stored == {"rosters": [{"name": name, "variant": "super16", "roster": expected}]}

    page.reload()
    settled(page)
    assert page.evaluate("window.superchess.roster") == {}  # a fresh editor
    item = page.locator("#saved-rosters li[data-name]")
    expect(item).to_have_count(1)
    expect(item.locator("strong")).to_have_text(name)
    assert page.locator("#saved-rosters b").count() == 0
    item.locator("button.load").click()
    settled(page)
    assert page.evaluate("window.superchess.roster") == expected
    expect(page.locator("#roster-name")).to_have_value(name)
    page.click('#piece-picker [data-letter="N"]')
    assert vectors(page) == ["0,3"]
    assert editor_dests(page) == {"h11"}

    page.click("#reset-all")
    settled(page)
    assert page.evaluate("window.superchess.roster") == {}
    assert editor_dests(page) == KNIGHT_DEFAULT_FROM_H8
    expect(page.locator("#piece-picker .programmed")).to_have_count(0)
    item.locator("button.delete").click()
    expect(page.locator("#saved-rosters li[data-name]")).to_have_count(0)
    assert json.loads(page.evaluate("localStorage.getItem('superchess.rosters')")) == {"rosters": []}


def test_account_rosters_are_kept_on_the_server(two_players, server):
    page = two_players[0]
    page.on("dialog", lambda d: d.accept())
    page.goto(server.url + "/")
    r = page.context.request.post(server.url + "/api/register", data={"name": "ada", "password": "longpassword"})
    assert r.ok, r.text()
    open_editor(page, server)
    expect(page.locator("#store-kind")).to_contain_text("account")
    page.click('#piece-picker [data-letter="U"]')
    page.select_option("#piece-mode", "slide")
    page.click('#board [data-square="h9"]')
    save_roster_in_editor(page, "one step")
    listed = page.context.request.get(server.url + "/api/rosters").json()["rosters"]
    assert listed == [{"name": "one step", "variant": "super16", "roster": {"U": {"mode": "slide", "vectors": [[0, 1]]}}}]
    assert page.evaluate("localStorage.getItem('superchess.rosters')") is None
    page.click("#reset-all")
    page.click('#piece-picker [data-letter="N"]')
    page.click('#board [data-square="h11"]')
    save_roster_in_editor(page, "a/b %2F?#")                   # any characters, URL-encoded in the path
    listed = page.context.request.get(server.url + "/api/rosters").json()["rosters"]
    assert sorted(r["name"] for r in listed) == ["a/b %2F?#", "one step"]
    assert [r["roster"] for r in listed if r["name"] == "a/b %2F?#"] == [KNIGHT_03]
    page.reload()
    page.locator('#saved-rosters li[data-name="one step"] button.load').click()
    assert page.evaluate("window.superchess.roster") == {"U": {"mode": "slide", "vectors": [[0, 1]]}}
    page.locator('#saved-rosters li[data-name="a/b %2F?#"] button.load').click()
    assert page.evaluate("window.superchess.roster") == KNIGHT_03
    page.locator('#saved-rosters li[data-name="one step"] button.delete').click()
    expect(page.locator("#saved-rosters li[data-name]")).to_have_count(1)
    page.locator('#saved-rosters li[data-name="a/b %2F?#"] button.delete').click()
    expect(page.locator("#saved-rosters li[data-name]")).to_have_count(0)
    assert page.context.request.get(server.url + "/api/rosters").json()["rosters"] == []


# ---- match modes --------------------------------------------------------------------------

def test_mode_select_only_for_reprogrammable_variants_and_symmetric_needs_a_roster(two_players, server):
    page = two_players[0]
    store_locally(page, server, [
        {"name": "attacker", "variant": "super16", "roster": {"Q": {"mode": "jump", "vectors": [[1, 15]]}}}])
    page.goto(server.url + "/")
    expect(page.locator("#mode")).to_be_visible()
    expect(page.locator("#roster")).to_be_hidden()
    page.select_option("#mode", "symmetric")
    expect(page.locator("#roster")).to_be_visible()
    page.click("#create")                                     # no roster chosen
    expect(page.locator("#message")).to_contain_text("roster")
    expect(page.locator("#created")).to_be_hidden()
    page.select_option("#roster", "attacker")
    page.click("#create")                                     # the server refuses it: its reason is shown
    expect(page.locator("#message")).to_have_attribute("data-kind", "error")
    expect(page.locator("#message")).to_contain_text("King")
    expect(page.locator("#created")).to_be_hidden()
    screenshot(page, "home-symmetric-refused")
    page.select_option("#mode", "default")                    # back to default is always possible
    expect(page.locator("#roster")).to_be_hidden()
    page.select_option("#mode", "private")
    page.select_option("#variant", "chess")
    expect(page.locator("#mode")).to_be_hidden()
    expect(page.locator("#mode")).to_have_value("default")
    with page.expect_request(lambda r: r.url.endswith("/api/matches")) as req:
        page.click("#create")
    assert req.value.post_data_json["mode"] == "default"
    expect(page.locator("#created")).to_be_visible()


def test_symmetric_match_shows_the_proposal_and_both_sides_use_it(two_players, server):
    a, b = two_players
    store_locally(a, server, [{"name": "tall knights", "variant": "super16", "roster": KNIGHT_03}])
    href = create_match(a, server, "symmetric", "tall knights")
    b.goto(href)
    expect(b.locator("#inv-mode")).to_have_attribute("data-mode", "symmetric")
    roster = b.locator("#inv-roster")
    expect(roster).to_be_visible()
    expect(roster.locator("[data-letter='N']")).to_contain_text("Knight")
    expect(roster.locator("[data-letter='N']")).to_contain_text("jump")
    expect(roster.locator("[data-letter='N']")).to_contain_text("(0, 3)")
    expect(b.locator("#inv-roster-note")).to_contain_text("agrees")
    screenshot(b, "invitation-symmetric")
    b.click("#accept")
    b.wait_for_url(re.compile(r"/game/"))
    a.click("#game-link")
    a.wait_for_url(re.compile(r"/game/"))
    for p in (a, b):
        expect(p.locator("#mode")).to_have_attribute("data-mode", "symmetric")
        expect(p.locator("#status")).to_have_attribute("data-status", "active")
        for side in ("0", "1"):
            expect(p.locator(f'#rosters [data-side="{side}"]')).to_contain_text("(0, 3)")
    a.click('#board [data-square="b1"]')
    assert squares(a, "#board .square.dest") == {"b4"}
    a.click('#board [data-square="b4"]')
    expect(b.locator('#moves [data-ply="0"]')).to_have_attribute("data-move", "b1b4")
    b.click('#board [data-square="b16"]')
    assert squares(b, "#board .square.dest") == {"b13"}      # Player 2's program mirrored


# ---- a Private game -----------------------------------------------------------------------

def test_private_game_secret_rosters_set_up_play_and_reveal(two_players, server, browser):
    a, b = two_players
    # Player A programs Knights to jump (0, 3) and saves it in the editor.
    open_editor(a, server)
    a.click('#piece-picker [data-letter="N"]')
    a.click('#board [data-square="h11"]')
    settled(a)
    save_roster_in_editor(a, "tall knights")

    href = create_match(a, server, "private")
    b.goto(href)
    expect(b.locator("#inv-mode")).to_have_attribute("data-mode", "private")
    expect(b.locator("#inv-roster")).to_be_hidden()
    b.click("#accept")
    b.wait_for_url(re.compile(r"/game/"))
    a.click("#game-link")
    a.wait_for_url(re.compile(r"/game/"))
    game_id = a.url.rsplit("/", 1)[1]

    for p in (a, b):
        expect(p.locator("#status")).to_have_attribute("data-status", "setup")
        expect(p.locator("#mode")).to_have_attribute("data-mode", "private")
        expect(p.locator("#roster-setup")).to_be_visible()
        expect(p.locator("#setup-deadline")).to_contain_text("left")
        for side in (0, 1):
            expect(p.locator(f"#submitted-{side}")).to_have_attribute("data-submitted", "false")
    # A watcher sees only that the players are choosing.
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server.url}/game/{game_id}")
    expect(watcher.locator("#status")).to_have_attribute("data-status", "setup")
    expect(watcher.locator("#status")).to_contain_text("choosing")
    for hidden in ("#roster-setup", "#setup-info", "#rosters"):
        expect(watcher.locator(hidden)).to_be_hidden()

    expect(a.locator('#setup-roster option[value="tall knights"]')).to_have_count(1)
    a.select_option("#setup-roster", "tall knights")
    expect(a.locator("#setup-preview [data-letter='N']")).to_contain_text("(0, 3)")
    screenshot(a, "private-setup-choosing")
    a.click("#submit-roster")
    for p in (a, b):
        expect(p.locator("#submitted-0")).to_have_attribute("data-submitted", "true")
        expect(p.locator("#submitted-1")).to_have_attribute("data-submitted", "false")
    expect(a.locator("#roster-setup")).to_be_hidden()
    expect(a.locator('#rosters [data-side="0"]')).to_contain_text("(0, 3)")   # one's own roster
    expect(b.locator('#rosters [data-side="0"]')).to_have_count(0)            # never the opponent's
    assert "(0, 3)" not in b.content()
    assert api_state(b, server, game_id)["rosters"][0] is None

    expect(b.locator('#setup-roster option[value=""]')).to_have_count(1)
    b.select_option("#setup-roster", "")                      # B keeps the default
    b.click("#submit-roster")
    for p in (a, b):
        expect(p.locator("#status")).to_have_attribute("data-status", "active")
    expect(b.locator("#roster-setup")).to_be_hidden()
    expect(b.locator('#rosters [data-side="1"]')).to_contain_text("Default")
    expect(b.locator('#rosters [data-side="0"]')).to_have_count(0)
    expect(a.locator('#rosters [data-side="1"]')).to_have_count(0)

    # The reprogrammed Knight moves by its program only.
    a.click('#board [data-square="b1"]')
    assert squares(a, "#board .square.dest") == {"b4"}
    a.click('#board [data-square="b4"]')
    for p in (a, b):
        expect(p.locator('#moves [data-ply="0"]')).to_have_attribute("data-move", "b1b4")
    assert api_state(a, server, game_id)["pieces"]["b4"] == "N"
    play(b, a, "b16", "c14", 1)                               # B's default Knight
    play(a, b, "b4", "b7", 2)
    play(b, a, "h15", "h13", 3)
    expect(b.locator('#rosters [data-side="0"]')).to_have_count(0)
    assert "(0, 3)" not in b.content() and "(0, 3)" not in watcher.content()
    assert api_state(b, server, game_id)["rosters"][0] is None
    screenshot(b, "private-opponent-view")

    b.on("dialog", lambda d: d.accept())
    b.click("#resign")
    for p in (a, b, watcher):
        expect(p.locator("#status")).to_have_attribute("data-status", "finished")
        expect(p.locator('#rosters [data-side="0"]')).to_contain_text("Knight")
        expect(p.locator('#rosters [data-side="0"]')).to_contain_text("(0, 3)")
        expect(p.locator('#rosters [data-side="1"]')).to_contain_text("Default")
    screenshot(b, "private-revealed")
    watcher.context.close()


def test_private_set_up_deadline_keeps_the_default_for_who_did_not_submit(two_players, server):
    a, b = two_players
    store_locally(a, server, [{"name": "tall knights", "variant": "super16", "roster": KNIGHT_03}])
    href = create_match(a, server, "private")
    b.goto(href)
    b.click("#accept")
    b.wait_for_url(re.compile(r"/game/"))
    a.click("#game-link")
    a.wait_for_url(re.compile(r"/game/"))
    game_id = a.url.rsplit("/", 1)[1]
    expect(a.locator("#setup-roster")).to_be_visible()
    a.select_option("#setup-roster", "tall knights")
    a.click("#submit-roster")
    expect(b.locator("#submitted-0")).to_have_attribute("data-submitted", "true")
    deadline = api_state(b, server, game_id)["setup_deadline"]
    server.time.advance((deadline - server.time()) / 1000 + 1)  # B never submits
    server.check_clocks()
    for p in (a, b):
        expect(p.locator("#status")).to_have_attribute("data-status", "active")
        expect(p.locator("#roster-setup")).to_be_hidden()
        expect(p.locator("#setup-info")).to_be_hidden()
    expect(b.locator('#rosters [data-side="1"]')).to_contain_text("Default")
    expect(b.locator('#rosters [data-side="0"]')).to_have_count(0)
    a.click('#board [data-square="b1"]')
    assert squares(a, "#board .square.dest") == {"b4"}
