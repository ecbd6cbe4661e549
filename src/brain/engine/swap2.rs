//! SWAP2 opening decisions (SWAP2BOARD with 0, 3 or 5 stones), as pure
//! procedures over a *probe*: a callback that searches a position for the
//! side to move with a share of this turn's time and returns its best legal
//! move and score (from the mover's point of view). The engine supplies the
//! real searcher; tests supply fakes.
//!
//! - 0 stones: try a few three-stone shapes around the centre and put down
//!   the one whose score (White to move) is closest to even, so that the
//!   opponent's choice of colour gains little.
//! - 3 stones (we would be White): swap if White's side scores below
//!   -`BALANCE`, stay and play White's move if it scores above `BALANCE`,
//!   otherwise add White's and Black's best moves and let the opponent choose.
//! - 5 stones (we choose our colour): swap to Black when White's side scores
//!   below even, else play White's move.

use crate::brain::game::{Board, Pos};
use crate::brain::types::{score_text, Score};

/// A 3-stone position within this score of even is "balanced".
pub const BALANCE: Score = crate::brain::search::params::SWAP2_BALANCE;

/// Three-stone shapes (Black, White, Black) as offsets from the centre.
const SHAPES: [[(i64, i64); 3]; 6] = [
    [(0, 0), (1, 1), (2, 0)],
    [(0, 0), (1, 0), (2, 2)],
    [(0, 0), (1, -1), (0, 2)],
    [(0, 0), (2, 1), (1, 2)],
    [(0, 0), (0, 1), (2, 2)],
    [(0, 0), (1, 1), (-1, 2)],
];

/// What to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `SWAP`: we take the other colour; the board stays as given.
    Swap,
    /// These stones (already placed on the returned board, alternating
    /// colours from the side to move).
    Moves(Vec<Pos>),
}

#[derive(Clone, Debug)]
pub struct Decision {
    /// The position after our answer.
    pub board: Board,
    pub answer: Answer,
    /// What the decision was based on, for a MESSAGE line.
    pub note: String,
}

/// Search `board` for the side to move with `1/parts` of the turn's budget.
pub type Probe<'a> = dyn FnMut(&Board, u64) -> Result<(Pos, Score), String> + 'a;

/// Decide for a SWAP2BOARD whose stones are already on `board` (0, 3 or 5).
pub fn decide(board: Board, probe: &mut Probe) -> Result<Decision, String> {
    match board.stone_count() {
        0 => opening(board, probe),
        3 => three(board, probe),
        5 => five(board, probe),
        n => Err(format!("SWAP2BOARD: {n} stones, expected 0, 3 or 5")),
    }
}

fn opening(empty: Board, probe: &mut Probe) -> Result<Decision, String> {
    let (cx, cy) = (empty.width() as i64 / 2, empty.height() as i64 / 2);
    let mut best: Option<(Score, Board)> = None;
    for shape in SHAPES {
        let mut b = empty.clone();
        if shape
            .iter()
            .any(|&(dx, dy)| b.try_make(cx + dx, cy + dy, b.to_move()).is_err())
        {
            continue;
        }
        let Ok((_, score)) = probe(&b, SHAPES.len() as u64) else {
            continue;
        };
        let off = score.saturating_abs();
        if best.as_ref().is_none_or(|(s, _)| off < *s) {
            best = Some((off, b));
        }
    }
    let (off, board) = best.ok_or("SWAP2BOARD: the board is too small for an opening")?;
    let moves = board.history().iter().map(|m| m.pos).collect();
    Ok(Decision {
        board,
        answer: Answer::Moves(moves),
        note: format!("swap2: opening within {} of even", score_text(off)),
    })
}

fn three(mut b: Board, probe: &mut Probe) -> Result<Decision, String> {
    let (w, score) = probe(&b, 2)?;
    let note = format!("swap2: White to move scores {}", score_text(score));
    if score < -BALANCE {
        return Ok(Decision {
            board: b,
            answer: Answer::Swap,
            note,
        });
    }
    b.play(w);
    if score > BALANCE {
        return Ok(Decision {
            board: b,
            answer: Answer::Moves(vec![w]),
            note,
        });
    }
    let (bl, _) = probe(&b, 1)?;
    b.play(bl);
    Ok(Decision {
        board: b,
        answer: Answer::Moves(vec![w, bl]),
        note,
    })
}

fn five(mut b: Board, probe: &mut Probe) -> Result<Decision, String> {
    let (w, score) = probe(&b, 1)?;
    let note = format!("swap2: White to move scores {}", score_text(score));
    if score < 0 {
        return Ok(Decision {
            board: b,
            answer: Answer::Swap,
            note,
        });
    }
    b.play(w);
    Ok(Decision {
        board: b,
        answer: Answer::Moves(vec![w]),
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::types::RuleSet;

    fn board(stones: &[(i64, i64)]) -> Board {
        let mut b = Board::square(15, RuleSet::default()).unwrap();
        for &(x, y) in stones {
            b.try_make(x, y, b.to_move()).unwrap();
        }
        b
    }

    /// A probe that scores every position `score` and plays the first empty
    /// cell near the centre.
    fn fixed(score: Score) -> impl FnMut(&Board, u64) -> Result<(Pos, Score), String> {
        move |b: &Board, _| {
            let p = b.empty_cells().find(|&p| b.xy(p).1 >= 7).unwrap();
            Ok((p, score))
        }
    }

    #[test]
    fn three_stones_follow_the_score() {
        let b = board(&[(7, 7), (8, 7), (7, 9)]);
        let d = decide(b.clone(), &mut fixed(-400)).unwrap();
        assert_eq!(d.answer, Answer::Swap);
        assert_eq!(d.board.stone_count(), 3);
        let d = decide(b.clone(), &mut fixed(400)).unwrap();
        assert!(matches!(d.answer, Answer::Moves(ref m) if m.len() == 1));
        assert_eq!(d.board.stone_count(), 4);
        let d = decide(b, &mut fixed(20)).unwrap();
        assert!(matches!(d.answer, Answer::Moves(ref m) if m.len() == 2));
        assert_eq!(d.board.stone_count(), 5);
    }

    #[test]
    fn five_stones_swap_only_when_white_is_worse() {
        let b = board(&[(7, 7), (8, 7), (7, 9), (6, 6), (9, 9)]);
        assert_eq!(
            decide(b.clone(), &mut fixed(-1)).unwrap().answer,
            Answer::Swap
        );
        let d = decide(b, &mut fixed(0)).unwrap();
        assert!(matches!(d.answer, Answer::Moves(ref m) if m.len() == 1));
    }

    #[test]
    fn opening_picks_the_most_even_shape() {
        // Score each shape by where its second black stone lies: the fourth
        // shape (2,1),(1,2) is the only one scored 0.
        let mut probe = |b: &Board, _: u64| {
            let last = b.history().last().unwrap().pos;
            let (x, y) = b.xy(last);
            let s = if (x, y) == (8, 9) {
                0
            } else {
                300 + x as Score
            };
            Ok((b.empty_cells().next().unwrap(), s))
        };
        let d = decide(board(&[]), &mut probe).unwrap();
        let Answer::Moves(m) = d.answer else {
            panic!("expected moves")
        };
        let xy: Vec<_> = m.iter().map(|&p| d.board.xy(p)).collect();
        assert_eq!(xy, vec![(7, 7), (9, 8), (8, 9)]);
    }

    #[test]
    fn wrong_counts_are_errors() {
        assert!(decide(board(&[(7, 7)]), &mut fixed(0)).is_err());
    }
}
