//! The legality guard: whatever the searcher returns, the move we send must
//! be on the board, empty and, for Black under renju, not forbidden. Also a
//! search-free fallback move and the "is the game already over" test.

use crate::game::rules::{is_win, winner_at};
use crate::game::{Board, Pos};
use crate::types::Color;

pub use crate::game::rules::is_legal;

/// A five on the board that ends the game (never in a continuous game).
pub fn finished(board: &Board) -> Option<(Color, Pos)> {
    if board.rules().continuous {
        return None;
    }
    board
        .cells()
        .iter()
        .find_map(|&p| winner_at(board, p).map(|c| (c, p)))
}

/// A legal move chosen without search: win now, else block the opponent's
/// five, else the legal cell with most stones around it, nearest the centre.
pub fn fallback_move(board: &Board) -> Option<Pos> {
    let me = board.to_move();
    let legal: Vec<Pos> = board
        .empty_cells()
        .filter(|&p| is_legal(board, p))
        .collect();
    if let Some(&p) = legal.iter().find(|&&p| is_win(board, p, me)) {
        return Some(p);
    }
    if let Some(&p) = legal.iter().find(|&&p| is_win(board, p, me.opposite())) {
        return Some(p);
    }
    let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
    legal.into_iter().min_by_key(|&p| {
        let (x, y) = board.xy(p);
        let d = (x as i64 - cx).abs().max((y as i64 - cy).abs());
        (std::cmp::Reverse(board.near_count(p)), d, p)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::is_forbidden;
    use crate::types::RuleSet;

    #[test]
    fn wins_and_blocks_even_with_a_weak_search() {
        let b = Board::from_ascii(
            "\
            . . . . . . .\n\
            . X X X X . .\n\
            . O O O . . .\n\
            . . . . . . .\n\
            . . . . . . .\n\
            . . . . . . .\n\
            . . . . . . O\n",
            RuleSet::default(),
        )
        .unwrap();
        assert_eq!(b.to_move(), Color::Black);
        let p = fallback_move(&b).unwrap();
        assert!(is_win(&b, p, Color::Black));
    }

    #[test]
    fn legality_guard_knows_renju() {
        let text = "\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . X . . . .\n\
            . . . . X . . . .\n\
            . . X X . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            . . . . . . . . .\n\
            O . O . O . . . O\n";
        let mut b = Board::from_ascii(text, RuleSet::from_bits(4)).unwrap();
        let p = b.pos(4, 4).unwrap();
        assert_eq!(b.to_move(), Color::Black);
        assert!(is_forbidden(&b, p));
        assert!(!is_legal(&b, p));
        assert_ne!(fallback_move(&b), Some(p));
        b.set_to_move(Color::White);
        assert!(is_legal(&b, p));
        b.set_rules(RuleSet::default());
        b.set_to_move(Color::Black);
        assert!(is_legal(&b, p));
        assert!(!is_legal(&b, b.pos(4, 3).unwrap()));
    }
}
