//! Diagram variants (Vanguard, pasted Interactive Diagrams): rules/diagram/position.py's additions to the
//! core position. Walked patterns (multi-leg, lame riders, hoppers, unloads) are the Python
//! side's concrete per-cell walks (`DiagramTables.cell_walk`), copied once as a graph and walked
//! here as `xbetza.walk_cells` does; moves applied through records keep the Python side's record
//! indices (a record met for the first time is interned by the Python tables, which own them).

use std::collections::HashMap;
use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::cellset::CellSet;
use crate::encoding::*;
use crate::movegen::{dedupe, Scratch};
use crate::position::{attacked, Pos};
use crate::tables::{has, Codes, Step, Tables};

/// An initial-only ray as Python gives it: ((cell, move), ...), to empty cells, to enemies.
type RawRay = (Vec<(u16, Move)>, bool, bool);

const EMPTY: u8 = 1;
const ENEMY: u8 = 2;
const FRIEND: u8 = 4;
const NO_CHILDREN: u32 = u32::MAX;

/// The kinds of walked moves (xbetza.py's `_result`), in the order of `KIND_NAMES`.
const NORMAL: u8 = 0;
const SWAP: u8 = 5;
const PASS: u8 = 4;
const KIND_NAMES: [&str; 7] = ["normal", "locust", "igui", "rifle", "pass", "swap", "jump"];

struct WalkStep {
    cell: u16,
    lame: Option<Vec<Vec<u16>>>,
    children: u32,
}

struct WalkNode {
    steps: Vec<WalkStep>,
    end: u8,
    take: u8,
    unload: bool,
    ends: bool,
    ends_initial: bool,
    takes: bool,
}

/// A piece's extra moves from one cell: initial-only rays and the walked patterns.
struct CellWalk {
    initial_rays: Vec<(Vec<Step>, bool, bool)>,
    /// index into `DiagramTables::lists`; None without walked patterns
    trie: Option<u32>,
    trie_takes: bool,
    capture_cells: Vec<u16>,
    reach: Vec<u16>,
}

/// A walked move: destination, captured cells in path order, kind.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Record {
    o: u16,
    d: u16,
    caps: Vec<u16>,
    kind: u8,
}

#[derive(Default)]
struct Records {
    index: HashMap<Record, Move>,
    by_index: Vec<Option<Record>>,
}

pub struct DiagramTables {
    walks: Vec<Option<CellWalk>>,
    lists: Vec<Vec<WalkNode>>,
    pawn_start: Vec<u128>,
    initial: Vec<bool>,
    morph: Vec<u8>,
    choices: Vec<Vec<u8>>,
    in_zone: [Vec<bool>; 2],
    king: u8,
    prince: u8,
    succession: Vec<(u8, u8)>,
    lost: Vec<bool>,
    z_unmoved: Vec<u64>,
    walk_sources: [Vec<Vec<(u16, Codes)>>; 2],
    records: Mutex<Records>,
    /// the Python `DiagramTables` (its `intern` and `records` own the record indices)
    owner: Py<PyAny>,
}

/// The unmoved rights (R11) of a diagram position and their history.
#[derive(Default)]
pub struct DiagramState {
    pub unmoved: CellSet,
    pub unmoved_cells: Vec<u16>,
    /// per ply: how many cells lost their right (they are at the end of `removed`)
    stack: Vec<u32>,
    removed: Vec<u16>,
}

fn convert_list(
    entries: &Bound<PyAny>,
    lists: &mut Vec<Vec<WalkNode>>,
    seen: &mut HashMap<usize, u32>,
    n: usize,
) -> PyResult<u32> {
    let key = entries.as_ptr() as usize;
    if let Some(&i) = seen.get(&key) {
        return Ok(i);
    }
    let mut nodes = Vec::new();
    for node in entries.try_iter()? {
        let node = node?;
        let t = node.downcast::<PyTuple>()?;
        let mut steps = Vec::new();
        for step in t.get_item(0)?.try_iter()? {
            let step = step?;
            let (cell, lame, children): (u16, Option<Vec<Vec<u16>>>, Bound<PyAny>) =
                step.extract()?;
            if cell as usize >= n || lame.iter().flatten().flatten().any(|&c| c as usize >= n) {
                return Err(PyValueError::new_err("walk cell out of range"));
            }
            let children = if children.len()? == 0 {
                NO_CHILDREN
            } else {
                convert_list(&children, lists, seen, n)?
            };
            steps.push(WalkStep {
                cell,
                lame,
                children,
            });
        }
        nodes.push(WalkNode {
            steps,
            end: t.get_item(1)?.extract()?,
            take: t.get_item(2)?.extract()?,
            unload: t.get_item(3)?.extract()?,
            ends: t.get_item(4)?.extract()?,
            ends_initial: t.get_item(5)?.extract()?,
            takes: t.get_item(6)?.extract()?,
        });
    }
    lists.push(nodes);
    let i = (lists.len() - 1) as u32;
    seen.insert(key, i);
    Ok(i)
}

