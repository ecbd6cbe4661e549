//! Move ordering: hash move first, then threat-ordered moves (our fives and
//! fours, blocks of the opponent's, threes, ...), killers and history.

use crate::brain::eval::weights::{Class, ATTACK_ORDER, DEFEND_ORDER};
use crate::brain::game::board::{Pos, MAX_CELLS};
use crate::brain::types::Color;

use super::params;
use super::position::Position;

pub const MAX_PLY: usize = 128;

/// Above every other ordering score: the hash move always comes first (a
/// rank, not a tunable: not in `params`).
const HASH_BONUS: i32 = 1 << 28;

/// Killer moves per ply and a history table per colour.
pub struct MoveOrder {
    killers: Vec<[Pos; 2]>,
    history: Vec<i32>,
}

impl Default for MoveOrder {
    fn default() -> Self {
        MoveOrder {
            killers: vec![[Pos::NONE; 2]; MAX_PLY + 1],
            history: vec![0; 2 * MAX_CELLS],
        }
    }
}

impl MoveOrder {
    pub fn clear(&mut self) {
        self.killers.fill([Pos::NONE; 2]);
        self.history.fill(0);
    }

    /// Start of a search: forget killers, fade history.
    pub fn new_search(&mut self) {
        self.killers.fill([Pos::NONE; 2]);
        for h in self.history.iter_mut() {
            *h /= params::HISTORY_FADE_DIVISOR();
        }
    }

    #[inline]
    fn hist_idx(color: Color, p: Pos) -> usize {
        color.index() * MAX_CELLS + p.idx()
    }

    /// The history value of `p` for `color` (within ±`params::HISTORY_MAX`).
    #[inline]
    pub fn history(&self, color: Color, p: Pos) -> i32 {
        self.history[Self::hist_idx(color, p)]
    }

    #[inline]
    pub fn is_killer(&self, ply: usize, p: Pos) -> bool {
        self.killers[ply].contains(&p)
    }

    /// A quiet move caused a cutoff: remember it, reward it and punish the
    /// quiet moves tried before it.
    pub fn cutoff(&mut self, ply: usize, color: Color, mv: Pos, depth: i32, tried: &[Pos]) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let bonus = (depth * depth).min(params::HISTORY_BONUS_MAX());
        self.bump(color, mv, bonus);
        for &q in tried {
            if q != mv {
                self.bump(color, q, -bonus);
            }
        }
    }

    #[inline]
    fn bump(&mut self, color: Color, p: Pos, bonus: i32) {
        let h = &mut self.history[Self::hist_idx(color, p)];
        // Gravity: values stay within ±params::HISTORY_MAX.
        *h += bonus - *h * bonus.abs() / params::HISTORY_MAX();
    }

    /// Score every move for ordering, best first after sorting.
    pub fn score(
        &mut self,
        pos: &Position,
        ply: usize,
        hash_move: Pos,
        moves: &[Pos],
        out: &mut Vec<(Pos, i32)>,
    ) {
        self.score_into(pos, ply, hash_move, moves, out);
        // Ties broken by position so the order never depends on the sort.
        out.sort_unstable_by(by_score);
    }

    /// `score`, but only the first `SORTED_HEAD` moves come out sorted (the
    /// rest are all ordered after them): most nodes search one or two moves.
    /// Call `sort_tail` before reading past the head.
    pub fn score_head(
        &mut self,
        pos: &Position,
        ply: usize,
        hash_move: Pos,
        moves: &[Pos],
        out: &mut Vec<(Pos, i32)>,
    ) {
        self.score_into(pos, ply, hash_move, moves, out);
        if out.len() > params::SORTED_HEAD() {
            out.select_nth_unstable_by(params::SORTED_HEAD() - 1, by_score);
            out[..params::SORTED_HEAD()].sort_unstable_by(by_score);
        } else {
            out.sort_unstable_by(by_score);
        }
    }

    /// The ordering score of every move, unsorted.
    fn score_into(
        &mut self,
        pos: &Position,
        ply: usize,
        hash_move: Pos,
        moves: &[Pos],
        out: &mut Vec<(Pos, i32)>,
    ) {
        out.clear();
        let stm = pos.stm();
        for &m in moves {
            let s = if m == hash_move {
                HASH_BONUS
            } else {
                let mut s = static_score(pos, m);
                if let Some(i) = self.killers[ply].iter().position(|&k| k == m) {
                    s += params::KILLER_BONUS[i];
                }
                s + self.history[Self::hist_idx(stm, m)] / params::HISTORY_ORDER_DIVISOR()
            };
            out.push((m, s));
        }
    }
}

