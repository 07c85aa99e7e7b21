//! The static evaluation of the native search, in centipawns.
//!
//! Most of it lives in per-(piece code, cell) tables that the Python side builds from the
//! movement-derived piece values and the parameters in `engine/eval.toml` (material, static
//! mobility, pawn advancement, the King's place): the search keeps their middlegame and endgame
//! sums and the phase up to date move by move (`Acc`). What depends on several pieces at once is
//! computed here from the position: pawn structure (doubled, isolated, passed pawns, for any
//! pawn-like piece) and King safety (the shelter of own pieces next to the King, a Fortress most;
//! enemy pieces near it, royal attackers weighted up because the Fortress's garrison does not
//! deter them). The two are blended by the phase (non-pawn material left).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use std::sync::OnceLock;

use crate::cellset::CellSet;
use crate::encoding::{side_of, MAX_CODE};
use crate::position::Pos;
use crate::tables::{Group, Mode};

/// The parameters computed from the position (`[terms]` of eval.toml).
#[derive(Clone, Copy, Default)]
pub struct Terms {
    pub tempo: i32,
    pub shield_cap: i32,
    pub royal_attack_pct: i32,
    pub garrison_deterrence_pct: i32,
    pub doubled_mg: i32,
    pub doubled_eg: i32,
    pub isolated_mg: i32,
    pub isolated_eg: i32,
    pub passed_mg: i32,
    pub passed_eg: i32,
    pub passed_blocked_pct: i32,
    pub passed_king_eg: i32,
    pub lazy_margin: i32,
    pub reach_mg: i32,
    pub reach_eg: i32,
    pub attacker_weight: i32,
    pub zone_hit: i32,
    pub danger_divisor: i32,
    pub danger_max: i32,
    pub shelter_missing: i32,
    pub shelter_semi_open: i32,
    pub shelter_open: i32,
    pub storm: i32,
    pub file_open_mg: i32,
    pub file_open_eg: i32,
    pub file_semi_mg: i32,
    pub file_semi_eg: i32,
    pub pair_mg: i32,
    pub pair_eg: i32,
}

const TERM_NAMES: [&str; 29] = [
    "tempo",
    "shield_cap",
    "royal_attack_pct",
    "garrison_deterrence_pct",
    "doubled_mg",
    "doubled_eg",
    "isolated_mg",
    "isolated_eg",
    "passed_mg",
    "passed_eg",
    "passed_blocked_pct",
    "passed_king_eg",
    "lazy_margin",
    "reach_mg",
    "reach_eg",
    "attacker_weight",
    "zone_hit",
    "danger_divisor",
    "danger_max",
    "shelter_missing",
    "shelter_semi_open",
    "shelter_open",
    "storm",
    "file_open_mg",
    "file_open_eg",
    "file_semi_mg",
    "file_semi_eg",
    "pair_mg",
    "pair_eg",
];

impl Terms {
    fn from_dict(d: &Bound<PyDict>) -> PyResult<Terms> {
        let mut v = [0i32; TERM_NAMES.len()];
        for (slot, name) in v.iter_mut().zip(TERM_NAMES) {
            *slot = d
                .get_item(name)?
                .ok_or_else(|| PyValueError::new_err(format!("evaluation term {name} missing")))?
                .extract()?;
        }
        Ok(Terms {
            tempo: v[0],
            shield_cap: v[1],
            royal_attack_pct: v[2],
            garrison_deterrence_pct: v[3],
            doubled_mg: v[4],
            doubled_eg: v[5],
            isolated_mg: v[6],
            isolated_eg: v[7],
            passed_mg: v[8],
            passed_eg: v[9],
            passed_blocked_pct: v[10],
            passed_king_eg: v[11],
            lazy_margin: v[12],
            reach_mg: v[13],
            reach_eg: v[14],
            attacker_weight: v[15],
            zone_hit: v[16],
            danger_divisor: v[17].max(1),
            danger_max: v[18],
            shelter_missing: v[19],
            shelter_semi_open: v[20],
            shelter_open: v[21],
            storm: v[22],
            file_open_mg: v[23],
            file_open_eg: v[24],
            file_semi_mg: v[25],
            file_semi_eg: v[26],
            pair_mg: v[27],
            pair_eg: v[28],
        })
    }
}

