//! The legality guard: whatever the searcher returns, the move we send must
//! be on the board, empty and, for Black under renju, not forbidden. Every
//! move the engine answers with passes through `choose`: the search's best
//! move, else the first legal one among its ranked moves and PV, else the
//! game's one search-free fallback (`rules::fallback_move`).

use crate::brain::game::rules::fallback_move;
use crate::brain::game::{Board, Pos};
use crate::brain::search::SearchResult;
use crate::brain::types::Score;

pub use crate::brain::game::rules::{finished, is_legal};

/// A move chosen for the side to move, checked legal (`legal` false only
/// when no empty cell is legal: under renju, every one left forbidden to
/// Black, where any answer loses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    pub mv: Pos,
    pub score: Score,
    /// Principal variation starting with `mv` (at least `mv`).
    pub pv: Vec<Pos>,
    /// Depth of the search that chose it (0: the fallback).
    pub depth: u32,
    pub legal: bool,
}

/// The first legal move among the result's best move, ranked moves and PV.
pub fn legal_choice(board: &Board, r: &SearchResult) -> Option<Chosen> {
    let candidates = std::iter::once(r.best)
        .chain(r.ranked.iter().map(|&(p, _)| p))
        .chain(r.pv.first().copied());
    for p in candidates {
        if is_legal(board, p) {
            let pv = if r.pv.first() == Some(&p) {
                r.pv.clone()
            } else {
                vec![p]
            };
            return Some(Chosen {
                mv: p,
                score: r.score,
                pv,
                depth: r.depth,
                legal: true,
            });
        }
    }
    None
}

/// The move to answer with: the search's legal choice if it has one (None:
/// the search panicked), else the fallback. None only on a full board.
/// A search that found no legal move where one exists is a bug: it is
/// logged with the position (when every empty cell is forbidden to Black
/// the caller says so instead).
pub fn choose(board: &Board, result: Option<&SearchResult>) -> Option<Chosen> {
    if let Some(c) = result.and_then(|r| legal_choice(board, r)) {
        return Some(c);
    }
    let p = fallback_move(board)?;
    let legal = is_legal(board, p);
    if let (Some(r), true) = (result, legal) {
        let why = if !board.in_board(r.best) {
            "off the board"
        } else if !board.is_empty(r.best) {
            "occupied"
        } else {
            "forbidden"
        };
        log::warn!(
            "search returned no legal move ({:?}, {why}; {} ranked, pv {:?}); falling back\n{board}",
            r.best,
            r.ranked.len(),
            r.pv
        );
    }
    Some(Chosen {
        mv: p,
        score: 0,
        pv: vec![p],
        depth: 0,
        legal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::rules::{is_forbidden, is_win};
    use crate::brain::types::Color;
    use crate::brain::types::RuleSet;

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
