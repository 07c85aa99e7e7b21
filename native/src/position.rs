//! The one-lattice position (position.py's `Position`): cells, piece lists, side, rights, clocks,
//! holdings and the incremental hash; make/unmake as cell changes. Generation and legality are in
//! `movegen.rs`, the diagram variants' additions in `diagram.rs`.

use std::sync::Arc;

use crate::cellset::CellSet;
use crate::diagram::DiagramState;
use crate::encoding::*;
use crate::tables::{has, Attack, Group, Tables};

/// What `unmake` needs to take a move back.
#[derive(Clone, Copy)]
pub struct Undo {
    pub m: Move,
    pub cap: u8,
    /// cell changes (cell, old code) in `Pos::undo_cells` from this index; None: the plain move
    pub cells_from: Option<u32>,
    pub castling: u64,
    pub ep: i32,
    pub ep_key: u64,
    pub halfmove: u32,
    pub hash: u64,
    pub kings: [i32; 2],
    /// holdings changes (side, type, delta) in `Pos::hold_changes` from this index
    pub hold_from: u32,
}

#[derive(Clone)]
pub struct Pos {
    pub t: Arc<Tables>,
    pub board: Vec<u8>,
    /// each side's occupied cells; `index[cell]` is the cell's place in its side's list
    pub pieces: [Vec<u16>; 2],
    pub index: Vec<u16>,
    pub kings: [i32; 2],
    pub side: usize,
    pub halfmove: u32,
    pub fullmove: u32,
    pub hash: u64,
    pub castling: u64,
    pub ep: i32,
    pub ep_key: u64,
    /// hold[side * (types + 1) + type]; empty without holdings
    pub hold: Vec<u32>,
    pub stack: Vec<Undo>,
    pub undo_cells: Vec<(u16, u8)>,
    pub hold_changes: Vec<(u8, u8, i8)>,
    pub diagram: Option<Box<DiagramState>>,
}

/// Is the cell whose attack entry is `att` attacked by the pieces the entry was built for?
#[inline]
pub fn attacked(board: &[u8], att: &Attack) -> bool {
    for &(a, codes) in &att.leaps {
        if has(codes, board[a as usize]) {
            return true;
        }
    }
    for ray in &att.rays {
        for &(a, codes) in ray {
            let p = board[a as usize];
            if p != 0 {
                if has(codes, p) {
                    return true;
                }
                break;
            }
        }
    }
    for (a, codes, between) in &att.pats {
        if has(*codes, board[*a as usize]) && between.iter().all(|&b| board[b as usize] == 0) {
            return true;
        }
    }
    false
}

impl Pos {
    pub fn new(t: Arc<Tables>) -> Pos {
        let n = t.n;
        let hold = if t.holdings {
            vec![0; 2 * (t.types + 1)]
        } else {
            Vec::new()
        };
        Pos {
            t,
            board: vec![0; n],
            pieces: [Vec::new(), Vec::new()],
            index: vec![0; n],
            kings: [-1, -1],
            side: 0,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            castling: 0,
            ep: -1,
            ep_key: 0,
            hold,
            stack: Vec::new(),
            undo_cells: Vec::new(),
            hold_changes: Vec::new(),
            diagram: None,
        }
    }

    /// Sets one cell keeping the piece lists and the kings (not the hash: set-up only).
    pub fn put(&mut self, cell: usize, code: u8) {
        self.lift(cell);
        self.drop_on(cell, code);
        if code != 0 && self.t.checkable[code as usize] {
            self.kings[side_of(code)] = cell as i32;
        }
    }

    #[inline]
    fn lift(&mut self, cell: usize) {
        let old = self.board[cell];
        if old != 0 {
            let list = &mut self.pieces[side_of(old)];
            let i = self.index[cell] as usize;
            let last = list.pop().unwrap_or(cell as u16);
            if i < list.len() {
                list[i] = last;
                self.index[last as usize] = i as u16;
            }
            self.board[cell] = 0;
        }
    }

    #[inline]
    fn drop_on(&mut self, cell: usize, code: u8) {
        if code != 0 {
            let list = &mut self.pieces[side_of(code)];
            self.index[cell] = list.len() as u16;
            list.push(cell as u16);
        }
        self.board[cell] = code;
    }

    #[inline]
    fn set_cell(&mut self, cell: usize, code: u8) {
        if self.board[cell] != 0 {
            self.lift(cell);
        }
        self.drop_on(cell, code);
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        if self.diagram.is_some() {
            return self.diagram_in_check();
        }
        let k = self.kings[self.side];
        k >= 0 && attacked(&self.board, &self.t.attacks[self.side ^ 1][k as usize])
    }

