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
    0,    // Flex1
    15,   // Block2
    12,   // Flex2
    73,   // Block3
    203,  // Flex3
    286,  // Block4
    2541, // Flex4
    5000, // Five: never on a board the search scores (not fitted); above any four
];

/// Extra value of such a point for its combination class (indexed by
/// `Class`), when its colour is to move.
pub const OWN_CLASS_BONUS: [i32; CLASSES] = [
    0,    // Forbidden
    0,    // None
    0,    // Two
    63,   // DoubleTwo
    0,    // Block3
    0,    // Flex3
    159,  // DoubleThree
    0,    // Block4
    2589, // FourThree
    0,    // DoubleFour
    2238, // Flex4
    0,    // Five
];

/// The same two tables for the points of the side not to move: having the
/// move makes one's own shapes worth more.
pub const OPP_PATTERN_VALUE: [i32; 11] = [
    0,    // None
    0,    // Overline
    0,    // Block1
    0,    // Flex1
    15,   // Block2
    4,    // Flex2
    73,   // Block3
    107,  // Flex3
    240,  // Block4
    811,  // Flex4
    5000, // Five: never on a board the search scores (not fitted); above any four
];

pub const OPP_CLASS_BONUS: [i32; CLASSES] = [
    0,    // Forbidden
    0,    // None
    0,    // Two
    36,   // DoubleTwo
    0,    // Block3
    0,    // Flex3
    122,  // DoubleThree
    0,    // Block4
    1302, // FourThree
    177,  // DoubleFour
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

/// Values of a point for one colour, when that colour is to move and when
/// it is not: its line patterns plus its class bonus. A certainly
/// forbidden point is worth nothing to Black.
#[inline]
pub fn point_values(pats: [Pattern; 4], class: Class) -> (i32, i32) {
    if class == Class::Forbidden {
        return (0, 0);
    }
    let sum = |pv: &[i32; 11], cb: &[i32; CLASSES]| {
        pats.iter().map(|&p| pv[p as usize]).sum::<i32>() + cb[class as usize]
    };
    (
        sum(&OWN_PATTERN_VALUE, &OWN_CLASS_BONUS),
        sum(&OPP_PATTERN_VALUE, &OPP_CLASS_BONUS),
    )
}

/// Threat bits per side in a mask (`eval::threat_mask`).
pub const MASK_BITS: usize = 4;
/// Number of threat masks: every combination of both sides' bits.
pub const MASKS: usize = 1 << (2 * MASK_BITS);

/// What each combination of threats held by the two sides is worth to the
/// side to move on top of its points (the side to move's bits low),
/// fitted with the tables by `pbrain-sente tune`; masks seen too rarely to
/// fit stay 0.
const THREAT_MASK_FITTED: [(usize, i32); 28] = [
    (0x000, -13),
    (0x008, 482),
    (0x044, 19),
    (0x048, -28),
    (0x04c, -163),
    (0x080, -50),
    (0x084, -550),
    (0x088, -230),
    (0x08c, 173),
    (0x08d, 628),
    (0x08e, 868),
    (0x0a8, -362),
    (0x0ac, 600),
    (0x0ae, 908),
    (0x0c0, -211),
    (0x0c4, -306),
    (0x0c8, -54),
    (0x0cc, -54),
    (0x0cd, 572),
    (0x0ce, 670),
    (0x0d4, 876),
    (0x0d8, -264),
    (0x0dc, 485),
    (0x0e4, -413),
    (0x0e8, -457),
    (0x0ec, 212),
    (0x0ee, 849),
    (0x0fc, -161),
];

/// `THREAT_MASK_FITTED` as a table indexed by mask.
pub const THREAT_MASK_VALUE: [i32; MASKS] = {
    let mut t = [0; MASKS];
    let mut i = 0;
    while i < THREAT_MASK_FITTED.len() {
        t[THREAT_MASK_FITTED[i].0] = THREAT_MASK_FITTED[i].1;
        i += 1;
    }
    t
};