impl DiagramTables {
    /// Copies what `rules/diagram/position.py` reads from a Python `DiagramTables`.
    pub fn from_python(dt: &Bound<PyAny>, n: usize) -> PyResult<DiagramTables> {
        let mut walks = Vec::with_capacity(MAX_CODE * n);
        let mut lists = Vec::new();
        let mut seen = HashMap::new();
        for (code, per_code) in dt.getattr("walks")?.try_iter()?.enumerate() {
            let per_code = per_code?;
            if per_code.is_none() {
                walks.extend((0..n).map(|_| None));
                continue;
            }
            for (cell, walk) in per_code.try_iter()?.enumerate() {
                let walk = walk?;
                if walk.is_none() {
                    walks.push(None);
                    continue;
                }
                let (rays, trie): (Vec<RawRay>, Bound<PyAny>) = walk.extract()?;
                let initial_rays = rays
                    .into_iter()
                    .map(|(e, to_empty, to_enemy)| {
                        (
                            e.into_iter().map(|(t, m)| Step { t, m }).collect(),
                            to_empty,
                            to_enemy,
                        )
                    })
                    .collect();
                let (trie_index, trie_takes) = if trie.is_none() {
                    (None, false)
                } else {
                    let entries = dt.call_method1("cell_walk", (code, cell))?;
                    (
                        Some(convert_list(&entries, &mut lists, &mut seen, n)?),
                        trie.getattr("takes")?.extract()?,
                    )
                };
                walks.push(Some(CellWalk {
                    initial_rays,
                    trie: trie_index,
                    trie_takes,
                    capture_cells: dt.call_method1("capture_cells", (code, cell))?.extract()?,
                    reach: {
                        let mut cells: Vec<u16> = Vec::new();
                        for c in dt.call_method1("reach", (code, cell))?.try_iter()? {
                            cells.push(c?.extract()?);
                        }
                        cells
                    },
                }));
            }
        }
        if walks.len() != MAX_CODE * n {
            return Err(PyValueError::new_err(
                "diagram walks: one entry per code and cell expected",
            ));
        }
        let mut pawn_start = Vec::with_capacity(MAX_CODE);
        for ranks in dt.getattr("pawn_start")?.try_iter()? {
            let mut mask = 0u128;
            for r in ranks?.try_iter()? {
                let r: u32 = r?.extract()?;
                if r < 128 {
                    mask |= 1 << r;
                }
            }
            pawn_start.push(mask);
        }
        let in_zone: Vec<Vec<bool>> = dt.getattr("in_zone")?.extract()?;
        let mut walk_sources: [Vec<Vec<(u16, Codes)>>; 2] = [Vec::new(), Vec::new()];
        for (side, per_cell) in dt.getattr("walk_sources")?.try_iter()?.enumerate().take(2) {
            for entries in per_cell?.try_iter()? {
                let mut out = Vec::new();
                for e in entries?.try_iter()? {
                    let (a, codes): (u16, Bound<PyAny>) = e?.extract()?;
                    let mut mask: Codes = 0;
                    for c in codes.try_iter()? {
                        let c: u8 = c?.extract()?;
                        mask |= 1 << (c & 127);
                    }
                    out.push((a, mask));
                }
                walk_sources[side].push(out);
            }
        }
        let d = DiagramTables {
            walks,
            lists,
            pawn_start,
            initial: dt.getattr("initial")?.extract()?,
            morph: dt.getattr("morph")?.extract()?,
            choices: dt.getattr("choices")?.extract()?,
            in_zone: [in_zone[0].clone(), in_zone[1].clone()],
            king: dt.getattr("king")?.extract()?,
            prince: dt.getattr("prince")?.extract()?,
            succession: dt.getattr("succession")?.extract()?,
            lost: dt.getattr("lost")?.extract()?,
            z_unmoved: dt.getattr("z_unmoved")?.extract()?,
            walk_sources,
            records: Mutex::new(Records::default()),
            owner: dt.clone().unbind(),
        };
        let sizes_ok = d.pawn_start.len() == MAX_CODE
            && d.initial.len() == MAX_CODE
            && d.morph.len() == MAX_CODE
            && d.choices.len() == MAX_CODE
            && d.lost.len() == MAX_CODE
            && d.in_zone.iter().all(|z| z.len() == n)
            && d.z_unmoved.len() == n
            && d.walk_sources
                .iter()
                .all(|w| w.len() == n && w.iter().flatten().all(|e| (e.0 as usize) < n))
            && d.walks.iter().flatten().all(|w| {
                w.capture_cells
                    .iter()
                    .chain(&w.reach)
                    .all(|&c| (c as usize) < n)
                    && w.initial_rays
                        .iter()
                        .flat_map(|r| &r.0)
                        .all(|s| (s.t as usize) < n && from_of(s.m) < n && to_of(s.m) < n)
            })
            && d.morph
                .iter()
                .chain(d.choices.iter().flatten())
                .all(|&p| p < 64)
            && d.succession.iter().all(|&(a, b)| a < 64 && b < 64);
        if !sizes_ok {
            return Err(PyValueError::new_err(
                "diagram tables: sizes or cells out of range",
            ));
        }
        Ok(d)
    }

