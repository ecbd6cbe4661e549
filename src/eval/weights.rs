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
/// play there, when that colour is to move (indexed by `Pattern as usize`).
pub const OWN_PATTERN_VALUE: [i32; 11] = [
    0,    // None
    0,    // Overline
    0,    // Block1
    1,    // Flex1
    4,    // Block2
    5,    // Flex2
    34,   // Block3
    181,  // Flex3
    161,  // Block4
    4977, // Flex4
    5000, // Five: never on a board the search scores (not fitted); above any four
];

/// Extra value of such a point for its combination class (indexed by
/// `Class`), when its colour is to move.
pub const OWN_CLASS_BONUS: [i32; CLASSES] = [
    0,    // Forbidden
    0,    // None
    0,    // Two
    2,    // DoubleTwo
    3,    // Block3
    3,    // Flex3
    0,    // DoubleThree
    1,    // Block4
    531,  // FourThree
    0,    // DoubleFour
    4580, // Flex4
    0,    // Five
];

/// The same two tables for the points of the side not to move: having the
/// move makes one's own shapes worth more.
pub const OPP_PATTERN_VALUE: [i32; 11] = [
    0,    // None
    0,    // Overline
    1,    // Block1
    0,    // Flex1
    6,    // Block2
    0,    // Flex2
    29,   // Block3
    142,  // Flex3
    119,  // Block4
    811,  // Flex4
    5000, // Five: never on a board the search scores (not fitted); above any four
];

pub const OPP_CLASS_BONUS: [i32; CLASSES] = [
    0,    // Forbidden
    0,    // None
    0,    // Two
    74,   // DoubleTwo
    8,    // Block3
    36,   // Flex3
    448,  // DoubleThree
    0,    // Block4
    1442, // FourThree
    1256, // DoubleFour
    584,  // Flex4
    0,    // Five
];

/// Move-ordering score of a point by its class for the side to move
/// (attack) and for the opponent (defence: blocking its shape).
pub const ATTACK_ORDER: [i32; CLASSES] = [
    0, 0, 10, 30, 40, 400, 2_000, 600, 8_000, 9_000, 10_000, 100_000,
];
pub const DEFEND_ORDER: [i32; CLASSES] = [
    0, 0, 5, 20, 20, 300, 1_500, 100, 6_000, 7_000, 7_000, 50_000,
];

/// Static scores stay well inside the mate band.
pub const EVAL_LIMIT: i32 = 20_000;

/// First line pattern whose pairings on one point have their own value
/// (`Block2`), and how many patterns from there on do (`Block2` to
/// `Flex4`).
pub const PAIR_FIRST: usize = Pattern::Block2 as usize;
pub const PAIR_PATTERNS: usize = 6;

/// Extra value of a point for each two of its four lines whose patterns
/// both lie in `Block2..=Flex4`, indexed `[lower][higher]` from
/// `PAIR_FIRST` (the lower triangle is never used), for the side to move's
/// points and for the opponent's. These correct the sum of the single
/// patterns (a point with three open threes is not worth three times one),
/// so they may be negative, and so may a point's value.
pub const OWN_PATTERN_PAIR: [[i32; PAIR_PATTERNS]; PAIR_PATTERNS] = [
    [3, 8, 9, 14, 129, 680],
    [0, 56, 119, 243, 414, 1239],
    [0, 0, 85, 155, 145, 2513],
    [0, 0, 0, 582, -1632, 0],
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
];
pub const OPP_PATTERN_PAIR: [[i32; PAIR_PATTERNS]; PAIR_PATTERNS] = [
    [-4, -1, 20, -28, 186, 0],
    [0, -2, 92, 69, 330, 0],
    [0, 0, 32, -42, 273, 0],
    [0, 0, 0, -412, 66, 0],
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
];

/// The `[lower][higher]` pattern-pair index of two line patterns, when
/// both count.
#[inline]
pub fn pattern_pair(a: Pattern, b: Pattern) -> Option<(usize, usize)> {
    let (a, b) = (a as usize, b as usize);
    let (lo, hi) = (a.min(b), a.max(b));
    (lo >= PAIR_FIRST && hi < PAIR_FIRST + PAIR_PATTERNS)
        .then(|| (lo - PAIR_FIRST, hi - PAIR_FIRST))
}

