//! The search: iterative deepening with aspiration windows over a principal-variation alpha-beta
//! search and a quiescence search.
//!
//! Pruning and reductions: transposition-table cut-offs, razoring, reverse futility, null move
//! (verified by a search without it at high depth or when zugzwang is likely: few pieces besides
//! pawns), internal iterative reduction, late-move pruning, futility pruning of quiet moves,
//! exchange-evaluation pruning of losing moves, late-move reductions. Check extension. Ordering:
//! hash move, winning and equal captures (most valuable victim first), killers, countermove,
//! quiet moves by history, losing captures. Mate scores count the distance in plies; repetition
//! of an earlier position (game or search), the move rule, insufficient material and stalemate
//! score as draws.
//!
//! Stopping: every `CHECK_EVERY` nodes (exactly at a node limit) the clock, the node limit and the
//! stop flag are read; a stopped search unwinds and the last finished iteration's move stands
//! (or a move of the unfinished one that beat it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::cellset::CellSet;
use crate::encoding::*;
use crate::movegen::{dedupe, Scratch};
use crate::position::Pos;
use crate::tables::{has, Codes};

use super::eval::{Acc, EvalTables};
use super::see::{see, SeeScratch};
use super::tt::{Entry, Tt, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER};

pub const MATE: i32 = 32_000;
pub const MAX_PLY: usize = 120;
/// Scores beyond this are mates
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
pub const INF: i32 = MATE + 1;
const CHECK_EVERY: u64 = 1024;
const NO_EVAL: i32 = -INF;
const HISTORY_MAX: i32 = 16_384;
/// A quiet move's ordering score (main history and two continuation entries) stays within this
const QUIET_MAX: i32 = 3 * HISTORY_MAX;

/// Ordering classes, above any history score.
const SCORE_HASH: i32 = 1 << 30;
const SCORE_GOOD_CAPTURE: i32 = 1 << 28;
const SCORE_KILLER: i32 = 1 << 27;
/// a quiet move not scored yet: its history is read only when the search reaches the quiet moves
/// (most cut-offs come before them, and the continuation rows cost cache misses)
const SCORE_QUIET_LATER: i32 = SCORE_KILLER - 1;
/// losing captures: below every quiet move
const SCORE_BAD_CAPTURE: i32 = -(1 << 28);

pub struct Limits {
    pub depth: i32,
    pub nodes: u64,
    pub soft_ms: Option<f64>,
    pub hard_ms: Option<f64>,
    pub infinite: bool,
}

/// Continuation-history entries at most (i16 each: 2 MB): a row per earlier (piece, cell) key,
/// an entry in it per current key. When a row for every earlier key does not fit (orthodox chess:
/// 768 rows of 768 fit), earlier keys share the rows by a hash (super16: 170 rows of 6,144, so
/// the shared rows blur their statistics). A node reads one or two rows: they stay in cache.
const CONT_BITS: u32 = 20;

/// Move-ordering memory kept between the searches of one searcher.
pub struct Heuristics {
    n: usize,
    /// [piece code * n + destination]
    history: Vec<i32>,
    /// the reply that refuted [piece code * n + destination] of the previous move
    counter: Vec<Move>,
    /// piece kinds per side in the dense (piece, cell) key: the variant's types + 1
    kinds: usize,
    /// continuation history: how well (piece, destination) did after the (piece, destination)
    /// one or two plies before (the same table for both distances); see `cont_row`
    cont: Vec<i16>,
    /// the dense keys: 2 x kinds x n, the length of a continuation row
    keys: usize,
    /// the continuation rows: `keys`, or fewer shared by a hash
    rows: usize,
}

impl Heuristics {
    pub fn new(n: usize, types: usize) -> Heuristics {
        let kinds = types + 1;
        let keys = 2 * kinds * n;
        let rows = ((1 << CONT_BITS) / keys).clamp(1, keys);
        Heuristics {
            n,
            history: vec![0; MAX_CODE * n],
            counter: vec![0; MAX_CODE * n],
            kinds,
            cont: vec![0; rows * keys],
            keys,
            rows,
        }
    }

    pub fn bytes(&self) -> usize {
        self.history.len() * 4 + self.counter.len() * 8 + self.cont.len() * 2
    }

    pub fn fits(&self, n: usize, types: usize) -> bool {
        self.n == n && self.kinds == types + 1
    }