    pub fn is_attacked(&self, cell: usize, by: usize) -> bool {
        if self.diagram.is_some() {
            return self.attacked_by(cell, by);
        }
        attacked(&self.board, &self.t.attacks[by][cell])
    }

    /// The pieces' part of the hash plus rights, side and holdings, from scratch.
    pub fn rehash(&self) -> u64 {
        let t = &self.t;
        let mut h = 0;
        for (cell, &p) in self.board.iter().enumerate() {
            h ^= t.z_piece[p as usize * t.n + cell];
        }
        h ^= t.z_castle[self.castling as usize] ^ self.ep_key;
        if self.side == 1 {
            h ^= t.z_side;
        }
        if t.holdings {
            for side in 0..2 {
                for ti in 0..=t.types {
                    h ^= t.z_hold_key(side, ti, self.hold[side * (t.types + 1) + ti] as usize);
                }
            }
        }
        if self.diagram.is_some() {
            h ^= self.unmoved_hash();
        }
        h
    }

    /// The cell changes (cell, new code) of move `m`, in order, into `out` (cleared first).
    pub fn changes(&self, m: Move, out: &mut Vec<(u16, u8)>) {
        out.clear();
        if self.diagram.is_some() {
            self.diagram_changes(m, out);
            return;
        }
        self.core_changes(m, out);
    }

    /// The changes of a move of the core groups (no records).
    pub fn core_changes(&self, m: Move, out: &mut Vec<(u16, u8)>) {
        let board = &self.board;
        let fr = from_of(m);
        let to = to_of(m);
        let code = board[fr];
        if m & CASTLE != 0 {
            let c = &self.t.castle_entries[promo_of(m) as usize];
            let rook = board[c.rf as usize];
            out.extend_from_slice(&[(c.kf, 0), (c.rf, 0), (c.kt, code), (c.rt, rook)]);
            return;
        }
        if m & DESTROY != 0 {
            out.extend_from_slice(&[(fr as u16, 0), (to as u16, 0)]);
        } else {
            let promo = promo_of(m);
            let new = if promo != 0 {
                (code & !63) | promo
            } else {
                code
            };
            out.extend_from_slice(&[(fr as u16, 0), (to as u16, new)]);
        }
        if m & EP != 0 {
            let files = self.t.files;
            out.push(((fr - fr % files + to % files) as u16, 0));
        }
    }

    /// After move `m`, is the mover's King unattacked? (Applies the move to the cells only.)
    pub fn is_safe(&mut self, m: Move, buf: &mut Vec<(u16, u8)>) -> bool {
        self.changes(m, buf);
        let side = self.side;
        let kcode = self.t.king_code[side];
        let mut king = self.kings[side];
        for (cell, new) in buf.iter_mut() {
            let old = self.board[*cell as usize];
            self.board[*cell as usize] = *new;
            if *new == kcode {
                king = *cell as i32;
            }
            *new = old; // `buf` now holds what to restore
        }
        let safe = king < 0
            || self.board[king as usize] != kcode
            || !attacked(&self.board, &self.t.attacks[side ^ 1][king as usize]);
        for &(cell, old) in buf.iter().rev() {
            self.board[cell as usize] = old;
        }
        safe
    }

