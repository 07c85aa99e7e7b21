"""Identity: guest cookies, accounts (argon2id), log in / out, names, colours, and names as data."""
from __future__ import annotations

import pytest
from sqlalchemy import text


from .util import http_state, new_match, ok, recv_state, register


def rows(server) -> tuple[int, int]:
    """(players, sessions) in the database."""
    with server.store.engine.connect() as conn:
        return tuple(conn.execute(text(f"SELECT count(*) FROM {t}")).scalar() for t in ("players", "sessions"))


def test_reading_makes_no_identity(server):
    """Issue 18 item 13: cookie-less reads (pages, /api/me, lists, states, 404s) write nothing."""
    m = new_match(server)
    before = rows(server)
    b = server.browser()
    for path in ("/api/me", "/api/games", f"/api/games/{m.id}", "/api/games/nope", "/api/invitations/nope",
                 f"/api/invitations/{m.token}", "/", f"/game/{m.id}", "/no-such-page", "/api/options",
                 "/api/rosters"):
        r = b.get(path)
        assert r.status_code < 500 and "set-cookie" not in r.headers, (path, r.status_code, r.headers)
    assert ok(b.get("/api/me")) == {"id": None, "name": None, "account": False, "colour": None}
    assert ok(b.get("/api/games")) == {"ongoing": [], "finished": [], "invitations": []}
    assert ok(b.get(f"/api/invitations/{m.token}"))["yours"] is False
    assert http_state(b, m.id)["you"] is None
    with b.websocket_connect(f"/ws/games/{m.id}") as ws:
        assert recv_state(ws)["state"]["you"] is None
    refused = (b.post("/api/matches", json={"variant": "nonsense"}), b.put("/api/me/colour", json={"colour": "red"}),
               b.post(f"/api/invitations/{m.token}/accept"), b.post("/api/games/nope/accept"))
    assert [r.status_code for r in refused] == [400, 400, 409, 404]
    assert rows(server) == before and not b.cookies


def test_acting_makes_a_guest_once_and_it_stays(server):
    b = server.browser()
    created = b.post("/api/matches", json={})
    ok(created)
    cookie = created.headers["set-cookie"]
    assert cookie.startswith("sc_guest=") and "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    me = ok(b.get("/api/me"))
    assert me["account"] is False and me["name"].startswith("Guest-") and me["colour"] is None
    for _ in range(3):
        again = b.get("/api/me")
        assert ok(again) == me
        assert "set-cookie" not in again.headers  # no new identity once the browser has one
    ok(b.post("/api/matches", json={}))
    assert ok(b.get("/api/me")) == me
    other = server.browser()
    ok(other.put("/api/me/colour", json={"colour": "#102030"}))  # setting a colour needs an identity too
    theirs = ok(other.get("/api/me"))
    assert theirs["id"] not in (None, me["id"]) and theirs["colour"] == "#102030"


def test_websocket_without_any_cookie_is_a_watcher(server):
    m = new_match(server)
    with server.browser().websocket_connect(f"/ws/games/{m.id}") as ws:
        assert recv_state(ws)["state"]["you"] is None


def test_register_stores_an_argon2id_hash_and_logs_in(server):
    b = server.browser()
    guest = ok(b.get("/api/me"))
    r = b.post("/api/register", json={"name": "alice_1", "password": "s3cret-pass"})
    me = ok(r)
    assert me["name"] == "alice_1" and me["account"] is True and me["id"] != guest["id"]
    assert "sc_session=" in r.headers["set-cookie"] and "httponly" in r.headers["set-cookie"].lower()
    assert ok(b.get("/api/me")) == me
    reader = server.reader()  # what is really stored
    try:
        stored = reader.player_by_name("alice_1").password_hash
    finally:
        reader.engine.dispose()
    assert stored.startswith("$argon2id$") and "s3cret-pass" not in stored


