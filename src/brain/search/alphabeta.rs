//! The tree search: negamax principal-variation search with a transposition
//! table, threat-aware move generation, late-move reductions and pruning for
//! quiet moves only, mate-distance scores and a small tactical horizon.
//! The tunable values quoted here live in the search's parameters
//! (`src/brain/search/params.rs`).
//!
//! Around it, the root loop (`search`) runs iterative deepening with
//! aspiration windows: ±60 around the last score from depth 4; a fail widens
//! the window 1.5× and a fail low also lowers beta to the old window's
//! middle, so a shaky score costs a few narrow re-searches rather than one
//! open-window pass. The root reduces too: from depth 4, root moves after the
//! first four that are quiet get a PV node's reduction on their null-window
//! search and are searched again at full depth if they beat the best so far.
//!
//! Inside the tree:
//!
//! - **Transposition table** (`search::tt`): our own Zobrist keys, side to
//!   move included; full-key check, depth, bound, ply-adjusted mate scores,
//!   best move, generation. The table bucket of each child is prefetched while
//!   its move's evaluation is updated.
//! - **Ordering**: hash move, threat ordering, killers and history. In a node
//!   without threats the hash move is searched before the others are even
//!   generated, and only the first 8 moves are sorted until more are needed.
//! - **Move generation** is threat-aware: facing a four only the blocks (or
//!   our own five) are searched, facing an open three only its defences or our
//!   own fours. Under renju Black never considers a forbidden point, and a
//!   Black node with no legal cell left has lost (its move is forbidden). Facing
//!   a four-three point (off by default: `params::FOUR_THREE_DEFENCE`) the
//!   generator keeps only its defences (1), or the search reduces every
//!   other late move more (2).
//! - **Late moves**: "quiet" means that neither side makes a double three or
//!   more there. At depth d at most 2 + d²/2 quiet moves are tried (twice at PV
//!   nodes), and the reduction of a late quiet move grows with
//!   ln(depth)·ln(move number).
//! - **Every move's count and trivial moves** (both off by default:
//!   `params::LMP_ALL`, `params::TRIVIAL_MAX_DEPTH`): the count limit
//!   applied to an unforced node's tactical moves too, and near the horizon
//!   the moves that make nothing (or no more than a two) for either side
//!   skipped once a move that does not lose is in hand.
//! - **Late quiet moves' adjustments** (each off by default:
//!   `params::LMR_HISTORY`, `LMR_DISTANT`, `LMR_NOT_IMPROVING`,
//!   `LMR_CUT_NODE`): a reduction that shrinks with the move's history and
//!   grows when the move is far from the last two moves, when the side is
//!   not improving on its static score of two plies before, and at an
//!   expected cut node.
//! - **Reverse futility pruning**: at depth 4 or less a non-PV node whose
//!   static score beats beta by 120 a remaining ply, with no four or open three
//!   of the opponent's to answer, fails high without a search.
//! - **Futility pruning** (off by default: `params::FUTILITY_MAX_DEPTH`):
//!   near the horizon a non-PV node whose static score plus a margin
//!   growing with depth stays at most alpha searches no late quiet move
//!   after its first.
//! - **Razoring** (off by default: `params::RAZOR_MAX_DEPTH`): a non-PV node
//!   near the horizon whose static score is far below alpha, with nothing of
//!   the opponent's to answer, returns the four quiescence's score when that
//!   fails low too.
//! - **Static mate check** (off by default: `params::STATIC_MATE`): an open
//!   four or double four the side to move can make wins in three, a
//!   four-three when the opponent cannot make a four wins in five
//!   (`Position::static_mate`), at every node, before the table.
//! - **Singular extension**: in a node below the root with 6 or more plies
//!   left to search, when the table holds a hash move whose stored score (exact
//!   or a lower bound, from a search at most two plies shallower, no mate) is
//!   S, the node's other moves are first searched to half the depth with a null
//!   window at S − 16·depth. If none reaches it, the hash move is singular and
//!   is searched a ply deeper; if one does and that bound is already at least
//!   beta, the node fails high at once (a second move as good as the first).
//!   The test search leaves the hash move out, stores nothing in the table and
//!   skips reverse futility; extensions stop at twice the root's depth.
//! - **Horizon**: a threat is not guessed at. Facing a four (its block) or an
//!   open three (its defences and our fours) the side to move gets a one-ply
//!   search, and an open four it can make against no four of the opponent is
//!   scored as a win. Otherwise a four quiescence: the static score stands when
//!   it reaches beta, when the side has no four to make, or when it is 300 or
//!   more below alpha; in between each four is tried, strongest first, and the
//!   opponent's forced block (and any counter-four) is searched as above, at
//!   most two fours deep in a line; past those two, only a four that makes a
//!   second threat (a four-three, a double four or an open four, which end most
//!   short VCF lines) is still tried. `--leaf-vcf` adds a VCF at the horizon
//!   (off by default).
//!
//! What was tried and measured for each of these is in `scripts/RESULTS.md`
//! (the SPRT log).

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Instant;

use crate::brain::eval::weights::Class;
use crate::brain::game::board::Pos;
use crate::brain::types::{mate_in, mated_in, Color, Depth, Score, INFINITE, MATE_BOUND, ONE_PLY};

use super::evalcache::{EvalCache, Tag};
use super::movegen::{four_three_defences, generate, unforced, Gen, Position};
use super::ordering::{is_tactical, sort_tail, Ordering, MAX_PLY};
use super::params;
use super::threat::ThreatSolver;
use super::time::TimePlan;
use super::tt::{Bound, Tt};

/// Whole plies in `depth` (rounded down).
#[inline]
pub fn plies(depth: Depth) -> i32 {
    depth.div_euclid(ONE_PLY)
}

/// Late-move reduction, in depth units, of the `i`-th move (0-based) at
/// `depth`, before rounding: grows with the logarithms of both, 1.4 plies
/// at depth 3 / move 3, 3.3 at depth 8 / move 20 (`params::LMR_BASE`,
/// `params::LMR_DIVISOR`).
fn lmr_units(depth: Depth, i: usize) -> Depth {
    let d = (depth as f32 / ONE_PLY as f32).max(1.0).ln();
    let m = ((i + 1) as f32).ln();
    ((params::LMR_BASE() + d * m / params::LMR_DIVISOR()) * ONE_PLY as f32) as Depth
}

/// A reduction rounded down to whole `params::LMR_GRAIN` units (whole
/// plies at the default grain).
fn grained(r: Depth) -> Depth {
    r - r.rem_euclid(params::LMR_GRAIN())
}

