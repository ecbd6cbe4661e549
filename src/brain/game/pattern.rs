//! Line patterns: what a stone placed on a cell makes along one line,
//! looked up from the cell's line key (see `game::board`), and the per-point
//! combination of the four lines into a `Threat`.
//!
//! One table per rule, built lazily (`OnceLock`) on first use: for each of the
//! 2^20 line keys one byte, a nibble per colour holding its line code: the
//! `Pattern` (five, overline, open or closed four, three, two, one, nothing),
//! or `DOUBLE_FOUR_CODE` for an open four that is two fours on this one line
//! (renju needs it to see a double-four that a single line makes). One
//! megabyte a rule: the evaluator looks a key up for every cell a stone
//! changes, and half the size keeps more of it in the cache. The session
//! builds the rule's table when it sets up a board, so it is ready before
//! START is answered and no move's clock pays for it. On Linux the tables ask for transparent huge pages
//! (`crate::brain::hugepages`) before their first write.
//!
//! The table is defined recursively over the 11-cell line (the ten cells of
//! the key plus the centre, which holds the placing colour): a line is a
//! `Five`/`Overline` from its run through the centre, otherwise its level is
//! derived from the lines one more own stone on an empty cell (distance 1..4)
//! would make. Adding a stone only raises a key, so filling the table from the
//! highest key down sees every child before its parent.
//!
//! Renju forbidden points (`game::rules`) follow from these look-ups plus the
//! recursive check of each three.

use std::sync::OnceLock;

use super::board::{Board, Pos};
use crate::brain::hugepages::HugeTable;
use crate::brain::types::{Color, Rule};

/// What a stone placed on a cell makes along one line, weakest first
/// (`Overline` sorts just above `None`: it never helps its owner).
/// Defined for the placing colour C, from the cell's 10-cell window:
/// - `Five`: the line now wins under the rule (for Black under renju and for
///   standard: exactly five; caro: a five not blocked at both ends by opponent
///   stones, or longer).
/// - `Overline`: a run of six or more that does not win (standard, renju Black).
/// - `Flex4`: at least two different empty points each complete a `Five`,
///   and no single opponent stone on one of them stops all the others
///   (only caro can do that: in `X _ O O O O _` blocking the right end
///   leaves the left five blocked at both ends).
/// - `Block4`: some empty point completes a `Five`, but one opponent stone
///   can stop every five (normally: exactly one such point).
/// - `Flex3`: some empty point then makes a `Flex4`.
/// - `Block3`: some empty point then makes a `Block4`, none a `Flex4`.
/// - `Flex2`/`Block2`, `Flex1`/`Block1`: likewise one level down.
/// - `None`: no five can ever be made through this cell along this line.
///
/// Under renju, for Black, a point that would make two fours on one line
/// (a double-four, forbidden) does not count as making a `Flex4` when the
/// level of a three is derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Pattern {
    #[default]
    None = 0,
    Overline,
    Block1,
    Flex1,
    Block2,
    Flex2,
    Block3,
    Flex3,
    Block4,
    Flex4,
    Five,
}

impl Pattern {
    /// Every pattern, in order (index = discriminant).
    pub const ALL: [Pattern; 11] = [
        Pattern::None,
        Pattern::Overline,
        Pattern::Block1,
        Pattern::Flex1,
        Pattern::Block2,
        Pattern::Flex2,
        Pattern::Block3,
        Pattern::Flex3,
        Pattern::Block4,
        Pattern::Flex4,
        Pattern::Five,
    ];

    #[inline]
    fn from_bits(b: u8) -> Pattern {
        Pattern::ALL[(b & 15) as usize]
    }

    /// Is this a four (one or two completion points)?
    #[inline]
    pub fn is_four(self) -> bool {
        matches!(self, Pattern::Block4 | Pattern::Flex4)
    }
}

/// Number of distinct line keys (10 cells, 2 bits each).
pub const KEYS: usize = 1 << 20;

