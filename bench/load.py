"""Load benchmark of the game server: N concurrent games played over HTTP + websockets.

What it measures, for each N (number of concurrent games):

1. A fresh server is started as a subprocess (`python -m superchess.cli serve --port <free port>
   --data <temp dir>`, the real uvicorn app with its SQLite database) and polled until it answers,
   then until it and its worker processes are idle (the workers compile the engine's tables at
   start: seconds of CPU that would otherwise fall into the measured play).
2. Set-up (not timed in the results): N games are created over HTTP, each with two cookie jars
   (two guest identities): the creator `POST /api/matches` (variant super16 by default, time
   control classical-30+30 so nobody flags; creator_side alternates 0/1 between games), the
   opponent accepts with the invitation token. Both players' websockets are opened
   (`/ws/games/{id}`, the guest cookie in the handshake) and each receives its initial state.
3. Play (timed): on a common start signal every side moves as soon as it may. On a state where it
   is to move, a side picks a move from `state.legal` (seeded random per game, so the games are
   reproducible: the same seed, variant and plies give the same move sequences), records the
   send time and sends it. When the state whose `event` is that move reaches the *opponent's*
   socket, the latency send -> opponent's receipt is recorded: the receipt time is when the
   message's last frame was read from the socket, not when this one client process (which plays
   all 2N sides in turn) got round to handling it. The second, "handled" p99 includes that wait
   of the client's own queue, which a real player's browser does not have (with `--client native`
   the two are the same figure: that client notes a message when it has read it whole). A game
   plays up to M plies or until it ends.
   This is a closed loop with no think time (`--think` adds some): every game always has exactly
   one move in flight, so at saturation the latency is roughly N / throughput (Little's law).
4. Correctness: at the end each game's record (`GET /api/games/{id}/record`) is compared with the
   moves the clients sent and with the move events each side observed, in order; the versions
   each side saw must increase by exactly one per event (no gap, no duplicate). Any lost,
   duplicated, reordered or unexpected move, any error message, any game that did not finish its
   plies in time makes the run FAIL.

Reported per N: total moves, wall time of the play phase, moves per second, latency p50/p90/p99/max
(ms), errors, PASS/FAIL, and the CPU used during the play phase by the server process, by the
client process and by every other process on the machine (each as % of one core; with --db, the
PostgreSQL server's share of the last is printed too). The client
runs on the same machine: its JSON parsing competes with the server
for the cores, and so does anything else running (a test suite, a browser): when "oth CPU" is
high, the latencies measure the machine's contention rather than the server.

Games are accepted during set-up, so their first move must come within the server's first-move
window (60 s, super16 R18) of set-up time: thousands of games would need a faster set-up.

All clients run in one asyncio process (uvloop when installed), this one by default. Real
players' browsers are on other machines, so that client's CPU (a large share of the server's per
move) is an artifact of measuring on one machine: `--client native` plays the same games (the
same rules, its own seeded move choices) from bench/load_client, a compiled client on one thread
of a child process, built with cargo on first use; set-up and checks stay here, and "cli CPU" is
then that child's (this process's own small share during play counts as "other"). Run from the
project root:

    .venv/bin/python bench/load.py                     # N = 50, 200, 500 (a few minutes)
    .venv/bin/python bench/load.py --games 50,200 --plies 40
    .venv/bin/python bench/load.py --quick             # N = 20, 50 with 20 plies (seconds)
    .venv/bin/python bench/load.py --variant chess     # 8x8 orthodox chess instead of super16
    .venv/bin/python bench/load.py --think 500         # ~0.5 s mean think time per move
    .venv/bin/python bench/load.py --no-compression    # clients do not offer permessage-deflate
    .venv/bin/python bench/load.py --client native     # the compiled client (cargo builds it if needed)
    .venv/bin/python bench/load.py --http-load 4       # plus 4 loops of lobby HTTP traffic during play
    .venv/bin/python bench/load.py --dump /tmp/lat-{n}.csv   # every latency sample, for plotting
    .venv/bin/python bench/load.py --profile DIR       # sample the server with py-spy (if installed)
    .venv/bin/python bench/load.py --db postgresql://user@host/postgres --processes 2   # PostgreSQL,
        # two server processes on one new database per N; game i on process i mod 2 (both players)
    .venv/bin/python bench/load.py --games 200 --db URL --processes 1,2 --rounds 5 --client native
        # one and two processes in turn, five rounds: the scaling per round, its median, best/best

The exit status is 0 when every run passes the correctness checks, 1 otherwise.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.frames import DATA_OPCODES, Frame

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
LOAD_CLIENT = ROOT / "bench" / "load_client"
TIME_CONTROL = "classical-30+30"
HOST = "127.0.0.1"
CLK_TCK = os.sysconf("SC_CLK_TCK")
QUIET_WINDOW_S, QUIET_SHARE = 1.0, 0.05  # a server is idle when it uses under 5% of a core for a second
_RECORD_SKIP = re.compile(r"\d+\.+\Z|1-0\Z|0-1\Z|1/2-1/2\Z|\*\Z")


# -- the server -------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """The real server in a subprocess, with a fresh data folder (or on the database `db`)."""

    def __init__(self, python: str, db: str | None = None) -> None:
        self.data = tempfile.mkdtemp(prefix="superchess-load-")
        self.port = free_port()
        self.log_path = Path(self.data) / "server.log"
        self.log = open(self.log_path, "w")
        where = ["--db", db] if db else ["--data", self.data]
        self.proc = subprocess.Popen(
            [python, "-m", "superchess.cli", "serve", "--host", HOST, "--port", str(self.port), *where],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)
        self.profiler: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    async def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base) as client:
            while True:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server exited ({self.proc.returncode}):\n{self.log_text()}")
                try:
                    if (await client.get("/api/options", timeout=2)).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not answer within {timeout:.0f} s:\n{self.log_text()}")
                await asyncio.sleep(0.1)

    def cpu_seconds(self) -> float:
        """The CPU the server has used so far, its worker processes' (the computer's, the analyses')
        included."""
        return sum(map(process_cpu_seconds, [self.proc.pid, *child_pids(self.proc.pid)]))

    async def wait_quiet(self, timeout: float) -> None:
        """Wait until the server and its workers are idle (the workers compile the engine's tables
        at start: seconds of CPU that would otherwise land in the measured play)."""
        t0 = before = time.monotonic()
        cpu = self.cpu_seconds()
        while time.monotonic() - t0 < timeout:
            await asyncio.sleep(QUIET_WINDOW_S)
            now, cpu_now = time.monotonic(), self.cpu_seconds()
            if cpu_now - cpu < QUIET_SHARE * (now - before):
                break
            before, cpu = now, cpu_now

    def start_profile(self, py_spy: str, out: Path) -> None:
        out.parent.mkdir(parents=True, exist_ok=True)
        self.profiler = subprocess.Popen(
            [py_spy, "record", "--pid", str(self.proc.pid), "--rate", "250", "--format", "raw",
             "--nonblocking", "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    def stop_profile(self) -> None:
        if self.profiler and self.profiler.poll() is None:
            self.profiler.send_signal(signal.SIGINT)
            try:
                self.profiler.wait(30)
            except subprocess.TimeoutExpired:
                self.profiler.kill()
                self.profiler.wait()

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text()[-4000:]

    def stop(self) -> None:
        self.stop_profile()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.data, ignore_errors=True)


# -- the clients ------------------------------------------------------------------------------
class TimedConnection(ClientConnection):
    """A client websocket that notes when each data message arrived (its last frame read from the
    socket), in order, for the latency of the message's receipt."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals: deque[float] = deque()

    def process_event(self, event) -> None:
        if isinstance(event, Frame) and event.opcode in DATA_OPCODES and event.fin:
            self.arrivals.append(time.perf_counter())
        super().process_event(event)