/// When a side cannot mate (the variant's insufficient-material hook, as the search needs it).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Insufficient {
    Never,
    /// a bare King, or a King and one minor piece, against a bare King (chess, Superchess)
    Fide,
    /// a King with at most one minor piece (super16 R10): drawn when both sides are so
    LoneMinor,
}

/// The tables and parameters of one variant and roster pair.
pub struct EvalTables {
    pub n: usize,
    pub files: usize,
    pub ranks: usize,
    /// per code * n + cell, Player 1's point of view
    pub mg: Vec<i32>,
    pub eg: Vec<i32>,
    pub phase: Vec<i32>,
    pub phase_max: i32,
    /// material per code (exchange evaluation, ordering, pruning margins)
    pub value: Vec<i32>,
    /// as `value`, with the King the most valuable attacker
    pub order_value: Vec<i32>,
    pub attack_weight: Vec<i32>,
    pub shield: Vec<i32>,
    pub minor: Vec<bool>,
    pub zone_radius: i32,
    pub terms: Terms,
    pub insufficient: Insufficient,
    /// half-moves without capture or pawn move after which the game is drawn (the claim)
    pub move_rule: u32,
    /// per code: bound to one colour of cells (`colour_bound`)
    bound: OnceLock<[bool; MAX_CODE]>,
}

const MAX_FILES: usize = 32;

/// Per side and file: the pawn-like pieces' count, lowest and highest rank.
pub struct PawnFiles {
    count: [[u8; MAX_FILES]; 2],
    low: [[u16; MAX_FILES]; 2],
    high: [[u16; MAX_FILES]; 2],
}

impl PawnFiles {
    /// None on boards wider than `MAX_FILES` (their file terms are skipped).
    fn of(pos: &Pos, files: usize) -> Option<PawnFiles> {
        if files > MAX_FILES {
            return None;
        }
        let mut pf = PawnFiles {
            count: [[0; MAX_FILES]; 2],
            low: [[u16::MAX; MAX_FILES]; 2],
            high: [[0; MAX_FILES]; 2],
        };
        for side in 0..2 {
            for &c in &pos.pieces[side] {
                if pos.t.pawn[pos.board[c as usize] as usize] {
                    let (f, r) = (c as usize % files, c / files as u16);
                    pf.count[side][f] += 1;
                    pf.low[side][f] = pf.low[side][f].min(r);
                    pf.high[side][f] = pf.high[side][f].max(r);
                }
            }
        }
        Some(pf)
    }
}

/// The incrementally kept table sums.
#[derive(Clone, Copy, Default)]
pub struct Acc {
    pub mg: i32,
    pub eg: i32,
    pub ph: i32,
}

fn per_code(v: Vec<i32>, what: &str) -> PyResult<Vec<i32>> {
    if v.len() != MAX_CODE {
        return Err(PyValueError::new_err(format!(
            "evaluation: {what} needs {MAX_CODE} entries"
        )));
    }
    Ok(v)
}

