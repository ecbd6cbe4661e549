//! Evaluation weights: what each line pattern and each per-point threat
//! class is worth. Every tunable of the static evaluation lives here.

use crate::game::pattern::Pattern;

/// Per-point threat class of one colour, computed from the four line
/// patterns of the point alone (no recursive renju check, so it can be kept
/// incrementally). Ordered weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Class {
    /// Renju, Black: overline or two fours here (certainly forbidden).
    Forbidden = 0,
    #[default]
    None,
    /// At least one two (`Flex2`/`Block2`).
    Two,
    /// Two or more open twos.
    DoubleTwo,
    /// A closed three (makes a `Block3`).
    Block3,
    /// Makes an open three.
    Flex3,
    /// Two or more open threes (for renju Black maybe forbidden: ask
    /// `rules::is_forbidden`).
    DoubleThree,
    /// Makes a closed four.
    Block4,
    /// A four and an open three.
    FourThree,
    /// Two fours (not for renju Black: that is `Forbidden`).
    DoubleFour,
    /// Makes an open four.
    Flex4,
    /// Makes a five (wins).
    Five,
}

/// Number of classes, for per-class counters.
pub const CLASSES: usize = 12;

impl Class {
    /// Does a stone here make at least one four (a five threat)?
    #[inline]
    pub fn is_four_or_more(self) -> bool {
        self >= Class::Block4
    }
}

/// Value of one line pattern at an empty point for the colour that could
/// play there (indexed by `Pattern as usize`).
pub const PATTERN_VALUE: [i32; 11] = [
    0,   // None
    0,   // Overline
    1,   // Block1
    3,   // Flex1
    5,   // Block2
    14,  // Flex2
    16,  // Block3
    50,  // Flex3
    60,  // Block4
    220, // Flex4
    600, // Five
];

/// Extra value of a point for its combination class (indexed by `Class`).
pub const CLASS_BONUS: [i32; CLASSES] = [
    0,   // Forbidden
    0,   // None
    0,   // Two
    8,   // DoubleTwo
    0,   // Block3
    0,   // Flex3
    80,  // DoubleThree
    0,   // Block4
    200, // FourThree
    250, // DoubleFour
    0,   // Flex4
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

/// The class of a point from its four patterns (the `double_four` flags
/// say which lines hold two fours by themselves).
#[inline]
pub fn classify(pats: [Pattern; 4], double_four: [bool; 4], renju_black: bool) -> Class {
    let mut fours = 0;
    let mut flex4 = false;
    let mut threes = 0;
    let mut block3 = false;
    let mut twos = 0;
    let mut flex2 = 0;
    let mut overline = false;
    for d in 0..4 {
        match pats[d] {
            Pattern::Five => return Class::Five,
            Pattern::Flex4 => {
                if double_four[d] {
                    fours += 2;
                } else {
                    fours += 1;
                    flex4 = true;
                }
            }
            Pattern::Block4 => fours += 1,
            Pattern::Flex3 => threes += 1,
            Pattern::Block3 => block3 = true,
            Pattern::Flex2 => {
                flex2 += 1;
                twos += 1;
            }
            Pattern::Block2 => twos += 1,
            Pattern::Overline => overline = true,
            _ => {}
        }
    }
    if renju_black && (overline || fours >= 2) {
        return Class::Forbidden;
    }
    if flex4 {
        Class::Flex4
    } else if fours >= 2 {
        Class::DoubleFour
    } else if fours == 1 {
        if threes > 0 {
            Class::FourThree
        } else {
            Class::Block4
        }
    } else if threes >= 2 {
        Class::DoubleThree
    } else if threes == 1 {
        Class::Flex3
    } else if block3 {
        Class::Block3
    } else if flex2 >= 2 {
        Class::DoubleTwo
    } else if twos > 0 {
        Class::Two
    } else {
        Class::None
    }
}

/// Value of a point for one colour: its line patterns plus its class bonus.
/// A certainly forbidden point is worth nothing to Black.
#[inline]
pub fn point_value(pats: [Pattern; 4], class: Class) -> i32 {
    if class == Class::Forbidden {
        return 0;
    }
    pats.iter().map(|&p| PATTERN_VALUE[p as usize]).sum::<i32>() + CLASS_BONUS[class as usize]
}
