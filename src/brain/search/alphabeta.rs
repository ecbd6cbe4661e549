//! The tree search: negamax principal-variation search over a
//! transposition table, with threat-aware move generation, selectivity for
//! quiet moves and a tactical horizon. Every number the rules below use is
//! a `params` value, named here and defined once in
//! `src/brain/search/params.rs`.
//!
//! `Tree::pvs` searches one node in numbered steps; each step's comment
//! says what our own measurements found it worth (`scripts/RESULTS.md`,
//! the section named). In order:
//!
//! 1. **Enter**: count the node; poll the stop flag, the node limit and
//!    the clock every `TREE_CHECK_EVERY` nodes.
//! 2. **Terminal positions**: a five to make, two fives against, a full
//!    board, the ply limit (`MAX_PLY`).
//! 3. **Mate-distance pruning**: the window is clipped to the mates still
//!    possible at this ply.
//! 4. **Static mate check** (`STATIC_MATE`, off by default): an open four
//!    or double four the side can make wins in three; a four-three when
//!    the opponent cannot make a four wins in five (`Position::static_mate`).
//! 5. **The horizon** (depth ≤ 0, `horizon.rs`): facing a four or an open
//!    three the node is searched one ply (the threat's answers only);
//!    an unanswerable open four is a win; otherwise the four quiescence.
//! 6. **Transposition table** (`search::tt`): a deep enough entry whose
//!    bound settles the window ends a non-PV node; any entry's move goes
//!    first.
//! 7. **Reverse futility pruning**: a non-PV node within `RFP_MAX_DEPTH`
//!    plies whose static score beats beta by `RFP_MARGIN` (`RFP_MARGIN_NET`
//!    with the net) a remaining ply, with no threat to answer, fails high.
//! 8. **Razoring** (`RAZOR_MAX_DEPTH`, off by default): far below alpha
//!    near the horizon (`RAZOR_MARGIN` a ply), the four quiescence decides.
//! 9. **Singular extension**: from `SE_MIN_DEPTH`, a table move whose score
//!    (a lower bound or exact, at most `SE_TT_DEPTH` plies shallower, no
//!    mate) S is tested: the other moves, searched to depth /
//!    `SE_DEPTH_DIVISOR` against S − `SE_MARGIN` a ply, all fail low: it is
//!    searched `SE_EXTENSION` deeper; one reaches it and that bound is at
//!    least beta: the node fails high. Not past `SE_MAX_PLY_FACTOR` times
//!    the root depth; the test stores nothing.
//! 10. **The moves** (`picker`): the table's move first, before generation
//!     in a node with no threat to answer; then generation (facing a four
//!     only its block, facing an open three its defences and our fours,
//!     `movegen`), ordered by threats, killers and history (`ordering`).
//!     Per move:
//!     - *quiet* means neither side makes a double three or more there and
//!       the node answers no threat. Past `lmp_limit` moves quiet ones are
//!       skipped (late-move pruning; `LMP_ALL` applies the count to every move
//!       of an unforced node, off by default); near the horizon a non-PV node
//!       whose static score plus `FUTILITY_BASE` and `FUTILITY_MARGIN` a ply
//!       stays at most alpha skips them (`FUTILITY_MAX_DEPTH`, off by default).
//!     - *extensions*: a forced node's single reply `FORCED_EXTENSION`, a
//!       singular table move `SE_EXTENSION` (the larger of the two).
//!     - *reductions*: from `LMR_MIN_DEPTH` and after `LMR_FULL_MOVES` moves, a
//!       late quiet move is searched with a null window `lmr_reduction`
//!       shallower (`LMR_NON_PV_EXTRA` more at non-PV nodes); late tactical
//!       moves and forced answers by `LMR_TACTICAL_SCALE` and
//!       `LMR_FORCED_SCALE` sixteenths of that (0 by default); facing a
//!       four-three point (`FOUR_THREE_DEFENCE` = 2, off by default) the moves
//!       that do not take it away `FOUR_THREE_REDUCTION` more. A move that
//!       beats alpha is searched again at full depth, then with the full
//!       window. Once alpha is raised without a cutoff, the later moves are
//!       searched `ALPHA_RAISE_REDUCTION` shallower (0 by default).
//! 11. **Store** the result in the table (not in a singular test).
//!
//! The root (`deepening`, `iteration`) runs iterative deepening with
//! aspiration windows (`ASPIRATION*`) and reduces late quiet root moves
//! (`ROOT_LMR_*`).