/// Values of a point for one colour, when that colour is to move and when
/// it is not: its line patterns, its class bonus and its pattern pairs. A
/// certainly forbidden point is worth nothing to Black.
#[inline]
pub fn point_values(pats: [Pattern; 4], class: Class) -> (i32, i32) {
    if class == Class::Forbidden {
        return (0, 0);
    }
    let sum = |pv: &[i32; 11], cb: &[i32; CLASSES], pp: &[[i32; PAIR_PATTERNS]; PAIR_PATTERNS]| {
        let mut v = pats.iter().map(|&p| pv[p as usize]).sum::<i32>() + cb[class as usize];
        for i in 0..4 {
            for j in i + 1..4 {
                if let Some((a, b)) = pattern_pair(pats[i], pats[j]) {
                    v += pp[a][b];
                }
            }
        }
        v
    };
    (
        sum(&OWN_PATTERN_VALUE, &OWN_CLASS_BONUS, &OWN_PATTERN_PAIR),
        sum(&OPP_PATTERN_VALUE, &OPP_CLASS_BONUS, &OPP_PATTERN_PAIR),
    )
}

/// Threat bits per side in a mask (`eval::threat_mask`).
pub const MASK_BITS: usize = 5;
/// Number of threat masks: every combination of both sides' bits.
pub const MASKS: usize = 1 << (2 * MASK_BITS);
/// Number of bit pairs `(i, j)`, `i <= j`, over a mask's bits (a pair of
/// a bit with itself stands for that bit alone).
pub const PAIRS: usize = 2 * MASK_BITS * (2 * MASK_BITS + 1) / 2;

/// The bit pairs in order: (0,0), (0,1), ..., (0,9), (1,1), (1,2), ...
pub const MASK_PAIRS: [(usize, usize); PAIRS] = {
    let mut t = [(0, 0); PAIRS];
    let (mut i, mut k) = (0, 0);
    while i < 2 * MASK_BITS {
        let mut j = i;
        while j < 2 * MASK_BITS {
            t[k] = (i, j);
            k += 1;
            j += 1;
        }
        i += 1;
    }
    t
};

/// Every position's value to the side to move for having the move, on top
/// of its points and threats.
pub const TEMPO: i32 = 46;

/// A threat mask's value is the sum of the values of the bit pairs it
/// holds (both bits set): what each threat, and each two threats together,
/// of the two sides are worth to the side to move on top of its points
/// (the side to move's bits low). Fitted with the tables by
/// `pbrain-sente tune`; pairs not listed are worth 0. Unlike one value per
/// mask, this gives the rare masks a value too.
pub const THREAT_PAIR_FITTED: [(usize, usize, i32); 54] = [
    (0, 0, 1944),
    (0, 1, 2389),
    (0, 2, 1944),
    (0, 3, 211),
    (0, 4, 836),
    (0, 6, 2461),
    (0, 7, -518),
    (0, 8, 2064),
    (0, 9, -1795),
    (1, 1, 752),
    (1, 2, 978),
    (1, 3, 752),
    (1, 4, -670),
    (1, 5, -1031),
    (1, 6, -147),
    (1, 7, -2057),
    (1, 8, 444),
    (1, 9, -155),
    (2, 2, -299),
    (2, 3, 264),
    (2, 4, -88),
    (2, 5, 785),
    (2, 6, 638),
    (2, 7, -1),
    (2, 8, 126),
    (2, 9, 179),
    (3, 3, -353),
    (3, 4, -99),
    (3, 5, -693),
    (3, 6, 118),
    (3, 7, -118),
    (3, 8, -55),
    (3, 9, 467),
    (4, 4, 702),
    (4, 5, -270),
    (4, 6, -222),
    (4, 7, -446),
    (4, 8, 8),
    (4, 9, 74),
    (5, 5, 947),
    (5, 6, -1215),
    (5, 7, 947),
    (5, 8, -1093),
    (5, 9, -92),
    (6, 6, -126),
    (6, 7, -206),
    (6, 8, -210),
    (6, 9, 195),
    (7, 7, 212),
    (7, 8, 98),
    (7, 9, 144),
    (8, 8, 173),
    (8, 9, -283),
    (9, 9, -525),
];

/// `TEMPO` plus `THREAT_PAIR_FITTED` summed per mask, as a table indexed
/// by mask.
pub const THREAT_MASK_VALUE: [i32; MASKS] = {
    let mut t = [TEMPO; MASKS];
    let mut m = 0;
    while m < MASKS {
        let mut k = 0;
        while k < THREAT_PAIR_FITTED.len() {
            let (i, j, v) = THREAT_PAIR_FITTED[k];
            if m >> i & 1 == 1 && m >> j & 1 == 1 {
                t[m] += v;
            }
            k += 1;
        }
        m += 1;
    }
    t
};