    /// A new search: older experience counts less.
    pub fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
        for h in &mut self.cont {
            *h /= 2;
        }
    }

    pub fn clear(&mut self) {
        self.history.fill(0);
        self.counter.fill(0);
        self.cont.fill(0);
    }

    #[inline]
    fn bump(h: &mut i32, bonus: i32) {
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// The dense key of a piece code on a cell: (side, type, cell).
    #[inline]
    fn key(&self, code: u8, cell: usize) -> usize {
        let c = code as usize;
        let kind = (c & ((1 << SIDE_SHIFT) - 1)).min(self.kinds - 1);
        ((c >> SIDE_SHIFT & 1) * self.kinds + kind) * self.n + cell
    }

    /// Where the continuation row of the earlier key `prev` starts.
    #[inline]
    fn cont_row(&self, prev: usize) -> usize {
        let row = if self.rows == self.keys {
            prev
        } else {
            ((prev as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize % self.rows
        };
        row * self.keys
    }

    /// The same gravity update as the main history, on a continuation entry.
    #[inline]
    fn bump_cont(&mut self, row: usize, cur: usize, bonus: i32) {
        let i = row + cur;
        let mut h = self.cont[i] as i32;
        Self::bump(&mut h, bonus);
        self.cont[i] = h as i16;
    }
}

/// One finished iteration, as reported.
#[derive(Clone, Default)]
pub struct Iteration {
    pub depth: i32,
    pub seldepth: usize,
    pub score: i32,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub elapsed_ms: f64,
}

/// What a search found.
#[derive(Default)]
pub struct Outcome {
    pub best: Move,
    pub score: i32,
    pub depth: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub elapsed_ms: f64,
    /// (move, score) of the root moves in the last finished iteration
    pub root_scores: Vec<(Move, i32)>,
}

/// Where the side to move's pieces would give check from: the enemy King's attack entries (rays
/// up to their first piece), and its pieces that may uncover a check by moving. Quiet moves that
/// may give check are not pruned.
#[derive(Clone, Default)]
struct CheckSquares {
    cells: CellSet,
    entries: Vec<(u16, Codes)>,
    uncover: CellSet,
    king: bool,
}

impl CheckSquares {
    fn build(&mut self, pos: &Pos) {
        let us = pos.side;
        let k = pos.kings[us ^ 1];
        self.cells = CellSet::new();
        self.entries.clear();
        self.king = k >= 0;
        if !self.king {
            return;
        }
        let k = k as usize;
        let att = &pos.t.attacks[us][k];
        let board = &pos.board;
        let mut add = |a: u16, codes: Codes| {
            self.cells.insert(a as usize);
            self.entries.push((a, codes));
        };
        for &(a, codes) in &att.leaps {
            add(a, codes);
        }
        for ray in &att.rays {
            for &(a, codes) in ray {
                add(a, codes);
                if board[a as usize] != 0 {
                    break;
                }
            }
        }
        for (a, codes, between) in &att.pats {
            if between.iter().all(|&b| board[b as usize] == 0) {
                add(*a, *codes);
            }
        }
        self.uncover = pos.blockers(k, us, us);
    }

    /// Might quiet move `m` give check? (Special moves: assumed to.)
    fn may_check(&self, board: &[u8], m: Move) -> bool {
        if !self.king {
            return false;
        }
        if m & SPECIAL != 0 || self.uncover.contains(from_of(m)) {
            return true;
        }
        let (to, code) = (to_of(m), board[from_of(m)]);
        self.cells.contains(to)
            && self
                .entries
                .iter()
                .any(|&(a, codes)| a as usize == to && has(codes, code))
    }
}

/// How much longer than SOFT_SHARE of the soft limit a search may start new iterations, for a
/// search whose best move changed `changes` times lately (each iteration halves the count, then
/// adds its own change) and whose score fell by `drop` centipawns in the last iteration: 1 when
/// the best move has held for four iterations or more, 1 + 0.8 x changes (at most 2.2) when it
/// changed lately, times up to 1.5 for a falling score (150 cp or more); at most 2.2. Never less
/// than 1: shortening stable searches to 0.8 measured no gain (docs/engine.md, Matches). The hard
/// limit still stops a search at once.
pub fn time_scale(changes: f64, drop: i32) -> f64 {
    let instability = if changes < 0.1 {
        1.0
    } else {
        1.0 + 0.8 * changes.min(1.5)
    };
    let falling = 1.0 + drop.clamp(0, 150) as f64 / 300.0;
    (instability * falling).min(2.2)
}

/// The share of the soft limit after which no new iteration starts (times `time_scale`): the
/// next one would most likely not finish in time.
const SOFT_SHARE: f64 = 0.55;

/// The recent stability of the best move and score between iterations (see `time_scale`).
#[derive(Default)]
struct Stability {
    changes: f64,
    best: Move,
    score: i32,
}

impl Stability {
    /// Notes a finished iteration; returns the scale of the soft limit.
    fn update(&mut self, best: Move, score: i32) -> f64 {
        let (changed, drop) = if self.best == 0 {
            (false, 0)
        } else {
            (best != self.best, self.score - score)
        };
        self.changes = self.changes / 2.0 + if changed { 1.0 } else { 0.0 };
        self.best = best;
        self.score = score;
        time_scale(self.changes, drop)
    }
}

/// The least depth at which the hash move is tested for a singular extension.
const SINGULAR_DEPTH: i32 = 7;

/// What the singular-extension test found for the hash move.
enum Singular {
    /// the only move that holds: one ply deeper
    Extend,
    /// other moves beat beta too: the node fails high with this score
    Cut(i32),
    No,
}

/// Late-move reductions by depth and move number.
fn reduction(depth: i32, number: usize) -> i32 {
    let d = depth.clamp(1, 63) as f64;
    let n = number.clamp(1, 255) as f64;
    (0.7 + d.ln() * n.ln() / 2.3) as i32
}

/// Quiet moves searched at shallow depth before the rest are pruned.
fn move_count_limit(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 + 1 }) as usize
}

