//! Move generation and legality (position.py's `_generate`, `_post`, `_castling_moves`, `legal`),
//! and perft.

use std::sync::Arc;

use crate::cellset::CellSet;
use crate::encoding::*;
use crate::position::{attacked, Pos};
use crate::tables::{has, Attack, Group, Mode, POST_DEDUPE, POST_PROMO};

/// Keeps the first occurrence of each move, in order.
pub fn dedupe(moves: &mut Vec<Move>) {
    let mut kept = 0;
    for i in 0..moves.len() {
        let m = moves[i];
        if !moves[..kept].contains(&m) {
            moves[kept] = m;
            kept += 1;
        }
    }
    moves.truncate(kept);
}

/// The attackers of a cell with the cells between each and the cell (block squares): only the
/// count and the first are needed.
fn first_attacker(board: &[u8], att: &Attack, between: &mut Vec<u16>) -> (usize, u16) {
    let mut count = 0;
    let mut first = 0;
    for &(a, codes) in &att.leaps {
        if has(codes, board[a as usize]) {
            if count == 0 {
                first = a;
                between.clear();
            }
            count += 1;
        }
    }
    for ray in &att.rays {
        for (i, &(a, codes)) in ray.iter().enumerate() {
            let p = board[a as usize];
            if p != 0 {
                if has(codes, p) {
                    if count == 0 {
                        first = a;
                        between.clear();
                        between.extend(ray[..i].iter().map(|e| e.0));
                    }
                    count += 1;
                }
                break;
            }
        }
    }
    for (a, codes, path) in &att.pats {
        if has(*codes, board[*a as usize]) && path.iter().all(|&b| board[b as usize] == 0) {
            if count == 0 {
                first = *a;
                between.clear();
                between.extend_from_slice(path);
            }
            count += 1;
        }
    }
    (count, first)
}

/// Scratch buffers reused across calls.
#[derive(Default)]
pub struct Scratch {
    pub specials: Vec<Move>,
    pub kmoves: Vec<Move>,
    pub risky: Vec<Move>,
    pub post: Vec<Move>,
    pub cells: Vec<u16>,
    pub between: Vec<u16>,
    pub changes: Vec<(u16, u8)>,
}

impl Pos {
    /// Pseudo-legal moves of the pieces on `cells` into `out`; moves that need a full legality
    /// test (en passant, mutual destruction) into `specials`. With `captures_only` (the search's
    /// quiescence), only captures and a pawn's moves to its last rank (promotions).
    pub fn generate(
        &self,
        cells: &[u16],
        out: &mut Vec<Move>,
        specials: &mut Vec<Move>,
        garrison: &CellSet,
        post_buf: &mut Vec<Move>,
        captures_only: bool,
    ) {
        let t = &*self.t;
        let board = &self.board[..];
        let enemy = t.enemy(self.side);
        let no_cells = CellSet::new();
        let ep = self.ep;
        let last_rank = if self.side == 0 { t.n / t.files - 1 } else { 0 };
        for &sq in cells {
            let code = board[sq as usize];
            let Some(g) = &t.gen[code as usize * t.n + sq as usize] else {
                continue;
            };
            let pawn = t.pawn[code as usize];
            // a move to an empty cell is wanted unless only captures and promotions are asked for
            let quiet_ok = |to: u16| !captures_only || (pawn && to as usize / t.files == last_rank);
            let destroy = if t.royal[code as usize] {
                &no_cells
            } else {
                garrison
            };
            let start = out.len();
            let capture = |m: Move, to: u16, out: &mut Vec<Move>, specials: &mut Vec<Move>| {
                if destroy.contains(to as usize) {
                    specials.push(m | DESTROY);
                } else {
                    out.push(m);
                }
            };
            for group in &g.groups {
                match group {
                    Group::Leap(mode, steps) => {
                        for s in steps {
                            let p = board[s.t as usize];
                            if p == 0 {
                                if *mode != Mode::Capture && quiet_ok(s.t) {
                                    out.push(s.m);
                                }
                            } else if *mode != Mode::Move && enemy[p as usize] {
                                capture(s.m, s.t, out, specials);
                            }
                        }
                    }
                    Group::Ray(mode, rays) => {
                        for ray in rays {
                            for s in ray {
                                let p = board[s.t as usize];
                                if p == 0 {
                                    if *mode != Mode::Capture && quiet_ok(s.t) {
                                        out.push(s.m);
                                    }
                                    continue;
                                }
                                if *mode != Mode::Move && enemy[p as usize] {
                                    capture(s.m, s.t, out, specials);
                                }
                                break;
                            }
                        }
                    }
                    Group::Pat(mode, steps) => {
                        for s in steps {
                            let p = board[s.t as usize];
                            if p != 0 && (*mode == Mode::Move || !enemy[p as usize]) {
                                continue;
                            }
                            if p == 0 && (*mode == Mode::Capture || !quiet_ok(s.t)) {
                                continue;
                            }
                            if s.between.iter().all(|&b| board[b as usize] == 0) {
                                if p != 0 {
                                    capture(s.m, s.t, out, specials);
                                } else {
                                    out.push(s.m);
                                }
                            }
                        }
                    }
                    Group::Ep(steps) => {
                        if ep >= 0 {
                            for s in steps {
                                if s.t as i32 == ep {
                                    specials.push(if destroy.contains(s.captured as usize) {
                                        s.m | DESTROY
                                    } else {
                                        s.m
                                    });
                                }
                            }
                        }
                    }
                }
            }
            if g.post != 0 {
                self.post(out, start, g.post, post_buf);
            }
        }
    }

