//! The compiled tables the Python side builds (`superchess.rules.core.tables.Tables`), copied once into
//! plain Rust data: per code and cell the move groups with their move integers pre-encoded, per
//! side and cell the attack entries, castling entries and the Zobrist keys. Rust never reads the
//! variant data itself.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::encoding::{Move, MAX_CODE};

/// A set of piece codes (codes are below 128).
pub type Codes = u128;

#[inline]
pub fn has(codes: Codes, p: u8) -> bool {
    codes >> p & 1 != 0
}

/// Which occupants a group's destination may hold (the Python kinds' mode offset).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    MoveCapture,
    Move,
    Capture,
}

impl Mode {
    fn of(offset: u8) -> Mode {
        match offset {
            0 => Mode::MoveCapture,
            1 => Mode::Move,
            _ => Mode::Capture,
        }
    }
}

#[derive(Clone, Copy)]
pub struct Step {
    pub t: u16,
    pub m: Move,
}

pub struct PatStep {
    pub t: u16,
    pub m: Move,
    pub between: Vec<u16>,
}

pub struct EpStep {
    pub t: u16,
    pub m: Move,
    pub captured: u16,
}

/// One group of a piece's moves from one cell (tables.py's kinds LEAP_*, PAT_*, RAY_*, EP_CAPTURE).
pub enum Group {
    Leap(Mode, Vec<Step>),
    Pat(Mode, Vec<PatStep>),
    Ray(Mode, Vec<Vec<Step>>),
    Ep(Vec<EpStep>),
}

pub const POST_PROMO: u8 = 1;
pub const POST_DEDUPE: u8 = 2;

pub struct CellGen {
    pub post: u8,
    pub groups: Vec<Group>,
}

/// The cells from which the pieces in each entry's code set attack one cell.
#[derive(Default)]
pub struct Attack {
    pub leaps: Vec<(u16, Codes)>,
    pub pats: Vec<(u16, Codes, Vec<u16>)>,
    pub rays: Vec<Vec<(u16, Codes)>>,
}

#[derive(Clone)]
pub struct Castle {
    pub bit: u64,
    pub kf: u16,
    pub kt: u16,
    pub rf: u16,
    pub rt: u16,
    pub empty: Vec<u16>,
    pub passing: Vec<u16>,
    pub m: Move,
}

pub struct Tables {
    pub n: usize,
    pub files: usize,
    pub types: usize,
    pub royal: [bool; MAX_CODE],
    pub pawn: [bool; MAX_CODE],
    pub checkable: [bool; MAX_CODE],
    pub holdable: [bool; MAX_CODE],
    pub own: [[bool; MAX_CODE]; 2],
    pub king_code: [u8; 2],
    pub promotions: [Vec<u8>; 2],
    /// gen[code * n + cell]; None for codes no piece has
    pub gen: Vec<Option<CellGen>>,
    pub attacks: [Vec<Attack>; 2],
    pub castles: [Vec<Castle>; 2],
    pub castle_entries: Vec<Castle>,
    pub castle_keep: Vec<u64>,
    pub z_piece: Vec<u64>,
    pub z_castle: Vec<u64>,
    pub z_ep: Vec<u64>,
    pub z_side: u64,
    /// z_hold[(side * (types + 1) + type) * (max_held + 1) + count]
    pub z_hold: Vec<u64>,
    pub max_held: usize,
    pub holdings: bool,
    pub adjacent: Vec<Vec<u16>>,
    /// the Fortress codes per side when the variant's capture consequence is the Fortress garrison
    pub fortress: Option<[u8; 2]>,
    /// the diagram variants' walked patterns, records, promotion and royals
    pub diagram: Option<crate::diagram::DiagramTables>,
}

impl Tables {
    #[inline]
    pub fn enemy(&self, side: usize) -> &[bool; MAX_CODE] {
        &self.own[side ^ 1]
    }