    pub fn nbytes(&self) -> usize {
        let steps: usize = self
            .lists
            .iter()
            .flatten()
            .map(|n| 40 + n.steps.len() * 40)
            .sum();
        let walks: usize = self
            .walks
            .iter()
            .flatten()
            .map(|w| 80 + 2 * (w.capture_cells.len() + w.reach.len()))
            .sum();
        steps
            + walks
            + self
                .walk_sources
                .iter()
                .flatten()
                .map(|e| 24 + 32 * e.len())
                .sum::<usize>()
    }

    /// The move integer of a record (interned by the Python tables on first sight).
    fn intern(&self, rec: Record) -> Move {
        let mut records = self.records.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&m) = records.index.get(&rec) {
            return m;
        }
        let m = Python::with_gil(|py| -> PyResult<Move> {
            let caps = PyTuple::new(py, &rec.caps)?;
            let py_rec = (rec.o, rec.d, caps, KIND_NAMES[rec.kind as usize]);
            self.owner
                .bind(py)
                .call_method1("intern", (py_rec,))?
                .extract()
        })
        .expect("the Python diagram tables intern a record");
        let i = (m >> RECORD_SHIFT) as usize;
        if records.by_index.len() <= i {
            records.by_index.resize(i + 1, None);
        }
        records.by_index[i] = Some(rec.clone());
        records.index.insert(rec, m);
        m
    }

    /// The record of a move integer's index (asked of the Python tables if not seen here yet).
    fn record(&self, index: usize) -> Option<Record> {
        let mut records = self.records.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(Some(r)) = records.by_index.get(index) {
            return Some(r.clone());
        }
        let rec = Python::with_gil(|py| -> PyResult<Record> {
            let item = self.owner.bind(py).getattr("records")?.get_item(index)?;
            let (o, d, caps, kind): (u16, u16, Vec<u16>, String) = item.extract()?;
            let kind = KIND_NAMES.iter().position(|&k| k == kind).unwrap_or(0) as u8;
            Ok(Record { o, d, caps, kind })
        })
        .ok()?;
        if records.by_index.len() <= index {
            records.by_index.resize(index + 1, None);
        }
        records.by_index[index] = Some(rec.clone());
        let m =
            rec.o as Move | (rec.d as Move) << TO_SHIFT | MULTI | (index as Move) << RECORD_SHIFT;
        records.index.insert(rec.clone(), m);
        Some(rec)
    }
}

