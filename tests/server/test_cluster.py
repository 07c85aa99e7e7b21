"""Two `superchess serve` processes over one PostgreSQL (issue 24, cluster.py): players on different
processes play games to their end (moves, a draw offer declined then accepted, a resignation, a
flag), a watcher on each process sees every event in order, the computer moves exactly once per
turn, two moves racing through the two processes give one move and one refusal; then one process
is killed (SIGKILL) mid-game and the other takes its games over: nothing acknowledged is lost or
doubled, the take-over comes within 5 s, and nobody is charged for the gap."""
from __future__ import annotations

import json
import threading
import time

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from superchess.server.lobby import GRACE_S

from .real_server import STALL_MS, Player, Process, message, receive, stall_under

FAST = "fast-4+0"  # a test time control (SUPERCHESS_TIME_CONTROLS): 4 s, no increment
FAST_TOML = f'[[time_control]]\nid = "{FAST}"\nname = "Fast 4+0"\ninitial = 4\nincrement = 0\n'
TAKE_OVER_S = 5
PRESENCE_GONE_S = 6  # a dead process's players leave the site within this (their rows' TTL and a sweep)
BURST = 15  # events each player sends at once
SEEK = {"variant": "chess", "time_control": "blitz-3+2"}


@pytest.fixture(scope="module")
def servers(postgres, tmp_path_factory):
    """Two server processes on one new PostgreSQL database (killed at the end)."""
    folder = tmp_path_factory.mktemp("cluster")
    (folder / "fast.toml").write_text(FAST_TOML)
    url = postgres.database("cluster")
    env = {"SUPERCHESS_TIME_CONTROLS": str(folder / "fast.toml")}
    with open(folder / "servers.log", "ab") as log:
        started = [Process(folder / name, log, url, env, wait=False) for name in ("a", "b")]  # both start at once
        for p in started:
            p.wait_ready()
        yield started
        for p in started:
            p.kill()


class Viewers:
    """The sockets of one game, each with the versions it received so far."""

    def __init__(self, game_id: str, seats: list[tuple[Player, Process]]) -> None:
        self.sockets = [player.socket(server, game_id) for player, server in seats]
        first = [receive(ws) for ws in self.sockets]
        self.version = first[0]["version"]
        assert all(m["version"] == self.version for m in first)
        self.last = first

    def next(self, timeout: float = 5) -> list[dict]:
        """The next state on every socket: all of the next version, with the same event."""
        msgs = [message(ws, timeout) for ws in self.sockets]
        assert all(m["type"] == "state" for m in msgs), msgs
        self.version += 1
        assert [m["version"] for m in msgs] == [self.version] * len(msgs)  # none skipped, none out of order
        assert all(m.get("event") == msgs[0].get("event") for m in msgs)
        self.last = msgs
        return msgs

    def act(self, seat: int, payload: dict) -> dict:
        self.sockets[seat].send(json.dumps(payload))
        return self.next()[0]

    def quiet(self, seconds: float = 1.5) -> None:
        """Nothing more arrives (an event applied twice would)."""
        for ws in self.sockets:
            with pytest.raises(TimeoutError):
                message(ws, seconds)

    def close(self) -> None:
        for ws in self.sockets:
            ws.close()


def match(creator: Player, opponent: Player, **body) -> str:
    created = creator.http.post("/api/matches", json={"variant": "chess", **body})
    assert created.status_code == 200, created.text
    token = created.json()["invite_url"].removeprefix("/invite/")
    accepted = opponent.http.post(f"/api/invitations/{token}/accept")
    assert accepted.status_code == 200, accepted.text
    return created.json()["game_id"]


def heard(ws, quiet_s: float = 2) -> list[dict]:
    """Every message a socket receives until it is quiet for `quiet_s`."""
    got = []
    with pytest.raises(TimeoutError):
        while True:
            got.append(message(ws, quiet_s))
    return got


def first_legal(state: dict) -> str:
    origin, tails = next(iter(state["legal"].items()))
    return origin + tails[0]


