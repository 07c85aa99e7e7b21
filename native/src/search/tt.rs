//! The transposition table: buckets of two 24-byte entries, as many as fit in the `Hash`
//! megabytes (never more), indexed by the hash's high bits and verified by its low 32 bits.
//! Replacement prefers the entry of an older search, then the shallower one. The table is
//! allocated zeroed, so the system maps its pages as they are first written.

use crate::encoding::Move;

pub const BOUND_EXACT: u8 = 3;
pub const BOUND_LOWER: u8 = 1;
pub const BOUND_UPPER: u8 = 2;

/// A stored entry, unpacked.
#[derive(Clone, Copy)]
pub struct Entry {
    pub depth: i32,
    bound: u8,
    pub score: i32,
    pub eval: i32,
    pub mv: Move,
}

impl Entry {
    #[inline]
    pub fn bound(&self) -> u8 {
        self.bound
    }
}

/// Three words: key (32 bits) | depth (8) | bound (2) and age (6); score | eval; move.
type Slot = [u64; 3];
type Bucket = [Slot; 2];

pub const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

#[inline]
fn key_of(s: &Slot) -> u32 {
    s[0] as u32
}

#[inline]
fn depth_of(s: &Slot) -> i32 {
    (s[0] >> 32) as u8 as i8 as i32
}

#[inline]
fn bound_of(s: &Slot) -> u8 {
    (s[0] >> 40) as u8 & 3
}

#[inline]
fn age_of(s: &Slot) -> u8 {
    (s[0] >> 42) as u8 & 63
}

pub struct Tt {
    buckets: Vec<Bucket>,
    age: u8,
}

impl Tt {
    /// A table of at most `megabytes` MB (at least one bucket).
    pub fn new(megabytes: usize) -> Tt {
        let count = (megabytes << 20) / BUCKET_BYTES;
        Tt {
            buckets: vec![[[0; 3]; 2]; count.max(1)],
            age: 0,
        }
    }

    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    pub fn clear(&mut self) {
        self.buckets.fill([[0; 3]; 2]);
        self.age = 0;
    }

    /// A new search: entries of earlier searches become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        ((hash as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let key = hash as u32;
        let b = &self.buckets[self.index(hash)];
        b.iter()
            .find(|s| key_of(s) == key && bound_of(s) != 0)
            .map(|s| Entry {
                depth: depth_of(s),
                bound: bound_of(s),
                score: s[1] as u32 as i32,
                eval: (s[1] >> 32) as u32 as i32,
                mv: s[2],
            })
    }

    pub fn store(&mut self, hash: u64, depth: i32, bound: u8, score: i32, eval: i32, mv: Move) {
        let key = hash as u32;
        let age = self.age;
        let i = self.index(hash);
        let b = &mut self.buckets[i];
        let same = b.iter().position(|s| key_of(s) == key && bound_of(s) != 0);
        let slot = match same {
            Some(j) => {
                // the same position: keep a deeper exact result of this search
                let s = &b[j];
                if age_of(s) == age && depth_of(s) > depth + 2 && bound_of(s) == BOUND_EXACT {
                    return;
                }
                j
            }
            None => {
                let worth = |s: &Slot| {
                    let stale = if age_of(s) == age { 0 } else { 64 };
                    depth_of(s) - stale
                };
                if worth(&b[0]) <= worth(&b[1]) {
                    0
                } else {
                    1
                }
            }
        };
        let s = &mut b[slot];
        let mv = if mv == 0 && same.is_some() { s[2] } else { mv };
        let depth = depth.clamp(-1, 127) as i8 as u8 as u64;
        *s = [
            key as u64 | depth << 32 | ((bound | age << 2) as u64) << 40,
            score as u32 as u64 | (eval as u32 as u64) << 32,
            mv,
        ];
    }

    /// Permille of a sample of entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(500);
        let used: usize = self.buckets[..sample]
            .iter()
            .flatten()
            .filter(|s| bound_of(s) != 0 && age_of(s) == self.age)
            .count();
        (used * 1000 / (2 * sample.max(1))) as u32
    }
}