/// Walk scratch: the overlay of cells a walk has changed (captures, unloads).
struct Walk<'a> {
    board: &'a [u8],
    own: &'a [bool; MAX_CODE],
    overlay: Vec<(u16, u8)>,
    captured: Vec<(u16, u8)>,
    unloads: Vec<(u16, u16)>,
    result: Vec<Record>,
    origin: u16,
    files: usize,
    unmoved: bool,
    captures_only: bool,
}

impl Walk<'_> {
    fn get(&self, c: u16) -> Option<u8> {
        self.overlay.iter().rev().find(|e| e.0 == c).map(|e| e.1)
    }

    fn state(&self, c: u16) -> u8 {
        self.get(c).unwrap_or_else(|| {
            let v = self.board[c as usize];
            if v == 0 {
                EMPTY
            } else if self.own[v as usize] {
                FRIEND
            } else {
                ENEMY
            }
        })
    }

    fn walk(&mut self, lists: &[Vec<WalkNode>], list: u32, start: u16) {
        for node in &lists[list as usize] {
            if self.captures_only && !node.takes && self.captured.is_empty() {
                continue;
            }
            for step in &node.steps {
                if let Some(lame) = &step.lame {
                    if !lame
                        .iter()
                        .any(|path| path.iter().all(|&c| self.state(c) == EMPTY))
                    {
                        break; // every path is blocked: the leg stops
                    }
                }
                let cell = step.cell;
                let here = self.state(cell);
                if here & node.end != 0 {
                    let taken = here != EMPTY && here & node.take != 0;
                    let mark = self.overlay.len();
                    let mut ok = true;
                    if taken {
                        self.overlay.push((cell, EMPTY));
                        self.captured.push((cell, here));
                    }
                    if node.unload {
                        match self.captured.last() {
                            None => ok = false,
                            Some(&(ccell, owner)) => {
                                self.overlay.push((start, owner));
                                self.unloads.push((ccell, start));
                            }
                        }
                    }
                    if ok {
                        if node.ends || (self.unmoved && node.ends_initial) {
                            let r = self.result_of(cell);
                            if !self.result.contains(&r) {
                                self.result.push(r);
                            }
                        }
                        if step.children != NO_CHILDREN {
                            self.walk(lists, step.children, cell);
                        }
                    }
                    if node.unload && ok {
                        self.unloads.pop();
                    }
                    self.overlay.truncate(mark);
                    if taken {
                        self.captured.pop();
                    }
                }
                if here != EMPTY {
                    break;
                }
            }
        }
    }

    fn result_of(&self, dest: u16) -> Record {
        let origin = self.origin;
        let caps: Vec<u16> = self
            .captured
            .iter()
            .map(|c| c.0)
            .filter(|c| !self.unloads.iter().any(|u| u.0 == *c))
            .collect();
        let kind = if self.unloads.iter().any(|u| u.1 == origin) && dest != origin {
            SWAP
        } else if self.unloads.iter().any(|u| u.0 == u.1) {
            6
        } else if dest == origin {
            if caps.is_empty() {
                PASS
            } else {
                let f = self.files as i32;
                let (ox, oy) = (origin as i32 % f, origin as i32 / f);
                let adjacent = caps
                    .iter()
                    .all(|&c| ((c as i32 % f - ox).abs()).max((c as i32 / f - oy).abs()) == 1);
                if adjacent {
                    2
                } else {
                    3
                }
            }
        } else if caps.iter().any(|&c| c != dest) {
            1
        } else {
            NORMAL
        };
        Record {
            o: origin,
            d: dest,
            caps,
            kind,
        }
    }
}

impl DiagramState {
    pub fn new(unmoved: &[u16]) -> DiagramState {
        let mut s = DiagramState::default();
        for &c in unmoved {
            if !s.unmoved.contains(c as usize) {
                s.unmoved.insert(c as usize);
                s.unmoved_cells.push(c);
            }
        }
        s
    }
}

impl Pos {
    fn dt(&self) -> &DiagramTables {
        self.t
            .diagram
            .as_ref()
            .expect("a diagram position has diagram tables")
    }

    fn state(&self) -> &DiagramState {
        self.diagram
            .as_ref()
            .expect("a diagram position has its state")
    }

    pub fn unmoved_hash(&self) -> u64 {
        let z = &self.dt().z_unmoved;
        self.state()
            .unmoved_cells
            .iter()
            .fold(0, |h, &c| h ^ z[c as usize])
    }

