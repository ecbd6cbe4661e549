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
//!
//! With `HORIZON_THREE` at 0 the open three is not answered by a ply: the
//! node goes to the quiescence (an experiment for the VCF quiescence).
//!
//! With `Q_VCF` the quiescence is a VCF search instead (`quiesce_vcf`,
//! issue 71 item 1): it probes and stores the table (at depth 0), tries
//! the first four of a line anywhere and every later one only where it
//! continues the side's last four (`continues`) or makes a second threat,
//! strongest and nearest first, and runs as long as such fours last (at
//! most `Q_VCF_MAX_FOURS`); the stand-pat and the delta are the same.

use crate::brain::eval::weights::Class;
use crate::brain::game::board::{Board, Pos};
use crate::brain::types::{mate_in, Color, Score};

use super::tt::Bound;

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
        if self.pos.ev.open_fours(opp) > 0 && params::HORIZON_THREE() != 0 {
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
    pub(super) fn quiesce(&mut self, alpha: Score, beta: Score, ply: usize) -> Score {
        if params::Q_VCF() != 0 {
            return self.quiesce_vcf(alpha, beta, ply);
        }
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
        let (best, _) = self.try_fours(&fours, stand, alpha, beta, ply);
        self.stack[ply].bufs.moves = fours;
        if self.aborted {
            0
        } else {
            best
        }
    }

    /// Both quiescences' move loop: each of `fours` in order, the
    /// opponent's answer searched by `pvs` at depth 0, from the stand-pat
    /// `stand` in the window (`alpha`, `beta`), until one reaches beta or
    /// the search is aborted. The best score and the move that raised
    /// alpha last (`Pos::NONE`: none did), its PV set at `ply`.
    fn try_fours(
        &mut self,
        fours: &[Pos],
        stand: Score,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> (Score, Pos) {
        let (mut best, mut best_move) = (stand, Pos::NONE);
        alpha = alpha.max(stand);
        for &m in fours {
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
                    best_move = m;
                    self.set_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_move)
    }

    /// The VCF quiescence (`Q_VCF`; see the module doc).
    fn quiesce_vcf(&mut self, alpha: Score, beta: Score, ply: usize) -> Score {
        let stm = self.pos.stm();
        let pv_node = beta - alpha > 1;
        let key = self.pos.board.hash();
        self.tt_probes += 1;
        let mut hash_move = Pos::NONE;
        if let Some(h) = self.tt.probe(key, ply) {
            self.tt_hits += 1;
            hash_move = h.mv;
            if !pv_node && h.depth >= 0 && h.settles(alpha, beta) {
                return h.score;
            }
        }
        let stand = self.stand_pat(stm, alpha, beta);
        if stand >= beta
            || self.pos.ev.fours_from(stm, Class::Block4) == 0
            || stand + self.q_delta <= alpha
            || self.q_fours >= params::Q_VCF_MAX_FOURS()
        {
            return stand;
        }
        // The side's last stone: in a line of the quiescence, its last four.
        let last = (self.q_fours > 0)
            .then(|| {
                let h = self.pos.board.history();
                h.len().checked_sub(2).map(|i| h[i].pos)
            })
            .flatten();
        let mut fours = std::mem::take(&mut self.stack[ply].bufs.moves);
        fours.clear();
        self.pos.push_fours(stm, &mut fours);
        let board = &*self.pos.board;
        let ev = &self.pos.ev;
        if let Some(last) = last {
            fours.retain(|&p| continues(board, last, p) || ev.class(p, stm) >= Class::FourThree);
        }
        // The table's move, then the strongest, then the nearest.
        let near = |p: Pos| last.map_or(0, |l| distance(board, l, p));
        fours.sort_unstable_by_key(|&p| {
            (
                p != hash_move,
                std::cmp::Reverse(ev.class(p, stm)),
                near(p),
                p,
            )
        });
        let (best, best_move) = self.try_fours(&fours, stand, alpha, beta, ply);
        self.stack[ply].bufs.moves = fours;
        if self.aborted {
            return 0;
        }
        self.tt
            .store(key, ply, 0, best, Bound::of(best, alpha, beta), best_move);
        best
    }
}

/// Cells between `a` and `b` as a king walks (the larger of the two
/// coordinate distances).
fn distance(board: &Board, a: Pos, b: Pos) -> usize {
    let ((ax, ay), (bx, by)) = (board.xy(a), board.xy(b));
    ax.abs_diff(bx).max(ay.abs_diff(by))
}

/// Whether a four at `p` continues the side's last stone `last`: on one of
/// its four lines within four cells (the four can hold it), or within two
/// cells of it.
fn continues(board: &Board, last: Pos, p: Pos) -> bool {
    let ((ax, ay), (bx, by)) = (board.xy(last), board.xy(p));
    let (dx, dy) = (ax.abs_diff(bx), ay.abs_diff(by));
    let d = dx.max(dy);
    d <= 2 || (d <= 4 && (dx == 0 || dy == 0 || dx == dy))
}