use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Instant;

use crate::brain::game::board::Pos;
use crate::brain::types::{mate_in, mated_in, Color, Depth, Score, INFINITE, MATE_BOUND, ONE_PLY};

use super::evalcache::{EvalCache, Tag};
use super::movegen::{generate, unforced, Gen};
use super::ordering::{is_tactical, MoveOrder, MAX_PLY};
use super::params;
use super::picker::{Ending, MoveBuffers, MovePicker, Pick};
use super::position::Position;
use super::selectivity::{lmp_limit, lmr_reduction, lmr_scaled, plies};
use super::threat::ThreatSolver;
use super::time::TimePlan;
use super::tt::{Bound, Hit, Tt};

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

/// One ply of the tree walk: the principal variation found below it, the
/// move a singular test leaves out, and its move buffers (lent to the
/// node's picker while the node is searched).
pub(super) struct Frame {
    pub(super) pv: [Pos; MAX_PLY + 1],
    pub(super) pv_len: usize,
    pub(super) excluded: Pos,
    pub(super) bufs: MoveBuffers,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            pv: [Pos::NONE; MAX_PLY + 1],
            pv_len: 0,
            excluded: Pos::NONE,
            bufs: MoveBuffers::default(),
        }
    }
}

/// What one `pvs` call knows about its node once it is past the terminal
/// tests: the window, the depth left, and what the table said.
#[derive(Clone, Copy, Debug)]
struct Node {
    ply: usize,
    /// Depth left (depth units); at the horizon, one ply for the answers
    /// to a threat.
    depth: Depth,
    alpha: Score,
    beta: Score,
    /// Alpha as the node was entered (for the bound it stores).
    orig_alpha: Score,
    pv_node: bool,
    /// Entered at depth ≤ 0 with a threat to answer.
    horizon: bool,
    stm: Color,
    key: u64,
    /// The move a singular test leaves out (else NONE).
    excluded: Pos,
    hash_move: Pos,
    /// The singular extension the table's move earned.
    hash_ext: Depth,
}

/// What the move loop reads of the node once its moves are generated.
#[derive(Clone, Copy, Debug)]
struct MoveContext {
    /// The moves answer a threat.
    forced: bool,
    /// The soft four-three stage found defences to favour.
    soft: bool,
    /// A single forced reply, extended.
    extend: bool,
    /// Futility: late quiet moves are skipped while this is at most alpha.
    futile_at: Score,
}

impl MoveContext {
    /// Before generation (the table's move): nothing forced, nothing pruned.
    const BEFORE: MoveContext = MoveContext {
        forced: false,
        soft: false,
        extend: false,
        futile_at: Score::MAX,
    };
}

/// Per-search state of the tree walk.
pub struct Tree<'a, 'b> {
    pub pos: Position<'b>,
    pub tt: &'a Tt,
    pub ord: &'a mut MoveOrder,
    /// The threat solver (the root probe's VCF and VCT), and the nodes it
    /// searched (they count against the node limit).
    pub threat: &'a mut ThreatSolver,
    pub vcf_nodes: u64,
    pub nodes: u64,
    /// Table probes in the tree, and how many found an entry.
    pub tt_probes: u64,
    pub tt_hits: u64,
    /// Move-ordering diagnostics (`bench` prints them): beta cutoffs by the
    /// move that made them — the table's move, the first generated move
    /// searched, the second to fourth, a later one — and the nodes that
    /// searched moves and found none.
    pub cutoffs: Cutoffs,
    pub seldepth: usize,
    /// A limit was reached: every call returns 0 from here on.
    pub aborted: bool,
    pub limits: TreeLimits<'a>,
    /// In the root iteration under way: the last root move after the first
    /// of a pass that beat every move before it (its score and PV), so a
    /// stopped iteration can still play it.
    pub root_beater: Option<(Pos, Score, Vec<Pos>)>,
    /// Per ply.
    pub(super) stack: Vec<Frame>,
    /// The generator's work buffer.
    scratch: Vec<Pos>,
    /// Fours made by `quiesce` in the line being searched.
    pub(super) q_fours: u32,
    /// Depth of the root iteration under way (extensions stop at twice it).
    pub(super) root_depth: Depth,
    /// Singular-extension tests run, and how many extended the hash move.
    pub(super) se_tests: u64,
    pub(super) se_extensions: u64,
    /// The reverse futility margin per ply and the quiescence's delta of
    /// the evaluation this tree scores with (`params::RFP_MARGIN` and
    /// `Q_DELTA`, or their `_NET` twins when the net evaluates).
    pub(super) rfp_margin: Score,
    pub(super) q_delta: Score,
    /// The net's scores by position (`evalcache`), asked for only when the
    /// net evaluates (`Tree::new` makes it speak for the net and board).
    pub(super) ecache: &'a mut EvalCache,
    /// The net scores this tree's positions (not the classical evaluation).
    pub(super) net_evaluates: bool,
}