def test_players_on_two_processes_play_to_the_end_and_every_watcher_sees_every_event(servers):
    a, b = servers
    alice, bob, wa, wb = Player(a), Player(b), Player(a), Player(b)
    seats = [(alice, a), (bob, b), (wa, a), (wb, b)]

    game = Viewers(match(alice, bob), seats)  # accepted through b: b owns it
    for n, text in enumerate(["e2e4", "e7e5", "g1f3", "b8c6"]):
        assert game.act(n % 2, {"type": "move", "move": text})["event"]["move"] == text
    game.act(1, {"type": "offer_draw"})
    game.act(0, {"type": "decline_draw"})
    game.act(0, {"type": "offer_draw"})
    end = game.act(1, {"type": "accept_draw"})["state"]
    assert (end["status"], end["termination"], end["moves"]) == ("finished", "agreement", ["e2e4", "e7e5", "g1f3", "b8c6"])
    game.quiet(0.5)
    game.close()

    game = Viewers(match(bob, alice), [(bob, b), (alice, a), (wa, a), (wb, b)])  # accepted through a
    game.act(0, {"type": "move", "move": "d2d4"})
    end = game.act(0, {"type": "resign"})["state"]
    assert (end["status"], end["termination"], end["result"]) == ("finished", "resignation", "0-1")
    game.close()

    game = Viewers(match(alice, bob, time_control=FAST), seats)
    game.act(0, {"type": "move", "move": "e2e4"})
    game.act(1, {"type": "move", "move": "e7e5"})  # both first moves are untimed: alice's 4 s run now
    flag = game.next(timeout=10)[0]  # the owner's timer, once
    assert flag["event"]["kind"] == "end" and flag["state"]["termination"] == "time" and flag["state"]["result"] == "0-1"
    game.quiet()
    game.close()


def test_loading_a_game_whose_row_a_commit_elsewhere_holds_does_not_stall_the_event_loop(servers):
    """A process reads a game it does not hold with the game's row locked (`Store.read_game`), so the
    read waits while another process's commit holds the row: it waits off the event loop."""
    a, b = servers
    alice, carol, dave = Player(a), Player(a), Player(b)
    got = []

    def attack() -> None:
        game_id = match(alice, carol)  # made on a: b has never read it
        with psycopg.connect(b.db.replace("postgresql+psycopg://", "postgresql://")) as held:
            held.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (game_id,))
            reading = threading.Thread(target=lambda: got.append(dave.http.get(f"/api/games/{game_id}")))
            reading.start()
            time.sleep(1)
        reading.join(10)  # the row was let go at the end of the block above (its commit)
        assert got[-1].status_code == 200 and got[-1].json()["status"] == "active", got[-1].text

    worst = stall_under(b, attack)
    assert min(worst) < STALL_MS, worst


def followers(server: Process, game_id: str) -> int:
    """How many processes follow the game (hold a copy that notifications keep current)."""
    with psycopg.connect(server.db.replace("postgresql+psycopg://", "postgresql://")) as conn:
        return conn.execute("SELECT count(*) FROM game_followers WHERE game_id = %s", (game_id,)).fetchone()[0]


def test_a_game_is_followed_by_the_processes_that_serve_it_and_dropped_by_one_whose_watcher_left(servers):
    a, b = servers
    alice, bob, watcher = Player(a), Player(a), Player(b)
    game_id = match(alice, bob)
    game = Viewers(game_id, [(alice, a), (bob, a)])
    assert followers(a, game_id) == 1  # its saves notify nobody
    watching = Viewers(game_id, [(watcher, b)])
    assert followers(a, game_id) == 2
    game.act(0, {"type": "move", "move": "e2e4"})
    assert watching.next()[0]["event"]["move"] == "e2e4"
    watching.close()
    for n, text in enumerate(["e7e5", "g1f3", "b8c6", "f1c4"]):  # the first note after the watcher left drops b's copy
        game.act((n + 1) % 2, {"type": "move", "move": text})
        deadline = time.monotonic() + 1
        while followers(a, game_id) > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        if followers(a, game_id) == 1:
            break
    assert followers(a, game_id) == 1
    game.close()


