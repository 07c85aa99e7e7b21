"""Session hygiene (issue 18, item 12): tokens stored as digests (old plaintext ones migrated),
server-side expiry, log out everywhere, `Secure` cookies over https, security headers on every
response; and the clean-up of idle guests without games (item 13)."""
from __future__ import annotations

import hashlib
import sqlite3

import pytest
from sqlalchemy import text

from superchess.server.app import MAX_BODY
from superchess.server.security import CSP
from superchess.server.store import (ACCOUNT_SESSION_MS, DAY_MS, GUEST_SESSION_MS, GUEST_WITHOUT_GAMES_MS,
                                     SESSION_TOUCH_MS)

from .util import Server, new_match, ok, register

pytestmark = pytest.mark.postgresql  # these run on PostgreSQL too (tests/server/conftest.py)

NOBODY = {"id": None, "name": None, "account": False, "colour": None}


def stored_tokens(server) -> list[str]:
    with server.store.engine.connect() as conn:
        return list(conn.execute(text("SELECT token FROM sessions")).scalars())


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def test_session_tokens_are_stored_as_digests(server):
    b = server.browser()
    register(b, "hanna")
    ok(b.post("/api/matches", json={}))  # (an account has no guest session)
    g = server.browser()
    ok(g.post("/api/matches", json={}))
    cookies = [b.cookies["sc_session"], g.cookies["sc_guest"]]
    assert sorted(stored_tokens(server)) == sorted(digest(c) for c in cookies)
    assert ok(server.browser(cookies={"sc_session": digest(cookies[0])}).get("/api/me")) == NOBODY


def old_database(folder) -> None:
    """A data folder as the server made it before tokens were hashed and sessions expired."""
    folder.mkdir(parents=True)
    db = sqlite3.connect(folder / "superchess.db")
    db.executescript("""
        CREATE TABLE players (id INTEGER PRIMARY KEY, name VARCHAR(40) UNIQUE, password_hash VARCHAR(200),
                              colour VARCHAR(7), created_at BIGINT, bot_level INTEGER);
        CREATE TABLE sessions (token VARCHAR(64) PRIMARY KEY, player_id INTEGER REFERENCES players (id),
                               created_at BIGINT);
        INSERT INTO players VALUES (1, 'oldie', '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaA', NULL, 5, NULL);
        INSERT INTO players VALUES (2, 'Guest-abcdef', NULL, '#123456', 5, NULL);
        INSERT INTO sessions VALUES ('plain-account-token-0123456789abc', 1, 5);
        INSERT INTO sessions VALUES ('plain-guest-token-0123456789abcde', 2, 5);
    """)
    db.commit()
    db.close()


def test_sessions_of_an_old_database_keep_working_stored_as_digests(data_dir, clock):
    old_database(data_dir)
    s = Server(data_dir, clock)
    try:
        account = s.browser(cookies={"sc_session": "plain-account-token-0123456789abc"})
        guest = s.browser(cookies={"sc_guest": "plain-guest-token-0123456789abcde"})
        assert ok(account.get("/api/me"))["name"] == "oldie"
        assert ok(guest.get("/api/me")) == {"id": 2, "name": "Guest-abcdef", "account": False, "colour": "#123456"}
        old_tokens = ("plain-account-token-0123456789abc", "plain-guest-token-0123456789abcde")
        assert sorted(stored_tokens(s)) == sorted(digest(t) for t in old_tokens)
        # sessions from before expiry existed count as used at the upgrade: a full lifetime from then
        clock.advance(ACCOUNT_SESSION_MS - DAY_MS)
        assert ok(account.get("/api/me"))["name"] == "oldie"
    finally:
        s.close()


def test_account_sessions_expire_after_30_days_unused(server, clock):
    b = server.browser()
    register(b, "ingo")
    assert ACCOUNT_SESSION_MS == 30 * DAY_MS  # as docs/protocol.md says
    for _ in range(3):  # used every 29 days: it lives on, and its cookie is renewed
        clock.advance(ACCOUNT_SESSION_MS - DAY_MS)
        r = b.get("/api/me")
        assert ok(r)["name"] == "ingo"
        assert "sc_session=" in r.headers["set-cookie"]
        again = b.get("/api/me")
        assert "set-cookie" not in again.headers  # renewed at most once per SESSION_TOUCH_MS
    clock.advance(ACCOUNT_SESSION_MS + 1)
    r = b.get("/api/me")
    assert ok(r) == NOBODY and not b.cookies  # expired: the server forgot it, the cookie is removed
    assert stored_tokens(server) == []