impl<'a, 'b> Tree<'a, 'b> {
    pub fn new(
        pos: Position<'b>,
        tt: &'a Tt,
        ord: &'a mut MoveOrder,
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
            threat,
            vcf_nodes: 0,
            nodes: 0,
            tt_probes: 0,
            tt_hits: 0,
            cutoffs: Cutoffs::default(),
            seldepth: 0,
            aborted: false,
            limits,
            root_beater: None,
            stack: (0..=MAX_PLY).map(|_| Frame::default()).collect(),
            scratch: Vec::new(),
            q_fours: 0,
            root_depth: 0,
            se_tests: 0,
            se_extensions: 0,
            rfp_margin,
            q_delta,
            ecache,
            net_evaluates: net,
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.limits.start.elapsed().as_millis() as u64
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.limits.stop.load(AtomicOrdering::Relaxed)
            || self.nodes + self.vcf_nodes >= self.limits.max_nodes
            || self.limits.plan.out_of_time(self.elapsed_ms())
        {
            self.aborted = true;
        }
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

    /// Play `m` in the searched position, prefetching the table bucket of
    /// the position it leads to.
    #[inline]
    pub(super) fn make(&mut self, m: Pos) {
        let tt = self.tt;
        self.pos.make_with(m, |key| tt.prefetch(key));
    }

    /// The principal variation found at ply 0 by the last `pvs` call there.
    pub fn root_pv(&self) -> Vec<Pos> {
        let f = &self.stack[0];
        f.pv[..f.pv_len].to_vec()
    }

    /// Generate the moves of the current node (used at the root).
    pub fn generate(&mut self, out: &mut Vec<Pos>) -> Gen {
        generate(&mut self.pos, out, &mut self.scratch)
    }

    /// The PV at `ply`: `m`, then the child's.
    pub(super) fn set_pv(&mut self, ply: usize, m: Pos) {
        let (here, below) = self.stack.split_at_mut(ply + 1);
        let (f, child) = (&mut here[ply], &below[0]);
        let n = child.pv_len.min(MAX_PLY - ply);
        f.pv[0] = m;
        f.pv[1..=n].copy_from_slice(&child.pv[..n]);
        f.pv_len = n + 1;
    }

    /// The PV at `ply` is the single move `m` (a win read without a search).
    fn set_pv_one(&mut self, ply: usize, m: Pos) {
        self.stack[ply].pv[0] = m;
        self.stack[ply].pv_len = 1;
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

    /// Negamax principal-variation search of the current position to
    /// `depth` within (`alpha`, `beta`), `ply` from the root. The steps are
    /// the module doc's; "worth" is what our ablations measured.
    pub fn pvs(&mut self, depth: Depth, alpha: Score, beta: Score, ply: usize) -> Score {
        debug_assert!(alpha < beta && ply <= MAX_PLY, "{alpha} {beta} {ply}");
        // 1. Enter.
        self.stack[ply].pv_len = 0;
        self.nodes += 1;
        if self.nodes.is_multiple_of(params::TREE_CHECK_EVERY) {
            self.check_limits();
        }
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let stm = self.pos.stm();

        // 2. Terminal positions: exact, never ablated.
        if let Some(score) = self.terminal(stm, ply) {
            return score;
        }

        // 3. Mate-distance pruning: not measured alone (it only cuts what
        //    no mate can change).
        let alpha = alpha.max(mated_in(ply));
        let beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // 4. Static mate check: off; −9.6 ± 8.9 points a game added alone,
        //    −4.1 ± 7.6 taken out of the package (RESULTS: "Every piece of
        //    the package against Rapfi at a node count", s7's section).
        if params::STATIC_MATE() != 0 && self.pos.ev.fives(stm.opposite()) == 0 {
            if let Some((p, n)) = self.pos.static_mate() {
                self.set_pv_one(ply, p);
                return mate_in(ply + n);
            }
        }

        // 5. The horizon: the open three answered by a one-ply search
        //    +180.7 ± 83.8 Elo, the four quiescence +28.7 ± 33.4, the lazy
        //    classical stand-pat with the net +41.6 ± 21.6 (SPRTs at 200 ms;
        //    RESULTS: "Strength" (SPRT log), "The net's horizon stands on the
        //    classical score far outside the window").
        let horizon = depth <= 0;
        if horizon {
            if let Some(score) = self.horizon(alpha, beta, ply) {
                return score;
            }
        }
        let mut n = Node {
            ply,
            depth: if horizon { ONE_PLY } else { depth },
            alpha,
            beta,
            orig_alpha: alpha,
            pv_node: beta - alpha > 1,
            horizon,
            stm,
            key: self.pos.board.hash(),
            excluded: self.stack[ply].excluded,
            hash_move: Pos::NONE,
            hash_ext: 0,
        };

        // 6. Transposition table: not measured alone (in the first search);
        //    its move makes 5.8 % of bench's cutoffs, prefetching it 1.07×
        //    nodes/s (RESULTS: "Search 2: where the main search's nodes go").
        let hit = self.probe(&mut n);
        if let Some(score) = hit.and_then(|h| table_cut(&n, h)) {
            return score;
        }

        // 7. Reverse futility pruning: +143.0 ± 69.4 Elo when added, margin
        //    120 +76.8 ± 46.1, depth 4 +28.2 (SPRTs at 200 ms; RESULTS:
        //    "Strength" (SPRT log)); the net's margin from SPSA run s7.
        if let Some(score) = self.reverse_futility(&n) {
            return score;
        }

        // 8. Razoring: off; about −33 Elo by SPRT, −3.4 ± 8.1 points a
        //    game added alone against Rapfi (RESULTS: "Strength" (SPRT log),
        //    "Every piece of the package against Rapfi at a node count").
        if let Some(score) = self.razor(&n) {
            return score;
        }

        // 9. Singular extension: +57.1 ± 50.8 Elo by SPRT at 200 ms (RESULTS:
        //    "Strength" (SPRT log), re-scored in "The old SPRT decisions
        //    re-scored").
        if let Some(score) = self.singular(&mut n, hit) {
            return score;
        }

        // 10. The moves, and 11. the store: the table's move before
        //     generation +49.0 ± 34.3 Elo with the sorted head (SPRT log);
        //     late-move pruning and reductions together +49.0 ± 34.3, s7's
        //     tuned LMR and LMP +13.1 ± 15.2 (RESULTS: "Search 2: s7's point
        //     by SPRT against the defaults, adopted").
        let table_first =
            !n.hash_move.is_none() && !n.horizon && self.table_move_first(n.hash_move);
        let bufs = std::mem::take(&mut self.stack[ply].bufs);
        let mut picker = MovePicker::new(bufs, n.hash_move, table_first, n.excluded);
        let score = self.search_moves(&mut n, &mut picker);
        self.stack[ply].bufs = picker.bufs;
        score
    }

    /// Step 2: the score of a position decided before any search (a five
    /// to make, two fives against, a full board), or the static score at
    /// the ply limit.
    fn terminal(&mut self, stm: Color, ply: usize) -> Option<Score> {
        if self.pos.ev.fives(stm) > 0 {
            return Some(mate_in(ply + 1));
        }
        if self.pos.ev.fives(stm.opposite()) >= 2 {
            return Some(mated_in(ply + 2));
        }
        if self.pos.board.is_full() {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.static_eval(stm));
        }
        None
    }

    /// Step 6: probe the table; its move becomes the node's hash move
    /// (unless a singular test leaves it out).
    fn probe(&mut self, n: &mut Node) -> Option<Hit> {
        self.tt_probes += 1;
        let hit = self.tt.probe(n.key, n.ply);
        if let Some(h) = hit {
            self.tt_hits += 1;
            if n.excluded.is_none() {
                n.hash_move = h.mv;
            }
        }
        hit
    }

    /// Whether steps 7 and 8 may settle the node on its static score: a
    /// non-PV node, not in a singular test nor at the horizon, within
    /// `max_plies` of it, whose `bound` (the window side it is compared
    /// with) is no mate score, with no threat of the opponent's to answer.
    fn static_prunable(&self, n: &Node, max_plies: i32, bound: Score) -> bool {
        !n.pv_node
            && n.excluded.is_none()
            && !n.horizon
            && n.depth <= max_plies * ONE_PLY
            && bound.abs() < MATE_BOUND
            && unforced(&self.pos)
    }

    /// Step 7: a quiet non-PV node far above beta fails high on its static
    /// score (`params::RFP_MAX_DEPTH`, the tree's `rfp_margin`).
    fn reverse_futility(&mut self, n: &Node) -> Option<Score> {
        if !self.static_prunable(n, params::RFP_MAX_DEPTH(), n.beta) {
            return None;
        }
        let ev = self.static_eval(n.stm);
        (ev - self.rfp_margin * n.depth / ONE_PLY >= n.beta).then_some(ev)
    }

    /// Step 8: a quiet non-PV node far below alpha near the horizon is
    /// settled by the four quiescence when that fails low too
    /// (`params::RAZOR_MAX_DEPTH`, `RAZOR_MARGIN`).
    fn razor(&mut self, n: &Node) -> Option<Score> {
        if !self.static_prunable(n, params::RAZOR_MAX_DEPTH(), n.alpha) {
            return None;
        }
        let ev = self.static_eval(n.stm);
        if ev + params::RAZOR_MARGIN() * n.depth / ONE_PLY > n.alpha {
            return None;
        }
        let v = self.quiesce(n.alpha, n.alpha + 1, n.ply);
        if self.aborted {
            return Some(0);
        }
        if v <= n.alpha {
            return Some(v);
        }
        self.stack[n.ply].pv_len = 0;
        None
    }

    /// Step 9: the singular test of the table's move (see the module doc);
    /// sets the node's `hash_ext`, or returns the node's score when another
    /// move beats beta too (or the search stopped).
    fn singular(&mut self, n: &mut Node, hit: Option<Hit>) -> Option<Score> {
        let h = hit?;
        if !n.excluded.is_none()
            || n.horizon
            || n.depth < params::SE_MIN_DEPTH() * ONE_PLY
            || (n.ply as i32) * ONE_PLY >= params::SE_MAX_PLY_FACTOR() * self.root_depth
            || n.hash_move.is_none()
            || h.bound == Bound::Upper
            || h.depth < n.depth - params::SE_TT_DEPTH() * ONE_PLY
            || h.score.abs() >= MATE_BOUND
        {
            return None;
        }
        let sb = h.score - params::SE_MARGIN() * n.depth / ONE_PLY;
        self.se_tests += 1;
        self.stack[n.ply].excluded = n.hash_move;
        let depth = plies(n.depth) / params::SE_DEPTH_DIVISOR() * ONE_PLY;
        let v = self.pvs(depth, sb - 1, sb, n.ply);
        self.stack[n.ply].excluded = Pos::NONE;
        if self.aborted {
            return Some(0);
        }
        self.stack[n.ply].pv_len = 0;
        if v < sb {
            n.hash_ext = params::SE_EXTENSION();
            self.se_extensions += 1;
        } else if sb >= n.beta {
            // Another move beats beta too at a shallower depth.
            return Some(sb);
        }
        None
    }

    /// Whether the table's move may be searched before generation: in a
    /// node with no threat to answer and no open four of its own, the
    /// generator would list every legal near cell with it first, so
    /// searching it now is the same search, and a cutoff saves generating
    /// and ordering the rest.
    fn table_move_first(&self, m: Pos) -> bool {
        let board = &*self.pos.board;
        let stm = self.pos.stm();
        unforced(&self.pos)
            && self.pos.ev.open_fours(stm) == 0
            && board.in_board(m)
            && board.is_empty(m)
            && board.has_near(m)
            && self.pos.legal_for(m, stm)
    }

    /// Step 10 and 11: the move loop over the picker's moves, then the
    /// table store. Returns the node's score.
    fn search_moves(&mut self, n: &mut Node, picker: &mut MovePicker) -> Score {
        let ply = n.ply;
        let mut ctx = MoveContext::BEFORE;
        let mut best = -INFINITE;
        let mut best_move = Pos::NONE;
        // Moves of the generated list searched (the ordering diagnostics).
        let mut searched = 0usize;
        loop {
            let (m, i) = match picker.next(&mut self.pos, self.ord, &mut self.scratch, ply) {
                Pick::Move(m, i) => (m, i),
                Pick::Generated => {
                    ctx = self.move_context(n, picker);
                    continue;
                }
                Pick::End(e) => return self.ending(e, ply),
                Pick::Done => break,
            };
            let defends = ctx.soft && picker.defends(m);
            let quiet = !ctx.forced && !defends && !is_tactical(&self.pos, m) && m != n.hash_move;
            let killer = self.ord.is_killer(ply, m);
            if best > -MATE_BOUND && self.prunes(n, &ctx, m, i, quiet, killer) {
                continue;
            }
            let table_stage = picker.table_done() && searched == 0 && i == 0 && m == n.hash_move;
            if !table_stage {
                searched += 1;
            }
            // Extensions: the larger of the single reply's and the
            // singular table move's.
            let forced_ext = if ctx.extend {
                params::FORCED_EXTENSION()
            } else {
                0
            };
            let singular_ext = if m == n.hash_move { n.hash_ext } else { 0 };
            let new_depth = n.depth - ONE_PLY + forced_ext.max(singular_ext);
            self.make(m);
            let score = if i == 0 {
                -self.pvs(new_depth, -n.beta, -n.alpha, ply + 1)
            } else {
                let r = self.reduction(n, &ctx, m, i, quiet, killer, defends);
                self.search_late(new_depth, r, n.alpha, n.beta, ply + 1)
            };
            self.pos.unmake();
            debug_assert_eq!(self.pos.board.hash(), n.key, "unmake restores the node");
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > n.alpha {
                    n.alpha = score;
                    self.set_pv(ply, m);
                    if score >= n.beta {
                        if quiet {
                            let tried = &picker.bufs.quiets;
                            self.ord.cutoff(ply, n.stm, m, plies(n.depth), tried);
                        }
                        self.cutoffs.by[match (table_stage, searched) {
                            (true, _) => 0,
                            (false, 1) => 1,
                            (false, 2..=4) => 2,
                            _ => 3,
                        }] += 1;
                        break;
                    }
                    // Alpha raised without a cutoff (a PV node): the later
                    // moves must beat a better score.
                    if n.depth > ONE_PLY + params::ALPHA_RAISE_REDUCTION() {
                        n.depth -= params::ALPHA_RAISE_REDUCTION();
                    }
                }
            }
            if quiet {
                picker.bufs.quiets.push(m);
            }
        }
        debug_assert!(best > -INFINITE || !n.excluded.is_none() || best_move.is_none());
        if best <= n.orig_alpha {
            self.cutoffs.fail_low += 1;
            self.cutoffs.fail_low_moves += (searched + picker.table_done() as usize) as u64;
        }
        // 11. Store (not the partial result of a singular test).
        if n.excluded.is_none() {
            let bound = Bound::of(best, n.orig_alpha, n.beta);
            self.tt.store(n.key, ply, n.depth, best, bound, best_move);
        }
        best
    }