    /// A move integer whose record (if any) exists.
    pub fn record_in_range(&self, m: Move) -> bool {
        m & MULTI == 0 || self.dt().record((m >> RECORD_SHIFT) as usize).is_some()
    }

    fn record_of(&self, m: Move) -> Record {
        if m & MULTI != 0 {
            if let Some(r) = self.dt().record((m >> RECORD_SHIFT) as usize) {
                return r;
            }
        }
        let (fr, to) = (from_of(m) as u16, to_of(m) as u16);
        let caps = if self.board[to as usize] != 0 {
            vec![to]
        } else {
            Vec::new()
        };
        Record {
            o: fr,
            d: to,
            caps,
            kind: NORMAL,
        }
    }

    fn unmoved_at(&self, cell: usize, code: u8) -> bool {
        let start = self.dt().pawn_start[code as usize];
        if start != 0 {
            return start >> (cell / self.t.files) & 1 != 0;
        }
        self.state().unmoved.contains(cell)
    }

    fn encodings(&self, code: u8, base: Move, out: &mut Vec<Move>) {
        let dt = self.dt();
        let c = code as usize;
        let morph = dt.morph[c];
        let promos: &[u8] = if morph != 0 {
            std::slice::from_ref(&dt.morph[c])
        } else {
            &dt.choices[c]
        };
        if !promos.is_empty() && dt.in_zone[side_of(code)][to_of(base)] {
            out.extend(promos.iter().map(|&p| base | (p as Move) << PROMO_SHIFT));
        } else {
            out.push(base);
        }
    }

    /// Moves of the piece on `sq` from its initial rays and walked patterns (with
    /// `captures_only`, at least those that capture, from the patterns that can).
    fn walked(&self, board: &[u8], sq: usize, code: u8, out: &mut Vec<Move>, captures_only: bool) {
        let dt = self.dt();
        let t = &*self.t;
        let Some(walk) = &dt.walks[code as usize * t.n + sq] else {
            return;
        };
        let side = side_of(code);
        let enemy = t.enemy(side);
        let unmoved = dt.initial[code as usize] && self.unmoved_at(sq, code);
        if unmoved {
            for (entries, to_empty, to_enemy) in &walk.initial_rays {
                for s in entries {
                    let p = board[s.t as usize];
                    if p == 0 {
                        if *to_empty {
                            out.push(s.m);
                        }
                        continue;
                    }
                    if *to_enemy && enemy[p as usize] {
                        out.push(s.m);
                    }
                    break;
                }
            }
        }
        let Some(trie) = walk.trie else { return };
        if !walk.trie_takes && captures_only {
            return;
        }
        if captures_only
            && !walk
                .capture_cells
                .iter()
                .any(|&c| enemy[board[c as usize] as usize])
        {
            return;
        }
        let mut w = Walk {
            board,
            own: &t.own[side],
            overlay: vec![(sq as u16, EMPTY)],
            captured: Vec::new(),
            unloads: Vec::new(),
            result: Vec::new(),
            origin: sq as u16,
            files: t.files,
            unmoved,
            captures_only,
        };
        w.walk(&dt.lists, trie, sq as u16);
        for rec in w.result {
            if rec.kind == NORMAL {
                self.encodings(code, sq as Move | (rec.d as Move) << TO_SHIFT, out);
                continue;
            }
            let d = rec.d;
            let m = dt.intern(rec);
            let choices = &dt.choices[code as usize];
            if !choices.is_empty() && d as usize != sq && dt.in_zone[side][d as usize] {
                out.extend(choices.iter().map(|&p| m | (p as Move) << PROMO_SHIFT));
            } else {
                out.push(m);
            }
        }
    }

    /// Every move of the side to move by its patterns, whatever it leaves attacked.
    pub fn pseudo_legal(&self, moves: &mut Vec<Move>, s: &mut Scratch) {
        moves.clear();
        s.specials.clear();
        s.cells.clear();
        s.cells.extend_from_slice(&self.pieces[self.side]);
        self.generate(
            &s.cells,
            moves,
            &mut s.specials,
            &CellSet::new(),
            &mut s.post,
        );
        let n = moves.len();
        for &sq in &s.cells {
            self.walked(
                &self.board,
                sq as usize,
                self.board[sq as usize],
                moves,
                false,
            );
        }
        if moves.len() > n {
            dedupe(moves);
        }
    }

