"""Lobby latency: how long a new seek takes to appear in other players' lobbies.

A real `superchess serve` (bench/load.py's `Server`) gets W lobby watchers (`/ws/lobby`, each its
own connection) and C seek creators (guests, each with its presence socket open, so their real-time
seeks stay). The creators post N seeks one after another (`POST /api/seeks`, super16 Blitz 3+2 by
default; at most 5 open per player, so N / C each); after each seek the script waits until every
watcher has received its `seek_added` before the next. Each creator sends its own
`X-Forwarded-For` (the server trusts 127.0.0.1's), so the per-address creation throttle counts
each creator apart, as for real players.

The latency of one (seek, watcher) pair is from the moment the POST is sent to the moment the
watcher's socket has read the message's last frame (bench/load.py's `TimedConnection`: not when
this one client process, which plays every watcher, gets round to parsing it). Reported: p50, p99
and max over all pairs (N x W), the same over the slowest watcher of each seek (when the last
lobby has it), and the POST's own round trip. The clients run on the same machine as the server.

    .venv/bin/python bench/lobby.py                       # 100 seeks, 50 watchers, 20 creators
    .venv/bin/python bench/lobby.py --seeks 200 --watchers 100
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import TimedConnection, Server  # noqa: E402  (bench/load.py: the server subprocess, timed sockets)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


class Watcher:
    """One lobby: the arrival time of each seek it hears of."""

    def __init__(self) -> None:
        self.seen: dict[str, float] = {}
        self.ready = asyncio.Event()
        self.news = asyncio.Event()

    async def run(self, url: str) -> None:
        async with connect(url, ping_interval=None, create_connection=TimedConnection, max_size=2 ** 24) as ws:
            async for raw in ws:
                arrived = ws.arrivals.popleft()
                msg = json.loads(raw)
                if msg["type"] == "seeks":
                    self.ready.set()
                elif msg["type"] == "seek_added":
                    self.seen[msg["seek"]["id"]] = arrived
                    self.news.set()


async def creator(base: str, n: int) -> tuple[httpx.AsyncClient, object]:
    """A guest with its presence socket open, sending as client address 10.0.<n>."""
    client = httpx.AsyncClient(base_url=base, headers={"X-Forwarded-For": f"10.0.{n // 250}.{n % 250 + 1}"})
    (await client.put("/api/me/colour", json={"colour": "#123456"})).raise_for_status()
    cookie = client.cookies["sc_guest"]
    ws = await connect(base.replace("http", "ws") + "/ws/presence", additional_headers={"Cookie": f"sc_guest={cookie}"},
                       ping_interval=None)
    return client, ws


async def run(args) -> int:
    server = Server(sys.executable)
    try:
        await server.wait_ready()
        ws_base = server.base.replace("http", "ws")
        watchers = [Watcher() for _ in range(args.watchers)]
        tasks = [asyncio.create_task(w.run(ws_base + "/ws/lobby")) for w in watchers]
        await asyncio.wait_for(asyncio.gather(*(w.ready.wait() for w in watchers)), 30)
        creators = [await creator(server.base, n) for n in range(args.creators)]
        pairs, last, posts = [], [], []
        body = {"variant": args.variant, "time_control": args.time_control}
        for i in range(args.seeks):
            client, _ = creators[i % len(creators)]
            sent = time.perf_counter()
            r = await client.post("/api/seeks", json=body)
            posts.append(time.perf_counter() - sent)
            r.raise_for_status()
            seek_id = r.json()["id"]
            deadline = time.monotonic() + 10
            while not all(seek_id in w.seen for w in watchers):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"seek {seek_id} did not reach every lobby within 10 s")
                await asyncio.sleep(0.001)
            arrivals = [w.seen[seek_id] - sent for w in watchers]
            pairs += arrivals
            last.append(max(arrivals))
            await asyncio.sleep(args.gap / 1000)
        for client, ws in creators:
            await ws.close()
            await client.aclose()
        for t in tasks:
            t.cancel()
    finally:
        server.stop()
    ms = lambda xs: [x * 1000 for x in xs]  # noqa: E731
    print(f"{args.seeks} seeks ({args.variant}, {args.time_control}) by {args.creators} creators, "
          f"{args.watchers} lobby watchers")
    for label, values in (("seek -> a watcher's lobby", ms(pairs)), ("seek -> the last of the lobbies", ms(last)),
                          ("POST /api/seeks round trip", ms(posts))):
        print(f"  {label:34} p50 {percentile(values, 50):7.1f} ms   p99 {percentile(values, 99):7.1f} ms   "
              f"max {max(values):7.1f} ms   mean {statistics.fmean(values):6.1f} ms   (n = {len(values)})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeks", type=int, default=100)
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--creators", type=int, default=20, help="at most 5 open seeks each: seeks / 5 or more")
    parser.add_argument("--variant", default="super16")
    parser.add_argument("--time-control", default="blitz-3+2")
    parser.add_argument("--gap", type=float, default=20, help="ms between one seek's arrival everywhere and the next")
    args = parser.parse_args()
    if args.creators * 5 < args.seeks:
        parser.error("each creator has at most 5 open seeks: use more creators")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