/// The static part of a move's ordering score: what a stone there makes
/// for the side to move (attack) and for the opponent (defence), by class
/// and by evaluation value.
#[inline]
pub fn static_score(pos: &Position, m: Pos) -> i32 {
    let stm = pos.stm();
    let opp = stm.opposite();
    ATTACK_ORDER[pos.ev.class(m, stm) as usize]
        + DEFEND_ORDER[pos.ev.class(m, opp) as usize]
        + pos.ev.value(m, stm)
        + pos.ev.value(m, opp) / params::DEFENCE_VALUE_DIVISOR()
}

/// Sort what `score_head` left unsorted.
#[inline]
pub fn sort_tail(scored: &mut [(Pos, i32)]) {
    if scored.len() > params::SORTED_HEAD() {
        scored[params::SORTED_HEAD()..].sort_unstable_by(by_score);
    }
}

/// Best score first; equal scores in board order (a total order: the same
/// moves always come out in the same sequence).
#[inline]
fn by_score(a: &(Pos, i32), b: &(Pos, i32)) -> std::cmp::Ordering {
    b.1.cmp(&a.1).then(a.0 .0.cmp(&b.0 .0))
}

/// Is the move tactical (never reduced or pruned as a late quiet move): it
/// makes or stops a double three or more (any four included). A single open
/// three is quiet here; its answers are forced at the next node anyway.
#[inline]
pub fn is_tactical(pos: &Position, m: Pos) -> bool {
    let stm = pos.stm();
    pos.ev.class(m, stm) >= Class::DoubleThree
        || pos.ev.class(m, stm.opposite()) >= Class::DoubleThree
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::board::Board;
    use crate::brain::game::testutil::pick;
    use crate::brain::game::zobrist::SplitMix64;
    use crate::brain::search::movegen::{generate, Gen};
    use crate::brain::types::RuleSet;

    #[test]
    fn head_sort_then_tail_sort_is_the_full_order() {
        let mut rng = SplitMix64::new(99);
        let mut ord = MoveOrder::default();
        let mut checked = 0;
        for game in 0..20 {
            let mut b = Board::square(15, RuleSet::FREESTYLE).unwrap();
            let mut pos = Position::new(&mut b);
            for ply in 0..40 {
                let (mut moves, mut scratch) = (Vec::new(), Vec::new());
                if generate(&mut pos, &mut moves, &mut scratch) != (Gen::Moves { forced: false }) {
                    break;
                }
                // Some history so that scores differ beyond the patterns.
                let m = pick(&mut rng, &moves).unwrap();
                ord.cutoff(
                    ply % 4,
                    pos.stm(),
                    m,
                    1 + (ply % 5) as i32,
                    &moves[..2.min(moves.len())],
                );
                let hash = if game % 2 == 0 { moves[0] } else { Pos::NONE };
                let (mut full, mut head) = (Vec::new(), Vec::new());
                ord.score(&pos, ply % 4, hash, &moves, &mut full);
                ord.score_head(&pos, ply % 4, hash, &moves, &mut head);
                let n = params::SORTED_HEAD().min(full.len());
                assert_eq!(head[..n], full[..n], "the head is the full order's head");
                sort_tail(&mut head);
                assert_eq!(head, full);
                checked += (full.len() > params::SORTED_HEAD()) as usize;
                pos.make(m);
            }
        }
        assert!(
            checked > 100,
            "positions with more moves than the head: {checked}"
        );
    }
}