def spectators(ws, timeout: float = 5) -> int:
    """The next spectator count a game's page is told (other messages skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(ws.recv(timeout=max(0.0, deadline - time.monotonic())))
        if msg["type"] == "spectators":
            return msg["count"]


def test_a_game_page_counts_the_spectators_on_every_process(servers):
    a, b = servers
    alice, bob = Player(a), Player(a)
    game_id = match(alice, bob)
    with alice.socket(a, game_id) as page:
        receive(page)
        with Player(b).socket(b, game_id) as far:
            assert spectators(page) == 1  # a watcher on the other process
            assert spectators(far) == 1
            with Player(a).socket(a, game_id) as near:
                assert [spectators(ws) for ws in (page, near, far)] == [2, 2, 2]
            assert [spectators(ws) for ws in (page, far)] == [1, 1]
        assert spectators(page) == 0
        # a player's page that joins learns the count of all
        with Player(b).socket(b, game_id), bob.socket(a, game_id) as other_page:
            receive(other_page)
            assert spectators(other_page) == 1
            assert spectators(page) == 1


def test_the_computer_moves_exactly_once_per_turn_whichever_process_its_opponent_uses(servers):
    a, b = servers
    carol, watcher = Player(b), Player(a)
    made = carol.http.post("/api/matches/computer", json={"variant": "chess", "level": 1})  # b owns it
    assert made.status_code == 200, made.text
    game = Viewers(made.json()["game_id"], [(carol.on(a), a), (watcher, b)])  # carol plays through a
    for _ in range(3):
        state = game.act(0, {"type": "move", "move": first_legal(game.last[0]["state"])})["state"]
        reply = game.next(timeout=15)[0]
        assert reply["event"]["kind"] == "move" and reply["event"]["side"] == 1
        assert reply["state"]["moves"][:-1] == state["moves"]
    game.quiet()
    assert len(carol.state(made.json()["game_id"])["moves"]) == 6
    game.close()


def test_two_moves_racing_through_two_processes_give_one_move_and_one_refusal(servers):
    a, b = servers
    dave, erin = Player(a), Player(b)
    game_id = match(dave, erin)
    tabs = [dave.socket(a, game_id), dave.socket(b, game_id)]  # two tabs of dave's, one on each process
    for ws in tabs:
        receive(ws)
    tabs[0].send(json.dumps({"type": "move", "move": "e2e4"}))
    tabs[1].send(json.dumps({"type": "move", "move": "d2d4"}))
    messages = heard(tabs[0]) + heard(tabs[1])
    states = [m for m in messages if m["type"] == "state"]
    errors = [m for m in messages if m["type"] == "error"]
    assert len(errors) == 1 and len(states) == 2, messages
    assert states[0]["version"] == states[1]["version"] and states[0]["event"] == states[1]["event"]
    assert dave.state(game_id)["moves"] == [states[0]["event"]["move"]]
    for ws in tabs:
        ws.close()


def test_a_takeback_offer_and_the_chat_cross_processes(servers):
    a, b = servers
    kim, leo, wa, wb = Player(a), Player(b), Player(a), Player(b)
    game_id = match(kim, leo)
    game = Viewers(game_id, [(kim, a), (leo, b), (wa, a), (wb, b)])
    game.act(0, {"type": "move", "move": "e2e4"})
    assert game.act(0, {"type": "offer_takeback"})["state"]["takeback_offer"] == 0  # asked through a
    done = game.act(1, {"type": "accept_takeback"})  # accepted through b
    assert done["event"] == {"kind": "takeback", "side": 1, "moves": ["e2e4"]} and done["state"]["moves"] == []

    game.sockets[0].send(json.dumps({"type": "chat", "text": "sorry"}))  # the players' room, through a
    for ws in game.sockets:
        assert [x["text"] for x in chat_of(ws, "players")] == ["sorry"]
    game.sockets[3].send(json.dumps({"type": "chat", "text": "nice"}))  # the watchers' room, through b
    for ws in game.sockets[2:]:
        assert [x["text"] for x in chat_of(ws, "watchers")] == ["nice"]
    game.quiet(0.5)  # the players hear nothing of it
    again = wa.socket(b, game_id)  # a page opening on the other process hears the history
    receive(again)
    assert [x["text"] for x in chat_of(again, "players")] == ["sorry"]
    assert [x["text"] for x in chat_of(again, "watchers")] == ["nice"]
    again.close()
    game.close()


def chat_of(ws, room: str) -> list[dict]:
    msg = message(ws)
    assert msg["type"] == "chat" and msg["room"] == room, msg
    return msg["lines"]


def test_a_watcher_on_another_process_sees_every_version_of_a_burst_of_events(servers):
    a, b = servers
    mia, ned, wa, wb = Player(a), Player(a), Player(a), Player(b)
    game = Viewers(match(mia, ned), [(mia, a), (ned, a), (wa, a), (wb, b)])
    bursts = [[f"#f0{8 * i:02x}10" for i in range(BURST)], [f"#10{8 * i:02x}f0" for i in range(BURST)]]
    for side, colours in enumerate(bursts):  # both players at once, without waiting for answers
        for colour in colours:
            game.sockets[side].send(json.dumps({"type": "set_colour", "colour": colour}))
    seen = [game.next()[0]["event"] for _ in range(2 * BURST)]  # every version on every socket, in order
    for side, colours in enumerate(bursts):
        assert [e["colour"] for e in seen if e["side"] == side] == colours
    game.quiet(0.5)
    game.close()


def lobby(player: Player, server: Process, path: str = "/ws/lobby"):
    ws = connect(f"ws://127.0.0.1:{server.port}{path}", additional_headers={"Cookie": player.cookie_header()},
                 open_timeout=5)
    if path == "/ws/lobby":
        assert message(ws)["type"] == "seeks"
    return ws


def listed(player: Player, server: Process) -> list[str]:
    return [s["id"] for s in player.on(server).http.get("/api/seeks").json()["seeks"]]


def test_a_seek_lasts_while_its_creator_is_on_any_process(servers):
    a, b = servers
    olga, pat = Player(a), Player(b)
    watchers = [lobby(pat, a), lobby(pat, b)]
    made = olga.http.post("/api/seeks", json=SEEK)  # through a (olga's identity is made with it)
    assert made.status_code == 200, made.text
    seek = made.json()["id"]
    tabs = [lobby(olga, a, "/ws/presence"), lobby(olga, b)]  # olga has a page on each process
    for ws in watchers:
        assert message(ws)["seek"]["id"] == seek
    tabs[0].close()  # she leaves a: she is still on b
    time.sleep(GRACE_S + 2)
    assert listed(pat, a) == listed(pat, b) == [seek]
    tabs[1].close()  # and now the site
    left = time.monotonic()
    for ws in watchers:
        assert message(ws, GRACE_S + 5) == {"type": "seek_removed", "ids": [seek], "reason": "left"}
    assert time.monotonic() - left < GRACE_S + 3
    assert listed(pat, a) == listed(pat, b) == []
    for ws in watchers:
        ws.close()


def test_a_killed_process_s_games_are_taken_over_within_seconds_with_nothing_lost_or_charged(servers):
    a, b = servers
    frank, gina, watcher = Player(a), Player(b), Player(a)
    game_id = match(frank, gina)  # accepted through b: b owns it (its clocks)
    game = Viewers(game_id, [(frank, a), (gina, b), (watcher, a)])
    for n, text in enumerate(["e2e4", "e7e5", "g1f3"]):
        game.act(n % 2, {"type": "move", "move": text})
    before = game.last[0]["state"]["clock"]  # gina's turn: her clock runs
    assert before["running"] == 1
    ivy = Player(b)
    made = ivy.http.post("/api/matches/computer", json={"variant": "chess", "level": 1}).json()["game_id"]
    ivy.on(a)
    quinn, rose = Player(b), Player(a)  # quinn seeks through b, on the site there only
    seek = quinn.http.post("/api/seeks", json=SEEK).json()["id"]
    quinn_page, watch = lobby(quinn, b, "/ws/presence"), lobby(rose, a)
    removed = []
    hearing = threading.Thread(target=lambda: removed.append((message(watch, 15), time.monotonic())))
    hearing.start()

    b.kill()
    killed = time.monotonic()
    with pytest.raises((ConnectionClosed, TimeoutError)):
        message(game.sockets[1], 2)
    ivy_ws = ivy.socket(a, made)
    start = receive(ivy_ws)  # ivy moves at once, through a, likely before a owns the game
    ivy_ws.send(json.dumps({"type": "move", "move": first_legal(start["state"])}))

    resumed = [message(ws, TAKE_OVER_S + 2) for ws in (game.sockets[0], game.sockets[2])]
    taken_over = time.monotonic() - killed
    assert taken_over < TAKE_OVER_S
    assert [m["event"]["kind"] for m in resumed] == ["resumed", "resumed"]
    state = resumed[0]["state"]
    assert state["moves"] == ["e2e4", "e7e5", "g1f3"]  # nothing acknowledged lost, nothing doubled
    # gina's turn starts again with what she had when it began: the gap is nobody's time
    assert state["clock"]["running"] == 1 and state["clock"]["remaining"][1] >= before["remaining"][1]

    gina.on(a)
    game.sockets[1] = gina.socket(a, game_id)
    assert receive(game.sockets[1])["version"] == resumed[0]["version"]
    game.version = resumed[0]["version"]
    game.act(1, {"type": "move", "move": "b8c6"})

    # ivy's move, the take-over, and the computer's reply played once by a (in whichever order the
    # first two came)
    events = []
    while len([e for e in events if e["kind"] == "move"]) < 2:
        events.append(message(ivy_ws, TAKE_OVER_S + 10)["event"])
    assert [e["side"] for e in events if e["kind"] == "move"] == [0, 1]
    assert [e["kind"] for e in events].count("resumed") <= 1
    with pytest.raises(TimeoutError):
        message(ivy_ws, 1.5)
    assert len(ivy.state(made)["moves"]) == 2

    # the dead process's players are no longer on the site: their real-time seeks end within seconds
    hearing.join()
    assert removed and removed[0][0] == {"type": "seek_removed", "ids": [seek], "reason": "left"}
    assert removed[0][1] - killed < PRESENCE_GONE_S
    assert listed(rose, a) == []
    for ws in (watch, quinn_page):
        ws.close()
