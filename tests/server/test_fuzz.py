"""Malformed input never breaks the server (issue 18): thousands of generated inputs.

- Websocket messages to every action of games in each phase: each is answered (a state when
  accepted, an error message when refused), the connection stays open, and a refused message changes
  nothing in memory or in the database.
- HTTP requests to every endpoint of the server's OpenAPI schema, valid and invalid (schemathesis
  generates them): never a 5xx, and a refused request (4xx) leaves every table as it was.

The counts per game and per endpoint are `FUZZ_EXAMPLES` and `HTTP_EXAMPLES` (environment
`SUPERCHESS_FUZZ_EXAMPLES`, `SUPERCHESS_HTTP_EXAMPLES`; e.g. 5000 for a long run)."""
from __future__ import annotations

import json
import os
import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.core import NotSet
from sqlalchemy import text

from superchess.server.app import create_app
from superchess.server.live import ACTIONS, LiveGame

from .util import new_match, ok, recv, register

FUZZ_EXAMPLES = int(os.environ.get("SUPERCHESS_FUZZ_EXAMPLES", "250"))
HTTP_EXAMPLES = int(os.environ.get("SUPERCHESS_HTTP_EXAMPLES", "60"))
# actions that end a game when well formed: the fuzz keeps its game going without them
ENDING = {"resign", "abort", "offer_draw", "accept_draw", "claim_draw"}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20)
# inputs aimed at the known weak spots: huge empty-square counts and allowances in position texts,
# roster keys that are not one piece letter, deep nesting
START = "rnbuabsqkibaubnr/pppppfpppppfpppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPFPPPPPFPPPP/RNBUABSQKIBAUBNR w KQkq - 0 1"
hostile_fens = st.builds(lambda cut, n, tail: START[:cut] + str(n) + START[cut:] if tail else f"{n}/" + START,
                         st.integers(0, START.index(" ")), st.integers(10, 10**25), st.booleans())
hostile_rosters = st.dictionaries(st.sampled_from(["", "KQ", "NA", "n", "Z", "K", "P", "N "]),
                                  st.fixed_dictionaries({"mode": st.sampled_from(["jump", "slide"]),
                                                         "vectors": st.just([[0, 3]])}), min_size=1, max_size=2)
deep = st.integers(100, 5000).map(lambda n: "[" * n + "]" * n)
fields = {"move": json_values | st.text(max_size=14), "roster": json_values | st.dictionaries(
    st.text(max_size=3), st.fixed_dictionaries({"mode": json_values | st.sampled_from(["jump", "step", "slide"]),
                                                "vectors": json_values}), max_size=4) | hostile_rosters,
          "square": json_values | st.text(max_size=4), "piece": json_values | st.text(max_size=2),
          "squares": json_values | st.lists(st.text(max_size=4), max_size=3)}
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(set(ACTIONS) - ENDING) + ["sync", "timeout", "move "]) | st.text(max_size=12)},
    optional=fields).map(json.dumps)
messages = actions | json_values.map(json.dumps) | st.text(max_size=60) | st.binary(max_size=60) | deep


def snapshot(server, game_id: str) -> tuple:
    """The game as stored, and as the server holds it in memory."""
    with server.store.engine.connect() as conn:
        row = conn.execute(text("SELECT * FROM games WHERE id = :id"), {"id": game_id}).one()
        moves = conn.execute(text("SELECT * FROM moves WHERE game_id = :id ORDER BY ply"), {"id": game_id}).all()
    g = server.hub.game(game_id)
    return tuple(row), tuple(map(tuple, moves)), g.row.version, len(g.game.board.move_stack)


@pytest.mark.parametrize("body", [{"variant": "super16"}, {"variant": "super16", "mode": "private"},
                                  {"variant": "superchess", "mode": "prelude"}, {"variant": "tilingrider"},
                                  {"variant": "intergrid"}, {"variant": "vanguard"}],
                         ids=["super16", "private-setup", "prelude", "tilingrider", "intergrid", "vanguard"])
