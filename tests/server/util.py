"""Helpers for the server tests: a fake millisecond clock, a server wrapper whose browsers (TestClient
instances, each with its own cookie jar) share one event loop, and websocket helpers."""
from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
from fastapi.testclient import TestClient

import sqlalchemy as sa
from alembic import command

from superchess.server import schema
from superchess.server.app import create_app
from superchess.server.store import Store

START = 1_700_000_000_000  # a plausible epoch in ms, so "deadline" values look real


class FakeClock:
    """The injectable time source: `now()` returns milliseconds; tests move it by hand."""

    def __init__(self, t: int = START) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t

    def advance(self, ms: int) -> int:
        self.t += ms
        return self.t


class Server:
    """One app on a data folder with the lifespan running. `browser()` gives a new TestClient (its
    own cookie jar = its own browser) that runs on the same event loop as every other browser, so
    the hub's locks, queues and timers all live on one loop, as under uvicorn."""

    def __init__(self, data_dir: Path, clock: FakeClock | None = None, **app_options) -> None:
        self.data_dir = data_dir
        self.clock = clock or FakeClock()
        self.app = create_app(data_dir, now=self.clock, **app_options)
        self.hub = self.app.state.services.hub
        self.store = self.app.state.services.store
        self._main = TestClient(self.app)
        self._main.__enter__()  # runs the lifespan (hub.resume) and owns the event loop
        self._browsers: list[TestClient] = []
        self.closed = False

    def browser(self, cookies=None, **options) -> TestClient:
        """`options`: TestClient's, e.g. `client=("10.0.0.1", 5000)` (the address it comes from),
        `base_url="https://testserver"`, `headers={"Origin": ...}`."""
        c = TestClient(self.app, cookies=cookies, **options)
        c.portal = self._main.portal  # share the event loop instead of starting a new one
        self._browsers.append(c)
        return c

    def reader(self) -> Store:
        """Another store on this server's database: what is really stored (close its engine after)."""
        return Store(self.store.engine.url.render_as_string(hide_password=False))

    def call(self, fn, *args):
        """Run an async function on the app's event loop."""
        return self._main.portal.call(fn, *args)

    def check_clocks(self) -> None:
        self.call(self.hub.check_clocks)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for b in self._browsers:
            b.portal = None
            b.close()
        self._main.__exit__(None, None, None)
        self.store.engine.dispose()


def before_migrations(engine: sa.Engine) -> None:
    """Make the database as the version before migrations left it: the baseline revision's schema,
    without `alembic_version`."""
    with engine.begin() as conn:
        config = schema.config()
        config.attributes["connection"] = conn
        command.downgrade(config, BASELINE)
        conn.execute(sa.text("DROP TABLE alembic_version"))


BASELINE = "0001"


# -- HTTP helpers ---------------------------------------------------------------------------------
def ok(response, status: int = 200) -> dict:
    assert response.status_code == status, (response.status_code, response.text)
    return response.json()


def token_of(invite_url: str) -> str:
    assert invite_url.startswith("/invite/")
    return invite_url.removeprefix("/invite/")


def register(browser, name: str, password: str = "correct horse") -> dict:
    return ok(browser.post("/api/register", json={"name": name, "password": password}))


def http_state(browser, game_id: str) -> dict:
    """GET /api/games/{id}: the state. (docs/protocol.md says the body IS the state; the server
    currently wraps it like a websocket message, see test_http_game_state_is_the_bare_state; both
    are accepted here so the other tests check behaviour, not the envelope.)"""
    body = ok(browser.get(f"/api/games/{game_id}"))
    return body["state"] if body.get("type") == "state" else body


class Match:
    """A started game: `p1`/`p2` are the browsers of Player 1 / Player 2."""

    def __init__(self, game_id: str, token: str, p1, p2, creator, opponent) -> None:
        self.id, self.token = game_id, token
        self.p1, self.p2 = p1, p2
        self.creator, self.opponent = creator, opponent
        self.players = (p1, p2)

    def state(self, browser) -> dict:
        return http_state(browser, self.id)