impl EvalTables {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        n: usize,
        files: usize,
        mg: Vec<i32>,
        eg: Vec<i32>,
        phase: Vec<i32>,
        phase_max: i32,
        value: Vec<i32>,
        order_value: Vec<i32>,
        attack_weight: Vec<i32>,
        shield: Vec<i32>,
        minor: Vec<bool>,
        zone_radius: i32,
        terms: &Bound<PyDict>,
        insufficient: &str,
        move_rule: u32,
    ) -> PyResult<EvalTables> {
        if n == 0 || n > 1024 || files == 0 || !n.is_multiple_of(files) {
            return Err(PyValueError::new_err("evaluation: bad board size"));
        }
        if mg.len() != MAX_CODE * n || eg.len() != MAX_CODE * n || minor.len() != MAX_CODE {
            return Err(PyValueError::new_err(
                "evaluation: tables need one entry per code and cell",
            ));
        }
        Ok(EvalTables {
            n,
            files,
            ranks: n / files,
            mg,
            eg,
            phase: per_code(phase, "phase")?,
            phase_max: phase_max.max(1),
            value: per_code(value, "value")?,
            order_value: per_code(order_value, "order_value")?,
            attack_weight: per_code(attack_weight, "attack_weight")?,
            shield: per_code(shield, "shield")?,
            minor,
            zone_radius,
            terms: Terms::from_dict(terms)?,
            insufficient: match insufficient {
                "never" => Insufficient::Never,
                "fide" => Insufficient::Fide,
                "lone_minor" => Insufficient::LoneMinor,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "evaluation: unknown insufficient-material rule {other}"
                    )))
                }
            },
            move_rule,
            bound: OnceLock::new(),
        })
    }

    pub fn nbytes(&self) -> usize {
        std::mem::size_of::<EvalTables>() + 4 * (self.mg.len() + self.eg.len() + 7 * MAX_CODE)
    }

    #[inline]
    pub fn add(&self, a: &mut Acc, code: u8, cell: usize) {
        let i = code as usize * self.n + cell;
        a.mg += self.mg[i];
        a.eg += self.eg[i];
        a.ph += self.phase[code as usize];
    }

    #[inline]
    pub fn sub(&self, a: &mut Acc, code: u8, cell: usize) {
        let i = code as usize * self.n + cell;
        a.mg -= self.mg[i];
        a.eg -= self.eg[i];
        a.ph -= self.phase[code as usize];
    }

    /// The table sums of a position, from scratch.
    pub fn acc(&self, pos: &Pos) -> Acc {
        let mut a = Acc::default();
        for side in 0..2 {
            for &c in &pos.pieces[side] {
                self.add(&mut a, pos.board[c as usize], c as usize);
            }
        }
        a
    }

    /// The evaluation from the side to move's point of view. Outside the window (`alpha`,
    /// `beta`) by more than the lazy margin, King safety and the pieces' activity are skipped.
    pub fn evaluate(&self, pos: &Pos, acc: &Acc, alpha: i32, beta: i32) -> i32 {
        let (mut mg, mut eg) = (acc.mg, acc.eg);
        let files = PawnFiles::of(pos, self.files);
        if let Some(pf) = &files {
            self.pawns(pos, pf, &mut mg, &mut eg);
        }
        self.pairs(pos, &mut mg, &mut eg);
        let pm = self.phase_max;
        let ph = acc.ph.clamp(0, pm);
        let blend = |mg: i32, eg: i32| {
            ((mg as i64 * ph as i64 + eg as i64 * (pm - ph) as i64) / pm as i64) as i32
        };
        let sign = if pos.side == 0 { 1 } else { -1 };
        let fast = sign * blend(mg, eg) + self.terms.tempo;
        let margin = self.terms.lazy_margin;
        if fast - margin >= beta || fast + margin <= alpha {
            return fast;
        }
        let ks = self.king_safety(pos, files.as_ref());
        let (amg, aeg) = self.activity(pos, files.as_ref());
        fast + sign * blend(ks + amg, aeg)
    }

    /// Which piece codes are bound to one colour of cells (every move keeps the colour): two of
    /// them on both colours make a pair. Learnt from the first position's tables.
    fn colour_bound(&self, pos: &Pos) -> &[bool; MAX_CODE] {
        self.bound.get_or_init(|| {
            let t = &pos.t;
            let mut out = [false; MAX_CODE];
            for (code, slot) in out.iter_mut().enumerate() {
                if t.pawn[code] || t.checkable[code] {
                    continue;
                }
                let colour = |c: usize| (c % t.files + c / t.files) % 2;
                let mut seen = false;
                let mut bound = true;
                for cell in 0..t.n {
                    let Some(g) = &t.gen[code * t.n + cell] else {
                        continue;
                    };
                    for group in &g.groups {
                        let mut check = |to: u16| {
                            seen = true;
                            bound &= colour(to as usize) == colour(cell);
                        };
                        match group {
                            Group::Leap(_, steps) => steps.iter().for_each(|s| check(s.t)),
                            Group::Ray(_, rays) => rays.iter().flatten().for_each(|s| check(s.t)),
                            Group::Pat(_, steps) => steps.iter().for_each(|s| check(s.t)),
                            Group::Ep(steps) => steps.iter().for_each(|s| check(s.t)),
                        }
                    }
                }
                *slot = seen && bound;
            }
            out
        })
    }

    /// Two colour-bound pieces of one kind on both colours (the bishop pair).
    fn pairs(&self, pos: &Pos, mg: &mut i32, eg: &mut i32) {
        let bound = self.colour_bound(pos);
        let files = self.files;
        for side in 0..2 {
            // per code: the colours seen (bit 0 light, bit 1 dark)
            let mut colours = [0u8; MAX_CODE];
            let mut any = false;
            for &c in &pos.pieces[side] {
                let code = pos.board[c as usize] as usize;
                if bound[code] {
                    let c = c as usize;
                    colours[code] |= 1 << ((c % files + c / files) % 2);
                    any = true;
                }
            }
            if any && colours.contains(&3) {
                let sign = if side == 0 { 1 } else { -1 };
                *mg += sign * self.terms.pair_mg;
                *eg += sign * self.terms.pair_eg;
            }
        }
    }

    /// The pieces' activity, Player 1's point of view as (middlegame, endgame): mobility (cells
    /// reached as the board stands, that no enemy pawn attacks), attacks on the enemy King's
    /// zone (attackers' weight and cells hit, counted when two or more attack: the danger grows
    /// with the square of the attack units), and pieces with a file ray on an open or half-open
    /// file.
    fn activity(&self, pos: &Pos, files: Option<&PawnFiles>) -> (i32, i32) {
        let t = &pos.t;
        let tm = &self.terms;
        let board = &pos.board;
        let ring = (self.zone_radius - 1).max(1);
        let mut pawn_attacks = [CellSet::new(), CellSet::new()];
        for (side, set) in pawn_attacks.iter_mut().enumerate() {
            for &c in &pos.pieces[side] {
                let code = board[c as usize] as usize;
                if !t.pawn[code] {
                    continue;
                }
                if let Some(g) = &t.gen[code * t.n + c as usize] {
                    for group in &g.groups {
                        if let Group::Leap(mode, steps) = group {
                            if *mode != Mode::Move {
                                steps.iter().for_each(|s| set.insert(s.t as usize));
                            }
                        }
                    }
                }
            }
        }
        let (mut mg, mut eg) = (0, 0);
        for side in 0..2 {
            let enemy = t.enemy(side);
            let unsafe_cells = &pawn_attacks[side ^ 1];
            let ek = pos.kings[side ^ 1];
            let (mut reach, mut attackers, mut weight, mut hits) = (0, 0, 0, 0);
            let (mut fmg, mut feg) = (0, 0);
            for &c in &pos.pieces[side] {
                let code = board[c as usize] as usize;
                if t.pawn[code] || t.checkable[code] {
                    continue;
                }
                let Some(g) = &t.gen[code * t.n + c as usize] else {
                    continue;
                };
                let mut piece_hits = 0;
                let mut file_ray = false;
                let mut visit = |mode: Mode, to: u16| {
                    let to = to as usize;
                    let p = board[to];
                    let usable = match mode {
                        Mode::Move => p == 0,
                        Mode::Capture => p != 0 && enemy[p as usize],
                        Mode::MoveCapture => p == 0 || enemy[p as usize],
                    };
                    if usable && !unsafe_cells.contains(to) {
                        reach += 1;
                    }
                    if mode != Mode::Move && ek >= 0 && self.distance(ek as usize, to) <= ring {
                        piece_hits += 1;
                    }
                };
                for group in &g.groups {
                    match group {
                        Group::Leap(mode, steps) => steps.iter().for_each(|s| visit(*mode, s.t)),
                        Group::Ray(mode, rays) => {
                            for ray in rays {
                                if *mode != Mode::Move
                                    && ray.first().is_some_and(|s| {
                                        s.t as usize % self.files == c as usize % self.files
                                    })
                                {
                                    file_ray = true;
                                }
                                for s in ray {
                                    visit(*mode, s.t);
                                    if board[s.t as usize] != 0 {
                                        break;
                                    }
                                }
                            }
                        }
                        Group::Pat(mode, steps) => {
                            for s in steps {
                                if s.between.iter().all(|&b| board[b as usize] == 0) {
                                    visit(*mode, s.t);
                                }
                            }
                        }
                        Group::Ep(_) => {}
                    }
                }
                if piece_hits > 0 {
                    attackers += 1;
                    weight += self.value[code];
                    hits += piece_hits;
                }
                if let (true, Some(pf)) = (file_ray, files) {
                    let f = c as usize % self.files;
                    if pf.count[side][f] == 0 {
                        if pf.count[side ^ 1][f] == 0 {
                            fmg += tm.file_open_mg;
                            feg += tm.file_open_eg;
                        } else {
                            fmg += tm.file_semi_mg;
                            feg += tm.file_semi_eg;
                        }
                    }
                }
            }
            let mut danger = 0;
            if attackers >= 2 {
                let units = weight * tm.attacker_weight / 100 + hits * tm.zone_hit;
                danger = (units * units / tm.danger_divisor).min(tm.danger_max);
            }
            let sign = if side == 0 { 1 } else { -1 };
            mg += sign * (reach * tm.reach_mg + danger + fmg);
            eg += sign * (reach * tm.reach_eg + feg);
        }
        (mg, eg)
    }

    /// Doubled, isolated and passed pawns (pawn-like pieces, each side moving up its own ranks);
    /// a passed pawn counts less when blocked, and in the endgame more the nearer its own King
    /// and the farther the enemy King from the cell in front of it.
    fn pawns(&self, pos: &Pos, pf: &PawnFiles, mg: &mut i32, eg: &mut i32) {
        let files = self.files;
        let tm = &self.terms;
        let span = (self.ranks as i32 - 3).max(1);
        for side in 0..2 {
            let sign = if side == 0 { 1 } else { -1 };
            let other = side ^ 1;
            for f in 0..files {
                let k = pf.count[side][f] as i32;
                if k == 0 {
                    continue;
                }
                let (mut smg, mut seg) = (0, 0);
                if k > 1 {
                    smg -= tm.doubled_mg * (k - 1);
                    seg -= tm.doubled_eg * (k - 1);
                }
                let left = f > 0 && pf.count[side][f - 1] > 0;
                let right = f + 1 < files && pf.count[side][f + 1] > 0;
                if !left && !right {
                    smg -= tm.isolated_mg * k;
                    seg -= tm.isolated_eg * k;
                }
                // the most advanced pawn of the file: passed when no enemy pawn stands ahead of
                // it on its file or the two next to it
                let front = if side == 0 { pf.high[0][f] } else { pf.low[1][f] };
                let lo = f.saturating_sub(1);
                let hi = (f + 1).min(files - 1);
                let passed = (lo..=hi).all(|g| {
                    pf.count[other][g] == 0
                        || if side == 0 {
                            pf.high[1][g] <= front
                        } else {
                            pf.low[0][g] >= front
                        }
                });
                if passed {
                    let own_rank = if side == 0 {
                        front as i32
                    } else {
                        self.ranks as i32 - 1 - front as i32
                    };
                    let a = (own_rank - 1).clamp(0, span);
                    let (mut pmg, mut peg) = (
                        tm.passed_mg * a * a / (span * span),
                        tm.passed_eg * a * a / (span * span),
                    );
                    let stop = front as i32 + if side == 0 { 1 } else { -1 };
                    if (0..self.ranks as i32).contains(&stop) {
                        let stop = stop as usize * files + f;
                        if pos.board[stop] != 0 {
                            pmg = pmg * tm.passed_blocked_pct / 100;
                            peg = peg * tm.passed_blocked_pct / 100;
                        }
                        let (ok, ek) = (pos.kings[side], pos.kings[other]);
                        if ok >= 0 && ek >= 0 {
                            let near = 2 * self.distance(ek as usize, stop)
                                - self.distance(ok as usize, stop);
                            peg += tm.passed_king_eg * near * a / span;
                        }
                    }
                    smg += pmg;
                    seg += peg;
                }
                *mg += sign * smg;
                *eg += sign * seg;
            }
        }
    }

    #[inline]
    fn distance(&self, a: usize, b: usize) -> i32 {
        let (fa, ra) = ((a % self.files) as i32, (a / self.files) as i32);
        let (fb, rb) = ((b % self.files) as i32, (b / self.files) as i32);
        (fa - fb).abs().max((ra - rb).abs())
    }

    /// Middlegame King safety, Player 1's point of view: the shelter of own pieces next to the
    /// King, the pawns in front of it on its file and the two next to it (missing ones, and
    /// files without an own pawn, cost), and enemy pieces near it.
    pub fn king_safety(&self, pos: &Pos, files: Option<&PawnFiles>) -> i32 {
        let t = &pos.t;
        let tm = &self.terms;
        let radius = self.zone_radius;
        let mut total = 0;
        for side in 0..2 {
            let k = pos.kings[side];
            if k < 0 {
                continue;
            }
            let k = k as usize;
            let own = &t.own[side];
            let fortress = t.fortress.map_or(0, |f| f[side]);
            let mut cover = 0;
            let mut garrisoned = false;
            for &c in &t.adjacent[k] {
                let p = pos.board[c as usize];
                if p != 0 && own[p as usize] {
                    cover += self.shield[p as usize];
                    garrisoned |= p == fortress;
                }
            }
            cover = cover.min(tm.shield_cap);
            if let Some(pf) = files {
                cover -= self.shelter_gaps(side, k, pf);
            }
            let mut danger = 0;
            let mut count = 0;
            for &c in &pos.pieces[side ^ 1] {
                let d = self.distance(k, c as usize);
                if d > radius {
                    continue;
                }
                let p = pos.board[c as usize] as usize;
                let mut w = self.attack_weight[p];
                if w == 0 {
                    continue;
                }
                if t.royal[p] {
                    w = w * tm.royal_attack_pct / 100;
                } else if garrisoned {
                    w = w * (100 - tm.garrison_deterrence_pct) / 100;
                }
                danger += w * (radius + 1 - d);
                count += 1;
            }
            let s = cover - danger * count.min(4) / 4;
            total += if side == 0 { s } else { -s };
        }
        total
    }

    /// What the pawn cover in front of `side`'s King at `k` lacks: per file (its own and the
    /// two next to it) no own pawn one or two ranks ahead, and no own pawn on the file at all
    /// (more when the enemy has none there either); and the enemy pawns storming those files
    /// (per rank nearer than four ranks ahead of the King).
    fn shelter_gaps(&self, side: usize, k: usize, pf: &PawnFiles) -> i32 {
        let tm = &self.terms;
        let (kf, kr) = (k % self.files, (k / self.files) as u16);
        let mut gaps = 0;
        for f in kf.saturating_sub(1)..=(kf + 1).min(self.files - 1) {
            let shielded = if side == 0 {
                pf.count[0][f] > 0 && pf.low[0][f] > kr && pf.low[0][f] <= kr + 2
            } else {
                pf.count[1][f] > 0 && pf.high[1][f] < kr && pf.high[1][f] + 2 >= kr
            };
            if !shielded {
                gaps += tm.shelter_missing;
            }
            if pf.count[side][f] == 0 {
                gaps += if pf.count[side ^ 1][f] == 0 {
                    tm.shelter_open
                } else {
                    tm.shelter_semi_open
                };
            }
            // the nearest enemy pawn ahead of the King on the file
            let ahead = match side {
                0 if pf.count[1][f] > 0 && pf.low[1][f] > kr => Some(pf.low[1][f] - kr),
                1 if pf.count[0][f] > 0 && pf.high[0][f] < kr => Some(kr - pf.high[0][f]),
                _ => None,
            };
            if let Some(d) = ahead.filter(|&d| d < 4) {
                gaps += tm.storm * (4 - d as i32);
            }
        }
        gaps
    }

    /// Neither side can mate (asked with few pieces left).
    pub fn insufficient(&self, pos: &Pos) -> bool {
        let t = &pos.t;
        let mut minors = [0; 2];
        for side in 0..2 {
            for &c in &pos.pieces[side] {
                let p = pos.board[c as usize] as usize;
                if t.checkable[p] {
                    continue;
                }
                if !self.minor[p] {
                    return false;
                }
                minors[side_of(p as u8)] += 1;
            }
        }
        match self.insufficient {
            Insufficient::Never => false,
            Insufficient::Fide => minors[0] + minors[1] <= 1,
            Insufficient::LoneMinor => minors[0] <= 1 && minors[1] <= 1,
        }
    }
}