    /// The score of a node that generation alone decides.
    fn ending(&mut self, e: Ending, ply: usize) -> Score {
        match e {
            Ending::Five => mate_in(ply + 1),
            Ending::Lost => mated_in(ply + 2),
            // Renju: no near point is legal for Black. With no legal cell
            // at all, Black's move is forbidden and loses now.
            Ending::NoMove if self.pos.every_cell_forbidden(self.pos.stm()) => mated_in(ply + 1),
            Ending::NoMove => 0,
            Ending::OpenFour(p) => {
                self.set_pv_one(ply, p);
                mate_in(ply + 3)
            }
        }
    }

    /// What the move loop reads once the moves are generated: forced or
    /// not, the soft four-three stage's defences, the single-reply
    /// extension, and the futility bound.
    fn move_context(&mut self, n: &Node, picker: &MovePicker) -> MoveContext {
        let forced = picker.forced();
        // Futility pruning (`params::FUTILITY_MAX_DEPTH`, off by default;
        // not measured alone since it lost added to s5's point: −0.5 ± 9.9,
        // −2.8 ± 7.3 taken out of the package).
        let futile_at = if !n.pv_node
            && !forced
            && n.excluded.is_none()
            && n.depth <= params::FUTILITY_MAX_DEPTH() * ONE_PLY
            && n.alpha.abs() < MATE_BOUND
        {
            self.static_eval(n.stm)
                + params::FUTILITY_BASE()
                + params::FUTILITY_MARGIN() * n.depth / ONE_PLY
        } else {
            Score::MAX
        };
        MoveContext {
            forced,
            soft: !picker.bufs.defences.is_empty(),
            extend: forced && picker.generated() == 1 && !n.horizon,
            futile_at,
        }
    }