    /// Promotion expansion and de-duplication for one piece's freshly generated moves.
    fn post(&self, out: &mut Vec<Move>, start: usize, post: u8, moves: &mut Vec<Move>) {
        moves.clear();
        moves.extend_from_slice(&out[start..]);
        out.truncate(start);
        if post & POST_DEDUPE != 0 {
            dedupe(moves);
        }
        if post & POST_PROMO == 0 {
            out.extend_from_slice(moves);
            return;
        }
        let t = &*self.t;
        let ranks = t.n / t.files;
        let last = if self.side == 0 { ranks - 1 } else { 0 };
        let promos = &t.promotions[self.side];
        let row = t.types + 1;
        for &m in moves.iter() {
            if to_of(m) / t.files == last {
                for &p in promos {
                    if !t.holdings || self.hold[self.side * row + p as usize] > 0 {
                        out.push(m | (p as Move) << PROMO_SHIFT);
                    }
                }
            } else {
                out.push(m);
            }
        }
    }

    fn castling_moves(&mut self, out: &mut Vec<Move>, buf: &mut Vec<(u16, u8)>) {
        let t = Arc::clone(&self.t);
        let enemy_att = &t.attacks[self.side ^ 1];
        for c in &t.castles[self.side] {
            if self.castling & c.bit == 0 || c.empty.iter().any(|&x| self.board[x as usize] != 0) {
                continue;
            }
            let passing = &c.passing[..c.passing.len().saturating_sub(1)];
            if passing
                .iter()
                .any(|&x| attacked(&self.board, &enemy_att[x as usize]))
            {
                continue;
            }
            if self.is_safe(c.m, buf) {
                let plain = c.kf as Move | (c.kt as Move) << TO_SHIFT; // a reprogrammed King may reach kt itself
                if let Some(i) = out.iter().position(|&m| m == plain) {
                    out.remove(i);
                }
                out.push(c.m);
            }
        }
    }