pub struct Search<'a> {
    pub pos: Pos,
    ev: &'a EvalTables,
    tt: &'a mut Tt,
    h: &'a mut Heuristics,
    stop: &'a AtomicBool,
    limits: Limits,
    start: Instant,
    /// time spent before the search began (the caller's clock started earlier)
    offset_ms: f64,
    next_check: u64,
    stopped: bool,
    pub nodes: u64,
    seldepth: usize,
    noise: i32,
    seed: u64,
    s: Scratch,
    see_scratch: SeeScratch,
    lists: Vec<Vec<Move>>,
    /// a diagram position's legal moves, filtered to the captures in quiescence
    all: Vec<Move>,
    scores: Vec<Vec<i32>>,
    quiets: Vec<Vec<Move>>,
    acc: Vec<Acc>,
    evals: Vec<i32>,
    /// (piece code, destination) of the move that reached each ply; (0, 0) for a null move
    moved: Vec<(u8, u16)>,
    killers: Vec<[Move; 2]>,
    checks: Vec<CheckSquares>,
    pv: Vec<Vec<Move>>,
    /// hashes of the positions before the current one (the game's, then the search path's)
    hist: Vec<u64>,
    /// the move a singular-extension search at each ply leaves out (0: none)
    excluded: Vec<Move>,
    /// the iteration's depth (extensions stop beyond twice it)
    root_depth: i32,
}

