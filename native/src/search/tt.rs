//! The transposition table: buckets of two 24-byte entries, as many as fit in the `Hash`
//! megabytes (never more), indexed by the hash's high bits and verified by its low 32 bits.
//! Replacement prefers the entry of an older search, then the shallower one.

use crate::encoding::Move;

pub const BOUND_EXACT: u8 = 3;
pub const BOUND_LOWER: u8 = 1;
pub const BOUND_UPPER: u8 = 2;

#[derive(Clone, Copy, Default)]
#[repr(C)]
pub struct Entry {
    key: u32,
    pub depth: i8,
    /// bound in the low two bits, the search's age above
    bound_age: u8,
    pub score: i32,
    pub eval: i32,
    pub mv: Move,
}

impl Entry {
    #[inline]
    pub fn bound(&self) -> u8 {
        self.bound_age & 3
    }

    #[inline]
    fn age(&self) -> u8 {
        self.bound_age >> 2
    }
}

type Bucket = [Entry; 2];

pub struct Tt {
    buckets: Vec<Bucket>,
    age: u8,
}

pub const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

impl Tt {
    /// A table of at most `megabytes` MB (at least one bucket).
    pub fn new(megabytes: usize) -> Tt {
        let count = (megabytes << 20) / BUCKET_BYTES;
        Tt {
            buckets: vec![Bucket::default(); count.max(1)],
            age: 0,
        }
    }

    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
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
            .find(|e| e.key == key && e.bound_age & 3 != 0)
            .copied()
    }

    pub fn store(&mut self, hash: u64, depth: i32, bound: u8, score: i32, eval: i32, mv: Move) {
        let key = hash as u32;
        let age = self.age;
        let i = self.index(hash);
        let b = &mut self.buckets[i];
        let slot = match b.iter().position(|e| e.key == key && e.bound_age & 3 != 0) {
            Some(j) => {
                // the same position: keep a deeper exact result of this search
                let e = &b[j];
                if e.age() == age && e.depth as i32 > depth + 2 && e.bound() == BOUND_EXACT {
                    return;
                }
                j
            }
            None => {
                let worth = |e: &Entry| {
                    let stale = if e.age() == age { 0 } else { 64 };
                    e.depth as i32 - stale
                };
                if worth(&b[0]) <= worth(&b[1]) {
                    0
                } else {
                    1
                }
            }
        };
        let e = &mut b[slot];
        let keep_move = mv == 0 && e.key == key;
        *e = Entry {
            key,
            depth: depth.clamp(-1, 127) as i8,
            bound_age: bound | age << 2,
            score,
            eval,
            mv: if keep_move { e.mv } else { mv },
        };
    }

    /// Permille of a sample of entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(500);
        let used: usize = self.buckets[..sample]
            .iter()
            .flatten()
            .filter(|e| e.bound_age & 3 != 0 && e.age() == self.age)
            .count();
        (used * 1000 / (2 * sample.max(1))) as u32
    }
}
