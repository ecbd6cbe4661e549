//! The analysis controls a GUI sets on the engine (Yixin-Board's YX
//! commands and INFO keys), kept apart from the game: root moves to leave
//! out (YXBLOCK), the first search depth (INFO start_depth), a move limit
//! with the result it gives (INFO max_moves, INFO draw_result), and the
//! candidate range (INFO caution_factor), which the engine gives its board.
//! Each becomes part of every search request (`Engine::request`). At the
//! move limit the engine says so (`limit_reached`, a MESSAGE) and still
//! answers with a move: a manager that plays on past it must never see a
//! refusal, which it would forfeit.

use crate::brain::game::{Board, CandidateRange, Pos};
use crate::brain::types::Color;

use super::strength::Strength;

/// How a game that reaches the move limit ends (INFO draw_result 0, 1, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DrawResult {
    #[default]
    Draw,
    BlackWins,
    WhiteWins,
}

impl DrawResult {
    /// INFO draw_result's value (None: not 0, 1 or 2).
    pub fn from_code(v: i64) -> Option<DrawResult> {
        match v {
            0 => Some(DrawResult::Draw),
            1 => Some(DrawResult::BlackWins),
            2 => Some(DrawResult::WhiteWins),
            _ => None,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            DrawResult::Draw => None,
            DrawResult::BlackWins => Some(Color::Black),
            DrawResult::WhiteWins => Some(Color::White),
        }
    }
}

/// What a GUI set for analysis; the defaults change nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Root moves to leave out, as (x, y), in the order given (YXBLOCK).
    pub excluded: Vec<(usize, usize)>,
    /// The first iteration's depth (None: 1).
    pub start_depth: Option<u32>,
    /// The game ends when this many stones are on the board (None: no limit).
    pub max_moves: Option<usize>,
    /// How it ends then.
    pub draw_result: DrawResult,
    /// INFO strength (full by default).
    pub strength: Strength,
    /// INFO caution_factor: the cells around the stones every search
    /// considers (radius 2 by default).
    pub range: CandidateRange,
}

impl Analysis {
    /// The excluded moves on `board` (those off it are dropped).
    pub fn excluded_on(&self, board: &Board) -> Vec<Pos> {
        self.excluded
            .iter()
            .filter_map(|&(x, y)| board.pos(x as i64, y as i64))
            .collect()
    }

    /// Moves left on `board` before the move limit (None: no limit, or the
    /// limit already reached: the game goes on, uncapped).
    pub fn moves_left(&self, board: &Board) -> Option<usize> {
        self.max_moves
            .and_then(|m| m.checked_sub(board.stone_count()))
            .filter(|&left| left > 0)
    }

    /// Why the game on `board` is over by the move limit, if it is.
    pub fn limit_reached(&self, board: &Board) -> Option<String> {
        let m = self.max_moves?;
        (board.stone_count() >= m).then(|| {
            let end = match self.draw_result.winner() {
                None => "the game is a draw".to_string(),
                Some(c) => format!("{c:?} wins"),
            };
            format!("move limit {m} reached: {end}")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::types::RuleSet;

    #[test]
    fn the_limit_ends_the_game_as_set() {
        let mut b = Board::square(15, RuleSet::default()).unwrap();
        let mut a = Analysis::default();
        assert_eq!(a.limit_reached(&b), None);
        assert_eq!(a.moves_left(&b), None);
        a.max_moves = Some(2);
        b.play(b.pos(7, 7).unwrap());
        assert_eq!(a.moves_left(&b), Some(1));
        assert_eq!(a.limit_reached(&b), None);
        b.play(b.pos(8, 8).unwrap());
        assert_eq!(a.moves_left(&b), None, "reached: no cap");
        assert_eq!(
            a.limit_reached(&b).as_deref(),
            Some("move limit 2 reached: the game is a draw")
        );
        a.draw_result = DrawResult::from_code(2).unwrap();
        assert_eq!(
            a.limit_reached(&b).as_deref(),
            Some("move limit 2 reached: White wins")
        );
        assert_eq!(DrawResult::from_code(3), None);
    }

    #[test]
    fn excluded_moves_off_the_board_are_dropped() {
        let b = Board::square(15, RuleSet::default()).unwrap();
        let a = Analysis {
            excluded: vec![(3, 4), (19, 19)],
            ..Analysis::default()
        };
        assert_eq!(a.excluded_on(&b), vec![b.pos(3, 4).unwrap()]);
    }
}