    /// The cell changes of move `m`: captures, swap, promotion (4.5, R12), succession (R16, R17).
    pub fn diagram_changes(&self, m: Move, out: &mut Vec<(u16, u8)>) {
        let dt = self.dt();
        let board = &self.board;
        let caps: Vec<u16>;
        if m & MULTI != 0 {
            let rec = self.record_of(m);
            let piece = board[rec.o as usize];
            let mut set = |cell: u16, v: u8| match out.iter_mut().find(|e| e.0 == cell) {
                Some(e) => e.1 = v,
                None => out.push((cell, v)),
            };
            if rec.kind == SWAP {
                set(rec.o, board[rec.d as usize]);
                set(rec.d, piece);
            } else if rec.kind != PASS {
                for &c in &rec.caps {
                    set(c, 0);
                }
                if rec.d != rec.o {
                    set(rec.o, 0);
                    set(rec.d, piece);
                }
            }
            let promo = promo_of(m);
            if promo != 0 {
                set(rec.d, (piece & !63) | promo);
            }
            for e in out.iter_mut() {
                let v = e.1;
                if v != 0 && dt.morph[v as usize] != 0 && dt.in_zone[side_of(v)][e.0 as usize] {
                    e.1 = (v & !63) | dt.morph[v as usize];
                }
            }
            caps = rec.caps;
        } else {
            self.core_changes(m, out);
            let to = to_of(m);
            if board[to] == 0 || !dt.lost[board[to] as usize] {
                return;
            }
            caps = vec![to as u16];
        }
        let after = |out: &Vec<(u16, u8)>, c: u16| {
            out.iter()
                .find(|e| e.0 == c)
                .map_or(board[c as usize], |e| e.1)
        };
        let opp = side_of(board[from_of(m)]) ^ 1;
        for &(lost, heir) in &dt.succession {
            let code = (opp as u8) << SIDE_SHIFT | lost;
            if !caps.iter().any(|&c| board[c as usize] == code) {
                continue;
            }
            if self.pieces[opp].iter().any(|&c| after(out, c) == code) {
                continue;
            }
            let heir_code = (opp as u8) << SIDE_SHIFT | heir;
            if let Some(&h) = self.pieces[opp]
                .iter()
                .filter(|&&c| after(out, c) == heir_code)
                .min()
            {
                match out.iter_mut().find(|e| e.0 == h) {
                    Some(e) => e.1 = code,
                    None => out.push((h, code)),
                }
            }
        }
    }

    pub fn diagram_make(&mut self, m: Move, buf: &mut Vec<(u16, u8)>) {
        let mut m = m;
        if m & SPECIAL == 0 && self.dt().lost[self.board[to_of(m)] as usize] {
            // a capture that may hand a role on: applied through its record
            let (fr, to) = (from_of(m) as u16, to_of(m) as u16);
            m = self.dt().intern(Record {
                o: fr,
                d: to,
                caps: vec![to],
                kind: NORMAL,
            });
        }
        let mut touched: Vec<u16> = Vec::new();
        if !self.state().unmoved_cells.is_empty() {
            let rec = self.record_of(m);
            if rec.kind != PASS {
                let st = self.state();
                for c in [rec.o, rec.d].into_iter().chain(rec.caps) {
                    if st.unmoved.contains(c as usize) && !touched.contains(&c) {
                        touched.push(c);
                    }
                }
            }
        }
        self.make_core(m, buf);
        let z: Vec<u64> = touched
            .iter()
            .map(|&c| self.dt().z_unmoved[c as usize])
            .collect();
        let Some(st) = self.diagram.as_mut() else {
            return;
        };
        st.stack.push(touched.len() as u32);
        for (&c, k) in touched.iter().zip(z) {
            self.hash ^= k;
            st.removed.push(c);
            st.unmoved_cells.retain(|&x| x != c);
        }
        st.unmoved = CellSet::new();
        for &c in &st.unmoved_cells {
            st.unmoved.insert(c as usize);
        }
    }

    pub fn diagram_unmake(&mut self) {
        let Some(st) = self.diagram.as_mut() else {
            return;
        };
        let k = st.stack.pop().unwrap_or(0) as usize;
        for _ in 0..k {
            if let Some(c) = st.removed.pop() {
                st.unmoved.insert(c as usize);
                st.unmoved_cells.push(c);
            }
        }
    }