    /// An estimate of the bytes the tables hold (for the cache bound).
    pub fn nbytes(&self) -> usize {
        use std::mem::size_of;
        let mut b = size_of::<Tables>() + self.gen.len() * size_of::<Option<CellGen>>();
        for g in self.gen.iter().flatten() {
            b += g.groups.len() * size_of::<Group>();
            for group in &g.groups {
                b += match group {
                    Group::Leap(_, s) => s.len() * size_of::<Step>(),
                    Group::Ray(_, rays) => rays
                        .iter()
                        .map(|r| size_of::<Vec<Step>>() + r.len() * size_of::<Step>())
                        .sum(),
                    Group::Pat(_, s) => s
                        .iter()
                        .map(|p| size_of::<PatStep>() + 2 * p.between.len())
                        .sum(),
                    Group::Ep(s) => s.len() * size_of::<EpStep>(),
                };
            }
        }
        for a in self.attacks.iter().flatten() {
            b += size_of::<Attack>() + a.leaps.len() * 32;
            b += a.pats.iter().map(|p| 48 + 2 * p.2.len()).sum::<usize>();
            b += a.rays.iter().map(|r| 24 + r.len() * 32).sum::<usize>();
        }
        b += 8
            * (self.z_piece.len()
                + self.z_castle.len()
                + self.z_ep.len()
                + self.z_hold.len()
                + self.castle_keep.len());
        b += self.diagram.as_ref().map_or(0, |d| d.nbytes());
        b + self
            .adjacent
            .iter()
            .map(|a| 24 + 2 * a.len())
            .sum::<usize>()
    }

    #[inline]
    pub fn z_hold_key(&self, side: usize, ti: usize, count: usize) -> u64 {
        self.z_hold[(side * (self.types + 1) + ti) * (self.max_held + 1) + count]
    }
}

fn flags(t: &Bound<PyAny>, name: &str) -> PyResult<[bool; MAX_CODE]> {
    let v: Vec<bool> = t.getattr(name)?.extract()?;
    v.try_into()
        .map_err(|_| PyValueError::new_err(format!("tables.{name}: expected {MAX_CODE} flags")))
}

fn codes_of(set: &Bound<PyAny>) -> PyResult<Codes> {
    let mut out: Codes = 0;
    for c in set.try_iter()? {
        let c: u8 = c?.extract()?;
        if c as usize >= MAX_CODE {
            return Err(PyValueError::new_err(format!(
                "piece code {c} out of range"
            )));
        }
        out |= 1 << c;
    }
    Ok(out)
}

fn steps(entries: &Bound<PyAny>) -> PyResult<Vec<Step>> {
    let raw: Vec<(u16, Move)> = entries.extract()?;
    Ok(raw.into_iter().map(|(t, m)| Step { t, m }).collect())
}

/// Converts the groups of one (code, cell): `(post, ((kind, entries), ...))`.
fn cell_gen(entry: &Bound<PyAny>) -> PyResult<CellGen> {
    let (post, groups): (u8, Vec<(u8, Bound<PyAny>)>) = entry.extract()?;
    let mut out = Vec::with_capacity(groups.len());
    for (kind, entries) in groups {
        out.push(match kind {
            0..=2 => Group::Leap(Mode::of(kind), steps(&entries)?),
            3..=5 => {
                let raw: Vec<(u16, Move, Vec<u16>)> = entries.extract()?;
                Group::Pat(
                    Mode::of(kind - 3),
                    raw.into_iter()
                        .map(|(t, m, between)| PatStep { t, m, between })
                        .collect(),
                )
            }
            6..=8 => {
                let mut rays = Vec::new();
                for ray in entries.try_iter()? {
                    rays.push(steps(&ray?)?);
                }
                Group::Ray(Mode::of(kind - 6), rays)
            }
            9 => {
                let raw: Vec<(u16, Move, u16)> = entries.extract()?;
                Group::Ep(
                    raw.into_iter()
                        .map(|(t, m, captured)| EpStep { t, m, captured })
                        .collect(),
                )
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown move group kind {kind}"
                )))
            }
        });
    }
    Ok(CellGen { post, groups: out })
}

