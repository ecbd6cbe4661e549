//! The referee: the authoritative game state of one arena game. It places the
//! opening, judges every move an engine sends (off the board, occupied,
//! forbidden to Black under renju, a win under the rule, a full-board draw)
//! and keeps the move list for the records.

use std::fmt;

use crate::brain::game::rules::{is_forbidden, is_win};
use crate::brain::game::{Board, Pos};
use crate::brain::types::{Color, Rule, RuleSet};

/// How a game ended (the counts in the summary and the JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A winning line under the rule.
    Five,
    /// Over the per-move or per-game time.
    Timeout,
    /// The engine exited, closed its pipes, failed to start or refused START.
    Crash,
    /// Off the board, an occupied point, or output that is no move at all.
    Illegal,
    /// A move forbidden to Black under renju.
    Forbidden,
    /// Memory over the limit.
    Memory,
    /// The board filled up.
    Draw,
}

impl Termination {
    pub const ALL: [Termination; 7] = [
        Termination::Five,
        Termination::Timeout,
        Termination::Crash,
        Termination::Illegal,
        Termination::Forbidden,
        Termination::Memory,
        Termination::Draw,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Termination::Five => "five",
            Termination::Timeout => "timeout",
            Termination::Crash => "crash",
            Termination::Illegal => "illegal",
            Termination::Forbidden => "forbidden",
            Termination::Memory => "memory",
            Termination::Draw => "draw",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The referee's answer to one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move stands; the game goes on.
    Continue,
    /// The mover completed a winning line.
    Win,
    /// The move stands and filled the board.
    Draw,
    /// The mover loses: the move was not played.
    Forfeit(Termination, String),
}

pub struct Referee {
    board: Board,
    opening_len: usize,
}

impl Referee {
    pub fn new(width: usize, height: usize, rules: RuleSet) -> Result<Referee, String> {
        let rules = RuleSet::from(rules.rule);
        let board = Board::new(width, height, rules).map_err(|e| e.to_string())?;
        Ok(Referee {
            board,
            opening_len: 0,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rule(&self) -> Rule {
        self.board.rules().rule
    }

    /// Put the opening stones on the board, Black first, alternating.
    pub fn place_opening(&mut self, stones: &[(i64, i64)]) -> Result<(), String> {
        for &(x, y) in stones {
            let c = self.board.to_move();
            self.board
                .try_make(x, y, c)
                .map_err(|e| format!("opening: {e}"))?;
        }
        self.opening_len = stones.len();
        Ok(())
    }

    pub fn opening_len(&self) -> usize {
        self.opening_len
    }

    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }

    /// Every stone placed so far (opening included), as (x, y), in order.
    pub fn moves(&self) -> Vec<(usize, usize)> {
        self.board
            .history()
            .iter()
            .map(|m| self.board.xy(m.pos))
            .collect()
    }

    /// The last stone placed, as (x, y).
    pub fn last_move(&self) -> Option<(usize, usize)> {
        self.board.last_move().map(|m| self.board.xy(m.pos))
    }

    /// Judge a move by the side to move and play it if it stands.
    pub fn judge(&mut self, x: i64, y: i64) -> Verdict {
        let color = self.board.to_move();
        let Some(p) = self.board.pos(x, y) else {
            return Verdict::Forfeit(
                Termination::Illegal,
                format!("{x},{y} is outside the board"),
            );
        };
        if !self.board.is_empty(p) {
            return Verdict::Forfeit(Termination::Illegal, format!("{x},{y} is occupied"));
        }
        let win = is_win(&self.board, p, color);
        if !win && color == Color::Black && self.rule() == Rule::Renju && self.forbidden(p) {
            return Verdict::Forfeit(
                Termination::Forbidden,
                format!("{x},{y} is forbidden to Black"),
            );
        }
        self.board.make(p, color);
        if win {
            Verdict::Win
        } else if self.board.is_full() {
            Verdict::Draw
        } else {
            Verdict::Continue
        }
    }

    /// Forbidden to Black under renju: the rules module's answer, plus an
    /// overline check of our own so the referee never lets one through.
    fn forbidden(&self, p: Pos) -> bool {
        is_forbidden(&self.board, p)
            || (0..4).any(|d| self.board.run_length(p, d, Color::Black.cell()) > 5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A referee on a 15×15 board with Black's stones `xs` and White's `os`
    /// placed alternately (Black first); the side to move follows.
    fn referee(rule: Rule, black: &[(i64, i64)], white: &[(i64, i64)]) -> Referee {
        let mut r = Referee::new(15, 15, RuleSet::from(rule)).unwrap();
        let mut stones = Vec::new();
        for i in 0..black.len().max(white.len()) {
            if let Some(&b) = black.get(i) {
                stones.push(b);
            }
            if let Some(&w) = white.get(i) {
                stones.push(w);
            }
        }
        r.place_opening(&stones).unwrap();
        r
    }

    #[test]
    fn five_wins_under_every_rule() {
        for rule in Rule::ALL {
            let mut r = referee(
                rule,
                &[(3, 7), (4, 7), (5, 7), (6, 7)],
                &[(3, 0), (5, 0), (7, 0), (9, 0)],
            );
            assert_eq!(r.to_move(), Color::Black);
            assert_eq!(r.judge(7, 7), Verdict::Win, "{rule:?}");
        }
    }

    #[test]
    fn four_does_not_win() {
        let mut r = referee(
            Rule::Freestyle,
            &[(4, 7), (5, 7), (6, 7)],
            &[(3, 0), (5, 0)],
        );
        assert_eq!(r.judge(7, 7), Verdict::Continue);
    }

    #[test]
    fn overline_per_rule() {
        // Black: 2..=4 and 6..=7 on row 7; 5,7 makes six.
        let black = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)];
        let white = [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0)];
        let mut r = referee(Rule::Freestyle, &black, &white);
        assert_eq!(r.judge(5, 7), Verdict::Win);
        let mut r = referee(Rule::Caro, &black, &white);
        assert_eq!(r.judge(5, 7), Verdict::Win);
        let mut r = referee(Rule::Standard, &black, &white);
        assert_eq!(r.judge(5, 7), Verdict::Continue);
        // Renju: a black overline is forbidden and loses.
        let mut r = referee(Rule::Renju, &black, &white);
        assert!(matches!(
            r.judge(5, 7),
            Verdict::Forfeit(Termination::Forbidden, _)
        ));
        // ... and the stone was not played.
        assert!(r.board().is_empty(r.board().pos(5, 7).unwrap()));
    }

    #[test]
    fn renju_white_overline_wins() {
        let white = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)];
        let black = [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0), (10, 14)];
        let mut r = referee(Rule::Renju, &black, &white);
        assert_eq!(r.to_move(), Color::White);
        assert_eq!(r.judge(5, 7), Verdict::Win);
    }

    #[test]
    fn renju_five_wins_even_with_an_overline_elsewhere() {
        // 7,7 completes exactly five vertically and an overline horizontally:
        // the five wins.
        let black = [
            (7, 3),
            (7, 4),
            (7, 5),
            (7, 6),
            (4, 7),
            (5, 7),
            (6, 7),
            (8, 7),
            (9, 7),
        ];
        let white = [
            (0, 0),
            (2, 0),
            (4, 0),
            (6, 0),
            (8, 0),
            (10, 0),
            (12, 0),
            (0, 14),
            (2, 14),
        ];
        let mut r = referee(Rule::Renju, &black, &white);
        assert_eq!(r.judge(7, 7), Verdict::Win);
    }

    #[test]
    fn renju_double_four_is_forbidden() {
        // 7,7 makes two fours at once (row 7: 4..7, column 7: 4..7) and no
        // five: a double four.
        let black = [(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)];
        let white = [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0), (10, 0)];
        let mut r = referee(Rule::Renju, &black, &white);
        assert!(matches!(
            r.judge(7, 7),
            Verdict::Forfeit(Termination::Forbidden, _)
        ));
        assert_eq!(r.to_move(), Color::Black);
        // White may play there freely.
        let mut w = referee(Rule::Renju, &white, &black);
        assert_eq!(w.to_move(), Color::Black);
        w.judge(14, 14);
        assert_eq!(w.judge(7, 7), Verdict::Continue);
    }

    #[test]
    fn renju_double_three_is_forbidden_to_black_only() {
        // Open twos on row 7 (5,7 6,7) and column 7 (7,5 7,6): 7,7 makes two
        // open threes.
        let black = [(5, 7), (6, 7), (7, 5), (7, 6)];
        let white = [(0, 0), (2, 0), (4, 0), (6, 0)];
        let mut r = referee(Rule::Renju, &black, &white);
        assert!(matches!(
            r.judge(7, 7),
            Verdict::Forfeit(Termination::Forbidden, _)
        ));
        // Under freestyle the same move is fine.
        let mut r = referee(Rule::Freestyle, &black, &white);
        assert_eq!(r.judge(7, 7), Verdict::Continue);
    }

    #[test]
    fn caro_five_blocked_at_both_ends_does_not_win() {
        let black = [(3, 7), (4, 7), (5, 7), (6, 7)];
        let white = [(2, 7), (8, 7), (0, 0), (0, 2)];
        let mut r = referee(Rule::Caro, &black, &white);
        assert_eq!(r.judge(7, 7), Verdict::Continue);
        // One end blocked: wins.
        let white = [(2, 7), (0, 4), (0, 0), (0, 2)];
        let mut r = referee(Rule::Caro, &black, &white);
        assert_eq!(r.judge(7, 7), Verdict::Win);
        // The edge does not block: five from the edge with White beyond.
        let black = [(0, 7), (1, 7), (2, 7), (3, 7)];
        let white = [(5, 7), (0, 4), (0, 0), (0, 2)];
        let mut r = referee(Rule::Caro, &black, &white);
        assert_eq!(r.judge(4, 7), Verdict::Win);
        // Freestyle does not care about blocks.
        let black = [(3, 7), (4, 7), (5, 7), (6, 7)];
        let white = [(2, 7), (8, 7), (0, 0), (0, 2)];
        let mut r = referee(Rule::Freestyle, &black, &white);
        assert_eq!(r.judge(7, 7), Verdict::Win);
    }

    #[test]
    fn illegal_and_occupied_moves_forfeit() {
        let mut r = referee(Rule::Freestyle, &[(7, 7)], &[]);
        assert!(matches!(
            r.judge(7, 7),
            Verdict::Forfeit(Termination::Illegal, _)
        ));
        assert!(matches!(
            r.judge(15, 3),
            Verdict::Forfeit(Termination::Illegal, _)
        ));
        assert!(matches!(
            r.judge(-1, 3),
            Verdict::Forfeit(Termination::Illegal, _)
        ));
        assert_eq!(r.to_move(), Color::White);
        assert_eq!(r.judge(0, 0), Verdict::Continue);
        assert_eq!(r.moves(), vec![(7, 7), (0, 0)]);
        assert_eq!(r.last_move(), Some((0, 0)));
    }

    #[test]
    fn full_board_is_a_draw() {
        // 5×5 filled in a pattern with no five: columns in pairs.
        let mut r = Referee::new(5, 5, RuleSet::from(Rule::Freestyle)).unwrap();
        let mut order = Vec::new();
        for y in 0..5 {
            for x in 0..5 {
                order.push((x, y));
            }
        }
        // Colour by (x/2 + y) parity pattern: assign black/white lists.
        let colour = |x: i64, y: i64| ((x / 2) + y) % 2 == 0;
        let blacks: Vec<_> = order.iter().filter(|&&(x, y)| colour(x, y)).collect();
        let whites: Vec<_> = order.iter().filter(|&&(x, y)| !colour(x, y)).collect();
        assert_eq!(blacks.len(), 13);
        let mut last = Verdict::Continue;
        for i in 0..13 {
            last = r.judge(blacks[i].0, blacks[i].1);
            if i < 12 {
                assert_eq!(last, Verdict::Continue);
                assert_eq!(r.judge(whites[i].0, whites[i].1), Verdict::Continue);
            }
        }
        assert_eq!(last, Verdict::Draw);
    }

    #[test]
    fn bad_opening_is_an_error() {
        let mut r = Referee::new(15, 15, RuleSet::from(Rule::Freestyle)).unwrap();
        assert!(r.place_opening(&[(7, 7), (7, 7)]).is_err());
        let mut r = Referee::new(15, 15, RuleSet::from(Rule::Freestyle)).unwrap();
        assert!(r.place_opening(&[(20, 7)]).is_err());
        assert!(Referee::new(40, 15, RuleSet::from(Rule::Freestyle)).is_err());
    }
}