    /// Whether the `i`-th move `m` is skipped (once a move that does not
    /// lose is in hand): the count limit (`lmp_limit`) for quiet moves, and
    /// for every move with `params::LMP_ALL`; futility for quiet moves.
    /// Never the table's move, a killer, or a forced answer.
    #[allow(clippy::too_many_arguments)]
    fn prunes(
        &self,
        n: &Node,
        ctx: &MoveContext,
        m: Pos,
        i: usize,
        quiet: bool,
        killer: bool,
    ) -> bool {
        let over_count = i >= lmp_limit(n.depth, n.pv_node);
        if !ctx.forced && m != n.hash_move && params::LMP_ALL() != 0 && !quiet && over_count {
            return true;
        }
        quiet && !killer && (over_count || ctx.futile_at <= n.alpha)
    }

    /// The reduction of the `i`-th move `m` (i > 0), in depth units.
    #[allow(clippy::too_many_arguments)]
    fn reduction(
        &self,
        n: &Node,
        ctx: &MoveContext,
        m: Pos,
        i: usize,
        quiet: bool,
        killer: bool,
        defends: bool,
    ) -> Depth {
        let late = !killer
            && m != n.hash_move
            && n.depth >= params::LMR_MIN_DEPTH() * ONE_PLY
            && i >= params::LMR_FULL_MOVES();
        if !late {
            return 0;
        }
        let r = if quiet {
            let extra = if n.pv_node {
                0
            } else {
                params::LMR_NON_PV_EXTRA()
            };
            lmr_reduction(n.depth, i) + extra
        } else if ctx.forced || defends {
            lmr_scaled(n.depth, i, params::LMR_FORCED_SCALE())
        } else {
            lmr_scaled(n.depth, i, params::LMR_TACTICAL_SCALE())
        };
        if ctx.soft && !defends {
            r + params::FOUR_THREE_REDUCTION()
        } else {
            r
        }
    }

