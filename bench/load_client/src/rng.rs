//! A small seeded PRNG (splitmix64): the move choices of a game are the same run to run.

pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator of game `index` under the run's `seed`.
    pub fn for_game(seed: i64, index: u64) -> Self {
        Self {
            state: (seed as u64).rotate_left(32) ^ index,
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An index in 0..len (len > 0), by the multiply-shift reduction (no modulo bias to speak of).
    pub fn below(&mut self, len: usize) -> usize {
        ((u128::from(self.next_u64()) * len as u128) >> 64) as usize
    }

    /// A float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn reproducible_and_in_range() {
        let draws = |seed| {
            let mut r = SplitMix64::for_game(seed, 7);
            (0..100).map(|_| r.below(13)).collect::<Vec<_>>()
        };
        assert_eq!(draws(1), draws(1));
        assert_ne!(draws(1), draws(2));
        assert!(draws(1).iter().all(|&i| i < 13));
        let mut r = SplitMix64::for_game(1, 0);
        assert!((0..1000).map(|_| r.unit()).all(|x| (0.0..1.0).contains(&x)));
    }
}