def test_generated_websocket_messages_are_answered_and_refusals_change_nothing(server, body):
    m = new_match(server, **body)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as ws:
        recv(ws)

        @settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(messages)
        def answered(message):
            before = snapshot(server, m.id)
            if isinstance(message, bytes):
                ws.send_bytes(message)
            else:
                ws.send_text(message)
            reply = recv(ws, timeout=30)  # a closed connection raises here
            assert reply["type"] in ("state", "error"), reply
            if reply["type"] == "error":
                assert isinstance(reply["message"], str) and reply["message"]
                assert snapshot(server, m.id) == before, message
            elif "event" in reply:  # an accepted action: one new version, and the game as stored loads
                assert reply["version"] == before[2] + 1
                stored = LiveGame(server.store.game(m.id), server.store.moves(m.id), {}, server.clock())
                assert stored.damage is None and stored.row.version == reply["version"]

        answered()
        ws.send_text('{"type":"sync"}')
        assert recv(ws)["type"] == "state"  # still connected and served


# -- HTTP: every endpoint of the OpenAPI schema, with valid and invalid requests ------------------
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", create_app(tempfile.mkdtemp()))
OPERATIONS = {f"{op.method.upper()} {op.path}": op for op in (r.ok() for r in SCHEMA.get_all_operations())}


def database(server) -> dict:
    """Every row of every table: what a refused request must leave as it was."""
    with server.store.engine.connect() as conn:
        tables = [r[0] for r in conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'"))]
        return {t: sorted(map(repr, conn.execute(text(f'SELECT * FROM "{t}"')))) for t in tables}


def with_hostile_fields(case):
    """The case with its position text, roster or a field replaced by an input aimed at a weak spot."""
    if not isinstance(case.body, dict):
        return st.just(case)
    hostile = {"fen": hostile_fens, "roster": hostile_rosters | deep}
    field = st.sampled_from(sorted(set(case.body) & set(hostile))) if set(case.body) & set(hostile) else st.just("fen")
    return field.flatmap(lambda name: hostile.get(name, deep).map(lambda value: _replaced(case, name, value)))


def _replaced(case, name: str, value):
    case.body = {**case.body, "variant": "super16", name: value}
    return case


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_generated_http_requests_never_fail_the_server_and_refusals_change_nothing(server, operation):
    op = OPERATIONS[operation]
    browser = server.browser()
    register(browser, "fuzzer")
    ok(browser.put("/api/rosters/saved", json={"roster": {"N": {"mode": "jump", "vectors": [[0, 3]]}}}))
    m = new_match(server, accept=False)
    seek = ok(server.browser().post("/api/seeks", json={"variant": "chess", "time_control": "daily"}))
    real = {"game_id": m.id, "token": m.token, "name": "saved", "variant": "super16", "seek_id": seek["id"],
            "pool_id": "chess-blitz-3+2", "speed": "blitz"}
    known = {k: v for k, v in real.items() if "{" + k + "}" in op.path}
    cases = st.one_of(*(op.as_strategy(mode) for mode in GenerationMode),
                      *([op.as_strategy(GenerationMode.POSITIVE, path_parameters=known)] if known else []),
                      op.as_strategy(GenerationMode.POSITIVE, path_parameters=known).flatmap(with_hostile_fields))

    @settings(max_examples=HTTP_EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(cases)
    def served(case):
        before = database(server)
        kwargs = {"params": case.query, "headers": {k: str(v) for k, v in (case.headers or {}).items()}}
        if isinstance(case.body, (bytes, str)):  # a body of another media type, or not JSON
            kwargs["content"] = case.body
            kwargs["headers"]["content-type"] = case.media_type or "application/json"
        elif not isinstance(case.body, NotSet):
            kwargs["json"] = case.body
        client = browser if not op.path.startswith("/api/logout") else server.browser()  # keep the account
        r = client.request(case.method, case.formatted_path, **kwargs)
        assert r.status_code < 500, (case.method, case.formatted_path, case.body, r.text)
        if r.status_code >= 400:
            assert "detail" in r.json()
            assert database(server) == before, (case.method, case.formatted_path, case.body, r.status_code)

    served()
