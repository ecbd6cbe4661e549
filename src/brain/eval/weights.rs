//! Evaluation weights: what each line pattern and each per-point threat
//! class is worth. Every tunable of the static evaluation lives here.

use crate::brain::game::pattern::Pattern;

/// Per-point threat class of one colour, computed from the four line
/// patterns of the point alone (`pattern::combine`: no recursive renju
/// check, so it can be kept incrementally; a renju `DoubleThree` may or may
/// not be forbidden). Ordered weakest first.
pub use crate::brain::game::pattern::Threat as Class;

/// The class of a point from its four patterns.
pub use crate::brain::game::pattern::combine as classify;

/// Number of classes, for per-class counters.
pub const CLASSES: usize = Class::ALL.len();

/// Value of one line pattern at an empty point for the colour that could
/// play there, when that colour is to move (indexed by `Pattern as usize`).
pub const OWN_PATTERN_VALUE: [i32; 11] = [
    0,    // None
    0,    // Overline
    0,    // Block1
    1,    // Flex1
    2,    // Block2
    0,    // Flex2
    30,   // Block3
    170,  // Flex3
    176,  // Block4
    3413, // Flex4
    5000, // Five: never on a board the search scores (not fitted); above any four
];

/// Extra value of such a point for its combination class (indexed by
/// `Class`), when its colour is to move.
pub const OWN_CLASS_BONUS: [i32; CLASSES] = [
    0,    // Forbidden
    0,    // None
    3,    // Two
    9,    // DoubleTwo
    14,   // Block3
    1,    // Flex3
    0,    // DoubleThree
    1,    // Block4
    1077, // FourThree
    0,    // DoubleFour
    3377, // Flex4
    0,    // Five
];

/// The same two tables for the points of the side not to move: having the
/// move makes one's own shapes worth more.
pub const OPP_PATTERN_VALUE: [i32; 11] = [
    0,    // None
    0,    // Overline
    0,    // Block1
    0,    // Flex1
    10,   // Block2
    0,    // Flex2
    19,   // Block3
    135,  // Flex3
    130,  // Block4
    811,  // Flex4
    5000, // Five: never on a board the search scores (not fitted); above any four
];

pub const OPP_CLASS_BONUS: [i32; CLASSES] = [
    0,    // Forbidden
    0,    // None
    0,    // Two
    69,   // DoubleTwo
    27,   // Block3
    33,   // Flex3
    36,   // DoubleThree
    0,    // Block4
    1235, // FourThree
    1046, // DoubleFour
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
    [2, 18, 7, 27, 108, -902],
    [0, 50, 109, 258, 400, 2463],
    [0, 0, 67, 152, 144, 4692],
    [0, 0, 0, 223, -1005, 0],
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
];
pub const OPP_PATTERN_PAIR: [[i32; PAIR_PATTERNS]; PAIR_PATTERNS] = [
    [-3, 1, 7, -33, 140, 0],
    [0, 1, 69, 87, 291, 0],
    [0, 0, 25, -16, 287, 0],
    [0, 0, 0, -80, 102, 0],
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

/// The pattern pairs of a point with these four line patterns: one
/// `[lower][higher]` index for every two of its lines whose patterns both
/// count (what `point_values` adds and the tuner counts).
pub fn pattern_pairs(pats: [Pattern; 4]) -> impl Iterator<Item = (usize, usize)> {
    (0..4).flat_map(move |i| (i + 1..4).filter_map(move |j| pattern_pair(pats[i], pats[j])))
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
        pats.iter().map(|&p| pv[p as usize]).sum::<i32>()
            + cb[class as usize]
            + pattern_pairs(pats).map(|(a, b)| pp[a][b]).sum::<i32>()
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

/// Does threat mask `mask` hold bit pair `(i, j)`, i.e. both bits?
pub const fn holds_pair(mask: usize, i: usize, j: usize) -> bool {
    mask >> i & 1 == 1 && mask >> j & 1 == 1
}

/// Every position's value to the side to move for having the move, on top
/// of its points and threats.
pub const TEMPO: i32 = 49;

/// A threat mask's value is the sum of the values of the bit pairs it
/// holds (both bits set): what each threat, and each two threats together,
/// of the two sides are worth to the side to move on top of its points
/// (the side to move's bits low). Fitted with the tables by
/// `sente-lab tune`; pairs not listed are worth 0. Unlike one value per
/// mask, this gives the rare masks a value too.
pub const THREAT_PAIR_FITTED: [(usize, usize, i32); 54] = [
    (0, 0, 493),
    (0, 1, 3088),
    (0, 2, 493),
    (0, 3, 1580),
    (0, 4, 2219),
    (0, 6, 34),
    (0, 7, -2187),
    (0, 8, 4207),
    (0, 9, -1103),
    (1, 1, 1109),
    (1, 2, 1130),
    (1, 3, 407),
    (1, 4, -523),
    (1, 5, -1517),
    (1, 6, -217),
    (1, 7, -1998),
    (1, 8, 533),
    (1, 9, 268),
    (2, 2, -435),
    (2, 3, 250),
    (2, 4, -29),
    (2, 5, 918),
    (2, 6, 609),
    (2, 7, -51),
    (2, 8, 185),
    (2, 9, 252),
    (3, 3, -406),
    (3, 4, -171),
    (3, 5, -740),
    (3, 6, 151),
    (3, 7, -163),
    (3, 8, 44),
    (3, 9, 562),
    (4, 4, 810),
    (4, 5, -347),
    (4, 6, -231),
    (4, 7, -581),
    (4, 8, -101),
    (4, 9, 148),
    (5, 5, 978),
    (5, 6, -889),
    (5, 7, 978),
    (5, 8, -1162),
    (5, 9, -215),
    (6, 6, 17),
    (6, 7, -272),
    (6, 8, -397),
    (6, 9, 201),
    (7, 7, 438),
    (7, 8, 70),
    (7, 9, 88),
    (8, 8, 141),
    (8, 9, -215),
    (9, 9, -680),
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
            if holds_pair(m, i, j) {
                t[m] += v;
            }
            k += 1;
        }
        m += 1;
    }
    t
};