    /// Some move of `by` would capture the piece on `cell` (4.2, R18); an empty cell is judged as
    /// if a piece of the other side stood on it.
    pub fn attacked_by(&self, cell: usize, by: usize) -> bool {
        if attacked(&self.board, &self.t.attacks[by][cell]) {
            return true;
        }
        let dt = self.dt();
        let sources: Vec<u16> = dt.walk_sources[by][cell]
            .iter()
            .filter(|(a, codes)| has(*codes, self.board[*a as usize]))
            .map(|e| e.0)
            .collect();
        if sources.is_empty() {
            return false;
        }
        let mut probe = Vec::new();
        let board: &[u8] = if self.board[cell] == 0 {
            probe.extend_from_slice(&self.board);
            let kc = self.t.king_code[by ^ 1];
            probe[cell] = if kc != 0 {
                kc
            } else {
                ((by as u8) ^ 1) << SIDE_SHIFT | 1
            };
            &probe
        } else {
            &self.board
        };
        let mut found = Vec::new();
        for a in sources {
            found.clear();
            self.walked(board, a as usize, board[a as usize], &mut found, true);
            for &m in &found {
                let takes_cell = if m & MULTI != 0 {
                    dt.record((m >> RECORD_SHIFT) as usize)
                        .is_some_and(|r| r.caps.contains(&(cell as u16)))
                } else {
                    to_of(m) == cell && board[cell] != 0
                };
                if takes_cell {
                    return true;
                }
            }
        }
        false
    }

    pub fn diagram_in_check(&self) -> bool {
        let k = self.kings[self.side];
        k >= 0 && self.attacked_by(k as usize, self.side ^ 1)
    }

    /// The cell of `side`'s piece of that type (King or Prince), or -1.
    pub fn royal_cell(&self, side: usize, type_index: u8) -> i32 {
        if type_index == 0 {
            return -1;
        }
        let code = (side as u8) << SIDE_SHIFT | type_index;
        self.pieces[side]
            .iter()
            .filter(|&&c| self.board[c as usize] == code)
            .min()
            .map_or(-1, |&c| c as i32)
    }

    /// After `m`, the mover's royal of that type stands and is not attacked.
    fn safe_after(&mut self, m: Move, type_index: u8, buf: &mut Vec<(u16, u8)>) -> bool {
        let side = self.side;
        let royal = (side as u8) << SIDE_SHIFT | type_index;
        self.diagram_changes_into(m, buf);
        let mut at = if type_index == self.dt().king {
            self.kings[side]
        } else {
            self.royal_cell(side, type_index)
        };
        for (cell, new) in buf.iter_mut() {
            let old = self.board[*cell as usize];
            self.board[*cell as usize] = *new;
            if *new == royal {
                at = *cell as i32;
            }
            *new = old;
        }
        let safe =
            at >= 0 && self.board[at as usize] == royal && !self.attacked_by(at as usize, side ^ 1);
        for &(cell, old) in buf.iter().rev() {
            self.board[cell as usize] = old;
        }
        safe
    }

    fn diagram_changes_into(&self, m: Move, buf: &mut Vec<(u16, u8)>) {
        buf.clear();
        self.diagram_changes(m, buf);
    }

