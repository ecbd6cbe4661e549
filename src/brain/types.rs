//! Small value types shared by every layer: colours, rules, scores.
//!
//! Board coordinates live in `game::board` (`Pos` is an index into the padded
//! cell array); this file holds what is independent of any one board.

use std::fmt;

/// A side. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: index into per-side arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The cell code a stone of this colour has on the board (1 or 2).
    #[inline]
    pub fn cell(self) -> u8 {
        self as u8 + 1
    }
}

/// The winning rule, decoded from the Gomocup `INFO rule` bitmask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins (bitmask 0).
    Freestyle,
    /// Exactly five wins; an overline does not (bitmask 1).
    Standard,
    /// Renju: Black's double-three, double-four and overline are forbidden;
    /// Black wins with exactly five, White with five or more (bitmask 4).
    Renju,
    /// Caro: exactly five blocked at both ends by opponent stones does not
    /// win, the edge does not block; longer lines win (bitmask 8).
    Caro,
}

impl Rule {
    pub const ALL: [Rule; 4] = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];

    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
        }
    }

    /// The Gomocup bitmask value of this rule alone.
    pub fn bits(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
        }
    }

    /// Does an overline (six or more) of `color` count as a win?
    #[inline]
    pub fn overline_wins(self, color: Color) -> bool {
        match self {
            Rule::Freestyle | Rule::Caro => true,
            Rule::Standard => false,
            Rule::Renju => color == Color::White,
        }
    }
}

/// Rule plus the continuous-game flag: everything `INFO rule` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    pub rule: Rule,
    /// Continuous game (bit 2): play goes on after a five; stones of finished
    /// lines (BOARD field 3) stay on the board as neutral stones.
    pub continuous: bool,
}

impl From<Rule> for RuleSet {
    /// `rule`, not a continuous game.
    fn from(rule: Rule) -> RuleSet {
        RuleSet {
            rule,
            continuous: false,
        }
    }
}

impl RuleSet {
    pub const FREESTYLE: RuleSet = RuleSet {
        rule: Rule::Freestyle,
        continuous: false,
    };

    /// Decode the `INFO rule` bitmask. Renju takes precedence over caro,
    /// caro over exactly-five; unknown bits are ignored.
    pub fn from_bits(bits: u32) -> RuleSet {
        let rule = if bits & 4 != 0 {
            Rule::Renju
        } else if bits & 8 != 0 {
            Rule::Caro
        } else if bits & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        };
        RuleSet {
            rule,
            continuous: bits & 2 != 0,
        }
    }

    pub fn bits(self) -> u32 {
        self.rule.bits() | if self.continuous { 2 } else { 0 }
    }
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::FREESTYLE
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rule.name())?;
        if self.continuous {
            f.write_str("+continuous")?;
        }
        Ok(())
    }
}

/// Search score in centi-stones from the side to move's point of view.
/// Scores beyond `MATE_BOUND` encode a forced result: `MATE - plies` for a
/// win found `plies` half-moves from the root, `-(MATE - plies)` for a loss.
pub type Score = i32;

/// Search depth in fractions of a ply: `ONE_PLY` units make one ply, so
/// reductions and extensions can be sized finer than whole plies. Nominal
/// iteration depths (`INFO` depth, `max_depth`) stay in plies.
pub type Depth = i32;
/// Depth units in one ply.
pub const ONE_PLY: Depth = 16;

pub const MATE: Score = 30_000;
pub const MATE_BOUND: Score = MATE - 1_000;
pub const INFINITE: Score = 32_000;

#[inline]
pub fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

#[inline]
pub fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

#[inline]
pub fn is_mate_score(s: Score) -> bool {
    s.abs() >= MATE_BOUND
}

/// Render a score the way GUI users read it: "+W5" for a win in 5 plies,
/// "-L4" for a loss in 4, otherwise the number.
pub fn score_text(s: Score) -> String {
    if s >= MATE_BOUND {
        format!("+W{}", MATE - s)
    } else if s <= -MATE_BOUND {
        format!("-L{}", MATE + s)
    } else {
        format!("{s}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_bits_round_trip() {
        for bits in [0, 1, 2, 3, 4, 6, 8, 10] {
            let r = RuleSet::from_bits(bits);
            assert_eq!(RuleSet::from_bits(r.bits()), r);
        }
        assert_eq!(RuleSet::from_bits(4).rule, Rule::Renju);
        assert_eq!(RuleSet::from_bits(5).rule, Rule::Renju);
        assert_eq!(RuleSet::from_bits(9).rule, Rule::Caro);
        assert!(RuleSet::from_bits(3).continuous);
    }

    #[test]
    fn mate_text() {
        assert_eq!(score_text(mate_in(5)), "+W5");
        assert_eq!(score_text(mated_in(4)), "-L4");
        assert_eq!(score_text(-37), "-37");
    }
}