/// Flag bit in a byte of the table's build: the line holds two separate
/// fours through the centre (e.g. `X _ X X X _ X` with the centre among the
/// middle stones).
const DOUBLE_FOUR: u8 = 16;

/// The line code of an open four that is two separate fours on the line
/// (one past `Five`); every other code is the pattern's number.
pub const DOUBLE_FOUR_CODE: u16 = 11;

/// The pattern of each line code: a pattern's number is its code
/// (`Pattern::ALL`), `DOUBLE_FOUR_CODE` is a `Flex4`, and the codes past
/// it never occur.
const CODE_PATTERN: [Pattern; 16] = {
    let mut t = [Pattern::None; 16];
    let mut i = 0;
    while i < Pattern::ALL.len() {
        t[i] = Pattern::ALL[i];
        i += 1;
    }
    t[DOUBLE_FOUR_CODE as usize] = Pattern::Flex4;
    t
};

/// The pattern of a line code.
#[inline(always)]
pub fn code_pattern(code: u16) -> Pattern {
    CODE_PATTERN[(code & 15) as usize]
}

/// A byte of the build (pattern in the low four bits, `DOUBLE_FOUR` above)
/// as one line code: the pattern's number, or `DOUBLE_FOUR_CODE` for a
/// `Flex4` that is two separate fours on the line. Branch-free: `Flex4`
/// (9) plus 2 when the flag is set.
#[inline(always)]
fn line_code(b: u8) -> u16 {
    (b & 15) as u16 + ((b >> 3) & 2) as u16
}

/// The precomputed table of one rule: `KEYS` bytes, one a key: Black's
/// line code in the low nibble, White's in the high one.
pub struct PatternTable {
    codes: HugeTable<u8>,
}

impl PatternTable {
    /// The line code a stone of `color` on the centre of `key` makes.
    #[inline(always)]
    pub fn code(&self, key: u32, color: Color) -> u16 {
        ((self.codes[key as usize] >> (4 * color.index())) & 15) as u16
    }

    /// The pattern a stone of `color` on the centre of `key` makes.
    #[inline]
    pub fn get(&self, key: u32, color: Color) -> Pattern {
        code_pattern(self.code(key, color))
    }

    /// Does the stone make two separate fours on this one line?
    #[inline]
    pub fn double_four(&self, key: u32, color: Color) -> bool {
        self.code(key, color) == DOUBLE_FOUR_CODE
    }

    /// Both colours' line codes of `key` at once (Black's first): one load
    /// where `code` per colour makes two.
    #[inline(always)]
    pub fn codes(&self, key: u32) -> [u16; 2] {
        let b = self.codes[key as usize];
        [(b & 15) as u16, (b >> 4) as u16]
    }

    /// Build the table of `rule` (normally reached through `table`): the
    /// recursion reads a byte a key and colour, then each pair is packed.
    pub fn build(rule: Rule) -> PatternTable {
        let mut bytes = vec![0u8; 2 * KEYS];
        for color in [Color::Black, Color::White] {
            fill(&mut bytes, rule, color);
        }
        let mut codes = HugeTable::zeroed(KEYS);
        for (c, pair) in codes.iter_mut().zip(bytes.chunks_exact(2)) {
            *c = (line_code(pair[0]) | line_code(pair[1]) << 4) as u8;
        }
        PatternTable { codes }
    }
}

/// Line index (0..11, centre 5) of a key slot (0..10).
#[inline]
const fn slot_index(slot: usize) -> usize {
    if slot < 5 {
        slot
    } else {
        slot + 1
    }
}

/// Key slots at distance 1..4 from the centre: the only empty cells that can
/// take part in a five through the centre.
const NEAR_SLOTS: [usize; 8] = [1, 2, 3, 4, 5, 6, 7, 8];