def test_guest_sessions_live_400_days_unused(server, clock):
    m = new_match(server)
    me = ok(m.creator.get("/api/me"))
    clock.advance(GUEST_SESSION_MS - SESSION_TOUCH_MS)
    assert ok(m.creator.get("/api/me")) == me
    clock.advance(GUEST_SESSION_MS + 1)
    assert ok(m.creator.get("/api/me")) == NOBODY
    assert ok(m.opponent.get("/api/me")) == NOBODY


def test_log_out_everywhere(server):
    phone, laptop, other = server.browser(), server.browser(), server.browser()
    ok(laptop.post("/api/matches", json={}))  # the laptop also has a guest identity
    guest = ok(laptop.get("/api/me"))
    register(phone, "jonas")
    ok(laptop.post("/api/login", json={"name": "jonas", "password": "correct horse"}))
    register(other, "karin")
    assert ok(phone.post("/api/logout-all")) == {"ok": True}
    assert ok(phone.get("/api/me")) == NOBODY
    assert ok(laptop.get("/api/me")) == guest  # back to its guest identity
    assert ok(other.get("/api/me"))["name"] == "karin"
    r = phone.post("/api/logout-all")
    assert r.status_code == 401 and r.json() == {"detail": "you are not logged in"}
    assert laptop.post("/api/logout-all").status_code == 401  # a guest has no account to log out


@pytest.mark.parametrize("scheme", ["https", "http"])
def test_cookies_are_secure_over_https(server, scheme):
    b = server.browser(base_url=f"{scheme}://testserver")
    for r in (b.post("/api/matches", json={}),
              b.post("/api/register", json={"name": "lena", "password": "long enough"})):
        cookie = ok(r) and r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "max-age=" in cookie
        assert ("; secure" in cookie) == (scheme == "https")


def test_security_headers_on_every_response(server):
    b = server.browser()
    m = new_match(server)
    responses = [b.get(path) for path in ("/", f"/game/{m.id}", "/rosters", "/invite/x", "/static/game.js",
                                          "/static/style.css", "/api/me", "/api/games/nope", "/nothing")]
    responses += [b.post("/api/matches", content=b"{" + b" " * MAX_BODY + b"}",
                         headers={"content-type": "application/json"}),
                  b.post("/api/matches", json={"variant": 5}),
                  b.post("/api/logout", headers={"Origin": "http://x.example"}),
                  b.delete("/api/me")]
    assert [r.status_code for r in responses] == [200] * 7 + [404, 404, 413, 400, 403, 405]
    for r in responses:
        assert r.headers["content-security-policy"] == CSP
        assert "frame-ancestors 'none'" in CSP and "script-src 'self';" in CSP and "unsafe-inline" not in CSP
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"


def test_idle_guests_without_games_are_removed(server, clock, restart):
    """Guests are made only by actions now, but one may have no game (it set a colour, or its
    invitation was deleted with an older version); unused for GUEST_WITHOUT_GAMES_MS it goes."""
    lonely = server.browser()
    ok(lonely.put("/api/me/colour", json={"colour": "#abcdef"}))
    playing = new_match(server)
    register(server.browser(), "mona")
    clock.advance(GUEST_WITHOUT_GAMES_MS - 1)
    assert server.store.purge(clock()) == (0, 0)
    assert ok(lonely.get("/api/me"))["colour"] == "#abcdef"  # still there: and this use counts
    clock.advance(GUEST_WITHOUT_GAMES_MS + SESSION_TOUCH_MS)
    names = {p["name"] for p in (ok(playing.creator.get("/api/me")), ok(playing.opponent.get("/api/me")))}
    clock.advance(ACCOUNT_SESSION_MS)
    lonely_cookies = dict(lonely.cookies)
    server = restart(server)  # the clean-up runs at start-up (and every hour)
    with server.store.engine.connect() as conn:
        left = set(conn.execute(text("SELECT name FROM players")).scalars())
    assert left == names | {"mona"}  # the account stays, its expired session does not
    assert len(stored_tokens(server)) == 2  # the players' guest sessions
    assert ok(server.browser(cookies=lonely_cookies).get("/api/me")) == NOBODY