fn attack(entry: &Bound<PyAny>) -> PyResult<Attack> {
    let (leaps, pats, rays): (Bound<PyAny>, Bound<PyAny>, Bound<PyAny>) = entry.extract()?;
    let mut a = Attack::default();
    for e in leaps.try_iter()? {
        let (cell, codes): (u16, Bound<PyAny>) = e?.extract()?;
        a.leaps.push((cell, codes_of(&codes)?));
    }
    for e in pats.try_iter()? {
        let (cell, codes, between): (u16, Bound<PyAny>, Vec<u16>) = e?.extract()?;
        a.pats.push((cell, codes_of(&codes)?, between));
    }
    for ray in rays.try_iter()? {
        let mut r = Vec::new();
        for e in ray?.try_iter()? {
            let (cell, codes): (u16, Bound<PyAny>) = e?.extract()?;
            r.push((cell, codes_of(&codes)?));
        }
        a.rays.push(r);
    }
    Ok(a)
}

fn castle(entry: &Bound<PyAny>) -> PyResult<Castle> {
    let (bit, kf, kt, rf, rt, empty, passing, m): (
        u64,
        u16,
        u16,
        u16,
        u16,
        Vec<u16>,
        Vec<u16>,
        Move,
    ) = entry.extract()?;
    Ok(Castle {
        bit,
        kf,
        kt,
        rf,
        rt,
        empty,
        passing,
        m,
    })
}

impl Tables {
    /// Copies a Python `Tables` object; `adjacent` is the geometry's King-step neighbours and
    /// `fortress` the Fortress codes when the capture consequence is the Fortress garrison.
    pub fn from_python(
        t: &Bound<PyAny>,
        files: usize,
        types: usize,
        adjacent: Vec<Vec<u16>>,
        fortress: Option<[u8; 2]>,
    ) -> PyResult<Tables> {
        let n: usize = t.getattr("size")?.extract()?;
        if n == 0 || n > 1024 || files == 0 || !n.is_multiple_of(files) || adjacent.len() != n {
            return Err(PyValueError::new_err("tables: bad board size"));
        }
        let own: Vec<Vec<bool>> = t.getattr("own")?.extract()?;
        let own_arr = |s: usize| -> PyResult<[bool; MAX_CODE]> {
            own.get(s)
                .cloned()
                .unwrap_or_default()
                .try_into()
                .map_err(|_| PyValueError::new_err("tables.own"))
        };
        let mut gen = Vec::with_capacity(MAX_CODE * n);
        for code_gen in t.getattr("gen")?.try_iter()? {
            let code_gen = code_gen?;
            if code_gen.is_none() {
                gen.extend((0..n).map(|_| None));
                continue;
            }
            let mut count = 0;
            for cell in code_gen.try_iter()? {
                gen.push(Some(cell_gen(&cell?)?));
                count += 1;
            }
            if count != n {
                return Err(PyValueError::new_err(
                    "tables.gen: one entry per cell expected",
                ));
            }
        }
        if gen.len() != MAX_CODE * n {
            return Err(PyValueError::new_err(
                "tables.gen: one table per code expected",
            ));
        }
        let mut attacks: [Vec<Attack>; 2] = [Vec::new(), Vec::new()];
        for (side, per_cell) in t.getattr("attacks")?.try_iter()?.enumerate() {
            if side > 1 {
                return Err(PyValueError::new_err("tables.attacks: two sides expected"));
            }
            for entry in per_cell?.try_iter()? {
                attacks[side].push(attack(&entry?)?);
            }
            if attacks[side].len() != n {
                return Err(PyValueError::new_err(
                    "tables.attacks: one entry per cell expected",
                ));
            }
        }
        let mut castles: [Vec<Castle>; 2] = [Vec::new(), Vec::new()];
        for (side, entries) in t.getattr("castles")?.try_iter()?.enumerate().take(2) {
            for e in entries?.try_iter()? {
                castles[side].push(castle(&e?)?);
            }
        }
        let mut castle_entries = Vec::new();
        for e in t.getattr("castle_entries")?.try_iter()? {
            castle_entries.push(castle(&e?)?);
        }
        let keep: Vec<i64> = t.getattr("castle_keep")?.extract()?;
        let promotions: Vec<Vec<u8>> = t.getattr("promotions")?.extract()?;
        let king_code: Vec<u8> = t.getattr("king_code")?.extract()?;
        let z_piece: Vec<Vec<u64>> = t.getattr("z_piece")?.extract()?;
        let z_hold_obj = t.getattr("z_hold")?;
        let holdings = !z_hold_obj.is_none();
        let mut z_hold = Vec::new();
        let mut max_held = 0;
        if holdings {
            let zh: Vec<Vec<Vec<u64>>> = z_hold_obj.extract()?;
            for per_type in zh.iter().take(2) {
                if per_type.len() != types + 1 {
                    return Err(PyValueError::new_err(
                        "tables.z_hold: one row per type expected",
                    ));
                }
                for keys in per_type {
                    max_held = keys.len() - 1;
                    z_hold.extend_from_slice(keys);
                }
            }
            if z_hold.len() != 2 * (types + 1) * (max_held + 1) {
                return Err(PyValueError::new_err(
                    "tables.z_hold: rows of equal length expected",
                ));
            }
        }
        let tables = Tables {
            n,
            files,
            types,
            royal: flags(t, "royal")?,
            pawn: flags(t, "pawn")?,
            checkable: flags(t, "checkable")?,
            holdable: flags(t, "holdable")?,
            own: [own_arr(0)?, own_arr(1)?],
            king_code: [king_code[0], king_code[1]],
            promotions: [promotions[0].clone(), promotions[1].clone()],
            gen,
            attacks,
            castles,
            castle_entries,
            castle_keep: keep.into_iter().map(|k| k as u64).collect(),
            z_piece: z_piece
                .into_iter()
                .flat_map(|row| {
                    let mut row = row;
                    row.resize(n, 0);
                    row
                })
                .collect(),
            z_castle: t.getattr("z_castle")?.extract()?,
            z_ep: t.getattr("z_ep")?.extract()?,
            z_side: t.getattr("z_side")?.extract()?,
            z_hold,
            max_held,
            holdings,
            adjacent,
            fortress,
            diagram: None,
        };
        tables.check()?;
        Ok(tables)
    }

