//! The static evaluation of the native search, in centipawns.
//!
//! Most of it lives in per-(piece code, cell) tables that the Python side builds from the
//! movement-derived piece values and the parameters in `engine/eval.toml` (material, static
//! mobility, pawn advancement, the King's place): the search keeps their middlegame and endgame
//! sums and the phase up to date move by move (`Acc`). What depends on several pieces at once is
//! computed here from the position: pawn structure (doubled, isolated, passed pawns, for any
//! pawn-like piece) and King safety (the shelter of own pieces next to the King, a Fortress most;
//! enemy pieces near it, royal attackers weighted up because the Fortress's garrison does not
//! deter them). The two are blended by the phase (non-pawn material left). Where the variant has
//! a learned network (orthodox chess), its correction is added (`network.rs`), its first layer
//! kept move by move with the tables' sums; not where a side has its King alone.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::network::{Accumulator, Network, NetworkData};
use crate::encoding::{side_of, MAX_CODE};
use crate::position::Pos;
use crate::tables::Group;

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
    pub lazy_margin: i32,
    pub slider_mg: i32,
    pub slider_eg: i32,
}

const TERM_NAMES: [&str; 13] = [
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
    "lazy_margin",
    "slider_mg",
    "slider_eg",
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
            lazy_margin: v[10],
            slider_mg: v[11],
            slider_eg: v[12],
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
    /// the learned network that corrects the evaluation, when there is one
    pub net: Option<Network>,
}