def test_login_logout_and_wrong_password(server):
    register(server.browser(), "bob-2", "bobs password")
    b = server.browser()
    ok(b.post("/api/matches", json={}))  # a guest with a game
    guest = ok(b.get("/api/me"))
    for creds in ({"name": "bob-2", "password": "wrong password"}, {"name": "nobody", "password": "whatever1"},
                  {"name": guest["name"], "password": "whatever1"}):  # a guest has no password
        r = b.post("/api/login", json=creds)
        assert r.status_code == 401 and r.json() == {"detail": "wrong name or password"}
        assert ok(b.get("/api/me")) == guest
    me = ok(b.post("/api/login", json={"name": "bob-2", "password": "bobs password"}))
    assert me["name"] == "bob-2" and me["account"] is True
    assert ok(b.get("/api/me")) == me
    assert ok(b.post("/api/logout")) == {"ok": True}
    assert ok(b.get("/api/me")) == guest  # back to this browser's own guest identity
    # the session is gone on the server too: replaying the old cookie does not log in
    assert ok(server.browser().get("/api/me"))["name"] != "bob-2"


def test_logout_invalidates_the_session_token_on_the_server(server):
    b = server.browser()
    register(b, "carl_3")
    token = b.cookies["sc_session"]
    ok(b.post("/api/logout"))
    replay = server.browser(cookies={"sc_session": token})
    assert ok(replay.get("/api/me"))["account"] is False


def test_duplicate_names_are_refused(server):
    register(server.browser(), "dora")
    b = server.browser()
    r = b.post("/api/register", json={"name": "dora", "password": "another one"})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    assert ok(b.get("/api/me"))["account"] is False


@pytest.mark.parametrize("name", ["ab", "a" * 21, "has space", "<script>", "al&ce", 'quo"te', "naïve",
                                  "guest", "Guest-abcd", "guest_joe", ""])
def test_bad_names_are_refused(server, name):
    b = server.browser()
    r = b.post("/api/register", json={"name": name, "password": "long enough"})
    assert r.status_code == 400 and "names are 3-20" in r.json()["detail"]
    assert ok(b.get("/api/me"))["account"] is False


