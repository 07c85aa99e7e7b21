"""The action table (server/live.py `ACTIONS`): each phase of a game hears its own actions and refuses
the others with its reason; and what a game derives from its board (captures, each move's turn,
the move texts) after a retraction is what a replay of its stored moves gives."""
from __future__ import annotations

import pytest

from superchess.server.live import ACTIONS, LiveGame

from .util import act, move, new_match, recv_error, recv_state, sync

PLAY_ACTIONS = ["move", "retract", "resign", "offer_draw", "accept_draw", "decline_draw", "claim_draw",
                "offer_takeback", "accept_takeback", "decline_takeback"]
REMATCH_ACTIONS = ["offer_rematch", "accept_rematch", "decline_rematch"]
PRELUDE_ONLY = "the prelude comes before the first move of a Superchess prelude game only"


def test_the_table_holds_every_action_of_the_protocol():
    assert set(ACTIONS) == {*PLAY_ACTIONS, *REMATCH_ACTIONS, "abort", "set_colour", "submit_roster", "prelude_pick",
                            "prelude_swap"}


@pytest.mark.parametrize("body, refused, reason", [
    ({"mode": "private"}, PLAY_ACTIONS + ["prelude_pick", "prelude_swap"],
     "the players are still choosing their rosters"),
    ({"variant": "superchess", "mode": "prelude"}, PLAY_ACTIONS + ["submit_roster"],
     "the players are still choosing the set-up (prelude)"),
], ids=["private", "prelude"])
def test_a_set_up_refuses_the_other_actions_with_its_reason_and_hears_abort(server, body, refused, reason):
    m = new_match(server, **body)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        before = recv_state(w1)["state"]
        assert before["status"] == "setup"
        for action in refused:
            w1.send_json({"type": action})
            assert recv_error(w1) == reason, action
        assert sync(w1)["state"]["version"] == before["version"]  # nothing changed
        assert act(w1, [], {"type": "abort"})[0]["state"]["status"] == "aborted"


def test_once_play_began_the_set_up_actions_are_refused_with_their_reasons(server):
    m = new_match(server)
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        before = recv_state(w1)["state"]
        for action, reason in (("submit_roster", "rosters are submitted before the first move of a Private game only"),
                               ("prelude_pick", PRELUDE_ONLY), ("prelude_swap", PRELUDE_ONLY),
                               *((a, "a rematch can be offered once the game is over") for a in REMATCH_ACTIONS)):
            w1.send_json({"type": action})
            assert recv_error(w1) == reason
        assert sync(w1)["state"]["version"] == before["version"]


# tiling T10 with T6's Black pieces: c7c6 completes the Wazir unit c5-d6, whose aggregate then runs
# to c11-d12 capturing the Ferz c11 and the Knight d12 (tiling-rider R6); Black has a Wazir on r10
TILING_FEN = "8kk8/8kk8/18/18/3n14/2f15/17w/18/18/2W15/3W14/2WW14/18/18/8KK8/8KK8 w 3 0 5"
DERIVED = ("moves", "move_plies", "captured", "fen", "pieces", "turn_moves")


def test_after_a_retracted_capture_the_game_shows_what_a_replay_of_its_stored_moves_shows(server):
    """tiling-rider R12: a capture taken back is no longer counted, the next turn's moves get their
    own ply; the live game and one rebuilt from the database agree for the mover and the opponent."""
    m = new_match(server, variant="tilingrider", fen=TILING_FEN, time_control="blitz-3+2")
    with m.p1.websocket_connect(f"/ws/games/{m.id}") as w1:
        recv_state(w1)
        move(w1, [], "c7c6")
        assert move(w1, [], "@c5c11")[0]["state"]["captured"] == [[], ["f", "n"]]
        back = act(w1, [], {"type": "retract"})[0]["state"]
        assert back["captured"] == [[], []] and back["moves"] == ["c7c6"] and back["move_plies"] == [8]
        move(w1, [], "d5d4")
        move(w1, [], "end")
    with m.p2.websocket_connect(f"/ws/games/{m.id}") as w2:
        recv_state(w2)
        mine = move(w2, [], "r10r9")[0]["state"]
        assert mine["moves"] == ["c7c6", "d5d4", "end", "r10r9"] and mine["move_plies"] == [8, 8, 8, 9]
    live = server.hub.live[m.id]
    replayed = LiveGame(server.store.game(m.id), server.store.moves(m.id), dict(live.names), server.clock())
    for side in (0, 1):  # Black's turn is unfinished: White sees its start
        shown, rebuilt = live.state(side, server.clock()), replayed.state(side, server.clock())
        assert {k: shown[k] for k in DERIVED} == {k: rebuilt[k] for k in DERIVED}
