//! Balanced moves (YXBALANCEONE s, YXBALANCETWO s), as pure procedures over
//! a *ranker*: a callback that searches a position for the side to move
//! with a share of this turn's time and returns its best few legal moves,
//! each with an exact score from the mover's point of view. The engine
//! supplies the real searcher; tests supply fakes.
//!
//! `s` is a score in the engine's units (as in `MESSAGE` evaluations) for
//! the side to move when the command comes, as in Rapfi: positive `s` asks
//! for a position that favours that side by `s`.
//!
//! - On an empty board the search's root holds the centre only, so the
//!   first move is chosen among `OPENING` cells, centre to corner, instead
//!   (one of each symmetric set), each scored by the opponent's best reply.
//! - ONE: of the best `ONE_MOVES` moves, the one whose score (after it, for
//!   the side that played it) is closest to `s`.
//! - TWO: our move, then the opponent's: of the best `TWO_FIRST` first
//!   moves and, after each, the opponent's best `TWO_SECOND` replies, the
//!   pair after which the side to move (the same side again) scores
//!   closest to `s`.

use super::legal::is_legal;
use crate::brain::game::{Board, Pos};
use crate::brain::types::{score_text, Score};

/// How many moves YXBALANCEONE scores exactly.
pub const ONE_MOVES: usize = 16;
/// How many first moves YXBALANCETWO tries.
pub const TWO_FIRST: usize = 6;
/// How many replies YXBALANCETWO tries after each first move.
pub const TWO_SECOND: usize = 6;

/// Rank the best `n` legal moves of `board` for the side to move, with
/// `1/parts` of the turn's budget: best first, scores from the mover's view.
pub type Rank<'a> = dyn FnMut(&Board, usize, u64) -> Result<Vec<(Pos, Score)>, String> + 'a;

#[derive(Clone, Debug)]
pub struct Balanced {
    /// The position after the moves.
    pub board: Board,
    /// The moves, in order (one or two).
    pub moves: Vec<Pos>,
    /// The score after them for the side that was to move.
    pub score: Score,
    /// What the choice was based on, for a MESSAGE line.
    pub note: String,
}

/// First-move cells on an empty board, as offsets from the centre: one of
/// each of a few symmetric sets, from the centre out towards the corner
/// (the further out, the less a first stone is worth).
const OPENING: [(i64, i64); 8] = [
    (0, 0),
    (1, 1),
    (2, 1),
    (3, 3),
    (4, 2),
    (5, 5),
    (6, 3),
    (6, 6),
];

/// The candidate moves with their scores for the mover: the best `n` by
/// `rank`. A search that proves a win ranks that move alone, so when it
/// ranks fewer than `n`, legal cells next to the stones (nearest the last
/// move first) make up the number, each scored by the opponent's best
/// reply. On an empty board: the `OPENING` cells, scored the same way.
fn candidates(
    board: &Board,
    n: usize,
    parts: u64,
    rank: &mut Rank,
) -> Result<Vec<(Pos, Score)>, String> {
    let (cells, mut out) = if board.stone_count() == 0 {
        let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
        let cells: Vec<Pos> = OPENING
            .iter()
            .filter_map(|&(dx, dy)| board.pos(cx + dx, cy + dy))
            .collect();
        (cells, Vec::new())
    } else {
        let ranked = rank(board, n, parts)?;
        if ranked.len() >= n {
            return Ok(ranked);
        }
        (near(board, &ranked), ranked)
    };
    let want = if board.stone_count() == 0 {
        cells.len()
    } else {
        n
    };
    let each = parts.saturating_mul(want as u64);
    for p in cells {
        if out.len() >= want {
            break;
        }
        let mut b = board.clone();
        b.play(p);
        // A move that ends the game has no reply to score it by.
        if let Ok(replies) = rank(&b, 1, each) {
            if let Some(&(_, s)) = replies.first() {
                out.push((p, s.saturating_neg()));
            }
        }
    }
    Ok(out)
}

/// Legal empty cells next to a stone, not in `ranked`, nearest the last
/// move first.
fn near(board: &Board, ranked: &[(Pos, Score)]) -> Vec<Pos> {
    let stones: Vec<(i64, i64)> = board
        .history()
        .iter()
        .map(|m| {
            let (x, y) = board.xy(m.pos);
            (x as i64, y as i64)
        })
        .collect();
    let last = stones.last().copied().unwrap_or_default();
    let mut cells: Vec<(i64, Pos)> = board
        .empty_cells()
        .filter(|p| !ranked.iter().any(|(q, _)| q == p) && is_legal(board, *p))
        .filter_map(|p| {
            let (x, y) = board.xy(p);
            let (x, y) = (x as i64, y as i64);
            stones
                .iter()
                .any(|&(sx, sy)| (sx - x).abs() <= 1 && (sy - y).abs() <= 1)
                .then(|| ((last.0 - x).abs().max((last.1 - y).abs()), p))
        })
        .collect();
    cells.sort_by_key(|&(d, p)| (d, p));
    cells.into_iter().map(|(_, p)| p).collect()
}

