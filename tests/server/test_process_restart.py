"""The real thing: `superchess serve` in a subprocess, played over real websockets, killed with SIGKILL
mid-game and started again on the same data folder: no move lost, no clock charged for the downtime."""
from __future__ import annotations

import time

from .real_server import Player, play, receive

DOWNTIME = 2.0  # seconds the server stays dead (plus its start-up time)


def test_sigkill_mid_game_then_restart_loses_nothing(processes):
    server = processes()
    p1, p2 = Player(server), Player(server)
    created = p1.http.post("/api/matches", json={"time_control": "blitz-5+0"}).json()
    gid = created["game_id"]
    assert p2.http.post(f"/api/invitations/{created['invite_url'].split('/')[-1]}/accept").json() == {"game_id": gid}
    with p1.socket(server, gid) as w1, p2.socket(server, gid) as w2:
        assert receive(w1)["state"]["you"] == 0 and receive(w2)["state"]["you"] == 1
        play(w1, [w2], "h2h4")
        play(w2, [w1], "h15h13")
        time.sleep(0.3)
        last = play(w1, [w2], "g2g4")[1]  # Player 1's first timed move; now Player 2's clock runs
        before = last["state"]["clock"]
        server.kill()  # the instant the opponent has seen the move: it must already be on disk
    assert before["running"] == 1 and before["remaining"][1] == 300_000
    assert 299_000 < before["remaining"][0] <= 299_700
    killed_at = time.time()
    time.sleep(DOWNTIME)

    restarted_at = time.time()
    server = processes()
    p1.on(server), p2.on(server)
    after = p2.state(gid)
    since_restart_ms = (time.time() - restarted_at) * 1000
    downtime_ms = (restarted_at - killed_at) * 1000
    assert after["moves"] == ["h2h4", "h15h13", "g2g4"] and after["status"] == "active"
    assert after["version"] == last["version"]
    clock = after["clock"]
    assert clock["running"] == 1 and clock["remaining"][0] == before["remaining"][0]  # exactly kept
    charged = before["remaining"][1] - clock["remaining"][1]
    # the dead time was not charged: at most the time since the new process began (however slow the machine)
    assert downtime_ms >= DOWNTIME * 1000 and 0 <= charged <= since_restart_ms + 1
    with p1.socket(server, gid) as w1, p2.socket(server, gid) as w2:
        s1, s2 = receive(w1), receive(w2)
        assert s1["version"] == s2["version"] == last["version"] and s2["state"]["legal"]
        msgs = play(w2, [w1], "g15g13")
        assert msgs[0]["version"] == last["version"] + 1
        assert msgs[1]["state"]["moves"] == ["h2h4", "h15h13", "g2g4", "g15g13"]
        assert msgs[1]["state"]["clock"]["remaining"][0] == before["remaining"][0]
        play(w1, [w2], "b1c3")
    assert p1.state(gid)["moves"][-1] == "b1c3"
    p1.http.close(), p2.http.close()