    /// Order the root moves for the first iteration.
    pub fn order_root(&mut self, moves: &[Pos], hash_move: Pos) -> Vec<Pos> {
        let mut scored = Vec::new();
        self.ord.score(&self.pos, 0, hash_move, moves, &mut scored);
        scored.into_iter().map(|(m, _)| m).collect()
    }
}

/// Step 6's cut: a non-PV node, not in a singular test, whose entry is
/// deep enough and whose bound settles the window.
fn table_cut(n: &Node, h: Hit) -> Option<Score> {
    if n.pv_node || h.depth < n.depth || !n.excluded.is_none() {
        return None;
    }
    h.settles(n.alpha, n.beta).then_some(h.score)
}

#[cfg(test)]
impl<'a, 'b> Tree<'a, 'b> {
    /// A tree on `pos` with no time, node or depth limit (for tests).
    pub(crate) fn unlimited(
        pos: Position<'b>,
        tt: &'a Tt,
        ord: &'a mut MoveOrder,
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
    #[cfg(feature = "tune")]
    use crate::brain::search::movegen::four_three_defences;
    use crate::brain::types::{Rule, RuleSet};

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
        with_board_tree(&mut board, net, tt, MoveOrder::default(), f)
    }

    /// Run `f` on an unlimited tree over `board` (freestyle), with the
    /// table `tt` and the move ordering `ord`, scoring with the embedded
    /// freestyle net if `net`.
    fn with_board_tree<R>(
        board: &mut Board,
        net: bool,
        tt: &Tt,
        mut ord: MoveOrder,
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
        let threat = quiet_facing_three();
        assert!(probe(&threat, 2, 2 * params::RFP_MARGIN() + 1, false).0 > 1);
    }

