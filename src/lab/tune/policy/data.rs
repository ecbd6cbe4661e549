//! Training positions for the policy fitter: self-play records (the
//! datagen format, `crate::lab::datagen::record`) replayed, and for each
//! position before a move the search chose (`best` 1) the candidates the
//! tree would order (`movegen::generate`), each as its policy features and
//! its static ordering score, with the chosen move as the target.

use crate::brain::game::board::Pos;
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::search::movegen::{generate, Gen, Position};
use crate::brain::search::ordering::static_score;
use crate::brain::search::policy::{features, ACTIVE};
use crate::lab::datagen::record::GameRecord;

/// Training positions, flat: candidate `c` of position `i` is at
/// `starts[i] + c`.
#[derive(Default)]
pub struct Samples {
    /// Per candidate: the policy's table entries, its cell (ties are
    /// broken by cell, as the search's ordering does) and its static
    /// ordering score.
    pub feats: Vec<[u16; ACTIVE]>,
    pub cell: Vec<u16>,
    pub stat: Vec<i32>,
    /// Per position: its first candidate (one more entry at the end), the
    /// chosen move's index among its candidates, its game, and whether the
    /// candidates answer a threat (`Gen::Moves { forced }`).
    pub starts: Vec<u32>,
    pub target: Vec<u16>,
    pub game: Vec<u32>,
    pub forced: Vec<bool>,
}

impl Samples {
    pub fn len(&self) -> usize {
        self.target.len()
    }

    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// Candidate range of position `i`.
    #[inline]
    pub fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.starts[i] as usize..self.starts[i + 1] as usize
    }

    /// Replay `g` (game number `id`) and add each position before a chosen
    /// move with two or more candidates, the move among them. Returns the
    /// positions added.
    pub fn add_game(&mut self, g: &GameRecord, id: u32) -> usize {
        self.add_game_with(g, id, &mut |_, _, _| {})
    }

    /// `add_game`, calling `each(position, candidate, k)` for every
    /// candidate added, in order (`k`: its index among its position's
    /// candidates), for features kept beside these (the net head's in
    /// `nethead`).
    pub fn add_game_with(
        &mut self,
        g: &GameRecord,
        id: u32,
        each: &mut dyn FnMut(&Position, Pos, usize),
    ) -> usize {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let (mut moves, mut scratch) = (Vec::new(), Vec::new());
        let mut added = 0;
        g.replay(|board, _, m| {
            if !m.best {
                return;
            }
            let mut b = board.clone();
            let Some(mv) = b.pos(m.x as i64, m.y as i64) else {
                return;
            };
            let mut pos = Position::new(&mut b);
            if let Gen::Moves { forced } = generate(&mut pos, &mut moves, &mut scratch) {
                if let Some(t) = moves.iter().position(|&c| c == mv) {
                    if moves.len() >= 2 {
                        self.push(&pos, &moves, t, id, forced);
                        moves
                            .iter()
                            .enumerate()
                            .for_each(|(k, &m)| each(&pos, m, k));
                        added += 1;
                    }
                }
            }
        });
        added
    }

    fn push(&mut self, pos: &Position, moves: &[Pos], target: usize, game: u32, forced: bool) {
        let stm = pos.stm();
        for &m in moves {
            self.feats.push(features(pos.board, &pos.ev, m, stm));
            self.cell.push(m.0);
            self.stat.push(static_score(pos, m));
        }
        self.starts.push(self.feats.len() as u32);
        self.target.push(target as u16);
        self.game.push(game);
        self.forced.push(forced);
    }
}

/// Is game `g` held out? About `percent` % of the games, chosen by `seed`.
pub fn held_out(g: u32, seed: u64, percent: u64) -> bool {
    SplitMix64::new(seed ^ (g as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).below(100) < percent
}

/// The rank of the target among its candidates under `score` (0: first),
/// best score first, equal scores in cell order (the search's order).
pub fn target_rank(s: &Samples, i: usize, score: impl Fn(usize) -> i64) -> usize {
    let r = s.range(i);
    let t = r.start + s.target[i] as usize;
    let (st, ct) = (score(t), s.cell[t]);
    r.filter(|&c| c != t)
        .filter(|&c| {
            let v = score(c);
            v > st || (v == st && s.cell[c] < ct)
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::board::Board;
    use crate::brain::search::policy::features;
    use crate::brain::types::RuleSet;
    use crate::lab::datagen::record::parse_line;

    const LINE: &str = "freestyle\t15\t1\t7,7 8,8\t7,8,10,1 9,9,-5,1 3,3,0,0 10,6,3,1 6,6,0,1";

    #[test]
    fn records_parse_and_replay_to_positions_with_targets() {
        let g = parse_line(LINE).unwrap().unwrap();
        assert!(!g.moves[2].best && g.moves[3].best);
        let mut s = Samples::default();
        // Four chosen moves (the third is exploration): four positions.
        assert_eq!(s.add_game(&g, 7), 4);
        assert_eq!(s.len(), 4);
        assert!(s.game.iter().all(|&k| k == 7));
        // The last position: the one before 6,6, replayed by hand.
        let mut b = Board::square(15, RuleSet::FREESTYLE).unwrap();
        for (x, y) in [(7, 7), (8, 8), (7, 8), (9, 9), (3, 3), (10, 6)] {
            let c = b.to_move();
            b.try_make(x, y, c).unwrap();
        }
        let i = 3;
        let t = s.range(i).start + s.target[i] as usize;
        let target = b.pos(6, 6).unwrap();
        assert_eq!(s.cell[t], target.0);
        let ev = crate::brain::eval::Evaluator::new(&b);
        assert_eq!(s.feats[t], features(&b, &ev, target, b.to_move()));
        // Every near cell is a candidate (nothing forces the move).
        assert!(!s.forced[i]);
        assert_eq!(s.range(i).len(), b.candidates().count());
        // A move that ignores a threat is no candidate: no position.
        let open_three = "freestyle\t15\t1\t7,7 8,8\t7,8,0,1 9,9,0,1 7,9,0,1 12,12,0,1";
        let g = parse_line(open_three).unwrap().unwrap();
        assert_eq!(s.add_game(&g, 8), 3);
        assert_eq!(s.len(), 7);
    }

    #[test]
    fn ranks_break_ties_by_cell_and_the_split_is_by_game() {
        let mut s = Samples {
            starts: vec![0, 4],
            feats: vec![[0; ACTIVE]; 4],
            cell: vec![10, 20, 30, 40],
            stat: vec![5, 9, 9, 1],
            target: vec![2],
            game: vec![0],
            forced: vec![false],
        };
        // 9 at cell 20 comes first, then the target (9 at cell 30).
        assert_eq!(target_rank(&s, 0, |c| s.stat[c] as i64), 1);
        s.target = vec![1];
        assert_eq!(target_rank(&s, 0, |c| s.stat[c] as i64), 0);
        s.target = vec![3];
        assert_eq!(target_rank(&s, 0, |c| s.stat[c] as i64), 3);
        let held = (0..2000).filter(|&g| held_out(g, 1, 10)).count();
        assert!((150..250).contains(&held), "{held}");
        let other = (0..2000).filter(|&g| held_out(g, 2, 10)).count();
        assert!(
            (0..2000).any(|g| held_out(g, 1, 10) != held_out(g, 2, 10)),
            "{other}"
        );
        assert!((0..2000).all(|g| held_out(g, 1, 10) == held_out(g, 1, 10)));
    }
}