    /// 4.4, given that no move keeps the King safe: the Prince is attacked, no move makes it
    /// safe, and every orthogonally adjacent cell it could step to is attacked.
    pub fn double_checkmated(&mut self, pseudo: &[Move], buf: &mut Vec<(u16, u8)>) -> bool {
        let side = self.side;
        let prince_type = self.dt().prince;
        let p = self.royal_cell(side, prince_type);
        if p < 0 || !self.diagram_in_check() || !self.attacked_by(p as usize, side ^ 1) {
            return false;
        }
        if pseudo.iter().any(|&m| self.safe_after(m, prince_type, buf)) {
            return false;
        }
        let p = p as usize;
        let prince = self.board[p];
        let files = self.t.files as i32;
        let ranks = (self.t.n / self.t.files) as i32;
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (x, y) = (p as i32 % files + dx, p as i32 / files + dy);
            if !(0..files).contains(&x) || !(0..ranks).contains(&y) {
                continue;
            }
            let t = (y * files + x) as usize;
            let old = self.board[t];
            if old != 0 && self.t.own[side][old as usize] {
                continue;
            }
            self.board[p] = 0;
            self.board[t] = prince;
            let hit = self.attacked_by(t, side ^ 1);
            self.board[p] = prince;
            self.board[t] = old;
            if !hit {
                return false;
            }
        }
        true
    }

    /// With the King on `k` not attacked: the cells a move must change to let `opp` attack it;
    /// None when the King is attacked.
    fn exposed(&self, k: usize, opp: usize) -> Option<CellSet> {
        let board = &self.board;
        let att = &self.t.attacks[opp][k];
        let mut out = CellSet::new();
        out.insert(k);
        for ray in &att.rays {
            let mut first: i32 = -1;
            for &(a, codes) in ray {
                let p = board[a as usize];
                if p != 0 {
                    if first < 0 {
                        first = a as i32;
                        continue;
                    }
                    if has(codes, p) {
                        out.insert(first as usize);
                    }
                    break;
                }
            }
        }
        for (a, codes, between) in &att.pats {
            if has(*codes, board[*a as usize]) {
                for &b in between {
                    out.insert(b as usize);
                }
            }
        }
        let dt = self.dt();
        for &(a, codes) in &dt.walk_sources[opp][k] {
            let code = board[a as usize];
            if has(codes, code) {
                out.insert(a as usize);
                if let Some(w) = &dt.walks[code as usize * self.t.n + a as usize] {
                    for &c in &w.reach {
                        out.insert(c as usize);
                    }
                }
            }
        }
        if self.attacked_by(k, opp) {
            return None;
        }
        Some(out)
    }

    /// The move changes no cell of `exposed`, takes at most one piece and hands no role on.
    fn untouched(&self, m: Move, exposed: &CellSet) -> bool {
        let lost = &self.dt().lost;
        if m & MULTI != 0 {
            let r = self.record_of(m);
            return !exposed.contains(r.o as usize)
                && !exposed.contains(r.d as usize)
                && r.caps.len() < 2
                && !r.caps.iter().any(|&c| {
                    exposed.contains(c as usize) || lost[self.board[c as usize] as usize]
                });
        }
        let to = to_of(m);
        !exposed.contains(from_of(m)) && !exposed.contains(to) && !lost[self.board[to] as usize]
    }

    /// 4.3: the moves that keep the King safe if any; else none (no Prince, or double
    /// checkmate) or every move (a Prince is alive). No moves once the King is lost.
    pub fn diagram_legal(&mut self, moves: &mut Vec<Move>, s: &mut Scratch) {
        let mut pseudo = std::mem::take(&mut s.risky);
        self.pseudo_legal(&mut pseudo, s);
        moves.clear();
        let king = self.dt().king;
        let side = self.side;
        if king == 0 {
            moves.extend_from_slice(&pseudo);
        } else if self.kings[side] >= 0 {
            let exposed = self.exposed(self.kings[side] as usize, side ^ 1);
            for &m in &pseudo {
                let untouched = exposed.as_ref().is_some_and(|e| self.untouched(m, e));
                if untouched || self.safe_after(m, king, &mut s.changes) {
                    moves.push(m);
                }
            }
            if moves.is_empty()
                && self.royal_cell(side, self.dt().prince) >= 0
                && !self.double_checkmated(&pseudo, &mut s.changes)
            {
                moves.extend_from_slice(&pseudo);
            }
        }
        s.risky = pseudo;
    }

    /// The side to move has no rescue by a Prince: it has none, or it is double checkmated (4.4).
    pub fn no_royal_rescue(&mut self, s: &mut Scratch) -> bool {
        if self.royal_cell(self.side, self.dt().prince) < 0 {
            return true;
        }
        let mut pseudo = Vec::new();
        self.pseudo_legal(&mut pseudo, s);
        self.double_checkmated(&pseudo, &mut s.changes)
    }
}

/// Loads the diagram tables of `tables` when given (`_native.Tables(..., diagram=dt)`).
pub fn attach(tables: &mut Tables, dt: Option<&Bound<PyAny>>) -> PyResult<()> {
    if let Some(dt) = dt {
        tables.diagram = Some(DiagramTables::from_python(dt, tables.n)?);
    }
    Ok(())
}