fn fill(bytes: &mut [u8], rule: Rule, color: Color) {
    let c = color.cell();
    let ci = color.index();
    let opp = color.opposite().cell();
    let overline_wins = rule.overline_wins(color);
    let renju_black = rule == Rule::Renju && color == Color::Black;
    for key in (0..KEYS as u32).rev() {
        let mut line = [0u8; 11];
        for slot in 0..10 {
            line[slot_index(slot)] = ((key >> (2 * slot)) & 3) as u8;
        }
        line[5] = c;
        let mut l = 0;
        while l < 5 && line[4 - l] == c {
            l += 1;
        }
        let mut r = 0;
        while r < 5 && line[6 + r] == c {
            r += 1;
        }
        let n = l + r + 1;
        let out = if n >= 6 {
            if overline_wins {
                Pattern::Five as u8
            } else {
                Pattern::Overline as u8
            }
        } else if n == 5 {
            let blocked = rule == Rule::Caro && line[4 - l] == opp && line[6 + r] == opp;
            if blocked {
                Pattern::None as u8
            } else {
                Pattern::Five as u8
            }
        } else {
            let mut fives = 0;
            let mut first = 0;
            let mut last = 0;
            let mut five_slots = [0usize; 8];
            let mut best = Pattern::None;
            for slot in NEAR_SLOTS {
                if line[slot_index(slot)] != 0 {
                    continue;
                }
                let child = key | ((c as u32) << (2 * slot));
                let b = bytes[child as usize * 2 + ci];
                let p = Pattern::from_bits(b);
                if p == Pattern::Five {
                    if fives == 0 {
                        first = slot_index(slot);
                    }
                    last = slot_index(slot);
                    five_slots[fives] = slot;
                    fives += 1;
                } else if !(renju_black && b & DOUBLE_FOUR != 0) && p > best {
                    best = p;
                }
            }
            // Caro: one opponent stone on a five point may spoil the others
            // (a five blocked at both ends does not win): then it is no
            // open four. The keys looked at are larger, hence already filled.
            let spoilable = rule == Rule::Caro
                && fives >= 2
                && five_slots[..fives].iter().any(|&i| {
                    let blocked = key | ((opp as u32) << (2 * i));
                    !five_slots[..fives].iter().any(|&j| {
                        let k = blocked | ((c as u32) << (2 * j));
                        j != i && Pattern::from_bits(bytes[k as usize * 2 + ci]) == Pattern::Five
                    })
                });
            if fives >= 2 && !spoilable {
                let straight = fives == 2 && last - first == 5;
                Pattern::Flex4 as u8 | if straight { 0 } else { DOUBLE_FOUR }
            } else if fives >= 1 {
                Pattern::Block4 as u8
            } else {
                (match best {
                    Pattern::Flex4 => Pattern::Flex3,
                    Pattern::Block4 => Pattern::Block3,
                    Pattern::Flex3 => Pattern::Flex2,
                    Pattern::Block3 => Pattern::Block2,
                    Pattern::Flex2 => Pattern::Flex1,
                    Pattern::Block2 => Pattern::Block1,
                    _ => Pattern::None,
                }) as u8
            }
        };
        bytes[key as usize * 2 + ci] = out;
    }
}

static TABLES: [OnceLock<PatternTable>; 4] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// How many rules' tables are built already (0..=4), for diagnostics.
pub fn tables_ready() -> usize {
    TABLES.iter().filter(|t| t.get().is_some()).count()
}

fn rule_index(rule: Rule) -> usize {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
        Rule::Caro => 3,
    }
}

/// The table of `rule`, built on first use (thread-safe, once per rule).
#[inline]
pub fn table(rule: Rule) -> &'static PatternTable {
    TABLES[rule_index(rule)].get_or_init(|| PatternTable::build(rule))
}

/// What a stone of `color` on the centre of line `key` makes under `rule`.
#[inline]
pub fn line_pattern(rule: Rule, color: Color, key: u32) -> Pattern {
    table(rule).get(key, color)
}

/// The pattern a stone of `color` on `p` makes in each of the four
/// directions (horizontal, vertical, diagonal, anti-diagonal).
#[inline]
pub fn patterns_at(board: &Board, p: Pos, color: Color) -> [Pattern; 4] {
    let t = table(board.rules().rule);
    board.line_keys(p).map(|k| t.get(k, color))
}

