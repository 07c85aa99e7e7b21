"""Malformed input never breaks the server (issue 18): thousands of generated websocket messages to
every action of games in each phase. Each is answered (a state when accepted, an error message when
refused), the connection stays open, and a refused message changes nothing in memory or in the
database. The count per game is `FUZZ_EXAMPLES` (environment `SUPERCHESS_FUZZ_EXAMPLES`)."""
from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from superchess.server.live import ACTIONS

from .util import new_match, recv

FUZZ_EXAMPLES = int(os.environ.get("SUPERCHESS_FUZZ_EXAMPLES", "250"))
# actions that end a game when well formed: the fuzz keeps its game going without them
ENDING = {"resign", "abort", "offer_draw", "accept_draw", "claim_draw"}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20)
fields = {"move": json_values | st.text(max_size=14), "roster": json_values | st.dictionaries(
    st.text(max_size=3), st.fixed_dictionaries({"mode": json_values | st.sampled_from(["jump", "step", "slide"]),
                                                "vectors": json_values}), max_size=4),
          "square": json_values | st.text(max_size=4), "piece": json_values | st.text(max_size=2),
          "squares": json_values | st.lists(st.text(max_size=4), max_size=3)}
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(set(ACTIONS) - ENDING) + ["sync", "timeout", "move "]) | st.text(max_size=12)},
    optional=fields).map(json.dumps)
messages = actions | json_values.map(json.dumps) | st.text(max_size=60) | st.binary(max_size=60)


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
            elif "event" in reply:  # an accepted action: one new version
                assert reply["version"] == before[2] + 1

        answered()
        ws.send_text('{"type":"sync"}')
        assert recv(ws)["type"] == "state"  # still connected and served