class Side:
    """One player's websocket in one game."""

    def __init__(self, game: GameRun, side: int, cookie: str) -> None:
        self.game = game
        self.side = side
        self.cookie = cookie
        self.ws = None
        self.latest: dict | None = None  # the last state received
        self.version: int | None = None
        self.observed: list[str] = []  # the moves of the move events, in the order received
        self.done = False
        self.connected = asyncio.Event()

    async def run(self, url: str, compression: str | None) -> None:
        g = self.game
        try:
            async with connect(url, additional_headers={"Cookie": f"sc_guest={self.cookie}"},
                               compression=compression, ping_interval=None, max_size=2 ** 24,
                               open_timeout=120, close_timeout=5, create_connection=TimedConnection) as ws:
                self.ws = ws
                async for raw in ws:
                    handled = time.perf_counter()
                    arrived = ws.arrivals.popleft() if ws.arrivals else handled
                    msg = json.loads(raw)
                    if msg.get("type") == "error":
                        g.error(f"side {self.side}: server error: {msg.get('message')}")
                        continue
                    if msg.get("type") != "state":
                        g.error(f"side {self.side}: unexpected message type {msg.get('type')!r}")
                        continue
                    if not self.done:  # once done, the socket stays open (and idle) until the end
                        await self.on_state(msg, arrived, handled)
        except Exception as e:  # noqa: BLE001 - every failure is counted and reported
            g.error(f"side {self.side}: {type(e).__name__}: {e}")
        finally:
            self.connected.set()  # a failed connection must not hang the set-up
            if not self.done:
                g.error(f"side {self.side}: connection ended before the game did")
                self.done = True
                g.side_done()

    async def on_state(self, msg: dict, t: float, handled: float) -> None:
        g = self.game
        v = msg.get("version")
        if self.version is not None and v != self.version + 1:
            kind = "duplicate/old" if v <= self.version else "gap"
            g.version_faults += 1
            g.error(f"side {self.side}: version {kind}: {self.version} -> {v}")
        self.version = v
        state = msg["state"]
        self.latest = state
        event = msg.get("event")
        if event is None and not self.connected.is_set():
            self.connected.set()
        if event and event.get("kind") == "move":
            ply = len(state["moves"]) - 1
            self.observed.append(event["move"])
            if event.get("side") != self.side:  # the opponent's move reached this side
                sent = g.sent.get(ply)
                if sent is None or sent[0] != event["move"]:
                    g.error(f"side {self.side}: move event {event['move']!r} at ply {ply} was not sent "
                            f"(sent: {sent[0] if sent else None!r})")
                else:
                    g.latencies.append(t - sent[1])
                    g.handled.append(handled - sent[1])
                    g.samples.append((ply, sent[1], t - sent[1]))
        if state["status"] != "active" or len(state["moves"]) >= g.plies:
            self.done = True
            g.side_done()
            return
        if g.started:
            await self.maybe_move(state)

    async def maybe_move(self, state: dict) -> None:
        g = self.game
        ply = len(state["moves"])
        if state["status"] != "active" or state["turn"] != self.side or ply in g.sent or ply >= g.plies:
            return
        # a plain move is its text after the origin; a move with captures off its destination, an object
        choices = sorted(o + m if isinstance(m, str) else m["move"]
                         for o, moves in state["legal"].items() for m in moves)
        if not choices:
            g.error(f"side {self.side}: to move at ply {ply} but state.legal is empty")
            return
        move = g.rng.choice(choices)
        g.sent[ply] = (move, math.inf)  # before any await, so that a second trigger sees it
        if g.think:  # think in a task of its own: this side goes on reading meanwhile
            g.tasks.append(asyncio.create_task(self.send_later(ply, move, g.rng.uniform(0, 2 * g.think))))
        else:
            await self.send(ply, move)

    async def send(self, ply: int, move: str) -> None:
        self.game.sent[ply] = (move, time.perf_counter())
        await self.ws.send(json.dumps({"type": "move", "move": move}))

    async def send_later(self, ply: int, move: str, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self.send(ply, move)
        except Exception as e:  # noqa: BLE001
            self.game.error(f"side {self.side}: sending {move}: {type(e).__name__}: {e}")


class GameRun:
    """One game: what either client fills in during play (the moves sent, observed, the latencies,
    the errors) and the Python client's own bookkeeping."""

    def __init__(self, index: int, seed: int, plies: int, think: float) -> None:
        self.index = index
        self.rng = random.Random(f"{seed}-{index}")
        self.plies = plies
        self.think = think
        self.id = ""
        self.creator_side = index % 2
        self.sides: list[Side] = []
        self.sent: dict[int, tuple[str, float]] = {}  # ply -> (move, send time)
        self.latencies: list[float] = []
        self.handled: list[float] = []  # the same, until this client process handled the message
        self.samples: list[tuple[int, float, float]] = []  # (ply, send time, latency) for --dump
        self.errors: list[str] = []
        self.version_faults = 0
        self.started = False
        self.tasks: list[asyncio.Task] = []
        self.finished = asyncio.Event()
        self.finished_at = 0.0

    def error(self, text: str) -> None:
        self.errors.append(text)

    def side_done(self) -> None:
        if all(s.done for s in self.sides) and not self.finished.is_set():
            self.finished_at = time.perf_counter()
            self.finished.set()

    async def create(self, creator: httpx.AsyncClient, opponent: httpx.AsyncClient, variant: str) -> None:
        r = await creator.post("/api/matches", json={"variant": variant, "time_control": TIME_CONTROL,
                                                     "creator_side": self.creator_side})
        r.raise_for_status()
        body = r.json()
        self.id = body["game_id"]
        token = body["invite_url"].rsplit("/", 1)[1]
        r = await opponent.post(f"/api/invitations/{token}/accept")
        r.raise_for_status()
        cookies = [None, None]
        cookies[self.creator_side] = creator.cookies.get("sc_guest")
        cookies[self.creator_side ^ 1] = opponent.cookies.get("sc_guest")
        if not all(cookies):
            raise RuntimeError("the server set no sc_guest cookie")
        self.sides = [Side(self, s, cookies[s]) for s in (0, 1)]

    async def go(self) -> None:
        self.started = True
        for s in self.sides:
            if s.latest is not None and not s.done:
                await s.maybe_move(s.latest)


class PythonClient:
    """The reference client: every side a websocket of this asyncio process."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.compression = None if args.no_compression else "deflate"
        self.connect_concurrency, self.timeout = args.connect_concurrency, args.timeout
        self.games: list[GameRun] = []

    async def connect(self, games: list[GameRun], urls: list[str]) -> None:
        """Opens both sides of every game (urls[i] is game i's websocket) and waits for their initial states."""
        self.games = games
        sem = asyncio.Semaphore(self.connect_concurrency)

        async def open_side(s: Side, url: str) -> None:
            async with sem:
                s.game.tasks.append(asyncio.create_task(s.run(url, self.compression)))
                await s.connected.wait()

        await asyncio.gather(*(open_side(s, url) for g, url in zip(games, urls) for s in g.sides))

    def cpu_seconds(self) -> float:
        return cpu_self()

    async def play(self) -> tuple[float, float, bool]:
        """Plays every game to its end or for --timeout seconds: (start time, wall seconds, timed out)."""
        t_start = time.perf_counter()
        await asyncio.gather(*(g.go() for g in self.games))
        try:
            await asyncio.wait_for(asyncio.gather(*(g.finished.wait() for g in self.games)), self.timeout)
        except TimeoutError:
            return t_start, time.perf_counter() - t_start, True
        return t_start, max((g.finished_at for g in self.games), default=t_start) - t_start, False

    async def close(self) -> None:
        await asyncio.gather(*(s.ws.close() for g in self.games for s in g.sides if s.ws is not None),
                             return_exceptions=True)
        await asyncio.gather(*(t for g in self.games for t in g.tasks), return_exceptions=True)


class NativeClient:
    """The compiled client (bench/load_client, a child process on one thread): the same play as
    the Python client at a fraction of its CPU, its results copied into the same GameRun and Side
    fields. It reads a message only once it is complete, so "handled" equals the receipt."""

    def __init__(self, exe: Path, args: argparse.Namespace) -> None:
        self.exe = exe
        self.seed, self.think_ms = args.seed, args.think
        self.connect_concurrency, self.timeout = args.connect_concurrency, args.timeout
        self.games: list[GameRun] = []
        self.proc: asyncio.subprocess.Process | None = None

    @staticmethod
    def build() -> Path:
        """Builds the client if needed (cargo, release; its output shown only on failure)."""
        r = subprocess.run(["cargo", "build", "--release", "--manifest-path", str(LOAD_CLIENT / "Cargo.toml")],
                           check=False, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"building bench/load_client failed:\n{r.stdout}{r.stderr}")
        return LOAD_CLIENT / "target" / "release" / "load-client"

    async def connect(self, games: list[GameRun], urls: list[str]) -> None:
        self.games = games
        self.proc = await asyncio.create_subprocess_exec(
            self.exe, stdin=subprocess.PIPE, stdout=subprocess.PIPE, limit=2 ** 28)
        plan = {"think_ms": self.think_ms, "connect_concurrency": self.connect_concurrency, "timeout_s": self.timeout,
                "games": [{"index": g.index, "seed": self.seed, "plies": g.plies,
                           "sides": [{"url": url, "cookie": s.cookie} for s in g.sides]}
                          for g, url in zip(games, urls)]}
        await self.tell(json.dumps(plan))
        await self.answer()  # {"ready": true, "failed": K}: the K failures are in the games' errors

    def cpu_seconds(self) -> float:
        return process_cpu_seconds(self.proc.pid) if self.proc else float("nan")

    async def play(self) -> tuple[float, float, bool]:
        t_start = time.perf_counter()
        await self.tell("go")
        report = await asyncio.wait_for(self.answer(), self.timeout + 60)  # it keeps the time itself
        for g, r in zip(self.games, report["games"], strict=True):
            g.sent = {ply: (mv, math.inf if at is None else t_start + at)
                      for ply, (mv, at) in enumerate(zip(r["sent"], r["sent_at"])) if mv is not None}
            g.latencies = g.handled = r["latencies"]
            g.samples = [(ply, t_start + at, latency) for ply, at, latency in r["samples"]]
            g.errors += r["errors"]
            g.version_faults = r["version_faults"]
            for s, rs in zip(g.sides, r["sides"], strict=True):
                s.observed, s.latest = rs["observed"], rs["latest"]
        return t_start, report["wall"], report["timed_out"]

    async def tell(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        await self.proc.stdin.drain()

    async def answer(self) -> dict:
        line = await self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"bench/load_client exited ({await self.proc.wait()})")
        return json.loads(line)

    async def close(self) -> None:
        """Ends its stdin: the client closes its websockets and exits."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


class Lobby:
    """Background HTTP traffic during play (--http-load K: K loops): a new guest creates a match,
    another new guest accepts it, the creator lists its games. Every request writes to the
    database (new players and sessions, the game row), as visitors arriving at the site do."""

    def __init__(self, base: str, transport: httpx.AsyncHTTPTransport, variant: str) -> None:
        self.base, self.transport, self.variant = base, transport, variant
        self.stop = False
        self.times: list[float] = []
        self.failures = 0

    async def timed(self, request) -> httpx.Response | None:
        t = time.perf_counter()
        try:
            r = await request
            r.raise_for_status()
            return r
        except httpx.HTTPError:
            self.failures += 1
            return None
        finally:
            self.times.append(time.perf_counter() - t)

    async def loop(self) -> None:
        while not self.stop:
            a = httpx.AsyncClient(transport=self.transport, base_url=self.base, timeout=60)
            b = httpx.AsyncClient(transport=self.transport, base_url=self.base, timeout=60)
            r = await self.timed(a.post("/api/matches", json={"variant": self.variant,
                                                              "time_control": TIME_CONTROL}))
            if r is None:
                await asyncio.sleep(0.1)
                continue
            token = r.json()["invite_url"].rsplit("/", 1)[1]
            await self.timed(b.post(f"/api/invitations/{token}/accept"))
            await self.timed(a.get("/api/games"))

    def summary(self) -> str:
        t = sorted(x * 1000 for x in self.times)
        return (f"{len(t)} requests, {self.failures} failed; ms p50 {percentile(t, 50):.1f} "
                f"p99 {percentile(t, 99):.1f} max {t[-1] if t else float('nan'):.1f}")


def record_moves(text: str) -> list[str]:
    body = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("[")]
    return [tok for tok in " ".join(body).split() if not _RECORD_SKIP.match(tok)]


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, math.ceil(p / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


async def gather_limited(limit: int, coros) -> list:
    sem = asyncio.Semaphore(limit)

    async def one(c):
        async with sem:
            return await c
    return await asyncio.gather(*(one(c) for c in coros), return_exceptions=True)


def cpu_machine() -> float:
    """Busy CPU seconds of the whole machine so far (all cores, Linux /proc/stat)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return (sum(fields[:8]) - fields[3] - fields[4]) / CLK_TCK  # less idle and iowait
    except (OSError, ValueError, IndexError):
        return float("nan")


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time process `pid` has used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return float("nan")


def database_cpu(url: str) -> dict[int, float]:
    """CPU seconds used so far by each process of the PostgreSQL server at `url` (its backends and
    background workers, by pid; Linux /proc, so only for a server on this machine)."""
    import psycopg
    from sqlalchemy.engine import make_url
    with psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)) as c:
        pids = [pid for pid, in c.execute("SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()")]
    return {pid: process_cpu_seconds(pid) for pid in pids}