def new_match(server: Server, accept: bool = True, **body) -> Match:
    creator, opponent = server.browser(), server.browser()
    created = ok(creator.post("/api/matches", json=body))
    token = token_of(created["invite_url"])
    if accept:
        assert ok(opponent.post(f"/api/invitations/{token}/accept")) == {"game_id": created["game_id"]}
    side = body.get("creator_side", 0)
    p1, p2 = (creator, opponent) if side == 0 else (opponent, creator)
    return Match(created["game_id"], token, p1, p2, creator, opponent)


def legal_moves(state: dict) -> dict[str, list[str]]:
    """The state's legal moves by origin, as whole move texts: the server sends a plain move as its
    text after the origin ("h4" from h2), a move that captures off its destination as an object."""
    return {o: [o + m if isinstance(m, str) else m["move"] for m in ms] for o, ms in state["legal"].items()}


def legal(state: dict) -> dict[str, dict]:
    """The state's legal moves by move text, each as the server sends it (with its `via` and
    `captures`), for variants whose every move is sent as an object."""
    return {m["move"]: m for ms in state["legal"].values() for m in ms}


# -- websocket helpers ----------------------------------------------------------------------------
#: what a game's socket says of the page around the game (docs/protocol.md, "The game page's
#: extras"): skipped by `recv` unless asked for
PAGE_MESSAGES = ("spectators",)


def recv(ws, timeout: float = 5.0, skip: tuple[str, ...] = PAGE_MESSAGES) -> dict:
    """The next message from the server (but those of the types `skip`), failing (instead of hanging)
    after `timeout` seconds."""

    async def get():
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    while True:
        message = ws.portal.call(get)
        ws._raise_on_close(message)
        data = json.loads(message["text"])
        if data.get("type") not in skip:
            return data


def recv_state(ws) -> dict:
    msg = recv(ws)
    assert msg["type"] == "state", msg
    return msg


def recv_error(ws) -> str:
    msg = recv(ws)
    assert msg["type"] == "error", msg
    assert isinstance(msg["message"], str) and msg["message"]
    return msg["message"]


def sync(ws) -> dict:
    """Ask for the state again; as the server answers each connection in order, any broadcast that
    was due to this connection arrives before the answer, so this is also a barrier."""
    ws.send_json({"type": "sync"})
    msg = recv_state(ws)
    assert "event" not in msg, f"an unexpected broadcast arrived: {msg.get('event')}"
    return msg


def act(ws, others, payload: dict) -> list[dict]:
    """Send an action expected to be accepted; return the state messages of [ws, *others]."""
    ws.send_json(payload)
    return [recv_state(w) for w in (ws, *others)]


def move(ws, others, text: str) -> list[dict]:
    msgs = act(ws, others, {"type": "move", "move": text})
    for m in msgs:
        assert m["event"]["kind"] == "move" and m["event"]["move"] == text, m["event"]
    return msgs


def wait_for(server, game_id: str, browser, predicate, timeout: float = 60.0) -> dict:
    """Poll the game's state until `predicate(state)` holds (the computer thinks in another worker)."""
    deadline = time.monotonic() + timeout
    while True:
        state = ok(browser.get(f"/api/games/{game_id}"))
        if predicate(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out; last state: moves {state['moves']}, status {state['status']}")
        time.sleep(0.05)


def computer_game(server, **body) -> tuple:
    human = server.browser()
    created = ok(human.post("/api/matches/computer", json=body))
    return human, created["game_id"]


def rated_game(server, names=("alice", "bob"), **settings) -> tuple:
    """A rated game between two new accounts, met through a seek: (game id, Player 1's browser,
    Player 2's browser)."""
    creator, acceptor = server.browser(), server.browser()
    register(creator, names[0])
    register(acceptor, names[1])
    seek = ok(creator.post("/api/seeks", json={"variant": "chess", "time_control": "blitz-3+2", "rated": True,
                                               **settings}))
    game = ok(acceptor.post(f"/api/seeks/{seek['id']}/accept"))["game_id"]
    side = settings.get("creator_side", 0)
    return (game, creator, acceptor) if side == 0 else (game, acceptor, creator)
