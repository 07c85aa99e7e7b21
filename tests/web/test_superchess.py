"""Superchess in the browser: holdings beside the board, captures feeding the owner's holdings,
promotion only to held pieces (through the board), piece drawings chosen by name per variant, and
the set-up chooser on the home page (per square, seed, new shuffle, the server's refusals)."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import screenshot
from .helpers import glyph, holdings, play, start_match, state, wait_for_names

# the rules file writes E1's holdings in the order the pieces were replaced; the server writes them
# in the variant's piece order
E1_FEN = "rvbakser/pppppppp/8/8/8/8/PPPPPPPP/RVBAKSER[QBNNqbnn] w KQkq - 0 1"


def test_captured_empress_enters_holdings_and_the_pawn_promotes_to_it(two_players, server):
    a, b = two_players
    # Rules E7: White Ke1, Ed4, Pb7, holdings {}; Black Kh8, Bf6; Black to move.
    fen = "7k/1P6/5b2/8/3E4/8/8/4K3[] b - - 0 1"
    game_id = start_match(two_players, server, variant="superchess", fen=fen)
    for p in (a, b):
        wait_for_names(p)
        expect(p.locator("#holdings-0")).to_be_visible()
        expect(p.locator("#holdings-1")).to_be_visible()
        assert holdings(p, 0) == {} and holdings(p, 1) == {}
        expect(p.locator("#holdings-0 .none")).to_have_count(1)
        assert glyph(p, "d4") == "rook-knight" and glyph(p, "f6") == "bishop"

    play(b, a, "f6", "d4", 0)                       # Black takes the Empress
    for p in (a, b):
        expect(p.locator('#holdings-0 .held[data-piece="E"][data-count="1"]')).to_have_count(1)
        assert holdings(p, 0) == {"E": 1} and holdings(p, 1) == {}
        expect(p.locator("#captured-1 .piece-icon")).to_have_count(1)   # Player 2 took one piece
        expect(p.locator('#captured-1 .piece-icon[data-piece="E"] [data-glyph="rook-knight"]')).to_have_count(1)
    assert state(a, game_id)["holdings"] == [{"E": 1}, {}]
    expect(a.locator('#holdings-0 .held[data-piece="E"] [data-glyph="rook-knight"]')).to_have_count(1)
    screenshot(a, "superchess-holdings-empress")

    # one legal promotion: the click on b8 moves at once (no picker)
    a.click('#board [data-square="b7"]')
    expect(a.locator("#board .square.dest")).to_have_count(1)
    a.click('#board [data-square="b8"]')
    expect(a.locator("#promotion")).to_be_hidden()
    for p in (a, b):
        expect(p.locator('#moves [data-ply="1"]')).to_have_attribute("data-move", "b7b8e")
        expect(p.locator('#board [data-square="b8"][data-piece="E"]')).to_have_count(1)
        expect(p.locator("#holdings-0 .held")).to_have_count(0)
        assert glyph(p, "b8") == "rook-knight"
    st = state(b, game_id)
    assert st["holdings"] == [{}, {}] and st["pieces"]["b8"] == "E" and st["check"] == "h8"
    screenshot(b, "superchess-promoted-to-empress")


def test_the_picker_offers_exactly_the_held_types(two_players, server):
    a, b = two_players
    # As E7, but White already holds a Knight and Black a Queen.
    fen = "7k/1P6/5b2/8/3E4/8/8/4K3[Nq] b - - 0 1"
    game_id = start_match(two_players, server, variant="superchess", fen=fen)
    for p in (a, b):
        wait_for_names(p)
        assert holdings(p, 0) == {"N": 1} and holdings(p, 1) == {"Q": 1}
    play(b, a, "f6", "d4", 0)
    for p in (a, b):
        expect(p.locator('#holdings-0 .held[data-piece="E"]')).to_have_count(1)
        assert holdings(p, 0) == {"E": 1, "N": 1} and holdings(p, 1) == {"Q": 1}

    a.click('#board [data-square="b7"]')
    a.click('#board [data-square="b8"]')
    picker = a.locator("#promotion")
    expect(picker).to_be_visible()
    offered = a.eval_on_selector_all("#promotion [data-promotion]", "es => es.map(e => e.dataset.promotion)")
    assert sorted(offered) == ["e", "n"]
    assert a.get_attribute('#promotion [data-promotion="e"] .piece-art', "data-glyph") == "rook-knight"
    assert a.get_attribute('#promotion [data-promotion="n"] .piece-art', "data-glyph") == "knight"
    expect(picker.locator('[data-promotion="e"]')).to_contain_text("Empress")
    screenshot(a, "superchess-promotion-picker")
    a.click('#promotion [data-promotion="n"]')
    for p in (a, b):
        expect(p.locator('#moves [data-ply="1"]')).to_have_attribute("data-move", "b7b8n")
        expect(p.locator('#board [data-square="b8"][data-piece="N"]')).to_have_count(1)
        expect(p.locator("#holdings-0 .held")).to_have_count(1)
        assert holdings(p, 0) == {"E": 1}
    assert state(a, game_id)["holdings"] == [{"E": 1}, {"Q": 1}]


def test_drawings_are_chosen_by_name_per_variant(two_players, server):
    page = two_players[0]
    page.goto(server.url + "/")
    glyphs = page.evaluate("""async () => {
        const ui = await import('/static/ui.js');
        const s16 = await ui.pieceSetFor('super16');
        const sc = await ui.pieceSetFor('superchess');
        return {super16: ['A', 'S', 'P', 'U'].map(l => s16.glyph(l)),
                superchess: ['A', 'E', 'S', 'V', 'Q', 'p'].map(l => sc.glyph(l)),
                names: ['A', 'S'].map(l => sc.name(l))};
    }""")
    assert glyphs == {"super16": ["archbishop", "princess", "pawn", "super-knight"],
                      "superchess": ["queen-knight", "rook-knight", "bishop-knight", "king-knight", "queen", "pawn"],
                      "names": ["Amazon", "Princess"]}


# ---- the set-up chooser -------------------------------------------------------------------

def choose_superchess(page, server):
    page.goto(server.url + "/")
    expect(page.locator('#variant option[value="superchess"]')).to_have_count(1)
    expect(page.locator("#setup")).to_be_hidden()              # super16 has no set-ups
    page.select_option("#variant", "superchess")
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#setup")).to_have_attribute("data-mode", "random")
    # Superchess pieces cannot be reprogrammed: the modes are default and the prelude
    expect(page.locator("#mode-label")).to_be_visible()
    assert page.eval_on_selector_all("#mode option:not([disabled])", "es => es.map(e => e.value)") == ["default", "prelude"]
    expect(page.locator("#mode")).to_have_value("default")


def pick(page, choice, prefix=""):
    for sq, letter in choice.items():
        page.select_option(f'#{prefix}setup-squares select[data-square="{sq}"]', letter)


def test_pick_per_square_previews_and_the_match_starts_from_it(two_players, server):
    page = two_players[0]
    choose_superchess(page, server)
    page.select_option("#setup-mode", "squares")
    expect(page.locator("#setup-squares")).to_be_visible()
    pick(page, {"b1": "V", "d1": "A", "f1": "S"})            # three of four: the server says why not
    expect(page.locator("#setup")).to_have_attribute("data-preview", "error")
    expect(page.locator("#setup-message")).to_contain_text("use each substitute exactly once")
    expect(page.locator("#setup-preview")).to_be_hidden()

    pick(page, {"g1": "E"})                                   # rules example E1
    expect(page.locator("#setup")).to_have_attribute("data-preview", "ok")
    expect(page.locator("#setup-message")).to_have_text("")
    expect(page.locator("#setup-fen")).to_have_text(E1_FEN)
    preview = page.locator("#setup-preview")
    expect(preview).to_be_visible()
    for sq, letter in {"a1": "R", "b1": "V", "c1": "B", "d1": "A", "e1": "K", "f1": "S", "g1": "E", "h1": "R",
                       "b8": "v", "d8": "a", "f8": "s", "g8": "e", "e8": "k"}.items():
        expect(preview.locator(f'[data-square="{sq}"]')).to_have_attribute("data-piece", letter)
    assert glyph(page, "d1", "#setup-preview") == "queen-knight"
    assert glyph(page, "f8", "#setup-preview") == "bishop-knight"
    expect(page.locator("#setup-holdings")).to_contain_text("Queen, Bishop, Knight, Knight")
    screenshot(page, "superchess-setup-preview")

    page.click("#create")
    expect(page.locator("#invite-link")).to_be_visible()
    game_id = page.get_attribute("#game-link", "href").rsplit("/", 1)[1]
    st = page.context.request.get(f"{server.url}/api/games/{game_id}").json()
    assert st["fen"] == E1_FEN
    assert st["holdings"] == [{"N": 2, "Q": 1, "B": 1}, {"N": 2, "Q": 1, "B": 1}]
    page.click("#game-link")
    page.wait_for_url(re.compile(r"/game/"))
    wait_for_names(page)
    assert holdings(page, 0) == {"N": 2, "Q": 1, "B": 1} == holdings(page, 1)
    assert glyph(page, "b1") == "king-knight" and glyph(page, "g8") == "rook-knight"


def test_seed_shuffle_and_a_refused_choice(two_players, server):
    page = two_players[0]
    choose_superchess(page, server)
    # from a seed: the preview is the server's set-up for that seed, and so is the match
    page.select_option("#setup-mode", "seed")
    page.fill("#setup-seed", "tuesday")
    expect(page.locator("#setup")).to_have_attribute("data-preview", "ok")
    expected = page.context.request.post(server.url + "/api/setups/preview",
                                         data={"variant": "superchess", "seed": "tuesday"}).json()
    expect(page.locator("#setup-fen")).to_have_text(expected["fen"])
    page.click("#create")
    expect(page.locator("#invite-link")).to_be_visible()
    game_id = page.get_attribute("#game-link", "href").rsplit("/", 1)[1]
    assert page.context.request.get(f"{server.url}/api/games/{game_id}").json()["fen"] == expected["fen"]

    # new shuffle: a random set-up from the server, put into the per-square choice
    page.click("#shuffle")
    expect(page.locator("#setup")).to_have_attribute("data-mode", "squares")
    expect(page.locator("#setup")).to_have_attribute("data-preview", "ok")
    chosen = page.eval_on_selector_all("#setup-squares select[data-square]",
                                       "es => Object.fromEntries(es.filter(e => e.value).map(e => [e.dataset.square, e.value]))")
    assert sorted(chosen.values()) == ["A", "E", "S", "V"]
    assert len([s for s in chosen if s in "a1 b1 c1 d1"]) == 2 and len([s for s in chosen if s in "f1 g1 h1"]) == 2
    fen = page.text_content("#setup-fen")
    for sq, letter in chosen.items():
        expect(page.locator(f'#setup-preview [data-square="{sq}"]')).to_have_attribute("data-piece", letter)
    page.click("#create")
    expect(page.locator("#game-link")).not_to_have_attribute("href", f"/game/{game_id}")
    game2 = page.get_attribute("#game-link", "href").rsplit("/", 1)[1]
    assert page.context.request.get(f"{server.url}/api/games/{game2}").json()["fen"] == fen

    # a bad choice: the server's detail is shown, no match is made
    page.select_option('#setup-squares select[data-square="a1"]', "A")
    page.select_option('#setup-squares select[data-square="b1"]', "A")
    expect(page.locator("#setup")).to_have_attribute("data-preview", "error")
    detail = page.text_content("#setup-message")
    assert detail.startswith("bad set-up:"), detail
    before = len(page.context.request.get(server.url + "/api/games").json()["invitations"])
    page.click("#create")
    expect(page.locator("#message")).to_contain_text("bad set-up:")
    assert len(page.context.request.get(server.url + "/api/games").json()["invitations"]) == before
    screenshot(page, "superchess-setup-refused")
