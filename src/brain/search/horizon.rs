//! The tree's horizon (step 5 of `Tree::pvs`): what a node with no depth
//! left does. A threat is not guessed at: facing a four (its block) or an
//! open three (its defences and our fours) the node is searched one ply,
//! and an open four the side can make against no four of the opponent's is
//! a win. Otherwise the four quiescence: the static score stands when it
//! reaches beta, when the side has no four to make, or when it is
//! `Q_DELTA` (`Q_DELTA_NET` with the net) or more below alpha; in between
//! each four is tried, strongest first, the opponent's forced block (and
//! any counter-four) searched as above, at most `Q_FOURS` fours deep in a
//! line, and past that only a four that makes a second threat (a four-three,
//! a double four, an open four). With the net, a stand-pat whose classical
//! score lies `LAZY_MARGIN_NET` or more outside the window stands on the
//! classical score.

use crate::brain::eval::weights::Class;
use crate::brain::types::{mate_in, Color, Score};

use super::alphabeta::Tree;
use super::params;

impl Tree<'_, '_> {
    /// The node at `ply` has no depth left: its score, or None when it must
    /// be searched one ply because the opponent threatens (a four to block,
    /// an open three to answer).
    pub(super) fn horizon(&mut self, alpha: Score, beta: Score, ply: usize) -> Option<Score> {
        let opp = self.pos.stm().opposite();
        if self.pos.ev.fives(opp) > 0 {
            return None;
        }
        if self.pos.open_four_win().is_some() {
            return Some(mate_in(ply + 3));
        }
        if self.pos.ev.open_fours(opp) > 0 {
            return None;
        }
        Some(self.quiesce(alpha, beta, ply))
    }

    /// The horizon's static score for `stm` in the window (`alpha`,
    /// `beta`): with the net, the classical score when it lies
    /// `params::LAZY_MARGIN_NET` or more outside the window, else
    /// `static_eval`.
    #[inline]
    fn stand_pat(&mut self, stm: Color, alpha: Score, beta: Score) -> Score {
        let m = params::LAZY_MARGIN_NET();
        if m > 0 && self.net_evaluates {
            let c = self.pos.ev.classic(stm);
            if c - m >= beta || c + m <= alpha {
                return c;
            }
        }
        self.static_eval(stm)
    }

    /// The four quiescence of a side with nothing of the opponent's to
    /// answer (see the module doc).
    pub(super) fn quiesce(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
        let stm = self.pos.stm();
        let stand = self.stand_pat(stm, alpha, beta);
        // Past `params::Q_FOURS` only a four that makes a second threat is
        // still tried: it ends most lines. One class bound decides both
        // whether and which.
        let least = if self.q_fours >= params::Q_FOURS() {
            Class::FourThree
        } else {
            Class::Block4
        };
        if stand >= beta || self.pos.ev.fours_from(stm, least) == 0 || stand + self.q_delta <= alpha
        {
            return stand;
        }
        let mut fours = std::mem::take(&mut self.stack[ply].bufs.moves);
        fours.clear();
        self.pos.push_fours(stm, &mut fours);
        fours.retain(|&p| self.pos.ev.class(p, stm) >= least);
        // Strongest first (four-three, double four), then board order.
        fours.sort_unstable_by_key(|&p| (std::cmp::Reverse(self.pos.ev.class(p, stm)), p));
        let mut best = stand;
        alpha = alpha.max(stand);
        for &m in fours.iter() {
            self.make(m);
            self.q_fours += 1;
            let score = -self.pvs(0, -beta, -alpha, ply + 1);
            self.q_fours -= 1;
            self.pos.unmake();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.stack[ply].bufs.moves = fours;
        if self.aborted {
            0
        } else {
            best
        }
    }
}
