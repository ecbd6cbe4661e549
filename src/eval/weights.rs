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
    1,    // Block1
    0,    // Flex1
    14,   // Block2
    11,   // Flex2
    74,   // Block3
    194,  // Flex3
    290,  // Block4
    2539, // Flex4
    5000, // Five: never on a board the search scores (not fitted); above any four
];

/// Extra value of such a point for its combination class (indexed by
/// `Class`), when its colour is to move.
pub const OWN_CLASS_BONUS: [i32; CLASSES] = [
    0,    // Forbidden
    0,    // None
    0,    // Two
    48,   // DoubleTwo
    0,    // Block3
    0,    // Flex3
    254,  // DoubleThree
    0,    // Block4
    2568, // FourThree
    0,    // DoubleFour
    2230, // Flex4
    0,    // Five
];

/// The same two tables for the points of the side not to move: having the
/// move makes one's own shapes worth more.
pub const OPP_PATTERN_VALUE: [i32; 11] = [
    0,    // None
    0,    // Overline
    0,    // Block1
    0,    // Flex1
    16,   // Block2
    2,    // Flex2
    72,   // Block3
    103,  // Flex3
    225,  // Block4
    811,  // Flex4
    5000, // Five: never on a board the search scores (not fitted); above any four
];

pub const OPP_CLASS_BONUS: [i32; CLASSES] = [
    0,    // Forbidden
    0,    // None
    0,    // Two
    38,   // DoubleTwo
    0,    // Block3
    1,    // Flex3
    92,   // DoubleThree
    15,   // Block4
    1112, // FourThree
    0,    // DoubleFour
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
pub const MASK_BITS: usize = 5;
/// Number of threat masks: every combination of both sides' bits.
pub const MASKS: usize = 1 << (2 * MASK_BITS);

/// What each combination of threats held by the two sides is worth to the
/// side to move on top of its points (the side to move's bits low),
/// fitted with the tables by `pbrain-sente tune`; masks seen too rarely to
/// fit stay 0.
const THREAT_MASK_FITTED: [(usize, i32); 34] = [
    (0x000, 52),
    (0x184, 152),
    (0x18c, -385),
    (0x19c, 300),
    (0x200, -483),
    (0x210, 272),
    (0x218, 595),
    (0x29c, 68),
    (0x300, -528),
    (0x308, -648),
    (0x30c, -631),
    (0x310, -11),
    (0x314, -522),
    (0x318, -199),
    (0x31c, 296),
    (0x31d, 624),
    (0x31e, 847),
    (0x358, -382),
    (0x35c, 658),
    (0x384, -755),
    (0x38c, -622),
    (0x390, -465),
    (0x394, -412),
    (0x398, -8),
    (0x39c, 66),
    (0x39d, -551),
    (0x39e, 674),
    (0x3b8, -476),
    (0x3bc, 144),
    (0x3d4, -445),
    (0x3d8, -481),
    (0x3dc, 245),
    (0x3de, 770),
    (0x3fc, -354),
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