/// Late-move reduction of a late quiet move (`lmr_units`, rounded to the
/// grain).
pub fn lmr_reduction(depth: Depth, i: usize) -> Depth {
    grained(lmr_units(depth, i))
}

/// Reduction of a late move that is not quiet: a late tactical move
/// (`params::LMR_TACTICAL_SCALE`) or a late answer in a node that must
/// answer a threat (`params::LMR_FORCED_SCALE`), as sixteenths of the quiet
/// reduction.
fn lmr_scaled(depth: Depth, i: usize, scale: i32) -> Depth {
    grained(lmr_units(depth, i) * scale / 16)
}

/// Late-move pruning: at depth d at most `params::LMP_BASE` + d² / 2 quiet
/// moves (`params::LMP_DEPTH_DIVISOR`; twice that at PV nodes:
/// `params::LMP_PV_FACTOR`), d in whole plies.
fn lmp_limit(depth: Depth) -> usize {
    let d = plies(depth).max(1) as usize;
    params::LMP_BASE() + d * d / params::LMP_DEPTH_DIVISOR()
}

// Reverse futility pruning: a non-PV node within `params::RFP_MAX_DEPTH`
// of the horizon whose static score beats beta by `params::RFP_MARGIN` per
// remaining ply, with nothing of the opponent's to answer, fails high
// without searching.
//
// Singular extension: at depth `params::SE_MIN_DEPTH` or more, a hash move
// whose stored score (a lower bound or exact, at most `params::SE_TT_DEPTH`
// plies shallower) beats every other move by `params::SE_MARGIN` a ply in
// a search of half the depth is searched a ply deeper.
//
// Four quiescence (see `Tree::quiesce`): `params::Q_FOURS` fours in a row
// at most (past it only four-threes, double fours and open fours), tried
// only when the static score is less than `params::Q_DELTA` below alpha.

/// What bounds one tree search.
pub struct TreeLimits<'a> {
    pub stop: &'a AtomicBool,
    pub plan: TimePlan,
    pub start: Instant,
    pub max_nodes: u64,
}

/// Beta cutoffs by the move that made them, and fail-low nodes (see
/// `Tree::cutoffs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cutoffs {
    /// The table's move; the first move of the list; the 2nd–4th; later.
    pub by: [u64; 4],
    /// Nodes whose moves all failed low, and the moves they searched
    /// (the table's move included).
    pub fail_low: u64,
    pub fail_low_moves: u64,
}

impl Cutoffs {
    pub fn add(&mut self, o: &Cutoffs) {
        for (a, b) in self.by.iter_mut().zip(o.by) {
            *a += b;
        }
        self.fail_low += o.fail_low;
        self.fail_low_moves += o.fail_low_moves;
    }

    /// The share of cutoffs made by the table's move or the first move
    /// searched (0 when there were none).
    pub fn first_share(&self) -> f64 {
        let all: u64 = self.by.iter().sum();
        (self.by[0] + self.by[1]) as f64 / all.max(1) as f64
    }
}

/// Per-search state of the tree walk.
pub struct Tree<'a, 'b> {
    pub pos: Position<'b>,
    pub tt: &'a Tt,
    pub ord: &'a mut Ordering,
    pub nodes: u64,
    /// Table probes in the tree, and how many found an entry.
    pub tt_probes: u64,
    pub tt_hits: u64,
    /// Move-ordering diagnostics (`bench` prints them): beta cutoffs in the
    /// main search by the move that made them — the table's move, the first
    /// generated move searched, the second to fourth, a later one — and the
    /// nodes that searched moves and found none.
    pub cutoffs: Cutoffs,
    pub aborted: bool,
    pub stop: &'a AtomicBool,
    pub plan: TimePlan,
    pub start: Instant,
    pub max_nodes: u64,
    pub seldepth: usize,
    /// The threat solver (the root probe's VCF and VCT), and the nodes it
    /// has searched (counted against the node limit).
    pub threat: &'a mut ThreatSolver,
    pub vcf_nodes: u64,
    /// Fours made by `quiesce` in the line being searched.
    q_fours: u32,
    pv: Vec<[Pos; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    move_bufs: Vec<Vec<Pos>>,
    score_bufs: Vec<Vec<(Pos, i32)>>,
    scratch: Vec<Pos>,
    /// In the root iteration under way: the last root move after the first
    /// of a pass that beat every move before it (its score and PV), so a
    /// stopped iteration can still play it.
    pub root_beater: Option<(Pos, Score, Vec<Pos>)>,
    /// Per ply: the move a singular-extension test leaves out (else NONE).
    excluded: Vec<Pos>,
    /// Depth of the root iteration under way (extensions stop at twice it).
    root_depth: Depth,
    /// Singular-extension tests run, and how many extended the hash move
    /// (read by the tests).
    se_tests: u64,
    se_extensions: u64,
    /// The reverse futility margin per ply and the quiescence's delta, of
    /// the evaluation this tree scores with (`params::RFP_MARGIN` and
    /// `Q_DELTA`, or their `_NET` twins when the net evaluates).
    rfp_margin: Score,
    q_delta: Score,
    /// The net's scores by position (`evalcache`), asked for only when the
    /// net evaluates (`Tree::new` makes it speak for the net and board).
    ecache: &'a mut EvalCache,
    /// The net scores this tree's positions (not the classical evaluation).
    net_evaluates: bool,
}

impl<'a, 'b> Tree<'a, 'b> {
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

    /// The static score of the position for `stm`, the side to move (the
    /// position's hash covers it): the evaluator's, through the cache when
    /// the net evaluates.
    #[inline]
    pub(super) fn static_eval(&mut self, stm: Color) -> Score {
        if !self.net_evaluates {
            return self.pos.ev.evaluate(stm);
        }
        let key = self.pos.board.hash();
        if let Some(v) = self.ecache.probe(key) {
            return v;
        }
        let v = self.pos.ev.evaluate(stm);
        self.ecache.store(key, v);
        v
    }