def database_cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """The CPU seconds the database's processes used between two `database_cpu` readings (a process
    that started in between counts whole; one that ended in between is lost, the rarer error)."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    children.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                pass
    return children


def cpu_self() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def fresh_database(url: str, name: str) -> str:
    """A new empty database `name` on the PostgreSQL server of `url`; its URL."""
    import psycopg
    from sqlalchemy.engine import make_url
    u = make_url(url)
    with psycopg.connect(u.set(drivername="postgresql").render_as_string(hide_password=False), autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    return u.set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url
    u = make_url(url)
    server = u.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(server, autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{u.database}" WITH (FORCE)')


async def run_n(n: int, processes: int, args: argparse.Namespace) -> dict:
    # with --db, each N gets a new database on that PostgreSQL server, shared by --processes servers;
    # game i is played on server i mod P (both players: a proxy routing by game)
    db = fresh_database(args.db, f"superchess_load_{os.getpid()}_{n}") if args.db else None
    servers = [Server(args.python, db) for _ in range(processes)]
    server = servers[0]
    player = NativeClient(args.native_exe, args) if args.native_exe else PythonClient(args)
    try:
        await asyncio.gather(*(s.wait_ready(60) for s in servers))
        await asyncio.gather(*(s.wait_quiet(120) for s in servers))
        games = [GameRun(i, args.seed, args.plies, args.think / 1000) for i in range(n)]
        # set-up: create and accept over HTTP (a shared connection pool, one cookie jar per player)
        t0 = time.perf_counter()
        transport = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=args.http_concurrency))
        clients = [httpx.AsyncClient(transport=transport, base_url=servers[i // 2 % len(servers)].base, timeout=60)
                   for i in range(2 * n)]
        results = await gather_limited(args.http_concurrency, (
            g.create(clients[2 * g.index], clients[2 * g.index + 1], args.variant) for g in games))
        setup_errors = [f"game {i}: create/accept: {type(r).__name__}: {r}" for i, r in enumerate(results)
                        if isinstance(r, BaseException)]
        if setup_errors:
            raise RuntimeError("set-up failed:\n" + "\n".join(setup_errors[:10]))
        t_created = time.perf_counter()
        # connect both sides of every game and wait for their initial states
        await player.connect(games, [f"ws://{HOST}:{servers[g.index % len(servers)].port}/ws/games/{g.id}"
                                     for g in games])
        t_connected = time.perf_counter()
        # play
        if args.profile:
            server.start_profile(args.py_spy, Path(args.profile) / f"server-{args.variant}-{n}.txt")
        cpu_client0, cpu_server0 = player.cpu_seconds(), sum(s.cpu_seconds() for s in servers)
        cpu_machine0 = cpu_machine()
        cpu_database0 = database_cpu(db) if db else {}
        lobby = Lobby(server.base, transport, args.variant) if args.http_load else None
        lobby_tasks = [asyncio.create_task(lobby.loop()) for _ in range(args.http_load)] if lobby else []
        t_start, wall, timed_out = await player.play()
        cpu_client = player.cpu_seconds() - cpu_client0
        cpu_server = sum(s.cpu_seconds() for s in servers) - cpu_server0
        cpu_other = max(0.0, cpu_machine() - cpu_machine0 - cpu_client - cpu_server)  # other processes
        cpu_database = database_cpu_between(cpu_database0, database_cpu(db)) if db else None  # part of "other"
        server.stop_profile()
        if lobby:
            lobby.stop = True
            await asyncio.gather(*lobby_tasks, return_exceptions=True)
        # correctness: the records against what was sent and observed
        records = await gather_limited(args.http_concurrency, (
            clients[2 * g.index].get(f"/api/games/{g.id}/record?notation=coordinates") for g in games))
        await transport.aclose()
        lost = dup = mismatched = unfinished = 0
        for g, r in zip(games, records):
            if isinstance(r, BaseException) or r.status_code != 200:
                g.error(f"record: {r!r}")
                mismatched += 1
                continue
            rec = record_moves(r.text)
            sent = [g.sent[p][0] for p in sorted(g.sent)]
            if sorted(g.sent) != list(range(len(g.sent))):
                g.error(f"sent plies are not contiguous: {sorted(g.sent)}")
            lost += sum(1 for p, (mv, _) in g.sent.items() if p >= len(rec) or rec[p] != mv)
            dup += max(0, len(rec) - len(sent))
            for s in g.sides:
                dup += max(0, len(s.observed) - len(rec))
                if s.observed != rec:
                    mismatched += 1
                    g.error(f"side {s.side} observed {len(s.observed)} moves that differ from the record's "
                            f"{len(rec)}")
            if rec != sent:
                mismatched += 1
                g.error(f"record ({len(rec)} moves) differs from the moves sent ({len(sent)})")
            final = g.sides[0].latest or {}
            if final.get("status") == "active" and len(rec) < g.plies:
                unfinished += 1
                g.error(f"unfinished: {len(rec)} of {g.plies} plies")
        if args.dump:
            path = Path(args.dump.replace("{n}", str(n)))
            with open(path, "w") as f:
                f.write("game,ply,send_s,latency_ms\n")
                f.writelines(f"{g.index},{ply},{sent_at - t_start:.6f},{1000 * latency:.3f}\n"
                             for g in games for ply, sent_at, latency in g.samples)
        errors = [f"game {g.index} ({g.id}): {e}" for g in games for e in g.errors]
        lat = sorted(x * 1000 for g in games for x in g.latencies)
        handled = sorted(x * 1000 for g in games for x in g.handled)
        moves = sum(len(g.sent) for g in games)
        endings: dict[str, int] = {}
        for g in games:
            st = g.sides[0].latest or {}
            if st.get("status") not in (None, "active"):
                key = f"{st.get('termination')} after {len(st.get('moves', []))} plies" if args.verbose \
                    else str(st.get("termination"))
                endings[key] = endings.get(key, 0) + 1
        ended = ", ".join(f"{k} {v}" for k, v in sorted(endings.items())) or "0"
        ok = not errors and not timed_out and lost == 0 and dup == 0 and mismatched == 0
        return {
            "n": n, "moves": moves, "wall": wall, "mps": moves / wall if wall > 0 else float("nan"),
            "p50": percentile(lat, 50), "p90": percentile(lat, 90), "p99": percentile(lat, 99),
            "max": lat[-1] if lat else float("nan"), "samples": len(lat), "p99_handled": percentile(handled, 99),
            "errors": len(errors), "error_lines": errors, "lost": lost, "dup": dup, "mismatched": mismatched,
            "unfinished": unfinished, "version_faults": sum(g.version_faults for g in games),
            "timed_out": timed_out, "ended": ended, "ok": ok,
            "setup_s": t_created - t0, "connect_s": t_connected - t_created,
            "cpu_server": cpu_server, "cpu_client": cpu_client, "cpu_other": cpu_other,
            "cpu_database": cpu_database,
            "lobby": lobby.summary() if lobby else None,
        }
    finally:
        await player.close()
        for s in servers:
            s.stop()
        if db:
            drop_database(db)


def print_result(r: dict, args: argparse.Namespace) -> None:
    verdict = "PASS" if r["ok"] else "FAIL"
    print(f"N={r['n']}: {r['moves']} moves in {r['wall']:.2f} s = {r['mps']:.0f} moves/s; latency ms "
          f"p50 {r['p50']:.1f}  p90 {r['p90']:.1f}  p99 {r['p99']:.1f}  max {r['max']:.1f} "
          f"({r['samples']} samples); p99 until the client handled it {r['p99_handled']:.1f}")
    print(f"      set-up {r['setup_s']:.1f} s (create+accept), websockets {r['connect_s']:.1f} s; games ended "
          f"by the rules: {r['ended']}; CPU during play: server {r['cpu_server']:.1f} s "
          f"({100 * r['cpu_server'] / r['wall']:.0f}% of a core), client {r['cpu_client']:.1f} s "
          f"({100 * r['cpu_client'] / r['wall']:.0f}%), other processes {r['cpu_other']:.1f} s "
          f"({100 * r['cpu_other'] / r['wall']:.0f}%)" + (
              "" if r.get("cpu_database") is None else
              f", of which PostgreSQL {r['cpu_database']:.1f} s ({100 * r['cpu_database'] / r['wall']:.0f}%)"))
    if r["lobby"]:
        print(f"      background HTTP: {r['lobby']}")
    print(f"      correctness {verdict}: lost {r['lost']}, duplicated {r['dup']}, mismatched {r['mismatched']}, "
          f"unfinished {r['unfinished']}, version gaps/repeats {r['version_faults']}, "
          f"errors {r['errors']}" + (", TIMED OUT" if r["timed_out"] else ""))
    for line in r["error_lines"][:args.show_errors]:
        print(f"        {line}")
    if len(r["error_lines"]) > args.show_errors:
        print(f"        ... and {len(r['error_lines']) - args.show_errors} more")
    sys.stdout.flush()


def print_scaling(results: list[dict], ns: list[int], counts: list[int]) -> None:
    """Each process count's moves per second against the first count's: per round (runs made side by
    side), their median, and best against best."""
    print()
    for n in ns:
        for processes in counts[1:]:
            pairs = [(mine["mps"], base["mps"]) for mine in results for base in results
                     if mine["n"] == base["n"] == n and mine["round"] == base["round"]
                     and mine["processes"] == processes and base["processes"] == counts[0]]
            ratios = [a / b for a, b in pairs]
            best = max(a for a, _ in pairs) / max(b for _, b in pairs)
            print(f"N={n}: {processes} processes against {counts[0]}: per round "
                  f"{', '.join(f'{x:.2f}x' for x in ratios)}; median {statistics.median(ratios):.2f}x; "
                  f"best against best {best:.2f}x")


def print_table(results: list[dict]) -> None:
    head = ("P", "N", "moves", "wall s", "moves/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "p99 hdl", "errors",
            "srv CPU", "cli CPU", "oth CPU", "result")
    rows = [(str(r["processes"]), str(r["n"]), str(r["moves"]), f"{r['wall']:.2f}", f"{r['mps']:.0f}", f"{r['p50']:.1f}",
             f"{r['p90']:.1f}", f"{r['p99']:.1f}", f"{r['max']:.1f}", f"{r['p99_handled']:.1f}", str(r["errors"]),
             f"{100 * r['cpu_server'] / r['wall']:.0f}%", f"{100 * r['cpu_client'] / r['wall']:.0f}%",
             f"{100 * r['cpu_other'] / r['wall']:.0f}%", "PASS" if r["ok"] else "FAIL") for r in results]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    print("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    for row in rows:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=None, help="comma-separated N, e.g. 50,200 (default 50,200,500)")
    ap.add_argument("--plies", type=int, default=None, help="plies per game at most (default 40)")
    ap.add_argument("--quick", action="store_true", help="N = 20,50 and 20 plies, unless given")
    ap.add_argument("--variant", default="super16", help="variant name (default super16; e.g. chess)")
    ap.add_argument("--processes", default="1", help="server processes sharing the database (needs --db when "
                    "more than 1); several, comma-separated (1,2), run in turn for each N and round")
    ap.add_argument("--rounds", type=int, default=1, help="run everything this many times, interleaved (the "
                    "machine's speed drifts: compare runs made side by side)")
    ap.add_argument("--db", default=None, metavar="URL", help="a PostgreSQL server (e.g. postgresql://user@host/"
                    "postgres): each N runs on a new database there; default: SQLite in a temporary folder")
    ap.add_argument("--seed", type=int, default=1, help="base seed of the per-game move choices")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean think time per move in ms (uniform 0..2x; default 0: move at once)")
    ap.add_argument("--http-load", type=int, default=0, metavar="K",
                    help="K loops of background HTTP traffic during play (new guests creating and accepting "
                         "matches, listing games); default 0")
    ap.add_argument("--client", choices=("python", "native"), default="python",
                    help="who plays: this process (python, the reference) or bench/load_client (native, "
                         "compiled: a fraction of the CPU per move)")
    ap.add_argument("--no-compression", action="store_true", help="no permessage-deflate on the websockets "
                    "(the native client never offers it)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds allowed for the play phase of one N")
    ap.add_argument("--http-concurrency", type=int, default=16, help="HTTP requests in flight during set-up")
    ap.add_argument("--connect-concurrency", type=int, default=64, help="websocket handshakes in flight")
    ap.add_argument("--python", default=str(VENV_PYTHON if VENV_PYTHON.exists() else sys.executable),
                    help="the interpreter that runs the server")
    ap.add_argument("--profile", default=None, metavar="DIR",
                    help="sample the server with py-spy during play; collapsed stacks go to DIR")
    ap.add_argument("--py-spy", default=shutil.which("py-spy"), help="the py-spy executable")
    ap.add_argument("--show-errors", type=int, default=10, help="error lines printed per N")
    ap.add_argument("--dump", default=None, metavar="CSV",
                    help="write every latency sample (game, ply, send time, latency) to CSV; "
                         "{n} in the name is replaced by N")
    ap.add_argument("--verbose", action="store_true", help="more detail on how games ended")
    args = ap.parse_args()
    args.games = args.games or ("20,50" if args.quick else "50,200,500")
    args.plies = args.plies or (20 if args.quick else 40)
    ns = [int(x) for x in args.games.split(",") if x.strip()]
    counts = [int(x) for x in args.processes.split(",") if x.strip()]
    if max(counts) > 1 and not args.db:
        ap.error("--processes above 1 needs --db (a PostgreSQL server the processes share)")
    if args.profile and not args.py_spy:
        ap.error("--profile needs py-spy (pip install py-spy, or give --py-spy PATH)")
    try:
        args.native_exe = NativeClient.build() if args.client == "native" else None
    except (OSError, RuntimeError) as e:
        print(f"--client native: {e}", file=sys.stderr)
        return 1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # two sockets per game here, and in the server
    want = min(hard, max(soft, 4 * max(ns) + 256)) if hard != resource.RLIM_INFINITY else 4 * max(ns) + 256
    if want > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

    try:
        import uvloop
        loop_name = "uvloop"
    except ImportError:
        uvloop = None
        loop_name = "asyncio"
    deflate = not args.no_compression and not args.native_exe
    client = "native (bench/load_client, one thread)" if args.native_exe else f"python, loop {loop_name}"
    print(f"superchess load benchmark: variant {args.variant}, {TIME_CONTROL}, up to {args.plies} plies per game, "
          f"think {args.think:g} ms, websocket compression offered by clients: "
          f"{'deflate (the server declines it)' if deflate else 'none'}, "
          f"seed {args.seed}; client {client}; {os.cpu_count()} CPUs")
    sys.stdout.flush()

    async def all_runs() -> list[dict]:
        out = []
        for round_ in range(1, args.rounds + 1):
            for n in ns:
                for processes in counts:
                    if len(counts) > 1 or args.rounds > 1:
                        print(f"round {round_}, {processes} process{'es' if processes > 1 else ''}:")
                    try:
                        r = await run_n(n, processes, args)
                    except Exception as e:  # noqa: BLE001 - a run that could not be set up fails, the next goes on
                        print(f"N={n}: FAIL: {type(e).__name__}: {e}")
                        nan = float("nan")
                        r = {"n": n, "moves": 0, "wall": nan, "mps": nan, "p50": nan, "p90": nan, "p99": nan,
                             "max": nan, "errors": 1, "cpu_server": nan, "cpu_client": nan, "cpu_other": nan,
                             "ok": False}
                    else:
                        print_result(r, args)
                    out.append({**r, "processes": processes, "round": round_})
        return out

    results = uvloop.run(all_runs()) if uvloop else asyncio.run(all_runs())
    print()
    print_table(results)
    if len(counts) > 1:
        print_scaling(results, ns, counts)
    ok = all(r["ok"] for r in results)
    print(f"\noverall: {'PASS' if ok else 'FAIL'} "
          f"(zero lost or duplicated moves, records match what was sent and seen)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