    /// The legal moves of the side to move (the core variants; diagram variants: `diagram.rs`).
    pub fn legal_core(&mut self, moves: &mut Vec<Move>, s: &mut Scratch) {
        moves.clear();
        s.specials.clear();
        let t = Arc::clone(&self.t);
        let side = self.side;
        let garrison = self.garrison(side ^ 1);
        let k = self.kings[side];
        s.cells.clear();
        s.cells.extend_from_slice(&self.pieces[side]);
        if k < 0 {
            self.generate(
                &s.cells,
                moves,
                &mut s.specials,
                &garrison,
                &mut s.post,
                false,
            );
            dedupe(&mut s.specials);
            moves.extend_from_slice(&s.specials);
            return;
        }
        let k = k as usize;
        let enemy_att = &t.attacks[side ^ 1];
        let (checkers, checker) = first_attacker(&self.board, &enemy_att[k], &mut s.between);
        s.kmoves.clear();
        self.generate(
            &[k as u16],
            &mut s.kmoves,
            &mut s.specials,
            &garrison,
            &mut s.post,
            false,
        );
        self.board[k] = 0; // the King must not shelter its own destination square
        for &m in &s.kmoves {
            if !attacked(&self.board, &enemy_att[to_of(m)]) {
                moves.push(m);
            }
        }
        self.board[k] = t.king_code[side];
        let pinned = self.blockers(k, side ^ 1, side);
        let mut pinned_cells: Vec<u16> = Vec::new();
        s.cells.retain(|&c| {
            if c as usize == k {
                return false;
            }
            if pinned.contains(c as usize) {
                pinned_cells.push(c);
                return false;
            }
            true
        });
        s.risky.clear();
        if checkers == 0 {
            self.generate(
                &s.cells,
                moves,
                &mut s.specials,
                &garrison,
                &mut s.post,
                false,
            );
            self.castling_moves(moves, &mut s.changes);
        } else if checkers == 1 {
            let mut targets = CellSet::new();
            targets.insert(checker as usize);
            for &b in &s.between {
                targets.insert(b as usize);
            }
            let start = moves.len();
            self.generate(
                &s.cells,
                moves,
                &mut s.specials,
                &garrison,
                &mut s.post,
                false,
            );
            let mut kept = start;
            for i in start..moves.len() {
                let m = moves[i];
                if targets.contains(to_of(m)) {
                    moves[kept] = m;
                    kept += 1;
                }
            }
            moves.truncate(kept);
        } else {
            self.generate(
                &s.cells,
                &mut s.risky,
                &mut s.specials,
                &garrison,
                &mut s.post,
                false,
            );
        }
        if !pinned_cells.is_empty() {
            self.generate(
                &pinned_cells,
                &mut s.risky,
                &mut s.specials,
                &garrison,
                &mut s.post,
                false,
            );
        }
        for i in 0..s.risky.len() {
            let m = s.risky[i];
            if self.is_safe(m, &mut s.changes) {
                moves.push(m);
            }
        }
        dedupe(&mut s.specials);
        for i in 0..s.specials.len() {
            let m = s.specials[i];
            if self.is_safe(m, &mut s.changes) {
                if m & EP != 0 {
                    // en passant takes the text of a plain diagonal move to that square
                    let twin = m & ROUTE;
                    if let Some(j) = moves.iter().position(|&x| x == twin) {
                        moves.remove(j);
                    }
                }
                moves.push(m);
            }
        }
    }

    /// Pieces of `blocker` that alone stand between cell `k` and a line attack (ray or lame
    /// path) of `attacker`'s pieces: pinned pieces when `k` is the blocker's King, pieces whose
    /// move may uncover a check when it is the attacker's enemy's.
    pub fn blockers(&self, k: usize, attacker: usize, blocker: usize) -> CellSet {
        let board = &self.board;
        let own = &self.t.own[blocker];
        let att = &self.t.attacks[attacker][k];
        let mut pinned = CellSet::new();
        for ray in &att.rays {
            let mut first: i32 = -1;
            for &(a, codes) in ray {
                let p = board[a as usize];
                if p != 0 {
                    if first < 0 && own[p as usize] {
                        first = a as i32;
                        continue;
                    }
                    if first >= 0 && has(codes, p) {
                        pinned.insert(first as usize);
                    }
                    break;
                }
            }
        }
        for (a, codes, between) in &att.pats {
            if has(*codes, board[*a as usize]) {
                let mut blockers = between.iter().filter(|&&b| board[b as usize] != 0);
                if let (Some(&b), None) = (blockers.next(), blockers.next()) {
                    if own[board[b as usize] as usize] {
                        pinned.insert(b as usize);
                    }
                }
            }
        }
        pinned
    }

    pub fn legal(&mut self, moves: &mut Vec<Move>, s: &mut Scratch) {
        if self.diagram.is_some() {
            self.diagram_legal(moves, s);
        } else {
            self.legal_core(moves, s);
        }
    }

    /// Leaf count at `depth` plies; the last ply is counted from the legal list (bulk counting).
    pub fn perft(&mut self, depth: u32, lists: &mut Vec<Vec<Move>>, s: &mut Scratch) -> u64 {
        if depth == 0 {
            return 1;
        }
        let level = depth as usize;
        if lists.len() <= level {
            lists.resize_with(level + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut lists[level]);
        self.legal(&mut moves, s);
        let total = if depth == 1 {
            moves.len() as u64
        } else {
            let mut total = 0;
            for &m in &moves {
                self.make(m, &mut s.changes);
                total += self.perft(depth - 1, lists, s);
                self.unmake();
            }
            total
        };
        lists[level] = moves;
        total
    }
}