    /// `QUIET` with an open three of White's on row 2 (Black still has no
    /// four to make).
    fn quiet_facing_three() -> String {
        let threat = QUIET.replacen(
            ". . . . . . . . . . . . . . .\n        . . . . . . . . . . . . . . .\n        . . . . . . X X",
            ". . O O O . . . . . . . . . .\n        . . . . . . . . . . . . . . .\n        . . . . . . X X",
            1,
        );
        assert_ne!(threat, QUIET);
        threat
    }

    /// `HORIZON_THREE` (on by default): a horizon node facing an open
    /// three is searched one ply; off, it stands on its static score like
    /// a quiet one (Black has no four to try).
    #[cfg(feature = "tune")]
    #[test]
    fn tunable_horizon_three() {
        let _turn = crate::brain::search::tunable::test_lock();
        assert_eq!(params::HORIZON_THREE(), 1);
        let threat = quiet_facing_three();
        let on = probe(&threat, 0, 0, false);
        params::set("HORIZON_THREE", 0.0).unwrap();
        let off = probe(&threat, 0, 0, false);
        params::set("HORIZON_THREE", 1.0).unwrap();
        assert!(on.0 > 1, "{on:?}");
        assert_eq!((off.0, off.1), (1, off.2), "{off:?}");
    }
    #[test]
    fn a_singular_test_leaves_its_move_out_and_stores_nothing() {
        let tt = Tt::new(1 << 16);
        with_tree(FOUR_THREE, &tt, |tree| {
            let win = tree.pos.board.pos(7, 7).unwrap();
            let key = tree.pos.board.hash();
            // With the four-three left out the side plays something else ...
            tree.stack[1].excluded = win;
            tree.pvs(2 * ONE_PLY, -INFINITE, INFINITE, 1);
            tree.stack[1].excluded = Pos::NONE;
            assert!(tree.stack[1].pv_len > 0 && tree.stack[1].pv[0] != win);
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
    /// The VCF quiescence (`Q_VCF`, off by default): past the four
    /// quiescence's count it still tries a plain four that continues the
    /// side's last four, not one far from it, and none past its guard; it
    /// finds the four-three and leaves its verdict in the table at depth 0.
    #[cfg(feature = "tune")]
    #[test]
    fn tunable_vcf_quiescence() {
        let _turn = crate::brain::search::tunable::test_lock();
        assert_eq!(params::Q_VCF(), 0);
        // Row 7 holds O X X _ (Black's stone at 6,7 comes as the last
        // move), or O X X X with Black's last stone far away at 12,2;
        // White answers at 12,12. Black to move, `fours` fours into a line.
        let plain = FOUR_THREE.replacen(
            ". . . . . . . X . . . . . . .",
            ". . . . . . . . . . . . . . .",
            2,
        );
        let without = plain.replacen("O X X X", "O X X .", 1);
        let run = |text: &str, last: (i64, i64), fours: u32| {
            with_tree(text, &Tt::new(1 << 16), |tree| {
                let at = |t: &Tree, (x, y)| t.pos.board.pos(x, y).unwrap();
                let (a, b) = (at(tree, last), at(tree, (12, 12)));
                tree.make(a);
                tree.make(b);
                tree.q_fours = fours;
                let ev = tree.pos.ev.evaluate(tree.pos.stm());
                let score = tree.pvs(0, ev, ev + 1, 3);
                (tree.nodes, score)
            })
        };
        let q = params::Q_FOURS();
        let on = |f: &dyn Fn()| {
            params::set("Q_VCF", 1.0).unwrap();
            f();
            params::set("Q_VCF", 0.0).unwrap();
        };
        // Off: past `Q_FOURS` no plain four, near or far.
        assert_eq!(run(&without, (6, 7), q).0, 1);
        assert_eq!(run(&plain, (12, 2), q).0, 1);
        on(&|| {
            assert!(run(&without, (6, 7), q).0 > 1);
            assert_eq!(run(&plain, (12, 2), q).0, 1);
            // The first four of a line may be anywhere.
            assert!(run(&plain, (12, 2), 0).0 > 1);
            assert_eq!(run(&without, (6, 7), params::Q_VCF_MAX_FOURS()).0, 1);
            // The four-three, and the table's record of it.
            let tt = Tt::new(1 << 16);
            let (score, key, want) = with_tree(FOUR_THREE, &tt, |tree| {
                let ev = tree.pos.ev.evaluate(tree.pos.stm());
                let score = tree.pvs(0, ev, ev + 1, 1);
                let want = tree.pos.board.pos(7, 7).unwrap();
                (score, tree.pos.board.hash(), want)
            });
            assert!(score >= MATE_BOUND, "{score}");
            let hit = tt.probe(key, 1).expect("stored");
            assert_eq!((hit.depth, hit.bound, hit.mv), (0, Bound::Lower, want));
            assert!(hit.score >= MATE_BOUND);
        });
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
    fn probe_played_with(depth: i32, prepare: impl FnOnce(&Board, &mut MoveOrder)) -> u64 {
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
        let mut ord = MoveOrder::default();
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
                (tree.nodes, score, defences.contains(&tree.stack[1].pv[0]))
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
