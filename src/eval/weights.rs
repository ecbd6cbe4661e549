//! Evaluation weights: what each line pattern and each per-point threat
//! class is worth. Every tunable of the static evaluation lives here.

use crate::game::pattern::Pattern;

/// Per-point threat class of one colour, computed from the four line
/// patterns of the point alone (`pattern::combine`: no recursive renju
/// check, so it can be kept incrementally; a renju `DoubleThree` may or may
/// not be forbidden). Ordered weakest first.
pub use crate::game::pattern::Threat as Class;

/// The class of a point from its four patterns.
pub use crate::game::pattern::combine as classify;

/// Number of classes, for per-class counters.
pub const CLASSES: usize = Class::ALL.len();

/// Value of one line pattern at an empty point for the colour that could
/// play there (indexed by `Pattern as usize`).
pub const PATTERN_VALUE: [i32; 11] = [
    0,    // None
    0,    // Overline
    0,    // Block1
    2,    // Flex1
    5,    // Block2
    0,    // Flex2
    65,   // Block3
    116,  // Flex3
    177,  // Block4
    811,  // Flex4
    2000, // Five: never on a board the search scores (not fitted); above any four
];

/// Extra value of a point for its combination class (indexed by `Class`).
pub const CLASS_BONUS: [i32; CLASSES] = [
    0,   // Forbidden
    0,   // None
    0,   // Two
    62,  // DoubleTwo
    0,   // Block3
    19,  // Flex3
    69,  // DoubleThree
    71,  // Block4
    748, // FourThree
    0,   // DoubleFour
    584, // Flex4
    0,   // Five
];

/// Move-ordering score of a point by its class for the side to move
/// (attack) and for the opponent (defence: blocking its shape).
pub const ATTACK_ORDER: [i32; CLASSES] = [
    0, 0, 10, 30, 40, 400, 2_000, 600, 8_000, 9_000, 10_000, 100_000,
];
pub const DEFEND_ORDER: [i32; CLASSES] = [
    0, 0, 5, 20, 20, 300, 1_500, 100, 6_000, 7_000, 7_000, 50_000,
];

/// Weight (in 1/8) of the side to move's point values against the
/// opponent's: having the move makes one's own shapes worth more.
pub const OWN_WEIGHT_8: i32 = 10;
pub const OPP_WEIGHT_8: i32 = 8;

/// Static scores stay well inside the mate band.
pub const EVAL_LIMIT: i32 = 20_000;

/// Value of a point for one colour: its line patterns plus its class bonus.
/// A certainly forbidden point is worth nothing to Black.
#[inline]
pub fn point_value(pats: [Pattern; 4], class: Class) -> i32 {
    if class == Class::Forbidden {
        return 0;
    }
    pats.iter().map(|&p| PATTERN_VALUE[p as usize]).sum::<i32>() + CLASS_BONUS[class as usize]
}

/// Number of distinct combinations of four line codes, order ignored (the
/// codes are the evaluator's nibbles, 0..=11): C(15, 4).
pub const COMBOS: usize = 1365;

/// Index of a combination of four line codes (each 0..=11), the same for
/// every order of them: the multiset's rank in the combinatorial number
/// system (sorted a ≤ b ≤ c ≤ d become a < b+1 < c+2 < d+3).
pub fn combo_index(codes: [u16; 4]) -> usize {
    let mut c = codes.map(|v| v.min(11) as usize);
    c.sort_unstable();
    let binom =
        |n: usize, k: usize| -> usize { (0..k).fold(1usize, |acc, i| acc * (n - i) / (i + 1)) };
    binom(c[0], 1) + binom(c[1] + 1, 2) + binom(c[2] + 2, 3) + binom(c[3] + 3, 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combo_index_is_a_bijection_on_multisets() {
        let mut seen = vec![false; COMBOS];
        for a in 0..12u16 {
            for b in a..12 {
                for c in b..12 {
                    for d in c..12 {
                        let i = combo_index([a, b, c, d]);
                        assert!(!seen[i], "{a} {b} {c} {d} collides");
                        seen[i] = true;
                        assert_eq!(combo_index([d, b, a, c]), i);
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