    /// Every cell, code and castling index the tables hold is in range, so generation and
    /// make/unmake can index without further checks.
    fn check(&self) -> PyResult<()> {
        let n = self.n as u16;
        let bad = |what: &str| {
            Err(PyValueError::new_err(format!(
                "tables: {what} out of range"
            )))
        };
        if self.castle_keep.len() != self.n
            || self.z_ep.len() != self.n
            || self.z_piece.len() != MAX_CODE * self.n
        {
            return bad("per-cell table length");
        }
        if self.z_castle.len() != 1 << self.castle_entries.len() || self.castle_entries.len() > 32 {
            return bad("castling keys");
        }
        if self.king_code.iter().any(|&c| c as usize >= MAX_CODE)
            || self.promotions.iter().flatten().any(|&p| p >= 64)
        {
            return bad("codes");
        }
        let moves_ok = |t: u16, m: Move| {
            t < n && (m & 1023) < self.n as u64 && (m >> 10 & 1023) < self.n as u64
        };
        for g in self.gen.iter().flatten() {
            for group in &g.groups {
                let ok = match group {
                    Group::Leap(_, s) => s.iter().all(|s| moves_ok(s.t, s.m)),
                    Group::Ray(_, rays) => rays.iter().flatten().all(|s| moves_ok(s.t, s.m)),
                    Group::Pat(_, s) => s
                        .iter()
                        .all(|s| moves_ok(s.t, s.m) && s.between.iter().all(|&b| b < n)),
                    Group::Ep(s) => s.iter().all(|s| moves_ok(s.t, s.m) && s.captured < n),
                };
                if !ok {
                    return bad("move group cell");
                }
            }
        }
        for a in self.attacks.iter().flatten() {
            let ok = a.leaps.iter().all(|e| e.0 < n)
                && a.pats.iter().all(|e| e.0 < n && e.2.iter().all(|&b| b < n))
                && a.rays.iter().flatten().all(|e| e.0 < n);
            if !ok {
                return bad("attack cell");
            }
        }
        for c in self.castles.iter().flatten().chain(&self.castle_entries) {
            if [c.kf, c.kt, c.rf, c.rt]
                .iter()
                .chain(&c.empty)
                .chain(&c.passing)
                .any(|&x| x >= n)
            {
                return bad("castling cell");
            }
        }
        if self.adjacent.iter().flatten().any(|&x| x >= n) {
            return bad("adjacent cell");
        }
        Ok(())
    }
}