/// Number of fours a stone of `color` on `p` makes (a line holding two
/// separate fours counts two).
pub fn four_count(board: &Board, p: Pos, color: Color) -> usize {
    let t = table(board.rules().rule);
    board
        .line_keys(p)
        .iter()
        .map(|&k| {
            if t.double_four(k, color) {
                2
            } else {
                t.get(k, color).is_four() as usize
            }
        })
        .sum()
}

/// What a stone on a point makes over all four lines, weakest first.
/// `Forbidden` (renju, Black only) sorts lowest: the move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Threat {
    /// Renju, Black: overline, double-four or real double-three.
    Forbidden,
    #[default]
    None,
    /// Best line is a two (open or closed).
    Two,
    /// Two or more open twos.
    DoubleTwo,
    /// A closed three (makes a `Block4` next), no open three.
    Block3,
    /// One open three.
    Flex3,
    /// Two or more open threes (not forbidden).
    DoubleThree,
    /// One closed four and no three.
    Block4,
    /// A closed four plus an open three.
    FourThree,
    /// Two or more fours.
    DoubleFour,
    /// An open four (two completion points on one line).
    Flex4,
    /// A winning line.
    Five,
}

impl Threat {
    /// Every threat, in order (index = discriminant), for per-threat tables.
    pub const ALL: [Threat; 12] = [
        Threat::Forbidden,
        Threat::None,
        Threat::Two,
        Threat::DoubleTwo,
        Threat::Block3,
        Threat::Flex3,
        Threat::DoubleThree,
        Threat::Block4,
        Threat::FourThree,
        Threat::DoubleFour,
        Threat::Flex4,
        Threat::Five,
    ];

    /// Does a stone here make at least one four (a five threat)?
    #[inline]
    pub fn is_four_or_more(self) -> bool {
        self >= Threat::Block4
    }
}

