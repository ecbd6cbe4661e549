//! Line patterns: what a stone placed on a cell makes along one line,
//! looked up from the cell's line key (see `game::board`).
//!
//! API contract (implementation to come):
//! - `Pattern`: per line, per colour, "what a stone of colour C on this cell makes here".
//! - `line_pattern(rule, color, key) -> Pattern` via a precomputed table per rule.

/// What a stone placed on a cell makes along one line, weakest first
/// (`Overline` sorts just above `None`: it never helps its owner).
/// Defined for the placing colour C, from the cell's 10-cell window:
/// - `Five`: the line now wins under the rule (for Black under renju and for
///   standard: exactly five; caro: a five not blocked at both ends by opponent
///   stones, or longer).
/// - `Overline`: a run of six or more that does not win (standard, renju Black).
/// - `Flex4`: at least two different empty points each complete a `Five`.
/// - `Block4`: exactly one empty point completes a `Five`.
/// - `Flex3`: some empty point then makes a `Flex4`.
/// - `Block3`: some empty point then makes a `Block4`, none a `Flex4`.
/// - `Flex2`/`Block2`, `Flex1`/`Block1`: likewise one level down.
/// - `None`: no five can ever be made through this cell along this line.
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
