//! What the joint form (`keys::Form::Joint`) sees beyond today's keys: the
//! joint key of a colour's four line nibbles (their multiset, `joint_rank`,
//! and its lookup table `joint_table`), and the threat/tempo index of a
//! position (`tempo_index`), which picks one learned term of the output.

use std::sync::OnceLock;

use crate::brain::eval::weights::Class;
use crate::brain::eval::Evaluator;
use crate::brain::types::Color;

/// Values a line nibble takes (`Pattern` 0..=10, 11 = double four); the
/// net's keys (`keys::NIBBLES`) count from it.
pub const NIBBLES: usize = 12;

/// Joint keys: the multisets of four nibbles of `NIBBLES` values,
/// C(12 + 3, 4) = 1365 (a cell's four directions taken together, whatever
/// direction holds which).
pub const JOINT_KEYS: usize = binom(NIBBLES + 3, 4);

/// What `joint_table` gives a code with a nibble past 11 (which never
/// occurs on a board; its pair row is zero).
pub const NO_JOINT: u16 = JOINT_KEYS as u16;

/// Entries of the tempo table: `TEMPO_BITS` bits for each side.
pub const TEMPO_BITS: usize = 4;
pub const TEMPO_ENTRIES: usize = 1 << (2 * TEMPO_BITS);

/// `n` choose `k` (small numbers).
const fn binom(n: usize, k: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The joint key of a colour's line code (four nibbles, direction `d` in
/// bits `4d..4d+4`): the rank of the multiset of its nibbles among all
/// multisets of four values below `NIBBLES` (0..`JOINT_KEYS`), by the
/// combinatorial number system (sorted `a ≤ b ≤ c ≤ d` is the combination
/// `a < b+1 < c+2 < d+3` of 15 values, rank `C(a,1) + C(b+1,2) + C(c+2,3)
/// + C(d+3,4)`); `NO_JOINT` if a nibble is past 11.
pub fn joint_rank(code: u16) -> u16 {
    let mut n = [0, 1, 2, 3].map(|d| ((code >> (4 * d)) & 15) as usize);
    if n.iter().any(|&x| x >= NIBBLES) {
        return NO_JOINT;
    }
    n.sort_unstable();
    (binom(n[0], 1) + binom(n[1] + 1, 2) + binom(n[2] + 2, 3) + binom(n[3] + 3, 4)) as u16
}

/// `joint_rank` of every 16-bit code, built once (what the kernels read:
/// one load for a colour's joint key).
pub fn joint_table() -> &'static [u16] {
    static T: OnceLock<Vec<u16>> = OnceLock::new();
    T.get_or_init(|| (0..=u16::MAX).map(joint_rank).collect())
}

/// The threats `color` holds, `TEMPO_BITS` bits from the evaluator's
/// counts: bit 0 a point that makes a five (it has a four on the board),
/// bit 1 a point that makes an open four, a double four or a four-three,
/// bit 2 a point that makes any four, bit 3 a double-three point (under
/// renju Black's forbidden ones are `Forbidden`, not counted).
#[inline]
pub fn tempo_bits(ev: &Evaluator, color: Color) -> usize {
    let five = ev.fives(color) > 0;
    let open4 = ev.fours_from(color, Class::FourThree) > 0;
    let four = ev.fours_from(color, Class::Block4) > 0;
    let three3 = ev.count(color, Class::DoubleThree) > 0;
    five as usize | (open4 as usize) << 1 | (four as usize) << 2 | (three3 as usize) << 3
}

/// The tempo table's entry for `stm` to move: its bits (`tempo_bits`) low,
/// the opponent's above them.
#[inline]
pub fn tempo_index(ev: &Evaluator, stm: Color) -> usize {
    tempo_bits(ev, stm) | tempo_bits(ev, stm.opposite()) << TEMPO_BITS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::board::Board;
    use crate::brain::types::RuleSet;

    /// The ranks are a bijection from the multisets onto 0..1365: every
    /// permutation of a code's nibbles has its rank, and codes with other
    /// nibble multisets have others.
    #[test]
    fn joint_ranks_are_the_multisets() {
        assert_eq!(JOINT_KEYS, 1365);
        let t = joint_table();
        let mut first: Vec<Option<[usize; 4]>> = vec![None; JOINT_KEYS];
        for code in 0..=u16::MAX {
            let mut n = [0, 1, 2, 3].map(|d| ((code >> (4 * d)) & 15) as usize);
            let r = t[code as usize];
            assert_eq!(r, joint_rank(code));
            if n.iter().any(|&x| x >= NIBBLES) {
                assert_eq!(r, NO_JOINT, "{code:04x}");
                continue;
            }
            n.sort_unstable();
            let slot = &mut first[r as usize];
            match slot {
                None => *slot = Some(n),
                Some(m) => assert_eq!(*m, n, "{code:04x}: rank {r} shared"),
            }
        }
        assert!(first.iter().all(|s| s.is_some()), "every rank is reached");
        // The order of the directions plays no part.
        assert_eq!(joint_rank(0x1234), joint_rank(0x4321));
        assert_ne!(joint_rank(0x1234), joint_rank(0x1235));
    }

    /// The tempo bits follow the threats on the board.
    #[test]
    fn tempo_bits_see_the_threats() {
        let b = Board::from_ascii(
            "
            . . . . . . . . .
            . . . . . . . . .
            . X X X X . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . O O . . . . .
            . . . . O . . . .
            . . . . O . . . .
            . . . . . . . . .",
            RuleSet::FREESTYLE,
        )
        .unwrap();
        let ev = Evaluator::new(&b);
        // Black has fives to make (and, from the four, fours).
        assert_eq!(tempo_bits(&ev, Color::Black) & 1, 1);
        // White has no four and no five, but a point that makes two
        // open threes (where its two pairs meet).
        let w = tempo_bits(&ev, Color::White);
        assert_eq!(w & 0b111, 0, "{w:b}");
        assert_eq!(w & 0b1000, 0b1000, "{w:b}");
        let i = tempo_index(&ev, Color::White);
        assert_eq!(i & 15, w);
        assert_eq!(i >> TEMPO_BITS, tempo_bits(&ev, Color::Black));
        assert!(i < TEMPO_ENTRIES);
        assert_eq!(
            tempo_index(&ev, Color::Black),
            tempo_bits(&ev, Color::Black) | w << TEMPO_BITS
        );
        let empty = Board::square(9, RuleSet::FREESTYLE).unwrap();
        assert_eq!(tempo_index(&Evaluator::new(&empty), Color::Black), 0);
    }
}
