"""Trains the orthodox chess evaluation network (engine/network.py) on `net_data.py` positions.

The network corrects the native evaluation: its output (in units of `network.SCALE` centipawns)
is added to the evaluation without it, and the loss is the squared error of the sum's win
expectation against a blend of Stockfish's (`--lam`) and the game's result. It starts at no
correction (zero output weights), and an epoch's weights are written only when they beat the
best so far on the held-out positions (the last of each file: later games). Plain numpy and
scipy's sparse products (bench-only dependencies), Adam with decoupled weight decay (`--decay`);
the first-layer weights are kept within what the native search's 16-bit sums hold. Writes the
quantized file the engine loads.

    .venv/bin/pip install -e '.[train]'
    .venv/bin/python bench/net_train.py /tmp/net1.jsonl /tmp/net2.jsonl --out superchess/engine/nets/chess.net
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from superchess.engine import network  # noqa: E402

def features(fen: str) -> tuple[list[int], list[int], int]:
    """The active inputs from the side to move's and the other side's view, and who moves (0 White)."""
    placement, turn = fen.split()[:2]
    stm = 0 if turn == "w" else 1
    pieces = []
    for rank, row in enumerate(reversed(placement.split("/"))):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                pieces.append((0 if ch.isupper() else 1, network.KINDS.index(ch.upper()), rank * 8 + file))
                file += 1
    both = network.views(pieces)
    return both[stm], both[1 - stm], stm


def _uncorrected(fens: list[str]) -> list[int]:
    from superchess import _native
    from superchess.engine import native_search
    from superchess.engine.evaluate import Evaluator
    from superchess.rules import Board, Roster
    ev = native_search.evaluation(Evaluator("chess", (Roster(), Roster()), corrected=False))
    probe = _native.Searcher(1)
    return [probe.evaluate(Board("chess", fen).native_position()[0], ev)[0] for fen in fens]


def base_scores(path: str, fens: list[str], processes: int) -> np.ndarray:
    """The native evaluation without the network (side to move's view, centipawns) of each
    position: what the network corrects. Cached beside the positions (`<file>.base.npy`; delete it
    when the evaluation changes)."""
    cache = Path(path + ".base.npy")
    if cache.exists():
        scores = np.load(cache)
        if len(scores) == len(fens):
            return scores
    chunks = [fens[i:i + 10_000] for i in range(0, len(fens), 10_000)]
    with multiprocessing.Pool(processes) as pool:
        scores = np.array([s for part in pool.map(_uncorrected, chunks) for s in part], dtype=np.float32)
    np.save(cache, scores)
    return scores


def load(paths: list[str], lam: float, held_share: float, processes: int):
    """Both views' inputs, the uncorrected scores and the targets of every position, and which are
    held out: the last `held_share` of each file (later games, so no game is on both sides)."""
    own_idx, other_idx, own_ptr, other_ptr, cps, results, base, held = [], [], [0], [0], [], [], [], []
    for path in paths:
        with open(path) as f:
            rows = [json.loads(line) for line in f]
        base.append(base_scores(path, [r["fen"] for r in rows], processes))
        first_held = int(len(rows) * (1 - held_share))
        for i, r in enumerate(rows):
            own, other, stm = features(r["fen"])
            own_idx += own
            other_idx += other
            own_ptr.append(len(own_idx))
            other_ptr.append(len(other_idx))
            cps.append(r["cp"] if stm == 0 else -r["cp"])
            results.append(r["result"] if stm == 0 else 1.0 - r["result"])
            held.append(i >= first_held)
    n = len(cps)
    target = lam / (1 + np.exp(-np.array(cps, dtype=np.float64) / network.SCALE)) + (1 - lam) * np.array(results)

    def matrix(idx: list[int], ptr: list[int]) -> sp.csr_matrix:
        data = np.ones(len(idx), dtype=np.float32)
        return sp.csr_matrix((data, np.array(idx, dtype=np.int32), np.array(ptr, dtype=np.int64)),
                             shape=(n, network.INPUTS))
    offset = np.concatenate(base) / network.SCALE
    return (matrix(own_idx, own_ptr), matrix(other_idx, other_ptr), offset.astype(np.float32),
            target.astype(np.float32), np.array(held))


class Model:
    def __init__(self, rng: np.random.Generator) -> None:
        h = network.HIDDEN
        self.p = {
            "w1": (rng.standard_normal((network.INPUTS, h)) * (1 / np.sqrt(32))).astype(np.float32),
            "b1": np.zeros(h, dtype=np.float32),
            "w2": np.zeros(2 * h, dtype=np.float32),  # no correction to start with
            "b2": np.zeros(1, dtype=np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    @classmethod
    def from_file(cls, path: str) -> "Model":
        """A network file's weights, dequantized: what the engine computes, up to rounding."""
        net = network.decode(Path(path).read_bytes(), path)
        model = cls(np.random.default_rng(0))
        model.p = {
            "w1": np.array(net.w1, dtype=np.float32).reshape(network.INPUTS, network.HIDDEN) / network.QA,
            "b1": np.array(net.b1, dtype=np.float32) / network.QA,
            "w2": np.array(net.w2, dtype=np.float32) / network.QB,
            "b2": np.array([net.b2 / (network.QA * network.QB)], dtype=np.float32),
        }
        return model

    def forward(self, own: sp.csr_matrix, other: sp.csr_matrix, offset: np.ndarray):
        h_own = own @ self.p["w1"] + self.p["b1"]
        h_other = other @ self.p["w1"] + self.p["b1"]
        a = np.concatenate([np.clip(h_own, 0, 1), np.clip(h_other, 0, 1)], axis=1)
        y = offset + a @ self.p["w2"] + self.p["b2"][0]
        return y, (h_own, h_other, a)

    def loss(self, own, other, offset, target) -> float:
        y, _ = self.forward(own, other, offset)
        return float(np.mean((1 / (1 + np.exp(-y)) - target) ** 2))

    def step(self, own, other, offset, target, lr: float, decay: float) -> float:
        y, (h_own, h_other, a) = self.forward(own, other, offset)
        p = 1 / (1 + np.exp(-y))
        n = len(target)
        dy = (2 * (p - target) * p * (1 - p) / n).astype(np.float32)
        h = network.HIDDEN
        g = {"w2": a.T @ dy, "b2": np.array([dy.sum()], dtype=np.float32)}
        da = np.outer(dy, self.p["w2"])
        d_own = da[:, :h] * ((h_own > 0) & (h_own < 1))
        d_other = da[:, h:] * ((h_other > 0) & (h_other < 1))
        g["w1"] = np.asarray(own.T @ d_own + other.T @ d_other, dtype=np.float32)
        g["b1"] = d_own.sum(axis=0) + d_other.sum(axis=0)
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for k in self.p:
            self.m[k] = b1 * self.m[k] + (1 - b1) * g[k]
            self.v[k] = b2 * self.v[k] + (1 - b2) * g[k] ** 2
            mh = self.m[k] / (1 - b1 ** self.t)
            vh = self.v[k] / (1 - b2 ** self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + eps)
        for k in ("w1", "w2"):  # decoupled weight decay (AdamW): keeps the net from fitting games
            self.p[k] -= lr * decay * self.p[k]
        np.clip(self.p["w1"], -network.W1_LIMIT, network.W1_LIMIT, out=self.p["w1"])
        np.clip(self.p["b1"], -network.W1_LIMIT, network.W1_LIMIT, out=self.p["b1"])
        return float(np.mean((p - target) ** 2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("positions", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--decay", type=float, default=0.3, help="weight decay, per unit of the rate")
    ap.add_argument("--lam", type=float, default=1.0, help="share of Stockfish's score in the target")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--processes", type=int, default=2, help="for the uncorrected scores")
    ap.add_argument("--held-out", type=float, default=0.05, help="share of each file's last positions held out")
    ap.add_argument("--score", nargs="*", default=[], metavar="NET",
                    help="also report these network files' held-out loss (as the engine reads them)")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    t0 = time.monotonic()
    own, other, offset, target, is_held = load(args.positions, args.lam, args.held_out, args.processes)
    held, train = np.flatnonzero(is_held), np.flatnonzero(~is_held)
    print(f"{len(target)} positions ({len(held)} held out), loaded in {time.monotonic() - t0:.0f}s", file=sys.stderr)
    model = Model(rng)
    best = model.loss(own[held], other[held], offset[held], target[held])
    print(f"uncorrected: held out {best:.5f}", file=sys.stderr)
    for path in args.score:
        scored = Model.from_file(path)
        print(f"{path}: held out {scored.loss(own[held], other[held], offset[held], target[held]):.5f}",
              file=sys.stderr)
    written = False
    for epoch in range(args.epochs):
        lr = args.lr * (0.3 if epoch >= args.epochs * 0.75 else 1.0)
        rng.shuffle(train)
        losses = []
        for i in range(0, len(train), args.batch):
            b = np.sort(train[i:i + args.batch])
            losses.append(model.step(own[b], other[b], offset[b], target[b], lr, args.decay))
        held_loss = model.loss(own[held], other[held], offset[held], target[held])
        print(f"epoch {epoch + 1}: train {np.mean(losses):.5f}, held out {held_loss:.5f}, "
              f"{time.monotonic() - t0:.0f}s", file=sys.stderr, flush=True)
        if held_loss < best:
            best = held_loss
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            Path(args.out).write_bytes(network.encode(model.p["w1"], model.p["b1"], model.p["w2"], float(model.p["b2"][0])))
            written = True
    print(f"best held-out loss {best:.5f}" + ("" if written else "; nothing written: no epoch improved"),
          file=sys.stderr)


if __name__ == "__main__":
    main()