/// The incrementally kept table sums (and the network's, when there is one).
#[derive(Clone, Copy, Default)]
pub struct Acc {
    pub mg: i32,
    pub eg: i32,
    pub ph: i32,
    pub net: Accumulator,
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
        net: Option<NetworkData>,
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
            net: net.map(|d| Network::new(d, MAX_CODE * n, n)).transpose()?,
        })
    }

    pub fn nbytes(&self) -> usize {
        std::mem::size_of::<EvalTables>()
            + 4 * (self.mg.len() + self.eg.len() + 7 * MAX_CODE)
            + self.net.as_ref().map_or(0, Network::nbytes)
    }

    #[inline]
    pub fn add(&self, a: &mut Acc, code: u8, cell: usize) {
        let i = code as usize * self.n + cell;
        a.mg += self.mg[i];
        a.eg += self.eg[i];
        a.ph += self.phase[code as usize];
        if let Some(net) = &self.net {
            net.update(&mut a.net, i, 1);
        }
    }

    #[inline]
    pub fn sub(&self, a: &mut Acc, code: u8, cell: usize) {
        let i = code as usize * self.n + cell;
        a.mg -= self.mg[i];
        a.eg -= self.eg[i];
        a.ph -= self.phase[code as usize];
        if let Some(net) = &self.net {
            net.update(&mut a.net, i, -1);
        }
    }

    /// Ends a move's updates of the sums (`add`, `sub`): the network's views whose King crossed
    /// the middle are made afresh.
    #[inline]
    pub fn settle(&self, a: &mut Acc, pos: &Pos) {
        if let Some(net) = &self.net {
            let n = self.n;
            let pieces = pos.pieces.iter().flatten();
            let pieces = pieces.map(|&c| pos.board[c as usize] as usize * n + c as usize);
            net.settle(&mut a.net, pos.kings, pieces);
        }
    }

    /// The table sums of a position, from scratch.
    pub fn acc(&self, pos: &Pos) -> Acc {
        let mut a = Acc {
            net: self.net.as_ref().map_or_else(Accumulator::default, |net| net.empty(pos.kings)),
            ..Acc::default()
        };
        for side in 0..2 {
            for &c in &pos.pieces[side] {
                self.add(&mut a, pos.board[c as usize], c as usize);
            }
        }
        a
    }

    /// The evaluation from the side to move's point of view, with the network's correction when
    /// there is one. Outside the window (`alpha`, `beta`) by more than the lazy margin, King
    /// safety and the sliders' reach are skipped.
    pub fn evaluate(&self, pos: &Pos, acc: &Acc, alpha: i32, beta: i32) -> i32 {
        let (mut mg, mut eg) = (acc.mg, acc.eg);
        self.pawns(pos, &mut mg, &mut eg);
        let pm = self.phase_max;
        let ph = acc.ph.clamp(0, pm);
        let blended = (mg as i64 * ph as i64 + eg as i64 * (pm - ph) as i64) / pm as i64;
        let sign = if pos.side == 0 { 1 } else { -1 };
        // a bare King's endings are mates the search finds, which the network never saw (its
        // training positions are scored, mates left out): there it would only blur the tables
        let bare = pos.pieces[0].len() == 1 || pos.pieces[1].len() == 1;
        let correction = match &self.net {
            Some(net) if !bare => net.evaluate(&acc.net, pos.side),
            _ => 0,
        };
        let fast = sign * blended as i32 + self.terms.tempo + correction;
        let margin = self.terms.lazy_margin;
        if fast - margin >= beta || fast + margin <= alpha {
            return fast;
        }
        let ks = self.king_safety(pos) as i64 * ph as i64 / pm as i64;
        let reach = self.slider_reach(pos) as i64;
        let tm = &self.terms;
        let mobility = reach
            * (tm.slider_mg as i64 * ph as i64 + tm.slider_eg as i64 * (pm - ph) as i64)
            / pm as i64;
        fast + sign * (ks + mobility) as i32
    }

    /// The cells the sliding pieces reach as the board stands (empty ones and a capture at the
    /// end of each ray), Player 1's count minus Player 2's: what the tables' empty-board mobility
    /// cannot see.
    fn slider_reach(&self, pos: &Pos) -> i32 {
        let t = &pos.t;
        let mut total = 0;
        for side in 0..2 {
            let enemy = t.enemy(side);
            let mut count = 0;
            for &c in &pos.pieces[side] {
                let code = pos.board[c as usize] as usize;
                let Some(g) = &t.gen[code * t.n + c as usize] else {
                    continue;
                };
                for group in &g.groups {
                    if let Group::Ray(_, rays) = group {
                        for ray in rays {
                            for s in ray {
                                let p = pos.board[s.t as usize];
                                if p == 0 {
                                    count += 1;
                                    continue;
                                }
                                count += enemy[p as usize] as i32;
                                break;
                            }
                        }
                    }
                }
            }
            total += if side == 0 { count } else { -count };
        }
        total
    }

    /// Doubled, isolated and passed pawns (pawn-like pieces, each side moving up its own ranks).
    fn pawns(&self, pos: &Pos, mg: &mut i32, eg: &mut i32) {
        const MAX_FILES: usize = 32;
        let files = self.files;
        if files > MAX_FILES {
            return;
        }
        let t = &pos.t;
        // per side and file: pawn count, lowest and highest rank
        let mut count = [[0u8; MAX_FILES]; 2];
        let mut low = [[u16::MAX; MAX_FILES]; 2];
        let mut high = [[0u16; MAX_FILES]; 2];
        let mut any = false;
        for side in 0..2 {
            for &c in &pos.pieces[side] {
                if t.pawn[pos.board[c as usize] as usize] {
                    let (f, r) = (c as usize % files, c / files as u16);
                    count[side][f] += 1;
                    low[side][f] = low[side][f].min(r);
                    high[side][f] = high[side][f].max(r);
                    any = true;
                }
            }
        }
        if !any {
            return;
        }
        let tm = &self.terms;
        let span = (self.ranks as i32 - 3).max(1);
        for side in 0..2 {
            let sign = if side == 0 { 1 } else { -1 };
            let other = side ^ 1;
            for f in 0..files {
                let k = count[side][f] as i32;
                if k == 0 {
                    continue;
                }
                let (mut smg, mut seg) = (0, 0);
                if k > 1 {
                    smg -= tm.doubled_mg * (k - 1);
                    seg -= tm.doubled_eg * (k - 1);
                }
                let left = f > 0 && count[side][f - 1] > 0;
                let right = f + 1 < files && count[side][f + 1] > 0;
                if !left && !right {
                    smg -= tm.isolated_mg * k;
                    seg -= tm.isolated_eg * k;
                }
                // the most advanced pawn of the file: passed when no enemy pawn stands ahead of
                // it on its file or the two next to it
                let front = if side == 0 { high[0][f] } else { low[1][f] };
                let lo = f.saturating_sub(1);
                let hi = (f + 1).min(files - 1);
                let passed = (lo..=hi).all(|g| {
                    count[other][g] == 0
                        || if side == 0 {
                            high[1][g] <= front
                        } else {
                            low[0][g] >= front
                        }
                });
                if passed {
                    let own_rank = if side == 0 {
                        front as i32
                    } else {
                        self.ranks as i32 - 1 - front as i32
                    };
                    let a = (own_rank - 1).clamp(0, span);
                    smg += tm.passed_mg * a * a / (span * span);
                    seg += tm.passed_eg * a * a / (span * span);
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

    /// Middlegame King safety, Player 1's point of view.
    pub fn king_safety(&self, pos: &Pos) -> i32 {
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