/// Combine four line patterns (and which of them hold two fours on one
/// line) into a point threat. For renju Black, an overline or two fours are
/// `Forbidden`; two open threes stay `DoubleThree` here, since only the
/// recursive check (`rules::is_forbidden`, applied by `rules::threat_at`) can tell whether both are real.
pub fn combine(pats: [Pattern; 4], double_four: [bool; 4], renju_black: bool) -> Threat {
    let mut fours = 0;
    let mut flex4 = false;
    let mut threes = 0;
    let mut block3 = false;
    let mut twos = 0;
    let mut flex2 = 0;
    let mut overline = false;
    for d in 0..4 {
        match pats[d] {
            Pattern::Five => return Threat::Five,
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
        return Threat::Forbidden;
    }
    if flex4 {
        Threat::Flex4
    } else if fours >= 2 {
        Threat::DoubleFour
    } else if fours == 1 {
        if threes > 0 {
            Threat::FourThree
        } else {
            Threat::Block4
        }
    } else if threes >= 2 {
        Threat::DoubleThree
    } else if threes == 1 {
        Threat::Flex3
    } else if block3 {
        Threat::Block3
    } else if flex2 >= 2 {
        Threat::DoubleTwo
    } else if twos > 0 {
        Threat::Two
    } else {
        Threat::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::testutil::{Neutral, RandomBoard};
    use crate::brain::game::zobrist::SplitMix64;
    use crate::brain::types::RuleSet;

    /// The evaluator refreshes only the cells within distance 4 of a new
    /// stone under freestyle: checked here for every key and colour. The
    /// other rules do read the outer cells (exactly five, caro's blocked
    /// ends), so they keep distance 5.
    #[test]
    fn freestyle_patterns_ignore_the_outer_cells() {
        let outer = 3 | (3 << 18);
        let depends = |rule: Rule| {
            let t = table(rule);
            (0..KEYS as u32).any(|key| {
                [Color::Black, Color::White].into_iter().any(|c| {
                    let b = |k: u32| t.code(k, c);
                    b(key) != b(key & !outer)
                })
            })
        };
        assert!(!depends(Rule::Freestyle));
        for rule in [Rule::Standard, Rule::Renju, Rule::Caro] {
            assert!(depends(rule), "{rule:?}");
        }
    }

    /// Key of a drawn line: 11 characters, the centre (index 5) must be `*`.
    /// `.` empty, `X` black, `O` white, `#` wall.
    fn key_of(s: &str) -> u32 {
        let cells: Vec<u8> = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                'X' => 1,
                'O' => 2,
                '#' => 3,
                _ => 0,
            })
            .collect();
        assert_eq!(cells.len(), 11, "{s}");
        let mut key = 0;
        for slot in 0..10 {
            key |= (cells[slot_index(slot)] as u32) << (2 * slot);
        }
        key
    }

    fn mirror(key: u32) -> u32 {
        (0..10).fold(0, |m, slot| {
            m | (((key >> (2 * slot)) & 3) << (2 * (9 - slot)))
        })
    }

    fn swap_colors(key: u32) -> u32 {
        (0..10).fold(0, |m, slot| {
            let c = (key >> (2 * slot)) & 3;
            let s = match c {
                1 => 2,
                2 => 1,
                x => x,
            };
            m | (s << (2 * slot))
        })
    }

    type Memo = std::collections::HashMap<([u8; 11], Rule, Color), (Pattern, bool)>;

    /// Slow, direct classification of an 11-cell line (centre = colour c),
    /// straight from the definitions, for cross-checking the tables.
    fn slow(line: [u8; 11], rule: Rule, color: Color) -> (Pattern, bool) {
        thread_local! {
            static MEMO: std::cell::RefCell<Memo> = Default::default();
        }
        if let Some(v) = MEMO.with(|m| m.borrow().get(&(line, rule, color)).copied()) {
            return v;
        }
        let v = slow_uncached(line, rule, color);
        MEMO.with(|m| m.borrow_mut().insert((line, rule, color), v));
        v
    }

    fn slow_uncached(line: [u8; 11], rule: Rule, color: Color) -> (Pattern, bool) {
        let c = color.cell();
        let opp = color.opposite().cell();
        // Maximal run through the centre, found by scanning every run.
        let mut i = 0;
        while i < 11 {
            if line[i] != c {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < 11 && line[j] == c {
                j += 1;
            }
            if (i..j).contains(&5) {
                let n = j - i;
                if n >= 6 {
                    return if rule.overline_wins(color) {
                        (Pattern::Five, false)
                    } else {
                        (Pattern::Overline, false)
                    };
                }
                if n == 5 {
                    let lo = if i == 0 { 3 } else { line[i - 1] };
                    let hi = if j == 11 { 3 } else { line[j] };
                    let blocked = rule == Rule::Caro && lo == opp && hi == opp;
                    return if blocked {
                        (Pattern::None, false)
                    } else {
                        (Pattern::Five, false)
                    };
                }
            }
            i = j;
        }
        let mut five_points = vec![];
        let mut kids = vec![];
        for e in (1..=4).chain(6..=9) {
            if line[e] == 0 {
                let mut l2 = line;
                l2[e] = c;
                let (p, df) = slow(l2, rule, color);
                if p == Pattern::Five {
                    five_points.push(e);
                } else if !(df && rule == Rule::Renju && color == Color::Black) {
                    kids.push(p);
                }
            }
        }
        let spoilable = rule == Rule::Caro
            && five_points.iter().any(|&i| {
                let mut l2 = line;
                l2[i] = opp;
                !five_points.iter().any(|&j| {
                    let mut l3 = l2;
                    l3[j] = c;
                    j != i && slow(l3, rule, color).0 == Pattern::Five
                })
            });
        if five_points.len() >= 2 && !spoilable {
            let straight = five_points.len() == 2 && five_points[1] - five_points[0] == 5;
            return (Pattern::Flex4, !straight);
        }
        if !five_points.is_empty() {
            return (Pattern::Block4, false);
        }
        let best = kids.into_iter().max().unwrap_or(Pattern::None);
        let p = match best {
            Pattern::Flex4 => Pattern::Flex3,
            Pattern::Block4 => Pattern::Block3,
            Pattern::Flex3 => Pattern::Flex2,
            Pattern::Block3 => Pattern::Block2,
            Pattern::Flex2 => Pattern::Flex1,
            Pattern::Block2 => Pattern::Block1,
            _ => Pattern::None,
        };
        (p, false)
    }

    fn pat(rule: Rule, color: Color, s: &str) -> Pattern {
        line_pattern(rule, color, key_of(s))
    }

    /// A build is deterministic: a fresh table equals the shared one key
    /// for key (a lone stone on an empty line makes a one). Its time is in
    /// `pbrain-sente bench threats`.
    #[test]
    fn a_fresh_build_is_the_shared_table() {
        for rule in Rule::ALL {
            let fresh = PatternTable::build(rule);
            let shared = table(rule);
            for color in [Color::Black, Color::White] {
                assert_eq!(fresh.get(0, color), Pattern::Flex1, "{}", rule.name());
                for key in 0..KEYS as u32 {
                    assert_eq!(fresh.get(key, color), shared.get(key, color), "{key:020b}");
                    assert_eq!(
                        fresh.double_four(key, color),
                        shared.double_four(key, color),
                        "{key:020b}"
                    );
                }
            }
        }
    }

    #[test]
    fn mirrored_and_colour_swapped_keys_agree() {
        let mut rng = SplitMix64::new(11);
        for rule in Rule::ALL {
            let t = table(rule);
            for _ in 0..200_000 {
                let key = (rng.next_u64() as u32) & (KEYS as u32 - 1);
                for color in [Color::Black, Color::White] {
                    assert_eq!(t.get(key, color), t.get(mirror(key), color), "{key:020b}");
                    assert_eq!(t.double_four(key, color), t.double_four(mirror(key), color));
                }
                if rule != Rule::Renju {
                    assert_eq!(
                        t.get(key, Color::Black),
                        t.get(swap_colors(key), Color::White)
                    );
                }
            }
        }
    }

    #[test]
    fn hand_drawn_lines() {
        use Color::{Black as B, White as W};
        use Pattern::*;
        let fs = Rule::Freestyle;
        let st = Rule::Standard;
        let rj = Rule::Renju;
        let ca = Rule::Caro;
        assert_eq!(pat(fs, B, "# X X X X * . . . . ."), Five);
        assert_eq!(pat(fs, B, ". X X X X * X . . . ."), Five);
        assert_eq!(pat(st, B, ". X X X X * X . . . ."), Overline);
        assert_eq!(pat(st, W, ". O O O O * O . . . ."), Overline);
        assert_eq!(pat(rj, B, ". X X X X * X . . . ."), Overline);
        assert_eq!(pat(rj, W, ". O O O O * O . . . ."), Five);
        // X X X X _ X: the gap gives an overline under standard.
        assert_eq!(pat(st, B, ". X X X X * X . . . ."), Overline);
        assert_eq!(pat(st, B, ". . X X X * . X . . ."), Block4);
        assert_eq!(pat(fs, B, ". . X X X * . X . . ."), Flex4);
        assert_eq!(pat(fs, B, ". . . X X * . . . . ."), Flex3);
        assert_eq!(pat(fs, B, ". . O X X * . . . . ."), Block3);
        assert_eq!(pat(fs, B, ". . . X X * . O . . ."), Flex3);
        assert_eq!(pat(fs, B, ". . . X X * O . . . ."), Block3);
        assert_eq!(pat(fs, B, ". . . . . * . . . . ."), Flex1);
        assert_eq!(pat(fs, B, "# # # # # * . . . # ."), None);
        assert_eq!(pat(fs, B, "# # # # # * . . . . #"), Block1);
        assert_eq!(pat(fs, B, "# # # # # * . . . . ."), Block1);
        assert_eq!(pat(fs, B, ". . O . X * . X O . ."), Block3);
        assert_eq!(pat(fs, B, ". . . . X * . X . . ."), Flex3);
        // Caro: O X X X X _ O is no four (the five would be blocked).
        assert_eq!(pat(ca, B, ". . . . O * X X X X O"), None);
        assert_eq!(pat(ca, B, ". . . O X * X X . O ."), None);
        assert_eq!(pat(ca, B, ". . . O X * X X . . ."), Block4);
        assert_eq!(pat(ca, B, ". . . O X * X X X O ."), None);
        assert_eq!(pat(ca, B, ". . . # X * X X X # ."), Five);
        assert_eq!(pat(fs, B, ". . . O X * X X X O ."), Five);
        assert_eq!(pat(ca, B, ". . . . X * X X X X O"), Five);
        // Caro: X _ O O O O _ is no open four for White: a black stone on
        // the right end leaves the left five blocked at both ends.
        assert_eq!(pat(ca, W, ". . . X . * O O O . ."), Block4);
        assert_eq!(pat(fs, W, ". . . X . * O O O . ."), Flex4);
        assert_eq!(pat(ca, W, ". . . . . * O O O . ."), Flex4);
        assert_eq!(pat(ca, W, ". . . X . * O O . . ."), Block3);
        assert_eq!(pat(fs, W, ". . . X . * O O . . ."), Flex3);
        // Two fours on one line.
        let k = key_of(". . X . X * X . X . .");
        assert_eq!(line_pattern(rj, B, k), Flex4);
        assert!(table(rj).double_four(k, B));
        let k = key_of(". . . X X * X . . . .");
        assert!(!table(rj).double_four(k, B));
        // Renju: the only way to an open four makes an overline one side.
        assert_eq!(pat(rj, B, "X . . X X * . . X . ."), Block3);
        assert_eq!(pat(fs, B, "X . . X X * . . X . ."), Flex3);
        assert_eq!(pat(rj, W, "O . . O O * . . O . ."), Flex3);
    }

    #[test]
    fn tables_match_slow_classification_on_random_boards() {
        let mut rng = SplitMix64::new(2024);
        for rule in Rule::ALL {
            let rules = RuleSet::from(rule);
            for round in 0..12 {
                let size = [9, 15, 20][round % 3];
                let b = RandomBoard::square(size, rules)
                    .stones(20, 80)
                    .neutral(Neutral::Every(23))
                    .board(&mut rng)
                    .unwrap();
                let dirs = b.dirs();
                let empties: Vec<Pos> = b.empty_cells().filter(|&p| b.near_count(p) > 0).collect();
                for &p in &empties {
                    for (d, &off) in dirs.iter().enumerate() {
                        let mut line = [0u8; 11];
                        for (i, cell) in line.iter_mut().enumerate() {
                            let q = p.idx() as isize + (i as isize - 5) * off;
                            *cell = if i == 5 { 0 } else { b.cell(Pos(q as u16)) };
                        }
                        for color in [Color::Black, Color::White] {
                            line[5] = color.cell();
                            let (sp, sdf) = slow(line, rule, color);
                            let key = b.line_key(p, d);
                            assert_eq!(line_pattern(rule, color, key), sp, "{line:?} {rule:?}");
                            assert_eq!(table(rule).double_four(key, color), sdf);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn random_keys_match_slow_classification() {
        let mut rng = SplitMix64::new(99);
        for rule in Rule::ALL {
            for _ in 0..6_000 {
                // Bias towards stones so that fours and fives occur.
                let mut line = [0u8; 11];
                for (i, cell) in line.iter_mut().enumerate() {
                    let r = rng.below(10);
                    *cell = match r {
                        0..=3 => 0,
                        4..=6 => 1,
                        7..=8 => 2,
                        _ => 3,
                    };
                    if i == 5 {
                        *cell = 0;
                    }
                }
                let mut key = 0;
                for slot in 0..10 {
                    key |= (line[slot_index(slot)] as u32) << (2 * slot);
                }
                for color in [Color::Black, Color::White] {
                    line[5] = color.cell();
                    assert_eq!(line_pattern(rule, color, key), slow(line, rule, color).0);
                }
            }
        }
    }
}
