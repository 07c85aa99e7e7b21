//! The learned evaluation network (`engine/network.py` describes its shape and file): one layer
//! of `HIDDEN` 16-bit units per point of view, kept up to date move by move like the tables'
//! sums, clipped and weighed into one correction of the evaluation.

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
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            v: [[0; HIDDEN]; 2],
        }
    }
}

pub struct Network {
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    /// the side to move's units, then the other side's
    w2: [[i16; HIDDEN]; 2],
    b2: i32,
    /// per view, per code * n + cell: the piece's input (-1: none)
    inputs: [Vec<i16>; 2],
}

/// The Python side's network: weights, then each view's input per code and cell.
pub type NetworkData = (Vec<i16>, Vec<i16>, Vec<i16>, i32, Vec<i16>, Vec<i16>);

impl Network {
    pub fn new(data: NetworkData, cells: usize) -> PyResult<Network> {
        let (w1, b1, w2, b2, white, black) = data;
        if w1.len() != INPUTS * HIDDEN || b1.len() != HIDDEN || w2.len() != 2 * HIDDEN {
            return Err(PyValueError::new_err("network: weights of the wrong shape"));
        }
        if white.len() != cells || black.len() != cells {
            return Err(PyValueError::new_err("network: one input per code and cell needed"));
        }
        if white.iter().chain(&black).any(|&f| f >= INPUTS as i16) {
            return Err(PyValueError::new_err("network: input out of range"));
        }
        let row = |v: &[i16]| -> [i16; HIDDEN] { v.try_into().expect("HIDDEN values") };
        Ok(Network {
            w1: w1.chunks_exact(HIDDEN).map(row).collect(),
            b1: row(&b1),
            w2: [row(&w2[..HIDDEN]), row(&w2[HIDDEN..])],
            b2,
            inputs: [white, black],
        })
    }

    pub fn nbytes(&self) -> usize {
        2 * (self.w1.len() * HIDDEN + 3 * HIDDEN + self.inputs[0].len() + self.inputs[1].len())
    }

    /// The sums of an empty board: the biases.
    pub fn empty(&self) -> Accumulator {
        Accumulator {
            v: [self.b1; 2],
        }
    }

    /// Adds (`sign` 1) or removes (-1) the piece at `index` (code * n + cell).
    #[inline]
    pub fn update(&self, a: &mut Accumulator, index: usize, sign: i16) {
        for (view, sums) in a.v.iter_mut().enumerate() {
            let f = self.inputs[view][index];
            if f >= 0 {
                let row = &self.w1[f as usize];
                for (s, &w) in sums.iter_mut().zip(row) {
                    *s = s.wrapping_add(sign.wrapping_mul(w));
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