fn off(score: Score, bias: i64) -> i64 {
    (i64::from(score) - bias).abs()
}

/// YXBALANCEONE: the move closest to `bias` for the side to move.
pub fn one(mut board: Board, bias: i64, rank: &mut Rank) -> Result<Balanced, String> {
    let ranked = candidates(&board, ONE_MOVES, 1, rank)?;
    let &(mv, score) = ranked
        .iter()
        .min_by_key(|&&(_, s)| off(s, bias))
        .ok_or("no legal move left")?;
    board.play(mv);
    Ok(Balanced {
        board,
        moves: vec![mv],
        score,
        note: format!(
            "balance1: best of {} moves, score {} for the mover (bias {bias})",
            ranked.len(),
            score_text(score)
        ),
    })
}

/// YXBALANCETWO: our move and the opponent's reply after which the side to
/// move scores closest to `bias`.
pub fn two(board: Board, bias: i64, rank: &mut Rank) -> Result<Balanced, String> {
    let parts = 1 + TWO_FIRST as u64;
    let firsts = candidates(&board, TWO_FIRST, parts, rank)?;
    let mut best: Option<(i64, Pos, Pos, Score)> = None;
    let mut pairs = 0;
    for &(m1, _) in &firsts {
        let mut b = board.clone();
        b.play(m1);
        // A first move that ends the game (or leaves no reply) has no pair.
        let Ok(replies) = candidates(&b, TWO_SECOND, parts, rank) else {
            continue;
        };
        for &(m2, s2) in &replies {
            pairs += 1;
            let score = s2.saturating_neg();
            let d = off(score, bias);
            if best.is_none_or(|(bd, ..)| d < bd) {
                best = Some((d, m1, m2, score));
            }
        }
    }
    let (_, m1, m2, score) = best.ok_or("no pair of legal moves left")?;
    let mut board = board;
    board.play(m1);
    board.play(m2);
    Ok(Balanced {
        board,
        moves: vec![m1, m2],
        score,
        note: format!(
            "balance2: best of {pairs} pairs, score {} for the side to move (bias {bias})",
            score_text(score)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::types::RuleSet;

    fn empty() -> Board {
        Board::square(15, RuleSet::default()).unwrap()
    }

    /// A board with one stone in the corner (not empty: the moves are
    /// ranked, not the opening cells).
    fn played() -> Board {
        let mut b = empty();
        b.play(b.pos(0, 0).unwrap());
        b
    }

    /// A ranker that gives the empty cells of row 7 the scores `scores`,
    /// in order, at every position.
    fn fixed(
        scores: &'static [Score],
    ) -> impl FnMut(&Board, usize, u64) -> Result<Vec<(Pos, Score)>, String> {
        move |b: &Board, n, _| {
            Ok(b.empty_cells()
                .filter(|&p| b.xy(p).1 == 7)
                .zip(scores.iter().copied())
                .take(n)
                .collect())
        }
    }

    #[test]
    fn one_picks_the_score_closest_to_the_bias() {
        let scores = &[500, 30, -200];
        for (bias, want) in [(0, 30), (300, 500), (-150, -200), (10_000, 500)] {
            let d = one(played(), bias, &mut fixed(scores)).unwrap();
            assert_eq!(d.score, want, "bias {bias}");
            assert_eq!(d.moves.len(), 1);
            assert_eq!(d.board.stone_count(), 2);
        }
    }

    #[test]
    fn two_scores_the_pair_for_the_side_to_move() {
        // The reply's score is the opponent's: the side to move after the
        // pair scores its negation.
        let d = two(played(), 200, &mut fixed(&[100, -190, 40])).unwrap();
        assert_eq!(d.score, 190);
        assert_eq!(d.moves.len(), 2);
        assert_ne!(d.moves[0], d.moves[1]);
        assert_eq!(d.board.stone_count(), 3);
        let d = two(played(), -90, &mut fixed(&[100, -190, 40])).unwrap();
        assert_eq!(d.score, -100);
    }

    #[test]
    fn an_empty_board_tries_cells_around_the_centre() {
        // Score each position by its stones' distance from the centre: the
        // mover's score after the first move is minus the reply's.
        let mut rank = |b: &Board, _: usize, _: u64| {
            let p = b.history().last().map(|m| m.pos).unwrap();
            let (x, y) = b.xy(p);
            let d = (x as Score - 7).abs() + (y as Score - 7).abs();
            let reply = b.empty_cells().next().unwrap();
            Ok(vec![(reply, -100 * d)])
        };
        let d = one(empty(), 300, &mut rank).unwrap();
        assert_eq!(d.score, 300);
        assert_eq!(d.board.xy(d.moves[0]), (9, 8));
    }

    #[test]
    fn nothing_to_rank_is_an_error() {
        assert!(one(played(), 0, &mut fixed(&[])).is_err());
        assert!(two(played(), 0, &mut fixed(&[])).is_err());
    }
}
