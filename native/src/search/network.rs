//! The learned evaluation network (`engine/network.py` describes its shape and file): one layer
//! of `HIDDEN` 16-bit units per point of view, kept up to date move by move like the tables'
//! sums, clipped and weighed into one correction of the evaluation. A view mirrors the files
//! while its own King stands on files e-h; its sums are made afresh when the King crosses.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

const HIDDEN: usize = 128;
const INPUTS: usize = 768;
const SCALE: i64 = 174;
const QA: i16 = 255;
const QB: i64 = 64;

/// The first layer's sums from White's and from Black's point of view.
#[derive(Clone, Copy)]
pub struct Accumulator {
    pub v: [[i16; HIDDEN]; 2],
    /// per view: whether its sums are of the mirrored inputs
    pub mirror: [bool; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            v: [[0; HIDDEN]; 2],
            mirror: [false; 2],
        }
    }
}

pub struct Network {
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    /// the side to move's units, then the other side's
    w2: [[i16; HIDDEN]; 2],
    b2: i32,
    /// per view, unmirrored then mirrored, per code * n + cell: the piece's input (-1: none)
    inputs: [[Vec<i16>; 2]; 2],
    /// per cell: whether a view whose King stands there mirrors
    mirrors: Vec<bool>,
}

/// The Python side's network: weights, then the inputs per view, mirroring and code * n + cell
/// in one list, then per cell whether a King there mirrors its view (`network.inputs`).
pub type NetworkData = (Vec<i16>, Vec<i16>, Vec<i16>, i32, Vec<i16>, Vec<u8>);

impl Network {
    pub fn new(data: NetworkData, cells: usize, n: usize) -> PyResult<Network> {
        let (w1, b1, w2, b2, inputs, mirrors) = data;
        if w1.len() != INPUTS * HIDDEN || b1.len() != HIDDEN || w2.len() != 2 * HIDDEN {
            return Err(PyValueError::new_err("network: weights of the wrong shape"));
        }
        if inputs.len() != 4 * cells || mirrors.len() != n {
            return Err(PyValueError::new_err(
                "network: one input per view, mirroring, code and cell, one mirroring per cell needed",
            ));
        }
        if inputs.iter().any(|&f| f >= INPUTS as i16) {
            return Err(PyValueError::new_err("network: input out of range"));
        }
        let row = |v: &[i16]| -> [i16; HIDDEN] { v.try_into().expect("HIDDEN values") };
        let table = |k: usize| inputs[k * cells..(k + 1) * cells].to_vec();
        Ok(Network {
            w1: w1.chunks_exact(HIDDEN).map(row).collect(),
            b1: row(&b1),
            w2: [row(&w2[..HIDDEN]), row(&w2[HIDDEN..])],
            b2,
            inputs: [[table(0), table(1)], [table(2), table(3)]],
            mirrors: mirrors.iter().map(|&m| m != 0).collect(),
        })
    }

    pub fn nbytes(&self) -> usize {
        2 * (self.w1.len() * HIDDEN + 3 * HIDDEN + 4 * self.inputs[0][0].len()) + self.mirrors.len()
    }

    /// Whether a view whose King stands at `king` (-1: none) mirrors.
    fn mirrors_at(&self, king: i32) -> bool {
        king >= 0 && self.mirrors[king as usize]
    }

    /// The sums of an empty board whose Kings would stand at `kings`: the biases.
    pub fn empty(&self, kings: [i32; 2]) -> Accumulator {
        Accumulator {
            v: [self.b1; 2],
            mirror: kings.map(|k| self.mirrors_at(k)),
        }
    }

    /// Adds (`sign` 1) or removes (-1) the piece at `index` (code * n + cell).
    #[inline]
    pub fn update(&self, a: &mut Accumulator, index: usize, sign: i16) {
        for (view, sums) in a.v.iter_mut().enumerate() {
            self.add_row(sums, self.inputs[view][a.mirror[view] as usize][index], sign);
        }
    }

    #[inline]
    fn add_row(&self, sums: &mut [i16; HIDDEN], f: i16, sign: i16) {
        if f >= 0 {
            for (s, &w) in sums.iter_mut().zip(&self.w1[f as usize]) {
                *s = s.wrapping_add(sign.wrapping_mul(w));
            }
        }
    }

    /// After a move whose cell changes went through `update`: a view whose King has crossed
    /// between files a-d and e-h gets its sums made afresh from the pieces (`indices`, code * n
    /// + cell each) in the other mirroring.
    pub fn settle(&self, a: &mut Accumulator, kings: [i32; 2], indices: impl Iterator<Item = usize> + Clone) {
        for (view, &king) in kings.iter().enumerate() {
            let mirror = self.mirrors_at(king);
            if mirror != a.mirror[view] {
                a.mirror[view] = mirror;
                a.v[view] = self.b1;
                for index in indices.clone() {
                    self.add_row(&mut a.v[view], self.inputs[view][mirror as usize][index], 1);
                }
            }
        }
    }

    /// The correction in centipawns for `side` (0: Player 1, White).
    pub fn evaluate(&self, a: &Accumulator, side: usize) -> i32 {
        let mut total = self.b2 as i64;
        for (half, view) in [side, 1 - side].into_iter().enumerate() {
            let dot: i32 = a.v[view]
                .iter()
                .zip(&self.w2[half])
                .map(|(&s, &w)| s.clamp(0, QA) as i32 * w as i32)
                .sum();
            total += dot as i64;
        }
        (total * SCALE).div_euclid(QA as i64 * QB) as i32
    }
}