    pub fn new(
        pos: Position<'b>,
        tt: &'a Tt,
        ord: &'a mut Ordering,
        threat: &'a mut ThreatSolver,
        ecache: &'a mut EvalCache,
        limits: TreeLimits<'a>,
    ) -> Self {
        let net = match pos.ev.net() {
            Some(n) => {
                ecache.prepare(Tag::of(n, pos.board));
                true
            }
            None => false,
        };
        let (rfp_margin, q_delta) = if net {
            (params::RFP_MARGIN_NET(), params::Q_DELTA_NET())
        } else {
            (params::RFP_MARGIN(), params::Q_DELTA())
        };
        Tree {
            pos,
            tt,
            ord,
            nodes: 0,
            tt_probes: 0,
            tt_hits: 0,
            cutoffs: Cutoffs::default(),
            aborted: false,
            stop: limits.stop,
            plan: limits.plan,
            start: limits.start,
            max_nodes: limits.max_nodes,
            seldepth: 0,
            threat,
            vcf_nodes: 0,
            q_fours: 0,
            pv: vec![[Pos::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            move_bufs: vec![Vec::new(); MAX_PLY + 1],
            score_bufs: vec![Vec::new(); MAX_PLY + 1],
            scratch: Vec::new(),
            root_beater: None,
            excluded: vec![Pos::NONE; MAX_PLY + 1],
            root_depth: 0,
            se_tests: 0,
            se_extensions: 0,
            rfp_margin,
            q_delta,
            net_evaluates: net,
            ecache,
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.stop.load(AtomicOrdering::Relaxed)
            || self.nodes + self.vcf_nodes >= self.max_nodes
            || self.plan.out_of_time(self.elapsed_ms())
        {
            self.aborted = true;
        }
    }

    /// Play `m` in the searched position, prefetching the table bucket of
    /// the position it leads to.
    #[inline]
    fn make(&mut self, m: Pos) {
        let tt = self.tt;
        self.pos.make_with(m, |key| tt.prefetch(key));
    }

    /// The principal variation found at ply 0 by the last `pvs` call there.
    pub fn root_pv(&self) -> Vec<Pos> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    /// Generate the moves of the current node (used at the root).
    pub fn generate(&mut self, out: &mut Vec<Pos>) -> Gen {
        generate(&mut self.pos, out, &mut self.scratch)
    }

    fn set_pv(&mut self, ply: usize, m: Pos) {
        self.pv[ply][0] = m;
        let n = self.pv_len[ply + 1].min(MAX_PLY - ply);
        for i in 0..n {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = n + 1;
    }

    /// Search one root move (already chosen by the caller) to `depth`
    /// within (alpha, beta); returns the score from the root's point of view
    /// and leaves that move's PV in `root_pv()`. A null-window search may be
    /// `reduction` shallower; a move that beats alpha there is searched
    /// again at full depth.
    pub fn search_root_move(
        &mut self,
        m: Pos,
        depth: Depth,
        alpha: Score,
        beta: Score,
        full: bool,
        reduction: Depth,
    ) -> Score {
        self.root_depth = depth;
        self.make(m);
        let score = if full {
            -self.pvs(depth - ONE_PLY, -beta, -alpha, 1)
        } else {
            self.search_late(depth - ONE_PLY, reduction, alpha, beta, 1)
        };
        self.pos.unmake();
        self.set_pv(0, m);
        score
    }

    /// A move after the first, already made, searched for its parent (whose
    /// window is (alpha, beta)) to `depth`: a null window `reduction`
    /// shallower (at most to one ply), at full depth again if it beats alpha
    /// there, and with the full window if it lands inside. Returns the
    /// parent's score; `ply` is the child's.
    fn search_late(
        &mut self,
        depth: Depth,
        reduction: Depth,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let r = reduction.min(depth - ONE_PLY).max(0);
        let mut score = -self.pvs(depth - r, -alpha - 1, -alpha, ply);
        if r > 0 && score > alpha && !self.aborted {
            score = -self.pvs(depth, -alpha - 1, -alpha, ply);
        }
        if score > alpha && score < beta && !self.aborted {
            score = -self.pvs(depth, -beta, -alpha, ply);
        }
        score
    }

    /// Negamax principal-variation search of the current position.
    pub fn pvs(
        &mut self,
        mut depth: Depth,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
    ) -> Score {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.nodes.is_multiple_of(params::TREE_CHECK_EVERY) {
            self.check_limits();
        }
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let stm = self.pos.stm();
        let opp = stm.opposite();

        // Immediate results.
        if self.pos.ev.fives(stm) > 0 {
            return mate_in(ply + 1);
        }
        if self.pos.ev.fives(opp) >= 2 {
            return mated_in(ply + 2);
        }
        if self.pos.board.is_full() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(stm);
        }
        // Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;

        // The static mate check (`params::STATIC_MATE`).
        if params::STATIC_MATE() != 0 && self.pos.ev.fives(opp) == 0 {
            if let Some((p, n)) = self.pos.static_mate() {
                self.pv[ply][0] = p;
                self.pv_len[ply] = 1;
                return mate_in(ply + n);
            }
        }

        // At the horizon only a five or an open-four threat is looked at:
        // its answers are searched to depth 0, so this stays bounded.
        let horizon = depth <= 0;
        if horizon {
            if self.pos.ev.fives(opp) == 0 {
                if self.pos.open_four_win().is_some() {
                    return mate_in(ply + 3);
                }
                // An open three of the opponent must be answered: search the
                // answers one ply (as a four is) rather than guess.
                if self.pos.ev.open_fours(opp) == 0 {
                    return self.quiesce(alpha, beta, ply);
                }
            }
            depth = ONE_PLY;
        }

        let key = self.pos.board.hash();
        let excluded = self.excluded[ply];
        let mut hash_move = Pos::NONE;
        self.tt_probes += 1;
        let tt_hit = self.tt.probe(key, ply);
        if let Some(hit) = tt_hit {
            self.tt_hits += 1;
            hash_move = hit.mv;
            if !pv_node && hit.depth >= depth && excluded.is_none() {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    return hit.score;
                }
            }
        }

        if !excluded.is_none() {
            hash_move = Pos::NONE;
        }

        // Reverse futility pruning (see `params::RFP_MARGIN`).
        if !pv_node
            && excluded.is_none()
            && !horizon
            && depth <= params::RFP_MAX_DEPTH() * ONE_PLY
            && beta.abs() < MATE_BOUND
            && unforced(&self.pos)
        {
            let ev = self.static_eval(stm);
            if ev - self.rfp_margin * depth / ONE_PLY >= beta {
                return ev;
            }
        }

        // Razoring (see `params::RAZOR_MARGIN`): far below alpha near the
        // horizon, the four quiescence decides whether to search at all.
        if !pv_node
            && excluded.is_none()
            && !horizon
            && depth <= params::RAZOR_MAX_DEPTH() * ONE_PLY
            && alpha.abs() < MATE_BOUND
            && unforced(&self.pos)
        {
            let ev = self.static_eval(stm);
            if ev + params::RAZOR_MARGIN() * depth / ONE_PLY <= alpha {
                let v = self.quiesce(alpha, alpha + 1, ply);
                if self.aborted {
                    return 0;
                }
                if v <= alpha {
                    return v;
                }
                self.pv_len[ply] = 0;
            }
        }

        // Singular extension (see `params::SE_MARGIN`): the other moves searched to
        // half the depth against the hash move's score less the margin.
        let mut hash_ext = 0;
        if let Some(hit) = tt_hit {
            if excluded.is_none()
                && !horizon
                && depth >= params::SE_MIN_DEPTH() * ONE_PLY
                && (ply as i32) * ONE_PLY < params::SE_MAX_PLY_FACTOR() * self.root_depth
                && !hash_move.is_none()
                && hit.bound != Bound::Upper
                && hit.depth >= depth - params::SE_TT_DEPTH() * ONE_PLY
                && hit.score.abs() < MATE_BOUND
            {
                let sb = hit.score - params::SE_MARGIN() * depth / ONE_PLY;
                self.se_tests += 1;
                self.excluded[ply] = hash_move;
                let v = self.pvs(
                    plies(depth) / params::SE_DEPTH_DIVISOR() * ONE_PLY,
                    sb - 1,
                    sb,
                    ply,
                );
                self.excluded[ply] = Pos::NONE;
                if self.aborted {
                    return 0;
                }
                self.pv_len[ply] = 0;
                if v < sb {
                    hash_ext = params::SE_EXTENSION();
                    self.se_extensions += 1;
                } else if sb >= beta {
                    // Another move beats beta too at half the depth.
                    return sb;
                }
            }
        }

        // The hash move before any generation: in a node without threats
        // (nothing forces the side to move, it has no open four to make) the
        // generator would return every near cell with the hash move first,
        // so searching it now is the same search, and a cutoff saves
        // generating and ordering the rest.
        let orig_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Pos::NONE;
        let mut hash_done = false;
        if !hash_move.is_none()
            && !horizon
            && unforced(&self.pos)
            && self.pos.ev.open_fours(stm) == 0
            && self.pos.board.in_board(hash_move)
            && self.pos.board.is_empty(hash_move)
            && self.pos.board.has_near(hash_move)
            && self.pos.legal_for(hash_move, stm)
        {
            self.make(hash_move);
            let score = -self.pvs(depth - ONE_PLY + hash_ext, -beta, -alpha, ply + 1);
            self.pos.unmake();
            if self.aborted {
                return 0;
            }
            hash_done = true;
            best = score;
            best_move = hash_move;
            if score > alpha {
                alpha = score;
                self.set_pv(ply, hash_move);
                if score >= beta {
                    self.cutoffs.by[0] += 1;
                    self.tt
                        .store(key, ply, depth, best, Bound::Lower, best_move);
                    return best;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        let gen = generate(&mut self.pos, &mut moves, &mut self.scratch);
        let forced = match gen {
            Gen::Win(_) => {
                self.move_bufs[ply] = moves;
                return mate_in(ply + 1);
            }
            Gen::Lost => {
                self.move_bufs[ply] = moves;
                return mated_in(ply + 2);
            }
            Gen::Moves { forced } => forced,
        };
        if moves.is_empty() {
            self.move_bufs[ply] = moves;
            // Renju: no near point is legal for Black. With no legal cell
            // at all, Black's move is forbidden and loses now.
            if self.pos.every_cell_forbidden(stm) {
                return mated_in(ply + 1);
            }
            return 0;
        }
        if !forced {
            if let Some(p) = self.pos.open_four_win() {
                self.move_bufs[ply] = moves;
                self.pv[ply][0] = p;
                self.pv_len[ply] = 1;
                return mate_in(ply + 3);
            }
        }
        // The soft four-three defence (`params::FOUR_THREE_DEFENCE` = 2):
        // the moves that take the opponent's four-three points away.
        let mut defences = Vec::new();
        if params::FOUR_THREE_DEFENCE() == 2 && !forced {
            four_three_defences(&mut self.pos, &mut defences, &mut self.scratch);
        }
        let soft = params::FOUR_THREE_DEFENCE() == 2 && !defences.is_empty();
        let mut scored = std::mem::take(&mut self.score_bufs[ply]);
        self.ord
            .score_head(&self.pos, ply, hash_move, &moves, &mut scored);
        // A single forced reply costs no depth.
        let extend = forced && scored.len() == 1 && !horizon;

        // Futility pruning (see `params::FUTILITY_MAX_DEPTH`): the most the
        // node's static score plus the margin reaches; a late quiet move
        // is skipped while that is at most alpha.
        let futile_at = if !pv_node
            && !forced
            && excluded.is_none()
            && depth <= params::FUTILITY_MAX_DEPTH() * ONE_PLY
            && alpha.abs() < MATE_BOUND
        {
            self.static_eval(stm)
                + params::FUTILITY_BASE()
                + params::FUTILITY_MARGIN() * depth / ONE_PLY
        } else {
            Score::MAX
        };

        let mut quiets_tried: Vec<Pos> = Vec::new();
        // Moves of the list searched so far (the ordering diagnostics).
        let mut searched = 0usize;
        for i in 0..scored.len() {
            if i == params::SORTED_HEAD() {
                sort_tail(&mut scored);
            }
            let m = scored[i].0;
            if (hash_done && m == hash_move) || m == excluded {
                continue;
            }
            let defends = soft && defences.contains(&m);
            let quiet = !forced && !defends && !is_tactical(&self.pos, m) && m != hash_move;
            let killer = self.ord.is_killer(ply, m);
            // Past the count limit (`lmp_limit`, more at PV nodes).
            let over_count =
                i >= lmp_limit(depth) * if pv_node { params::LMP_PV_FACTOR() } else { 1 };
            // The count limit for every move (`params::LMP_ALL`).
            if !forced
                && m != hash_move
                && best > -MATE_BOUND
                && params::LMP_ALL() != 0
                && !quiet
                && over_count
            {
                continue;
            }
            // Late-move pruning: near the horizon only the best-ordered
            // quiet moves are tried (never a forced defence).
            if quiet && !killer && best > -MATE_BOUND {
                if over_count {
                    continue;
                }
                if futile_at <= alpha {
                    continue;
                }
            }
            searched += 1;
            self.make(m);
            // The larger of the single-reply and the singular extension.
            let forced_ext = if extend {
                params::FORCED_EXTENSION()
            } else {
                0
            };
            let singular_ext = if m == hash_move { hash_ext } else { 0 };
            let new_depth = depth - ONE_PLY + forced_ext.max(singular_ext);
            let score = if i == 0 {
                -self.pvs(new_depth, -beta, -alpha, ply + 1)
            } else {
                let mut r = 0;
                let late = !killer
                    && m != hash_move
                    && depth >= params::LMR_MIN_DEPTH() * ONE_PLY
                    && i >= params::LMR_FULL_MOVES();
                if late && quiet {
                    let extra = if pv_node {
                        0
                    } else {
                        params::LMR_NON_PV_EXTRA()
                    };
                    r = lmr_reduction(depth, i) + extra;
                } else if late && (forced || defends) {
                    r = lmr_scaled(depth, i, params::LMR_FORCED_SCALE());
                } else if late {
                    r = lmr_scaled(depth, i, params::LMR_TACTICAL_SCALE());
                }
                if late && soft && !defends {
                    r += params::FOUR_THREE_REDUCTION();
                }
                self.search_late(new_depth, r, alpha, beta, ply + 1)
            };
            self.pos.unmake();
            if self.aborted {
                self.move_bufs[ply] = moves;
                self.score_bufs[ply] = scored;
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            self.ord.cutoff(ply, stm, m, plies(depth), &quiets_tried);
                        }
                        self.cutoffs.by[match searched {
                            1 => 1,
                            2..=4 => 2,
                            _ => 3,
                        }] += 1;
                        break;
                    }
                    // Alpha raised without a cutoff (a PV node): the moves
                    // after it must beat a better score, and are searched
                    // `params::ALPHA_RAISE_REDUCTION` shallower.
                    if depth > ONE_PLY + params::ALPHA_RAISE_REDUCTION() {
                        depth -= params::ALPHA_RAISE_REDUCTION();
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        if best <= orig_alpha {
            self.cutoffs.fail_low += 1;
            self.cutoffs.fail_low_moves += (searched + hash_done as usize) as u64;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_none() {
            self.tt.store(key, ply, depth, best, bound, best_move);
        }
        self.move_bufs[ply] = moves;
        self.score_bufs[ply] = scored;
        best
    }

    /// The horizon of a side with nothing of the opponent's to answer: the
    /// static score (`stand_pat`: with the net, the classical one when it
    /// is far outside the window), unless it is below beta but within `params::Q_DELTA`
    /// of alpha and the side can make a four: then each four is tried (the
    /// opponent's forced block is searched as any such reply is, and so
    /// are its counter-fours), at most `params::Q_FOURS` fours deep in a
    /// line, and past that only fours that make a second threat.
    fn quiesce(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
        let stm = self.pos.stm();
        let stand = self.stand_pat(stm, alpha, beta);
        // Past `params::Q_FOURS` only a four that makes a second threat (a
        // four-three, a double four, an open four) is still tried: it ends
        // most lines. One class bound decides both whether and which.
        let least = if self.q_fours >= params::Q_FOURS() {
            Class::FourThree
        } else {
            Class::Block4
        };
        if stand >= beta || self.pos.ev.fours_from(stm, least) == 0 || stand + self.q_delta <= alpha
        {
            return stand;
        }
        let mut fours = std::mem::take(&mut self.move_bufs[ply]);
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
        self.move_bufs[ply] = fours;
        if self.aborted {
            0
        } else {
            best
        }
    }

    /// Order the root moves for the first iteration.
    pub fn order_root(&mut self, moves: &[Pos], hash_move: Pos) -> Vec<Pos> {
        let mut scored = Vec::new();
        self.ord.score(&self.pos, 0, hash_move, moves, &mut scored);
        scored.into_iter().map(|(m, _)| m).collect()
    }
}

#[cfg(test)]
impl<'a, 'b> Tree<'a, 'b> {
    /// A tree on `pos` with no time, node or depth limit (for tests).
    pub(crate) fn unlimited(
        pos: Position<'b>,
        tt: &'a Tt,
        ord: &'a mut Ordering,
        threat: &'a mut ThreatSolver,
        ecache: &'a mut EvalCache,
        stop: &'a AtomicBool,
    ) -> Self {
        Tree::new(
            pos,
            tt,
            ord,
            threat,
            ecache,
            TreeLimits {
                stop,
                plan: TimePlan::UNLIMITED,
                start: Instant::now(),
                max_nodes: u64::MAX,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::board::Board;
    use crate::brain::types::{Rule, RuleSet};

    /// Reductions in depth units: the default grain gives the whole-ply
    /// formula (1 ply at depth 3 / move 3, 3 at depth 8 / move 20); the
    /// raw units carry the fraction; a scale of 0 reduces nothing and 16
    /// as much as a quiet move; fractional depths reduce between their
    /// neighbours.
    #[test]
    fn reductions_in_fractions_of_a_ply() {
        assert_eq!(
            grained(lmr_units(3 * ONE_PLY, 3)),
            lmr_reduction(3 * ONE_PLY, 3)
        );
        if params::LMR_GRAIN() == ONE_PLY {
            assert_eq!(lmr_reduction(3 * ONE_PLY, 3), ONE_PLY);
            assert_eq!(lmr_reduction(8 * ONE_PLY, 20), 3 * ONE_PLY);
        }
        for d in 1..30 {
            for i in 0..60 {
                let depth = d * ONE_PLY;
                let whole = (params::LMR_BASE()
                    + (d as f32).ln() * ((i + 1) as f32).ln() / params::LMR_DIVISOR())
                    as i32;
                let raw = lmr_units(depth, i);
                assert!(
                    raw >= whole * ONE_PLY && raw < (whole + 1) * ONE_PLY,
                    "{d} {i}"
                );
                assert_eq!(lmr_scaled(depth, i, 0), 0);
                assert!(lmr_scaled(depth, i, 16) == grained(raw));
                assert!(lmr_units(depth + ONE_PLY / 2, i) >= raw);
                assert!(lmr_units(depth + ONE_PLY / 2, i) <= lmr_units(depth + ONE_PLY, i));
            }
        }
        assert!(
            lmr_units(8 * ONE_PLY, 20) % ONE_PLY != 0,
            "a fraction to keep"
        );
        assert_eq!(plies(-1), -1);
        assert_eq!(plies(ONE_PLY * 5 + 3), 5);
    }

    /// Nodes visited, score and static score of one null-window (or PV)
    /// `pvs` call at `depth` on `text`, with beta placed `above` below the
    /// static score.
    fn probe(text: &str, depth: i32, above: Score, pv: bool) -> (u64, Score, Score) {
        probe_after_fours(text, depth, above, pv, 0)
    }

    /// Run `f` on an unlimited tree over the freestyle position `text`,
    /// with the table `tt`, scoring classically.
    fn with_tree<R>(text: &str, tt: &Tt, f: impl FnOnce(&mut Tree) -> R) -> R {
        with_tree_on(text, false, tt, f)
    }

    /// `with_tree`, scoring with the embedded freestyle net if `net`.
    fn with_tree_on<R>(text: &str, net: bool, tt: &Tt, f: impl FnOnce(&mut Tree) -> R) -> R {
        let rules = RuleSet::from(Rule::Freestyle);
        let mut board = Board::from_ascii(text, rules).unwrap();
        with_board_tree(&mut board, net, tt, Ordering::default(), f)
    }

    /// Run `f` on an unlimited tree over `board` (freestyle), with the
    /// table `tt` and the move ordering `ord`, scoring with the embedded
    /// freestyle net if `net`.
    fn with_board_tree<R>(
        board: &mut Board,
        net: bool,
        tt: &Tt,
        mut ord: Ordering,
        f: impl FnOnce(&mut Tree) -> R,
    ) -> R {
        let net = net.then(|| crate::brain::eval::net::embedded_net_for(Rule::Freestyle));
        let mut threat = ThreatSolver::new();
        let stop = AtomicBool::new(false);
        let pos = Position::with_net(board, net);
        let mut ecache = EvalCache::with_bits(16);
        f(&mut Tree::unlimited(
            pos,
            tt,
            &mut ord,
            &mut threat,
            &mut ecache,
            &stop,
        ))
    }

    /// `probe` with `fours` fours already made by the quiescence in the
    /// line (as if the node were that deep in it).
    fn probe_after_fours(
        text: &str,
        depth: i32,
        above: Score,
        pv: bool,
        fours: u32,
    ) -> (u64, Score, Score) {
        probe_on(text, false, depth, above, pv, fours)
    }

    /// `probe_after_fours`, scoring with the embedded net if `net`.
    fn probe_on(
        text: &str,
        net: bool,
        depth: i32,
        above: Score,
        pv: bool,
        fours: u32,
    ) -> (u64, Score, Score) {
        with_tree_on(text, net, &Tt::new(1 << 16), |tree| {
            tree.q_fours = fours;
            let ev = tree.pos.ev.evaluate(tree.pos.stm());
            let beta = ev - above;
            let alpha = if pv { beta - 100 } else { beta - 1 };
            let score = tree.pvs(depth * ONE_PLY, alpha, beta, 1);
            (tree.nodes, score, ev)
        })
    }

    // Black (X) to move with two open twos against White's scattered stones.
    const QUIET: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X X . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . X . . . . . .
        . . . . O . . . . . . . . . .
        . . . . . . . . . . . O . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . O . . . . . . . O . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .";

    /// With the net, a horizon whose classical score lies
    /// `LAZY_MARGIN_NET` or more outside the window stands on the classical
    /// score; inside the margin on the net's. (Black to move in `QUIET`
    /// has no four: the quiescence returns its stand-pat.)
    #[test]
    fn a_horizon_far_outside_the_window_stands_on_the_classical_score() {
        let m = params::LAZY_MARGIN_NET();
        assert!(m > 0);
        with_tree_on(QUIET, true, &Tt::new(1 << 16), |tree| {
            let stm = tree.pos.stm();
            let (c, n) = (tree.pos.ev.classic(stm), tree.pos.ev.evaluate(stm));
            assert_ne!(c, n, "the test needs the two scores apart");
            assert_eq!(tree.quiesce(c - m - 10, c - m, 1), c, "far above beta");
            assert_eq!(tree.quiesce(c + m, c + m + 10, 1), c, "far below alpha");
            assert_eq!(tree.quiesce(c - m - 9, c - m + 1, 1), n, "inside, above");
            assert_eq!(tree.quiesce(c + m - 1, c + m + 9, 1), n, "inside, below");
            assert_eq!(tree.quiesce(c - 5, c + 5, 1), n, "in the window");
        });
        // The classical tree never asks.
        with_tree_on(QUIET, false, &Tt::new(1 << 16), |tree| {
            let stm = tree.pos.stm();
            let c = tree.pos.ev.classic(stm);
            assert_eq!(tree.quiesce(c - m - 10, c - m, 1), c);
        });
    }

    #[test]
    fn reverse_futility_cuts_only_quiet_non_pv_nodes_far_above_beta() {
        // Far above beta at depth 2, null window: one node, the static score.
        let (nodes, score, ev) = probe(QUIET, 2, 2 * params::RFP_MARGIN() + 1, false);
        assert_eq!((nodes, score), (1, ev));
        // Not far enough above it, or at a PV node, or too deep: searched.
        assert!(probe(QUIET, 2, 2 * params::RFP_MARGIN() - 1, false).0 > 1);
        assert!(probe(QUIET, 2, 2 * params::RFP_MARGIN() + 1, true).0 > 1);
        let deep = params::RFP_MAX_DEPTH() + 1;
        assert!(probe(QUIET, deep, params::RFP_MARGIN() * deep + 1, false).0 > 1);
        // An open three of the opponent's must be answered: never cut.
        let threat = QUIET.replacen(
            ". . . . . . . . . . . . . . .\n        . . . . . . . . . . . . . . .\n        . . . . . . X X",
            ". . O O O . . . . . . . . . .\n        . . . . . . . . . . . . . . .\n        . . . . . . X X",
            1,
        );
        assert_ne!(threat, QUIET);
        assert!(probe(&threat, 2, 2 * params::RFP_MARGIN() + 1, false).0 > 1);
    }
    #[test]
    fn a_singular_test_leaves_its_move_out_and_stores_nothing() {
        let tt = Tt::new(1 << 16);
        with_tree(FOUR_THREE, &tt, |tree| {
            let win = tree.pos.board.pos(7, 7).unwrap();
            let key = tree.pos.board.hash();
            // With the four-three left out the side plays something else ...
            tree.excluded[1] = win;
            tree.pvs(2 * ONE_PLY, -INFINITE, INFINITE, 1);
            tree.excluded[1] = Pos::NONE;
            assert!(tree.pv_len[1] > 0 && tree.pv[1][0] != win);
            // ... and the partial search left no entry for the position.
            assert!(tt.probe(key, 1).is_none());
            // With it, the win.
            assert!(tree.pvs(2 * ONE_PLY, -INFINITE, INFINITE, 1) >= MATE_BOUND);
            assert!(tt.probe(key, 1).is_some());
        });
    }

    #[test]
    fn deep_searches_test_and_extend_singular_hash_moves() {
        // An early, balanced position.
        let text = "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . O X . . . .
            . . . . X O . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .";
        with_tree(text, &Tt::new(1 << 18), |tree| {
            for depth in 1..params::SE_MIN_DEPTH() {
                tree.root_depth = depth * ONE_PLY;
                tree.pvs(depth * ONE_PLY, -INFINITE, INFINITE, 1);
            }
            // Too shallow so far: no test.
            assert_eq!(tree.se_tests, 0);
            for depth in params::SE_MIN_DEPTH()..params::SE_MIN_DEPTH() + 3 {
                tree.root_depth = depth * ONE_PLY;
                let s = tree.pvs(depth * ONE_PLY, -INFINITE, INFINITE, 1);
                assert!(s.abs() < MATE_BOUND, "depth {depth}: {s}");
            }
            assert!(tree.se_tests > 0);
            assert!(
                tree.se_extensions > 0 && tree.se_extensions <= tree.se_tests,
                "{} of {}",
                tree.se_extensions,
                tree.se_tests
            );
        });
    }

    // Black (X) to move can play 7,7: a four along row 7 (blocked on the
    // left) and an open three down column 7. White must block the four at
    // 8,7, and Black then makes an open four: a win no static score sees.
    const FOUR_THREE: &str = "
        O . . . . . . . . . . . . . O
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . O X X X . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        O . . . . . . . . . . . . . O";

    #[test]
    fn four_quiescence_finds_a_four_three_at_the_horizon() {
        // A null window just above the static score: the fours are tried
        // and the four-three wins.
        let (nodes, score, ev) = probe(FOUR_THREE, 0, -1, false);
        assert!(ev < MATE_BOUND);
        assert!(score >= MATE_BOUND, "score {score}, static {ev}");
        assert!(nodes > 1);
        // Static score params::Q_DELTA or more below alpha: it stands, unsearched.
        let (nodes, score, ev) = probe(FOUR_THREE, 0, -(params::Q_DELTA() + 1), false);
        assert_eq!((nodes, score), (1, ev));
        // Without a four to make there is nothing to try.
        let (nodes, score, ev) = probe(QUIET, 0, -1, false);
        assert_eq!((nodes, score), (1, ev));
    }

    #[test]
    fn past_its_plain_fours_the_quiescence_still_tries_a_four_three() {
        // Two fours already made in the line: the four-three is still
        // tried, and wins.
        let (nodes, score, ev) = probe_after_fours(FOUR_THREE, 0, -1, false, params::Q_FOURS());
        assert!(ev < MATE_BOUND);
        assert!(score >= MATE_BOUND, "score {score}, static {ev}");
        assert!(nodes > 1);
        // Without the column's two stones 7,7 is a plain four: tried
        // before the limit, not past it.
        let plain = FOUR_THREE.replacen(
            ". . . . . . . X . . . . . . .",
            ". . . . . . . . . . . . . . .",
            2,
        );
        assert_ne!(plain, FOUR_THREE);
        assert!(probe_after_fours(&plain, 0, -1, false, 0).0 > 1);
        let (nodes, score, ev) = probe_after_fours(&plain, 0, -1, false, params::Q_FOURS());
        assert_eq!((nodes, score), (1, ev));
    }
    /// The net's own margins (`RFP_MARGIN_NET`, `Q_DELTA_NET`): a tree that
    /// scores with the net prunes by them, a classical tree by the
    /// classical ones, whatever the other pair says.
    #[cfg(feature = "tune")]
    #[test]
    fn tunable_net_margins() {
        let _turn = crate::brain::search::tunable::test_lock();
        let (classic, net) = (params::RFP_MARGIN(), 60);
        params::set("RFP_MARGIN_NET", net as f64).unwrap();
        params::set("Q_DELTA_NET", 123.0).unwrap();
        // Beta 2 * 60 + 1 below the static score: the net's tree fails
        // high at once on its margin, the classical tree (120 a ply)
        // searches; 2 * 60 - 1 below, both search.
        let rfp = |net, above| probe_on(QUIET, net, 2, above, false, 0);
        let net_cut = rfp(true, 2 * net + 1);
        let net_near = rfp(true, 2 * net - 1);
        let classic_far = rfp(false, 2 * net + 1);
        let classic_cut = rfp(false, 2 * classic + 1);
        let tt = Tt::new(1 << 10);
        let deltas = with_tree_on(QUIET, true, &tt, |t| (t.q_delta, t.rfp_margin));
        let classic_delta = with_tree(QUIET, &tt, |t| t.q_delta);
        params::set("RFP_MARGIN_NET", classic as f64).unwrap();
        params::set("Q_DELTA_NET", params::Q_DELTA() as f64).unwrap();
        assert_eq!((net_cut.0, net_cut.1), (1, net_cut.2), "{net_cut:?}");
        assert!(net_near.0 > 1, "{net_near:?}");
        assert!(classic_far.0 > 1, "{classic_far:?}");
        assert_eq!(classic_cut.0, 1, "{classic_cut:?}");
        assert_eq!(deltas, (123, net));
        assert_eq!(classic_delta, params::Q_DELTA());
    }

    // `QUIET` with a stone more for X far away: O, behind, to move.
    #[cfg(feature = "tune")]
    const BEHIND: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X X . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . X . . . . . .
        . . . . O . . . . . . . . . .
        . . . . . . . . . . . O . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . O . . . . . . . O . .
        . . . . . . . . . . . . . . .
        X . . . . . . . . . . . . . .";

    /// The count limit for every move (`LMP_ALL`), off by default: on, it
    /// searches fewer nodes, and off again the search is the same as before.
    #[cfg(feature = "tune")]
    #[test]
    fn tunable_count_limit_for_every_move() {
        let _turn = crate::brain::search::tunable::test_lock();
        assert_eq!(params::LMP_ALL(), 0);
        let off = probe_played(8);
        let lmp_base = params::LMP_BASE() as f64;
        params::set("LMP_ALL", 1.0).unwrap();
        params::set("LMP_BASE", 0.0).unwrap();
        let count_on = probe_played(8);
        params::set("LMP_ALL", 0.0).unwrap();
        let count_off = probe_played(8);
        params::set("LMP_BASE", lmp_base).unwrap();
        assert_eq!(probe_played(8), off);
        assert!(count_on < count_off, "{count_on} {count_off}");
    }

    /// Futility pruning, off by default: on, a quiet non-PV node far below
    /// alpha searches its first move and no late quiet one; not far enough
    /// below, or a PV node, searches as with it off.
    #[cfg(feature = "tune")]
    #[test]
    fn tunable_futility_pruning() {
        let _turn = crate::brain::search::tunable::test_lock();
        assert_eq!(params::FUTILITY_MAX_DEPTH(), 0);
        let margin = params::FUTILITY_BASE() + 3 * params::FUTILITY_MARGIN();
        let runs = || {
            [
                probe(BEHIND, 3, -(margin + 2), false),
                probe(BEHIND, 3, -(margin - 2), false),
                probe(BEHIND, 3, -(margin + 2), true),
            ]
        };
        let off = runs();
        params::set("FUTILITY_MAX_DEPTH", 3.0).unwrap();
        let on = runs();
        params::set("FUTILITY_MAX_DEPTH", 0.0).unwrap();
        assert!(on[0].0 < off[0].0, "{on:?} {off:?}");
        assert_eq!((on[1], on[2]), (off[1], off[2]));
    }

    /// Nodes of null-window searches to 1, 2, ... `depth` plies, beta at 0,
    /// of the opening `PLAYED` (its moves in order, so the board knows the
    /// last two), the table and history kept from one to the next.
    #[cfg(feature = "tune")]
    fn probe_played(depth: i32) -> u64 {
        probe_played_with(depth, |_, _| {})
    }

    /// `probe_played` with `prepare` run on the board and the move
    /// ordering first.
    #[cfg(feature = "tune")]
    fn probe_played_with(depth: i32, prepare: impl FnOnce(&Board, &mut Ordering)) -> u64 {
        const PLAYED: [(i64, i64); 9] = [
            (7, 7),
            (8, 6),
            (6, 6),
            (6, 7),
            (8, 8),
            (5, 8),
            (7, 5),
            (9, 9),
            (6, 9),
        ];
        let mut board = Board::square(15, RuleSet::from(Rule::Freestyle)).unwrap();
        for (x, y) in PLAYED {
            let p = board.pos(x, y).unwrap();
            board.play(p);
        }
        let mut ord = Ordering::default();
        prepare(&board, &mut ord);
        with_board_tree(&mut board, false, &Tt::new(1 << 18), ord, |tree| {
            for d in 1..=depth {
                tree.pvs(d * ONE_PLY, -1, 0, 1);
            }
            tree.nodes
        })
    }

    /// The soft four-three defence (`FOUR_THREE_DEFENCE` = 2): White to
    /// move against Black's four-three point searches every move, the
    /// defences found by `four_three_defences` among them (7,7, 8,7, 7,6,
    /// 7,10), with the others reduced more: a different tree, the same kind
    /// of first move (one that takes the point away; Black wins later
    /// either way).
    #[cfg(feature = "tune")]
    #[test]
    fn tunable_soft_four_three_defence() {
        let _turn = crate::brain::search::tunable::test_lock();
        // `FOUR_THREE` with one more black stone far away: White to move.
        let text = FOUR_THREE.replacen(
            ". . . . . . . . . . . . . . .\n        . . . . . . . . . . . . . . .\n        O . . . . . . . . . . . . . O",
            ". . . . . . . . . . . . . . .\n        . . . . . . . . . . . X . . .\n        O . . . . . . . . . . . . . O",
            1,
        );
        assert_ne!(text, FOUR_THREE);
        let run = || {
            with_tree(&text, &Tt::new(1 << 16), |tree| {
                assert_eq!(tree.pos.stm(), crate::brain::types::Color::White);
                let (mut defences, mut scratch) = (vec![], vec![]);
                assert!(four_three_defences(
                    &mut tree.pos,
                    &mut defences,
                    &mut scratch
                ));
                assert_eq!(defences.len(), 4);
                let score = tree.pvs(5 * ONE_PLY, -INFINITE, INFINITE, 1);
                (tree.nodes, score, defences.contains(&tree.pv[1][0]))
            })
        };
        let off = run();
        params::set("FOUR_THREE_DEFENCE", 2.0).unwrap();
        params::set("FOUR_THREE_REDUCTION", 48.0).unwrap();
        let soft = run();
        params::set("FOUR_THREE_DEFENCE", 0.0).unwrap();
        params::set("FOUR_THREE_REDUCTION", 16.0).unwrap();
        assert!(off.2 && soft.2, "{off:?} {soft:?}");
        assert_ne!(off.0, soft.0);
    }

    /// Razoring and the static mate check, off by default, switched on in
    /// a tuning build (the name keeps it in the tuning build's test run;
    /// nothing else that run searches reads these two values).
    #[cfg(feature = "tune")]
    #[test]
    fn tunable_razoring_and_static_mate() {
        let _turn = crate::brain::search::tunable::test_lock();
        assert_eq!((params::RAZOR_MAX_DEPTH(), params::STATIC_MATE()), (0, 0));
        let margin = params::RAZOR_MARGIN();
        // Off: the four-three is searched, the quiet node far below alpha too.
        assert!(probe(FOUR_THREE, 2, 0, false).0 > 1);
        assert!(probe(QUIET, 2, -(2 * margin + 1), false).0 > 1);
        params::set("STATIC_MATE", 1.0).unwrap();
        params::set("RAZOR_MAX_DEPTH", 2.0).unwrap();
        // The four-three (no four for White to make) is a mate in five, read
        // without a search, with its move as the PV.
        let (nodes, score, _) = probe(FOUR_THREE, 2, 0, false);
        let quiet = probe(QUIET, 2, -(2 * margin + 1), false);
        let near = probe(QUIET, 2, -(2 * margin - 1), false);
        let deep = probe(QUIET, 3, -(3 * margin + 1), false);
        let pv = probe(QUIET, 2, -(2 * margin + 1), true);
        params::set("STATIC_MATE", 0.0).unwrap();
        params::set("RAZOR_MAX_DEPTH", 0.0).unwrap();
        assert_eq!((nodes, score), (1, mate_in(1 + 5)));
        // Razored: no four to try, the static score stands, one node.
        assert_eq!((quiet.0, quiet.1), (1, quiet.2));
        // Not far enough below alpha, too deep, or a PV node: searched.
        assert!(
            near.0 > 1 && deep.0 > 1 && pv.0 > 1,
            "{near:?} {deep:?} {pv:?}"
        );
    }
}
