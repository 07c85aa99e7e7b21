"""The real thing: `superchess serve` in a subprocess, played over real websockets, killed with SIGKILL
mid-game and started again on the same data folder: no move lost, no clock charged for the downtime,
and no process of the server's outlives it."""
from __future__ import annotations

import os
import signal
import time

import pytest

from .real_server import Player, play, receive

DOWNTIME = 2.0  # seconds the server stays dead (plus its start-up time)


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) and int(stat[1]) == pid:
            found.append(int(entry))
    return found


def _stat(pid: int) -> list[str] | None:
    """/proc/<pid>/stat after the command name: state, parent id, ...; None if there is no such process."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def running(pid: int) -> bool:
    """Does the process still run (a zombie waiting for its new parent to reap it does not)?"""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def cmdline(pid: int) -> str:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read().replace(b"\0", b" ").decode()


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
    answered_at = time.time()
    since_restart_ms = (time.time() - restarted_at) * 1000
    downtime_ms = (restarted_at - killed_at) * 1000
    assert after["moves"] == ["h2h4", "h15h13", "g2g4"] and after["status"] == "active"
    assert after["version"] == last["version"]
    clock = after["clock"]
    assert clock["running"] == 1 and clock["remaining"][0] == before["remaining"][0]  # exactly kept
    charged = before["remaining"][1] - clock["remaining"][1]
    # the dead time was not charged: at most the time since the new process began (however slow the machine)
    assert downtime_ms >= DOWNTIME * 1000 and 0 <= charged <= since_restart_ms + 1
    # nor the start-up: the clock runs from when the server is ready; what it ran before the server
    # answered its first request is the last poll's round trip (measured: 20-130 ms, under a load of
    # 8 on two cores up to 280 ms; about 1.2 s when the clocks ran from the loading and the first
    # request built every variant). The rest is this test's own requests since.
    before_serving_ms = charged - (answered_at - server.serving_since) * 1000
    assert before_serving_ms < 300, (charged, before_serving_ms)
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


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the server's children in /proc")
def test_the_computers_worker_exits_with_a_killed_server(processes):
    server = processes()
    human = Player(server)
    gid = human.http.post("/api/matches/computer",
                          json={"variant": "chess", "level": 1, "creator_side": 1}).json()["game_id"]
    deadline = time.monotonic() + 60
    while not human.state(gid)["moves"]:  # the computer moves first: its worker process has thought
        assert time.monotonic() < deadline, "the computer did not move"
        time.sleep(0.05)
    kids = children(server.proc.pid)  # the worker, and multiprocessing's resource tracker
    assert any("multiprocessing.spawn" in cmdline(k) for k in kids), [cmdline(k) for k in kids]
    try:
        server.kill()
        killed = time.monotonic()
        while any(running(k) for k in kids) and time.monotonic() - killed < 10:
            time.sleep(0.02)
        lived_on = time.monotonic() - killed
        assert not [cmdline(k) for k in kids if running(k)]
        assert lived_on < 2.0  # measured: about 0.1-0.3 s (one look at the parent every 0.2 s)
    finally:  # what a failure leaves behind does not outlive the test
        for k in kids:
            if running(k):
                os.kill(k, signal.SIGKILL)
    human.http.close()