    /// Can the side to move legally capture en passant on `ep`? (Only then does the square count
    /// in the hash.)
    pub fn ep_capturable(&mut self, buf: &mut Vec<(u16, u8)>) -> bool {
        let t = Arc::clone(&self.t);
        let ep = self.ep as usize;
        let side = self.side;
        let garrison = self.garrison(side ^ 1);
        for &cell in &t.adjacent[ep] {
            let p = self.board[cell as usize];
            if p == 0 || !t.own[side][p as usize] || !t.pawn[p as usize] {
                continue;
            }
            let Some(g) = &t.gen[p as usize * t.n + cell as usize] else {
                continue;
            };
            for group in &g.groups {
                if let Group::Ep(entries) = group {
                    for e in entries {
                        if e.t as usize == ep {
                            let m = if garrison.contains(e.captured as usize) {
                                e.m | DESTROY
                            } else {
                                e.m
                            };
                            if self.is_safe(m, buf) {
                                return true;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// The cells of `side`'s pieces garrisoned by one of its Fortresses (empty without the rule).
    pub fn garrison(&self, side: usize) -> CellSet {
        let mut out = CellSet::new();
        if let Some(fortress) = self.t.fortress {
            let code = fortress[side];
            let own = &self.t.own[side];
            for &cell in &self.pieces[side] {
                if self.board[cell as usize] == code {
                    for &nb in &self.t.adjacent[cell as usize] {
                        if own[self.board[nb as usize] as usize] {
                            out.insert(nb as usize);
                        }
                    }
                }
            }
        }
        out
    }

    /// Applies cell changes; returns the hash with them and whether an enemy piece was removed.
    fn apply(&mut self, changes: &[(u16, u8)], mut h: u64) -> (u64, bool) {
        let side = self.side;
        let n = self.t.n;
        let mut captured = false;
        for &(cell, new) in changes {
            let c = cell as usize;
            let old = self.board[c];
            self.undo_cells.push((cell, old));
            if old != 0 {
                if side_of(old) != side {
                    captured = true;
                }
                if self.t.checkable[old as usize] && self.kings[side_of(old)] == c as i32 {
                    self.kings[side_of(old)] = -1;
                }
            }
            self.set_cell(c, new);
            h ^= self.t.z_piece[old as usize * n + c] ^ self.t.z_piece[new as usize * n + c];
            if new != 0 && self.t.checkable[new as usize] {
                self.kings[side_of(new)] = c as i32;
            }
        }
        (h, captured)
    }

    /// Plays `m`, which must be a legal move (callers check).
    pub fn make(&mut self, m: Move, buf: &mut Vec<(u16, u8)>) {
        if self.diagram.is_some() {
            self.diagram_make(m, buf);
            return;
        }
        self.make_core(m, buf);
    }

    pub fn make_core(&mut self, m: Move, buf: &mut Vec<(u16, u8)>) {
        let t = Arc::clone(&self.t);
        let n = t.n;
        let side = self.side;
        let other = side ^ 1;
        let fr = from_of(m);
        let to = to_of(m);
        let code = self.board[fr];
        let cap = self.board[to];
        let castling = self.castling;
        let mut undo = Undo {
            m,
            cap,
            cells_from: None,
            castling,
            ep: self.ep,
            ep_key: self.ep_key,
            halfmove: self.halfmove,
            hash: self.hash,
            kings: self.kings,
            hold_from: self.hold_changes.len() as u32,
        };
        let mut h = self.hash ^ self.ep_key ^ t.z_side;
        let mut halfmove = self.halfmove + 1;
        if m & SPECIAL == 0 {
            self.lift(fr);
            if cap != 0 {
                self.lift(to);
                h ^= t.z_piece[cap as usize * n + to];
                halfmove = 0;
                if t.checkable[cap as usize] {
                    self.kings[other] = -1;
                }
            }
            self.drop_on(to, code);
            h ^= t.z_piece[code as usize * n + fr] ^ t.z_piece[code as usize * n + to];
            if t.checkable[code as usize] {
                self.kings[side] = to as i32;
            }
        } else {
            undo.cells_from = Some(self.undo_cells.len() as u32);
            self.changes(m, buf);
            let (h2, captured) = self.apply(buf, h);
            h = h2;
            if captured {
                halfmove = 0;
            }
        }
        if t.pawn[code as usize] {
            halfmove = 0;
        }
        let nc = castling & t.castle_keep[fr] & t.castle_keep[to];
        if nc != castling {
            h ^= t.z_castle[castling as usize] ^ t.z_castle[nc as usize];
            self.castling = nc;
        }
        self.halfmove = halfmove;
        if side == 1 {
            self.fullmove += 1;
        }
        self.side = other;
        self.ep = -1;
        self.ep_key = 0;
        let mid = (fr + to) >> 1;
        if m & DOUBLE != 0 && t.pawn[self.board[to] as usize] && self.board[mid] == 0 {
            self.ep = mid as i32;
            if self.ep_capturable(buf) {
                self.ep_key = t.z_ep[mid];
                h ^= self.ep_key;
            }
        }
        if t.holdings {
            h = self.update_holdings(m, cap, undo.cells_from, side, h);
        }
        self.hash = h;
        self.stack.push(undo);
    }

    /// Captured pieces join their owner's holdings; a promotion takes its piece from the mover's.
    fn update_holdings(
        &mut self,
        m: Move,
        cap: u8,
        cells_from: Option<u32>,
        side: usize,
        mut h: u64,
    ) -> u64 {
        let t = Arc::clone(&self.t);
        let row = t.types + 1;
        let gained = |pos: &mut Pos, c: u8, h: &mut u64| {
            if c != 0 && t.holdable[c as usize] {
                let (owner, ti) = (side_of(c), (c & 63) as usize);
                let n = pos.hold[owner * row + ti] as usize;
                if n < t.max_held {
                    *h ^= t.z_hold_key(owner, ti, n) ^ t.z_hold_key(owner, ti, n + 1);
                    pos.hold[owner * row + ti] += 1;
                    pos.hold_changes.push((owner as u8, ti as u8, 1));
                }
            }
        };
        match cells_from {
            None => gained(self, cap, &mut h),
            Some(from) => {
                for i in from as usize..self.undo_cells.len() {
                    let old = self.undo_cells[i].1;
                    if old != 0 && side_of(old) != side {
                        gained(self, old, &mut h);
                    }
                }
            }
        }
        let promo = if m & CASTLE != 0 {
            0
        } else {
            promo_of(m) as usize
        };
        if promo != 0 {
            let n = self.hold[side * row + promo] as usize;
            if n > 0 {
                h ^= t.z_hold_key(side, promo, n) ^ t.z_hold_key(side, promo, n - 1);
                self.hold[side * row + promo] -= 1;
                self.hold_changes.push((side as u8, promo as u8, -1));
            }
        }
        h
    }

    /// Passes the turn (the search's null move); `unmake` takes it back. It counts as
    /// irreversible (the halfmove clock restarts), so a repetition look-back stops at it.
    pub fn make_null(&mut self) {
        self.stack.push(Undo {
            m: 0,
            cap: 0,
            cells_from: Some(self.undo_cells.len() as u32),
            castling: self.castling,
            ep: self.ep,
            ep_key: self.ep_key,
            halfmove: self.halfmove,
            hash: self.hash,
            kings: self.kings,
            hold_from: self.hold_changes.len() as u32,
        });
        self.hash ^= self.ep_key ^ self.t.z_side;
        self.ep = -1;
        self.ep_key = 0;
        self.halfmove = 0;
        if self.side == 1 {
            self.fullmove += 1;
        }
        self.side ^= 1;
        if let Some(d) = self.diagram.as_mut() {
            d.push_unchanged();
        }
    }

    pub fn unmake(&mut self) {
        let Some(u) = self.stack.pop() else { return };
        let side = self.side ^ 1;
        self.side = side;
        if side == 1 {
            self.fullmove -= 1;
        }
        match u.cells_from {
            None => {
                let fr = from_of(u.m);
                let to = to_of(u.m);
                let code = self.board[to];
                self.lift(to);
                self.drop_on(fr, code);
                if u.cap != 0 {
                    self.drop_on(to, u.cap);
                }
            }
            Some(from) => {
                while self.undo_cells.len() > from as usize {
                    let (cell, old) = self.undo_cells.pop().unwrap_or_default();
                    self.set_cell(cell as usize, old);
                }
            }
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.ep_key = u.ep_key;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.kings = u.kings;
        if self.t.holdings {
            let row = self.t.types + 1;
            while self.hold_changes.len() > u.hold_from as usize {
                let (owner, ti, delta) = self.hold_changes.pop().unwrap_or_default();
                let i = owner as usize * row + ti as usize;
                self.hold[i] = (self.hold[i] as i64 - delta as i64) as u32;
            }
        }
        if self.diagram.is_some() {
            self.diagram_unmake();
        }
    }

    /// How many times the current position has occurred, looking back through reversible moves.
    pub fn repetitions(&self) -> u32 {
        let h = self.hash;
        let len = self.stack.len() as i64;
        let stop = len - self.halfmove as i64;
        let mut count = 1;
        let mut i = len - 2;
        while i >= stop && i >= 0 {
            if self.stack[i as usize].hash == h {
                count += 1;
            }
            i -= 2;
        }
        count
    }

    /// Some move may reach a position for the `times`-th time (a cheap necessary condition).
    pub fn move_could_repeat(&self, times: u32) -> bool {
        if times <= 1 {
            return true;
        }
        let len = self.stack.len() as i64;
        let stop = len - self.halfmove as i64;
        let mut seen: Vec<(u64, u32)> = Vec::new();
        let mut i = len - 1;
        while i >= stop && i >= 0 {
            let h = self.stack[i as usize].hash;
            let n = match seen.iter_mut().find(|e| e.0 == h) {
                Some(e) => {
                    e.1 += 1;
                    e.1
                }
                None => {
                    seen.push((h, 1));
                    1
                }
            };
            if n >= times - 1 {
                return true;
            }
            i -= 2;
        }
        false
    }
}