impl<'a> Search<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        pos: Pos,
        ev: &'a EvalTables,
        tt: &'a mut Tt,
        h: &'a mut Heuristics,
        stop: &'a AtomicBool,
        limits: Limits,
        offset_ms: f64,
        noise: i32,
        seed: u64,
        history: &[u64],
    ) -> Search<'a> {
        let plies = MAX_PLY + 4;
        let mut hist: Vec<u64> = history.to_vec();
        hist.extend(pos.stack.iter().map(|u| u.hash));
        let root_acc = ev.acc(&pos);
        let mut acc = vec![Acc::default(); plies];
        acc[0] = root_acc;
        Search {
            pos,
            ev,
            tt,
            h,
            stop,
            limits,
            start: Instant::now(),
            offset_ms,
            next_check: 0,
            stopped: false,
            nodes: 0,
            seldepth: 0,
            noise,
            seed,
            s: Scratch::default(),
            see_scratch: SeeScratch::default(),
            lists: vec![Vec::new(); plies],
            all: Vec::new(),
            scores: vec![Vec::new(); plies],
            quiets: vec![Vec::new(); plies],
            acc,
            evals: vec![NO_EVAL; plies],
            moved: vec![(0, 0); plies],
            killers: vec![[0; 2]; plies],
            checks: vec![CheckSquares::default(); plies],
            pv: vec![Vec::new(); plies],
            hist,
            excluded: vec![0; plies],
            root_depth: 0,
        }
    }

    pub fn elapsed_ms(&self) -> f64 {
        self.offset_ms + self.start.elapsed().as_secs_f64() * 1000.0
    }

    // -- limits ------------------------------------------------------------------------------

    /// Counts a node; true when the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.poll();
        }
        self.stopped
    }

    fn poll(&mut self) {
        let l = &self.limits;
        if self.stop.load(Ordering::Relaxed)
            || (l.nodes > 0 && self.nodes >= l.nodes)
            || l.hard_ms.is_some_and(|h| self.elapsed_ms() >= h)
        {
            self.stopped = true;
        }
        let mut next = self.nodes + CHECK_EVERY;
        if l.nodes > 0 {
            next = next.min(l.nodes);
        }
        self.next_check = next;
    }

    // -- position ----------------------------------------------------------------------------

    fn make(&mut self, m: Move, ply: usize) {
        let code = self.pos.board[from_of(m)];
        self.hist.push(self.pos.hash);
        self.pos.make(m, &mut self.s.changes);
        let ev = self.ev;
        let mut a = self.acc[ply];
        let u = self.pos.stack[self.pos.stack.len() - 1];
        match u.cells_from {
            None => {
                let (fr, to) = (from_of(m), to_of(m));
                ev.sub(&mut a, code, fr);
                ev.add(&mut a, code, to);
                if u.cap != 0 {
                    ev.sub(&mut a, u.cap, to);
                }
            }
            Some(from) => {
                let cells = &self.pos.undo_cells[from as usize..];
                for (i, &(cell, old)) in cells.iter().enumerate() {
                    if cells[..i].iter().any(|e| e.0 == cell) {
                        continue; // a cell changed twice: its first old code is the one replaced
                    }
                    ev.sub(&mut a, old, cell as usize);
                    ev.add(&mut a, self.pos.board[cell as usize], cell as usize);
                }
            }
        }
        ev.settle(&mut a, &self.pos);
        self.acc[ply + 1] = a;
        self.moved[ply + 1] = (code, to_of(m) as u16);
    }

    fn unmake(&mut self) {
        self.pos.unmake();
        self.hist.pop();
    }

    fn make_null(&mut self, ply: usize) {
        self.hist.push(self.pos.hash);
        self.pos.make_null();
        self.acc[ply + 1] = self.acc[ply];
        self.moved[ply + 1] = (0, 0);
    }

    /// Repetition of an earlier position within the reversible moves, the move rule, or
    /// material with which neither side can mate.
    fn is_draw(&self) -> bool {
        let p = &self.pos;
        let hm = p.halfmove as usize;
        if hm as u32 >= self.ev.move_rule {
            return true;
        }
        if hm >= 4 {
            let len = self.hist.len();
            let stop = len.saturating_sub(hm);
            let mut i = len as i64 - 4;
            while i >= stop as i64 {
                if self.hist[i as usize] == p.hash {
                    return true;
                }
                i -= 2;
            }
        }
        p.pieces[0].len() + p.pieces[1].len() <= 4 && self.ev.insufficient(p)
    }

    /// Does `side` have a piece besides pawns and Kings?
    fn pieces_besides_pawns(&self, side: usize) -> usize {
        let t = &self.pos.t;
        self.pos.pieces[side]
            .iter()
            .filter(|&&c| {
                let p = self.pos.board[c as usize] as usize;
                !t.pawn[p] && !t.checkable[p]
            })
            .count()
    }

    fn evaluate(&self, ply: usize, alpha: i32, beta: i32) -> i32 {
        let e = self.ev.evaluate(&self.pos, &self.acc[ply], alpha, beta);
        if self.noise == 0 {
            return e;
        }
        let x = (self.pos.hash ^ self.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        e + (x % (2 * self.noise as u64 + 1)) as i32 - self.noise
    }

    /// The material a capture or promotion gains before any reply (None for a quiet move).
    fn gain(&mut self, m: Move) -> Option<i32> {
        let pos = &self.pos;
        let value = &self.ev.value;
        if m & SPECIAL == 0 {
            let v = pos.board[to_of(m)];
            return if v != 0 {
                Some(value[v as usize])
            } else {
                None
            };
        }
        if m & (EP | DESTROY | MULTI | PROMO_MASK << PROMO_SHIFT) == 0 || m & CASTLE != 0 {
            return None;
        }
        pos.changes(m, &mut self.s.changes);
        let us = pos.side;
        let mut gain = 0;
        let mut tactical = false;
        for &(cell, new) in &self.s.changes {
            let old = pos.board[cell as usize];
            if old != 0 && side_of(old) != us {
                gain += value[old as usize];
                tactical = true;
            } else if old != 0 {
                gain -= value[old as usize];
            }
            if new != 0 && side_of(new) == us {
                gain += value[new as usize];
            }
        }
        tactical |= promo_of(m) != 0;
        if tactical {
            Some(gain)
        } else {
            None
        }
    }

    // -- moves -------------------------------------------------------------------------------

    /// The legal captures and promotions of a side not in check (quiescence).
    fn captures(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.pos.diagram.is_some() {
            let mut all = std::mem::take(&mut self.all);
            self.pos.legal(&mut all, &mut self.s);
            for &m in &all {
                if self.gain(m).is_some() {
                    out.push(m);
                }
            }
            self.all = all;
            return;
        }
        let pos = &mut self.pos;
        let side = pos.side;
        let garrison = pos.garrison(side ^ 1);
        let s = &mut self.s;
        s.cells.clear();
        s.cells.extend_from_slice(&pos.pieces[side]);
        s.specials.clear();
        pos.generate(&s.cells, out, &mut s.specials, &garrison, &mut s.post, true);
        let k = pos.kings[side];
        let pinned = if k >= 0 {
            pos.blockers(k as usize, side ^ 1, side)
        } else {
            CellSet::new()
        };
        let mut kept = 0;
        for i in 0..out.len() {
            let m = out[i];
            let fr = from_of(m);
            if (fr as i32 == k || pinned.contains(fr)) && !pos.is_safe(m, &mut s.changes) {
                continue;
            }
            out[kept] = m;
            kept += 1;
        }
        out.truncate(kept);
        dedupe(&mut s.specials);
        for i in 0..s.specials.len() {
            let m = s.specials[i];
            if pos.is_safe(m, &mut s.changes) {
                out.push(m);
            }
        }
    }

    /// Orders `moves` by `scores` lazily: swaps the best remaining one to `i`.
    #[inline]
    fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) {
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
    }

    /// Ordering scores of `moves`; with `lazy`, plain quiet moves get SCORE_QUIET_LATER (see
    /// `score_quiets`).
    fn score_moves(
        &mut self,
        moves: &[Move],
        scores: &mut Vec<i32>,
        ply: usize,
        tt_move: Move,
        lazy: bool,
    ) {
        scores.clear();
        let killers = self.killers[ply];
        let (pc, pto) = self.moved[ply];
        let counter = if pc != 0 {
            self.h.counter[pc as usize * self.h.n + pto as usize]
        } else {
            0
        };
        let prev = if lazy { [None; 2] } else { self.prev_rows(ply) };
        for &m in moves {
            let s = if m == tt_move {
                SCORE_HASH
            } else if let Some(g) = self.gain(m) {
                let mover = self.ev.order_value[self.pos.board[from_of(m)] as usize];
                let cheap =
                    m & SPECIAL == 0 && g >= self.ev.value[self.pos.board[from_of(m)] as usize];
                if cheap || see(&self.pos, self.ev, m, &mut self.see_scratch) >= 0 {
                    SCORE_GOOD_CAPTURE + g * 16 - mover / 16
                } else {
                    SCORE_BAD_CAPTURE + g * 16 - mover / 16
                }
            } else if m == killers[0] {
                SCORE_KILLER + 2
            } else if m == killers[1] {
                SCORE_KILLER + 1
            } else if m == counter {
                SCORE_KILLER
            } else if lazy {
                SCORE_QUIET_LATER
            } else {
                self.quiet_score(m, &prev)
            };
            scores.push(s);
        }
    }

    /// Scores the quiet moves left at SCORE_QUIET_LATER by their histories.
    fn score_quiets(&self, moves: &[Move], scores: &mut [i32], ply: usize) {
        let prev = self.prev_rows(ply);
        for (m, s) in moves.iter().zip(scores.iter_mut()) {
            if *s == SCORE_QUIET_LATER {
                *s = self.quiet_score(*m, &prev);
            }
        }
    }

    /// The continuation rows of the moves one and two plies before `ply` (None: none, or a null
    /// move).
    fn prev_rows(&self, ply: usize) -> [Option<usize>; 2] {
        let key = |p: usize| {
            let (code, to) = self.moved[p];
            (code != 0).then(|| self.h.cont_row(self.h.key(code, to as usize)))
        };
        [
            if ply >= 1 { key(ply) } else { None },
            if ply >= 2 { key(ply - 1) } else { None },
        ]
    }

    /// A quiet move's history: its own (piece, destination) plus its continuation after the
    /// moves one and two plies before; within ±QUIET_MAX.
    fn quiet_score(&self, m: Move, prev: &[Option<usize>; 2]) -> i32 {
        let code = self.pos.board[from_of(m)];
        let to = to_of(m);
        let h = &*self.h;
        let cur = h.key(code, to);
        let mut s = h.history[code as usize * h.n + to];
        for p in prev.iter().flatten() {
            s += h.cont[*p + cur] as i32;
        }
        s
    }

    /// A quiet move `m` refuted the node: its histories gain, the quiet moves tried before it lose
    /// as much (gravity: an entry moves less the nearer it is to its bound).
    fn update_quiet(&mut self, m: Move, ply: usize, depth: i32) {
        let bonus = (depth * depth * 32).min(4000);
        let n = self.h.n;
        let prev = self.prev_rows(ply);
        let quiets = std::mem::take(&mut self.quiets[ply]);
        for &q in &quiets {
            self.bump_quiet(q, &prev, -bonus);
        }
        self.quiets[ply] = quiets;
        self.bump_quiet(m, &prev, bonus);
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let (pc, pto) = self.moved[ply];
        if pc != 0 {
            self.h.counter[pc as usize * n + pto as usize] = m;
        }
    }

    /// Adds `bonus` to a quiet move's main and continuation histories.
    fn bump_quiet(&mut self, m: Move, prev: &[Option<usize>; 2], bonus: i32) {
        let code = self.pos.board[from_of(m)];
        let to = to_of(m);
        let n = self.h.n;
        Heuristics::bump(&mut self.h.history[code as usize * n + to], bonus);
        let cur = self.h.key(code, to);
        for p in prev.iter().flatten() {
            self.h.bump_cont(*p, cur, bonus);
        }
    }

    // -- the search --------------------------------------------------------------------------

    fn to_tt(s: i32, ply: usize) -> i32 {
        if s > MATE_BOUND {
            s + ply as i32
        } else if s < -MATE_BOUND {
            s - ply as i32
        } else {
            s
        }
    }

    /// What a node's result `best` is, searched with the window (`orig_alpha`, `beta`) and
    /// raised to `alpha`: a lower bound, exact, or an upper bound.
    fn bound(best: i32, orig_alpha: i32, alpha: i32, beta: i32) -> u8 {
        if best >= beta {
            BOUND_LOWER
        } else if alpha > orig_alpha {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        }
    }

    fn from_tt(s: i32, ply: usize) -> i32 {
        if s > MATE_BOUND {
            s - ply as i32
        } else if s < -MATE_BOUND {
            s + ply as i32
        } else {
            s
        }
    }

    /// Singular extension of the hash move: when its stored score is a lower bound from nearly
    /// this depth, a reduced search of the other moves against a margin below that score decides
    /// whether the hash move is the only good one (extend it one ply) or several moves beat beta
    /// (multi-cut: the node fails high at once).
    fn singular(
        &mut self,
        entry: Option<Entry>,
        tt_move: Move,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Singular {
        let Some(e) = entry else {
            return Singular::No;
        };
        if depth < SINGULAR_DEPTH
            || tt_move == 0
            || self.excluded[ply] != 0
            || e.depth < depth - 3
            || e.bound() & BOUND_LOWER == 0
            || ply as i32 >= 2 * self.root_depth
        {
            return Singular::No;
        }
        let tt_score = Self::from_tt(e.score, ply);
        if tt_score.abs() >= MATE_BOUND {
            return Singular::No;
        }
        let s_beta = tt_score - 2 * depth;
        self.excluded[ply] = tt_move;
        let v = self.negamax((depth - 1) / 2, s_beta - 1, s_beta, ply, false);
        self.excluded[ply] = 0;
        if self.stopped {
            Singular::No
        } else if v < s_beta {
            Singular::Extend
        } else if s_beta >= beta {
            Singular::Cut(s_beta)
        } else {
            Singular::No
        }
    }

    fn negamax(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        if self.is_draw() {
            return 0;
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if self.pos.king_lost() {
            return -MATE + ply as i32;
        }
        let in_check = self.pos.in_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.qsearch(alpha, beta, ply);
        }
        let hash = self.pos.hash;
        let entry = self.tt.probe(hash);
        let mut tt_move = 0;
        let excluded = self.excluded[ply];
        if let Some(e) = entry {
            tt_move = e.mv;
            if !pv_node && e.depth >= depth && excluded == 0 {
                let s = Self::from_tt(e.score, ply);
                let b = e.bound();
                if b == BOUND_EXACT
                    || (b == BOUND_LOWER && s >= beta)
                    || (b == BOUND_UPPER && s <= alpha)
                {
                    return s;
                }
            }
        }
        let static_eval = if in_check {
            NO_EVAL
        } else if let Some(e) = entry.filter(|e| e.eval != NO_EVAL) {
            e.eval
        } else {
            self.evaluate(ply, -INF, INF)
        };
        self.evals[ply] = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.evals[ply - 2] != NO_EVAL
            && static_eval > self.evals[ply - 2];
        self.killers[ply + 2] = [0; 2];

        if !pv_node && !in_check && beta.abs() < MATE_BOUND && excluded == 0 {
            // razoring: hopeless at low depth unless a capture saves it
            if depth <= 3 && static_eval + 250 * depth <= alpha {
                let v = self.qsearch(alpha, alpha + 1, ply);
                if v <= alpha {
                    return v;
                }
            }
            // reverse futility: far above beta at low depth
            let margin = 90 * depth - if improving { 60 } else { 0 };
            if depth <= 7 && static_eval - margin >= beta {
                return static_eval;
            }
            // null move
            let pieces = self.pieces_besides_pawns(self.pos.side);
            if allow_null && depth >= 3 && static_eval >= beta && pieces > 0 {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                self.make_null(ply);
                let v = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.unmake();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    if depth < 10 && pieces > 2 {
                        return v;
                    }
                    // zugzwang is likely with few pieces, and deep cut-offs are worth checking:
                    // the same search without the null move
                    let w = self.negamax(depth - 1 - r, beta - 1, beta, ply, false);
                    if self.stopped {
                        return 0;
                    }
                    if w >= beta {
                        return v;
                    }
                }
            }
        }
        // internal iterative reduction: no hash move to start with
        if depth >= 5 && tt_move == 0 {
            depth -= 1;
        }
        let tt_extension = match self.singular(entry, tt_move, depth, beta, ply) {
            Singular::Extend => 1,
            Singular::Cut(v) => return v,
            Singular::No => 0,
        };
        if self.stopped {
            return 0;
        }

        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.pos.legal(&mut moves, &mut self.s);
        if moves.is_empty() {
            self.lists[ply] = moves;
            self.scores[ply] = scores;
            return if in_check || self.pos.king_lost() {
                -MATE + ply as i32
            } else {
                0
            };
        }
        self.score_moves(&moves, &mut scores, ply, tt_move, true);
        self.quiets[ply].clear();
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = 0;
        let mut searched = 0usize;
        let mut quiets_seen = 0usize;
        let killers = self.killers[ply];
        let can_prune = !in_check && !pv_node && self.pieces_besides_pawns(self.pos.side) > 0;
        let mut checks = std::mem::take(&mut self.checks[ply]);
        if can_prune && depth <= 8 {
            checks.build(&self.pos);
        } else {
            checks.king = false;
        }
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, i);
            if scores[i] == SCORE_QUIET_LATER {
                self.score_quiets(&moves[i..], &mut scores[i..], ply);
                Self::pick(&mut moves, &mut scores, i);
            }
            let m = moves[i];
            if m == excluded {
                continue;
            }
            let order = scores[i];
            let quiet = self.gain(m).is_none();
            let losing = !quiet && order < 0;
            if quiet {
                quiets_seen += 1;
            }
            if can_prune && best > -MATE_BOUND {
                if quiet && !checks.may_check(&self.pos.board, m) {
                    if depth <= 8 && quiets_seen > move_count_limit(depth, improving) {
                        continue;
                    }
                    if depth <= 6 && static_eval + 100 + 100 * depth <= alpha {
                        continue;
                    }
                    if depth <= 4
                        && see(&self.pos, self.ev, m, &mut self.see_scratch) < -40 * depth * depth
                    {
                        continue;
                    }
                } else if losing
                    && depth <= 6
                    && see(&self.pos, self.ev, m, &mut self.see_scratch) < -120 * depth
                {
                    continue;
                }
            }
            self.make(m, ply);
            searched += 1;
            let gives_check = self.pos.in_check();
            let new_depth = depth - 1 + if m == tt_move { tt_extension } else { 0 };
            let mut v;
            if searched == 1 {
                v = -self.negamax(new_depth, -beta, -alpha, ply + 1, true);
            } else {
                let mut r = 0;
                if depth >= 3 && (quiet || losing) {
                    r = reduction(depth, searched);
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if m == killers[0] || m == killers[1] {
                        r -= 1;
                    }
                    if gives_check || in_check {
                        r -= 1;
                    }
                    if quiet && order.abs() <= QUIET_MAX {
                        r -= order / 12_000; // less for a good history, more for a bad one
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.negamax(new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if v > alpha && r > 0 {
                    v = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if v > alpha && v < beta {
                    v = -self.negamax(new_depth, -beta, -alpha, ply + 1, true);
                }
            }
            self.unmake();
            if self.stopped {
                self.lists[ply] = moves;
                self.scores[ply] = scores;
                self.checks[ply] = checks;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    alpha = v;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(m);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if v >= beta {
                        if quiet {
                            self.update_quiet(m, ply, depth);
                        }
                        break;
                    }
                }
            }
            if quiet {
                self.quiets[ply].push(m);
            }
        }
        self.lists[ply] = moves;
        self.scores[ply] = scores;
        self.checks[ply] = checks;
        if excluded != 0 {
            // the position without its best move: nothing to store (alpha when no other move)
            return if best == -INF { alpha } else { best };
        }
        let bound = Self::bound(best, orig_alpha, alpha, beta);
        let stored = if best_move != 0 { best_move } else { tt_move };
        self.tt.store(
            hash,
            depth,
            bound,
            Self::to_tt(best, ply),
            static_eval,
            stored,
        );
        best
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.pos.king_lost() {
            return -MATE + ply as i32;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(ply, alpha, beta);
        }
        let hash = self.pos.hash;
        let entry = self.tt.probe(hash);
        let pv_node = beta - alpha > 1;
        if let Some(e) = entry {
            let s = Self::from_tt(e.score, ply);
            let b = e.bound();
            if !pv_node
                && (b == BOUND_EXACT
                    || (b == BOUND_LOWER && s >= beta)
                    || (b == BOUND_UPPER && s <= alpha))
            {
                return s;
            }
        }
        let in_check = self.pos.in_check();
        let mut moves = std::mem::take(&mut self.lists[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        let orig_alpha = alpha;
        let mut best_move = 0;
        let mut best;
        let stand;
        if in_check {
            self.pos.legal(&mut moves, &mut self.s);
            if moves.is_empty() {
                self.lists[ply] = moves;
                self.scores[ply] = scores;
                return -MATE + ply as i32;
            }
            best = -INF;
            stand = NO_EVAL;
        } else {
            stand = match entry {
                Some(e) if e.eval != NO_EVAL => e.eval,
                _ => self.evaluate(ply, alpha, beta),
            };
            if stand >= beta {
                self.lists[ply] = moves;
                self.scores[ply] = scores;
                if entry.is_none() {
                    self.tt.store(hash, 0, BOUND_LOWER, Self::to_tt(stand, ply), NO_EVAL, 0);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            self.captures(&mut moves);
        }
        self.score_moves(&moves, &mut scores, ply, entry.map_or(0, |e| e.mv), false);
        let best_promo = self.pos.t.promotions[self.pos.side]
            .iter()
            .map(|&p| self.ev.value[p as usize])
            .max()
            .unwrap_or(0);
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, i);
            let m = moves[i];
            if !in_check {
                let promo = promo_of(m);
                if promo != 0 && m & CASTLE == 0 && self.ev.value[promo as usize] < best_promo {
                    continue; // under-promotion
                }
                let gain = self.gain(m).unwrap_or(0);
                if stand + gain + 200 <= alpha && promo == 0 {
                    continue; // even the whole gain leaves it below alpha
                }
                if scores[i] < SCORE_GOOD_CAPTURE / 2 {
                    continue; // loses material in the exchange
                }
            }
            self.make(m, ply);
            let v = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = m;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.scores[ply] = scores;
        if !self.stopped && entry.is_none_or(|e| e.depth <= 0) {
            // depth 0: only the quiescence search takes these results as they are; a main
            // search's entry for the position is kept
            let bound = Self::bound(best, orig_alpha, alpha, beta);
            self.tt.store(hash, 0, bound, Self::to_tt(best, ply), NO_EVAL, best_move);
        }
        best
    }

    // -- root --------------------------------------------------------------------------------

    /// Searches the root moves in `order` (reordered by score); records their scores. Moves
    /// the position does not allow (a Private game's believed model) score as being mated.
    #[allow(clippy::too_many_arguments)]
    fn root(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        order: &[(Move, bool)],
        margin: i32,
        scores: &mut Vec<(Move, i32)>,
        best_move: &mut Move,
        best_pv: &mut Vec<Move>,
    ) -> i32 {
        let mut best = -INF;
        let mut searched = 0;
        scores.clear();
        self.tick();
        for &(m, legal) in order {
            if !legal {
                let s = -MATE + 1;
                scores.push((m, s));
                if s > best {
                    best = s;
                    *best_move = m;
                    best_pv.clear();
                    best_pv.push(m);
                }
                continue;
            }
            self.make(m, 0);
            searched += 1;
            let mut v;
            if searched == 1 {
                v = -self.negamax(depth - 1, -beta, -alpha, 1, true);
            } else if margin > 0 {
                let lo = alpha.max(best - margin - 1);
                v = -self.negamax(depth - 1, -beta, -lo, 1, true);
            } else {
                v = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, true);
                if v > alpha && v < beta {
                    v = -self.negamax(depth - 1, -beta, -alpha, 1, true);
                }
            }
            self.unmake();
            if self.stopped {
                break;
            }
            scores.push((m, v));
            if v > best {
                best = v;
                *best_move = m;
                best_pv.clear();
                best_pv.push(m);
                best_pv.extend_from_slice(&self.pv[1]);
                if v > alpha && margin == 0 {
                    alpha = v;
                }
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Iterative deepening over `root_moves` (all legal moves when empty); `margin` > 0 scores
    /// every root move within `margin` of the best exactly (the weaker levels choose among
    /// them). `info` is told of each finished iteration.
    pub fn run(
        &mut self,
        root_moves: &[Move],
        margin: i32,
        info: &mut dyn FnMut(&Iteration, u32),
    ) -> Outcome {
        self.tt.new_search();
        self.h.age();
        let mut legal = Vec::new();
        self.pos.legal(&mut legal, &mut self.s);
        let mut order: Vec<(Move, bool)> = if root_moves.is_empty() {
            legal.iter().map(|&m| (m, true)).collect()
        } else {
            let mut seen = Vec::new();
            for &m in root_moves {
                if !seen.contains(&m) {
                    seen.push(m);
                }
            }
            seen.into_iter().map(|m| (m, legal.contains(&m))).collect()
        };
        let mut out = Outcome::default();
        if order.is_empty() {
            return out;
        }
        // first ordering: captures by what they take, the believed-illegal moves last
        let mut keyed: Vec<(i32, (Move, bool))> = order
            .iter()
            .map(|&(m, ok)| (if ok { self.gain(m).unwrap_or(-1) } else { -INF }, (m, ok)))
            .collect();
        keyed.sort_by_key(|e| -e.0);
        order = keyed.into_iter().map(|e| e.1).collect();
        out.best = order[0].0;
        self.poll();
        if self.stopped {
            return out;
        }
        let mut prev: i32 = 0;
        let mut stability = Stability::default();
        let mut scores = Vec::new();
        let max_depth = self.limits.depth.clamp(1, MAX_PLY as i32 - 1);
        for depth in 1..=max_depth {
            self.seldepth = 0;
            self.root_depth = depth;
            let mut iter_best = 0;
            let mut iter_pv = Vec::new();
            let score;
            if depth >= 4 && margin == 0 && prev.abs() < MATE_BOUND {
                let mut window = 30;
                loop {
                    let (a, b) = ((prev - window).max(-INF), (prev + window).min(INF));
                    let s = self.root(
                        depth,
                        a,
                        b,
                        &order,
                        0,
                        &mut scores,
                        &mut iter_best,
                        &mut iter_pv,
                    );
                    if self.stopped || (a < s && s < b) {
                        score = s;
                        break;
                    }
                    // a bound from a failed window is no move to fall back on
                    iter_best = 0;
                    iter_pv.clear();
                    window *= 3;
                    if window > 1200 {
                        score = self.root(
                            depth,
                            -INF,
                            INF,
                            &order,
                            0,
                            &mut scores,
                            &mut iter_best,
                            &mut iter_pv,
                        );
                        break;
                    }
                }
            } else {
                score = self.root(
                    depth,
                    -INF,
                    INF,
                    &order,
                    margin,
                    &mut scores,
                    &mut iter_best,
                    &mut iter_pv,
                );
            }
            if self.stopped {
                // the first root move searched is the previous best: a move that beat it counts
                if iter_best != 0 && (out.depth == 0 || iter_best != order[0].0) {
                    out.best = iter_best;
                    out.pv = iter_pv;
                }
                break;
            }
            prev = score;
            out.best = iter_best;
            out.score = score;
            out.depth = depth;
            out.seldepth = self.seldepth;
            out.pv = iter_pv;
            out.nodes = self.nodes;
            out.elapsed_ms = self.elapsed_ms();
            out.root_scores = scores.clone();
            info(
                &Iteration {
                    depth,
                    seldepth: self.seldepth,
                    score,
                    pv: out.pv.clone(),
                    nodes: self.nodes,
                    elapsed_ms: out.elapsed_ms,
                },
                self.tt.hashfull(),
            );
            // the next iteration starts with this one's best, then by score
            let rank = |m: Move| scores.iter().find(|e| e.0 == m).map_or(-INF - 1, |e| e.1);
            order.sort_by_key(|&(m, _)| if m == out.best { -INF - 2 } else { -rank(m) });
            let l = &self.limits;
            if order.len() == 1 && !l.infinite && l.soft_ms.is_some() {
                break;
            }
            if score.abs() > MATE_BOUND && MATE - score.abs() <= depth && !l.infinite {
                break;
            }
            let scale = stability.update(out.best, score);
            if l.soft_ms.is_some_and(|s| out.elapsed_ms >= s * SOFT_SHARE * scale) {
                break;
            }
        }
        out.nodes = self.nodes;
        out.elapsed_ms = self.elapsed_ms();
        out
    }

    /// For tools, tuning and tests: plays `moves` through the search's own make (each must be
    /// legal, else Err with the first that is not), then returns the static evaluation from the
    /// incrementally kept sums, the same from sums made afresh, and the quiescence score, all
    /// from the side to move's point of view.
    pub fn probe(&mut self, moves: &[Move]) -> Result<(i32, i32, i32), Move> {
        let mut legal = Vec::new();
        for (ply, &m) in moves.iter().enumerate() {
            self.pos.legal(&mut legal, &mut self.s);
            if ply + 1 >= MAX_PLY || !legal.contains(&m) {
                return Err(m);
            }
            self.make(m, ply);
        }
        let ply = moves.len();
        let kept = self.ev.evaluate(&self.pos, &self.acc[ply], -INF, INF);
        let fresh = self
            .ev
            .evaluate(&self.pos, &self.ev.acc(&self.pos), -INF, INF);
        Ok((kept, fresh, self.qsearch(-INF, INF, ply)))
    }
}