def test_short_passwords_and_oversized_fields_are_refused(server):
    b = server.browser()
    r = b.post("/api/register", json={"name": "erin", "password": "short"})
    assert r.status_code == 400 and "8 characters" in r.json()["detail"]
    for body in ({"name": "x" * 41, "password": "long enough"}, {"name": "erin"}, {"name": 5, "password": 7}):
        r = b.post("/api/register", json=body)
        assert r.status_code in (400, 422) and isinstance(r.json()["detail"], str), r.text  # one clear sentence
    r = b.post("/api/register", content=b"{not json", headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500 and isinstance(r.json()["detail"], str)
    r = b.post("/api/register", json={"name": "erin", "password": "p" * 20_000})
    assert r.status_code in (400, 413, 422) and isinstance(r.json()["detail"], str)
    assert ok(b.get("/api/me"))["account"] is False


def test_a_guests_games_remain_listed_after_logging_in_and_out(server):
    m = new_match(server)  # the creator (a guest) plays an accepted game ...
    b = m.creator
    pending = ok(b.post("/api/matches", json={}))  # ... and has an open invitation
    before = ok(b.get("/api/games"))
    assert [g["id"] for g in before["ongoing"]] == [m.id]
    assert [g["id"] for g in before["invitations"]] == [pending["game_id"]]
    register(b, "fiona")
    as_account = ok(b.get("/api/games"))
    assert as_account == {"ongoing": [], "finished": [], "invitations": []}
    ok(b.post("/api/logout"))
    assert ok(b.get("/api/games")) == before
    ok(b.post("/api/login", json={"name": "fiona", "password": "correct horse"}))
    ok(b.post("/api/logout"))
    after = ok(b.get("/api/games"))
    assert [g["id"] for g in after["ongoing"]] == [m.id]
    assert m.state(b)["you"] == 0


def test_colour_is_per_player_and_validated(server):
    m = new_match(server)
    me = ok(m.p1.put("/api/me/colour", json={"colour": "#A0B1C2"}))
    assert me["colour"] == "#a0b1c2"
    for bad in ("red", "#12345", "#1234567", "#ggghhh", "a0b1c2"):
        r = m.p1.put("/api/me/colour", json={"colour": bad})
        assert r.status_code in (400, 422), bad
    assert ok(m.p1.get("/api/me"))["colour"] == "#a0b1c2"
    defaults = ["#d03030", "#3060d0"]  # a preference is not the game's colour until set there (set_colour)
    assert m.state(m.p1)["colours"] == {"own": "#a0b1c2", "sides": defaults}
    assert m.state(m.p2)["colours"] == {"own": None, "sides": defaults}
    assert m.state(server.browser())["colours"] == {"own": None, "sides": defaults}
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as ws:
        assert recv_state(ws)["state"]["colours"] == {"own": "#a0b1c2", "sides": defaults}


# -- names are data, never markup -------------------------------------------------------------------
def test_names_round_trip_exactly_as_json(server):
    creator, opponent = server.browser(), server.browser()
    register(creator, "Zed_-9x")
    register(opponent, "o-o-O")
    created = ok(creator.post("/api/matches", json={"invite": "o-o-O"}))
    r = opponent.get("/api/games")
    assert r.headers["content-type"].startswith("application/json")
    assert ok(r)["invitations"][0]["opponent"] == "Zed_-9x"
    ok(opponent.post(f"/api/games/{created['game_id']}/accept"))
    state = http_state(creator, created["game_id"])
    assert state["players"] == [{"name": "Zed_-9x", "side": 0}, {"name": "o-o-O", "side": 1}]
    invitation = ok(opponent.get(f"/api/invitations/{created['invite_url'].split('/')[-1]}"))
    assert invitation["creator"] == "Zed_-9x"
    record = creator.get(f"/api/games/{created['game_id']}/record").text
    assert '[Player1 "Zed_-9x"]' in record and '[Player2 "o-o-O"]' in record


def test_pages_do_not_embed_user_data(server):
    from superchess.server.routers.pages import WEB
    if not (WEB / "pages" / "game.html").exists():
        pytest.skip("the web pages are not there yet")
    m = new_match(server)
    names = [p["name"] for p in m.state(m.p1)["players"]]
    page = m.p1.get(f"/game/{m.id}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for name in names:
        assert name not in page.text
    assert m.id not in page.text  # the page is static: the script fetches the game by itself
    assert server.browser().get("/game/another-id").text == page.text


def test_an_unknown_cookie_is_nobody_and_is_removed(server):
    b = server.browser()
    b.cookies.set("sc_guest", "forged-or-expired", domain="testserver.local")
    b.cookies.set("sc_session", "nope", domain="testserver.local")
    r = b.get("/api/me")
    assert ok(r) == {"id": None, "name": None, "account": False, "colour": None}
    assert sorted(c.split("=")[0] for c in r.headers.get_list("set-cookie")) == ["sc_guest", "sc_session"]
    assert not b.cookies  # both removed
    ok(b.post("/api/matches", json={}))
    me = ok(b.get("/api/me"))
    assert me["name"].startswith("Guest-") and b.cookies["sc_guest"] != "forged-or-expired"


def test_oversized_bodies_are_refused_whether_declared_or_streamed(server):
    from superchess.server.app import MAX_BODY
    b = server.browser()
    declared = b.post("/api/matches", content=b"{" + b" " * MAX_BODY + b"}", headers={"content-type": "application/json"})
    assert declared.status_code == 413 and f"at most {MAX_BODY} bytes" in declared.json()["detail"]

    def chunks():  # no content-length: the size is only known while reading
        yield b'{"variant": "super16", "fen": "'
        for _ in range(MAX_BODY // 1000 + 1):
            yield b"x" * 1000
        yield b'"}'

    streamed = b.post("/api/matches", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413 and "too large" in streamed.json()["detail"]
    assert ok(b.get("/api/games")) == {"ongoing": [], "finished": [], "invitations": []}  # nothing was made
    small = b.post("/api/matches", content=iter([b'{"variant": ', b'"super16"}']), headers={"content-type": "application/json"})
    assert small.status_code == 200
