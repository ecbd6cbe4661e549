//! Position evaluation from line patterns, kept incrementally.
//!
//! For every empty playing cell and each colour the evaluator caches the four
//! line patterns a stone there would make (`game::pattern` tables), the
//! point's threat `Class` and its value. After a stone is placed or removed
//! only the cell itself and the cells within distance 5 on its four lines
//! (4 under freestyle, whose patterns never read the fifth cell: a test checks
//! every line key) can change, and only in the direction of that line:
//! `update` looks those up (at most 41 cells, one direction each) and
//! recomputes a cell's class and value only where a pattern changed. One table
//! load gives a line's codes for both colours (a byte each, turned into the
//! combination tables' nibble without a branch), applied as read. Running
//! totals of the values and per-class counters give the score and "does the
//! opponent threaten a five / an open four" in O(1). This is 6–8× faster than
//! recomputing (`pbrain-sente bench eval`); a randomized test checks it against
//! a full recomputation under every rule. The search's make pushes the cells
//! it changes on an undo stack and its unmake pops them back instead of
//! recomputing (a test checks push/pop against fresh evaluations).
//!
//! The score is the side to move's point values minus the opponent's, plus a
//! fitted value for the combination of threats the two sides hold:
//!
//! - A point's value is what a stone there would make for that side: a value
//!   per line shape plus a bonus per combined threat (its class), with
//!   separate tables for the side to move's points and the opponent's.
//! - *Pattern pairs*: each point adds a fitted value for every two of its four
//!   lines whose shapes are both between a blocked two and an open four (21
//!   values per side): a point with two open threes is not worth twice one, a
//!   four with an open three beside it more than the two.
//! - The *threat mask* (`threat_mask`): per side, whether it has a four-three
//!   (or double-four) point, a double-three point, any point that makes a
//!   four, two or more points that make an open three, and a point that makes
//!   two open twos, O(1) from the per-class counters. Point values add up;
//!   threats do not (a four-three point is worth little if the opponent can
//!   answer with fours of its own), and the mask says so. A mask's value is
//!   the sum of fitted values of the *bit pairs* it holds (each bit alone and
//!   each two bits together, 55 values, so rare masks get a value too), plus a
//!   tempo.
//!
//! Those corrections can be negative, and so can a point's value: the
//! combination tables pack each point's two values as signed 28-bit fields (a
//! test checks all 65,536 line combinations of both tables). On Linux these
//! tables ask for transparent huge pages (`crate::brain::hugepages`). The weights
//! (`eval::weights`) are linear, so `sente-lab tune` fits them to game
//! outcomes. Renju uses the same weights; Black's points are classified with a
//! combination table of their own, where a forbidden shape falls in the
//! `Forbidden` class, worth nothing.
//!
//! With `EvalKind::Net` (`--eval net`) the evaluator also keeps the learned
//! network's per-cell accumulators and pools (`net::accum`), and
//! `evaluate` returns the net's score; the classes and counters are the
//! same. `push` leaves the net behind (it logs the new state of each cell
//! it changed beside the undo entry), `evaluate` brings it up to date frame
//! by frame and `pop` takes back only the frames it had applied, so a move
//! whose subtree is never scored costs the net nothing; `update` and the
//! build change it as they go (`set_codes`, a filled cell in `refresh`).
//! Classic evaluators carry no net state: the update code is compiled once
//! per kind (`NET` 0, or the net's kernel and form, `net::kernel::code`).

pub mod net;
pub mod weights;

use std::sync::Arc;

use crate::brain::game::board::{Board, Pos, EMPTY};
use crate::brain::game::pattern::{code_pattern, table, Pattern, PatternTable, DOUBLE_FOUR_CODE};
use crate::brain::hugepages::HugeTable;
use crate::brain::types::{Color, Rule, Score};

use net::accum::{Moves, NetState};
use net::{Form, QuantNet};
use weights::{classify, point_values, Class, CLASSES, EVAL_LIMIT};

/// Which evaluation `Evaluator::evaluate` gives: the classical pattern
/// score, the learned net (`net`), or, by default, the one its rule plays
/// with (`EvalKind::for_rule`). Threat classes and counters, which move
/// generation, pruning and the threat solver read, are the same under all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The rule's own evaluation (`for_rule`), resolved when a board's rule
    /// is known (`resolve`): what `pbrain-sente` plays with by default.
    #[default]
    Auto,
    Classic,
    Net,
}

impl EvalKind {
    /// `auto`, `classic` or `net`.
    pub fn parse(s: &str) -> Option<EvalKind> {
        match s {
            "auto" => Some(EvalKind::Auto),
            "classic" => Some(EvalKind::Classic),
            "net" => Some(EvalKind::Net),
            _ => None,
        }
    }

    /// The value of an `--eval` option (every command line that takes one
    /// says the same when it is missing or wrong).
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Auto => "auto",
            EvalKind::Classic => "classic",
            EvalKind::Net => "net",
        }
    }

    /// The evaluation a rule plays with by default: the net, which passed
    /// its tests against the classical evaluation under every rule
    /// (scripts/RESULTS.md): an SPRT [0, 10] in self-play at 200 ms and the
    /// match against Rapfi-classical at 500 ms in freestyle on any board
    /// (15×15 and 20×20 were tested), standard (against Rapfi level with
    /// classical over 200 games each, no worse) and renju; caro's own net
    /// by the SPRT alone (Rapfi does not play caro). The match names every
    /// rule, so a new rule needs a decision.
    pub fn for_rule(rule: Rule) -> EvalKind {
        match rule {
            Rule::Freestyle | Rule::Standard | Rule::Renju | Rule::Caro => EvalKind::Net,
        }
    }

    /// `Classic` or `Net`: `Auto` resolved under `rule`, the others as they are.
    pub fn resolve(self, rule: Rule) -> EvalKind {
        match self {
            EvalKind::Auto => EvalKind::for_rule(rule),
            k => k,
        }
    }

    /// Whether a search under `rule` evaluates with a net (`resolve` gives
    /// `Net`); false means the classical evaluation.
    pub fn uses_net(self, rule: Rule) -> bool {
        self.resolve(rule) == EvalKind::Net
    }
}

/// Class and values of every combination of four line nibbles, one table
/// for ordinary colours and one for renju Black: `opp_value << 36 |
/// own_value << 8 | class` (the values as the side to move and not, each
/// 28 bits of two's complement: pattern pairs can make a point's value
/// negative; `pack` and `unpack`).
struct Combos {
    t: [HugeTable<u64>; 2],
}

fn combos() -> &'static Combos {
    static C: std::sync::OnceLock<Combos> = std::sync::OnceLock::new();
    C.get_or_init(|| {
        let build = |renju_black: bool| {
            let mut t = HugeTable::zeroed(1 << 16);
            for (code, slot) in t.iter_mut().enumerate() {
                *slot = {
                    let nib = |d: usize| ((code >> (4 * d)) & 15) as u16;
                    let pats = [0, 1, 2, 3].map(|d| code_pattern(nib(d)));
                    let dfs = [0, 1, 2, 3].map(|d| nib(d) == DOUBLE_FOUR_CODE);
                    let class = classify(pats, dfs, renju_black);
                    let (own, opp) = point_values(pats, class);
                    pack(class, own, opp)
                };
            }
            t
        };
        Combos {
            t: [build(false), build(true)],
        }
    })
}

/// Largest magnitude a packed point value can have.
const PACK_LIMIT: i32 = 1 << 27;

/// A class and two signed point values (each within `PACK_LIMIT`) in one
/// word.
fn pack(class: Class, own: i32, opp: i32) -> u64 {
    debug_assert!(own.abs() < PACK_LIMIT && opp.abs() < PACK_LIMIT);
    ((opp as i64 as u64) << 36) | (((own as i64 as u64) & 0x0fff_ffff) << 8) | class as u64
}

/// The class index and the two values `pack` stored (sign-extended).
#[inline]
fn unpack(cv: u64) -> (usize, i32, i32) {
    (
        (cv & 255) as usize,
        (((cv << 28) as i64) >> 36) as i32,
        ((cv as i64) >> 36) as i32,
    )
}

/// What the evaluator keeps per cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CellEval {
    /// Four line nibbles per colour (direction d in bits 4d..4d+4).
    code: [u16; 2],
    class: [Class; 2],
    /// The point's value to each colour when that colour is to move, and
    /// when it is not.
    val: [i32; 2],
    oval: [i32; 2],
    /// Is this an empty playing cell whose value is in the totals?
    live: bool,
}

/// Incremental pattern evaluation of one board (see the module doc).
#[derive(Clone)]
pub struct Evaluator {
    table: &'static PatternTable,
    /// Combination tables per colour (renju Black has its own).
    combo: [&'static [u64]; 2],
    dirs: [isize; 4],
    /// How far along a line a stone can change another cell's pattern: 5,
    /// or 4 under freestyle, whose table ignores the cells at distance 5
    /// (a run through the cell wins at five or more; test
    /// `freestyle_patterns_ignore_the_outer_cells`).
    reach: isize,
    cells: Vec<CellEval>,
    /// Sums of `val` and of `oval` per colour.
    total: [i32; 2],
    ototal: [i32; 2],
    counts: [[u16; CLASSES]; 2],
    /// Undo log of `push`: the cells it changed, as they were before.
    undo: Vec<(u32, CellEval)>,
    /// Per `push`: the undo log's length and the totals before it.
    frames: Vec<Frame>,
    /// The net's state, only with `EvalKind::Net` (Classic pays nothing
    /// for it: the updates are compiled twice, `NET` true and false).
    net: Option<Box<NetState>>,
}

/// What `pop` restores besides the cells.
#[derive(Clone)]
struct Frame {
    undo_len: usize,
    total: [i32; 2],
    ototal: [i32; 2],
    counts: [[u16; CLASSES]; 2],
}

impl Evaluator {
    /// Evaluate `board` from scratch (classical evaluation).
    pub fn new(board: &Board) -> Evaluator {
        Evaluator::build(board, None)
    }

    /// Evaluate `board` from scratch with `kind` (the net: the embedded
    /// one of the board's rule, `net::embedded_net_for`; a search's
    /// evaluator is built from the net its engine holds, `with_net`).
    pub fn with_kind(board: &Board, kind: EvalKind) -> Evaluator {
        let rule = board.rules().rule;
        if kind.uses_net(rule) {
            Evaluator::with_net(board, net::embedded_net_for(rule))
        } else {
            Evaluator::new(board)
        }
    }

    /// Evaluate `board` from scratch with the net `q`.
    pub fn with_net(board: &Board, q: Arc<QuantNet>) -> Evaluator {
        Evaluator::build(board, Some(q))
    }

    /// Evaluate `board` from scratch with the net `net`, or classically
    /// (`None`).
    pub fn with_optional_net(board: &Board, net: Option<Arc<QuantNet>>) -> Evaluator {
        Evaluator::build(board, net)
    }

    /// Which evaluation `evaluate` gives.
    pub fn kind(&self) -> EvalKind {
        match self.net {
            None => EvalKind::Classic,
            Some(_) => EvalKind::Net,
        }
    }

    /// The net it evaluates with (None: the classical evaluation).
    pub fn net(&self) -> Option<&Arc<QuantNet>> {
        self.net.as_ref().map(|n| n.net())
    }

    fn build(board: &Board, net: Option<Arc<QuantNet>>) -> Evaluator {
        let rule = board.rules().rule;
        let n = board.stride() * (board.height() + 2 * crate::brain::game::board::PAD);
        let net = net.map(|q| Box::new(NetState::new(q, n)));
        let c = combos();
        let black = if rule == Rule::Renju {
            &c.t[1]
        } else {
            &c.t[0]
        };
        let mut ev = Evaluator {
            table: table(rule),
            combo: [black, &c.t[0]],
            dirs: board.dirs(),
            reach: if rule == Rule::Freestyle { 4 } else { 5 },
            cells: vec![CellEval::default(); n],
            total: [0; 2],
            ototal: [0; 2],
            counts: [[0; CLASSES]; 2],
            undo: Vec::new(),
            frames: Vec::new(),
            net,
        };
        match ev.net.as_ref().map(|n| (n.kernel(), n.form())) {
            None => ev.refresh_all::<0>(board),
            Some((kernel, form)) => net::by_code!(kernel, form,
                C => ev.refresh_all::<C>(board),
                // SAFETY: a net's kernel is one this CPU has
                // (`QuantNet::with_kernel`).
                avx2 C => unsafe { ev.refresh_all_avx2::<C>(board) }),
        }
        ev
    }

    /// Refresh every cell of `board` (`NET` as in `refresh_around`): the
    /// classical work first, then the net's.
    #[inline(always)]
    fn refresh_all<const NET: u8>(&mut self, board: &Board) {
        for &p in board.cells() {
            self.refresh::<0>(board, p);
        }
        // Then the net: every counted cell joins its pools.
        if NET != 0 {
            if let Some(n) = &mut self.net {
                for (i, c) in self.cells.iter().enumerate().filter(|(_, c)| c.live) {
                    n.set_cell::<NET>(i, None, (c.code, c.class));
                }
            }
        }
        self.flush::<NET>();
    }

    /// `refresh_all` with the AVX2 kernel (`NET`: `AVX2`, with `JOINT`
    /// or not), in a function that enables AVX2.
    ///
    /// SAFETY: the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn refresh_all_avx2<const NET: u8>(&mut self, board: &Board) {
        self.refresh_all::<NET>(board);
    }

    /// Bring the cache up to date after a stone was placed on or removed
    /// from `p` (the board already shows the change).
    #[inline]
    pub fn update(&mut self, board: &Board, p: Pos) {
        if let Some(n) = &self.net {
            // The net changes as the cells do: bring it up to date first.
            n.sync(self.moves());
            self.refresh_around_net(board, p);
        } else {
            self.refresh_around::<0>(board, p, false);
        }
    }

    /// `refresh_around` with the net, out of line so that the classical
    /// `update` and `push` keep the code they had without it: compiled
    /// once per kernel, AVX2's in a function that enables AVX2 (so the
    /// per-cell kernels inline into the update).
    #[inline(never)]
    fn refresh_around_net(&mut self, board: &Board, p: Pos) {
        let n = self.net.as_ref().expect("a net");
        net::by_code!(n.kernel(), n.form(),
            C => self.refresh_around::<C>(board, p, false),
            // SAFETY: a net's kernel is one this CPU has
            // (`QuantNet::with_kernel`).
            avx2 C => unsafe { self.refresh_around_avx2::<C>(board, p) })
    }

    /// `refresh_around` with the AVX2 kernel (`NET`: `AVX2`, with `JOINT`
    /// or not), in a function that enables AVX2.
    ///
    /// SAFETY: the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn refresh_around_avx2<const NET: u8>(&mut self, board: &Board, p: Pos) {
        self.refresh_around::<NET>(board, p, false);
    }

    /// With the net, add what the cells changed to its pools (the end of
    /// every update).
    #[inline(always)]
    fn flush<const NET: u8>(&mut self) {
        if NET != 0 {
            if let Some(n) = &mut self.net {
                n.flush::<NET>();
            }
        }
    }

    /// `update` for a stone just placed on `p`, remembering the cells it
    /// changes so that `pop` can put them back without recomputing them
    /// (the search's make/unmake: half the evaluation work). Out of line:
    /// inlined into the search's make it runs more instructions.
    #[inline(never)]
    pub fn push(&mut self, board: &Board, p: Pos) {
        self.frames.push(Frame {
            undo_len: self.undo.len(),
            total: self.total,
            ototal: self.ototal,
            counts: self.counts,
        });
        // With a net too: the net follows when a score is asked for
        // (`NetState::sync`), from the undo entries.
        self.refresh_around::<0>(board, p, true);
    }

    /// What the net reads to catch up with the moves (`NetState::sync`).
    #[inline(always)]
    fn moves(&self) -> Moves<'_> {
        Moves {
            undo: &self.undo,
            frames: &self.frames,
            cells: &self.cells,
        }
    }

    /// Log cell `i` on the undo stack as it is now.
    #[inline(always)]
    fn save(&mut self, i: usize) {
        self.undo.push((i as u32, self.cells[i]));
    }

    /// Refresh `p` and the empty cells within `reach` of it on its four
    /// lines (each in that line's direction only); with `save`, log each
    /// cell on the undo stack before it changes. `NET`: 0 without a net,
    /// else the net's kernel and form (`net::kernel::code`: `net::SCALAR`, `SSE2`,
    /// `AVX2`, plus `net::JOINT` in the joint form; the per-cell work
    /// inlines here, and the net's pools are flushed at the end).
    #[inline(always)]
    fn refresh_around<const NET: u8>(&mut self, board: &Board, p: Pos, save: bool) {
        if save {
            self.save(p.idx());
        }
        self.refresh::<NET>(board, p);
        for d in 0..4 {
            let off = self.dirs[d];
            for k in 1..=self.reach {
                for q in [p.offset(k * off), p.offset(-k * off)] {
                    if board.cell(q) == EMPTY {
                        self.refresh_line::<NET>(board, q, d, save);
                    }
                }
            }
        }
        self.flush::<NET>();
    }

    /// Refresh direction `d` of the empty cell `q`, and its class and value
    /// only if that line's code changed for either colour (most cells a
    /// stone sees from afar keep theirs); `save` as in `refresh_around`.
    /// Both colours' codes come from one table load and are applied as
    /// read (`set_codes`), not looked up again.
    #[inline(always)]
    fn refresh_line<const NET: u8>(&mut self, board: &Board, q: Pos, d: usize, save: bool) {
        let new = self.table.codes(board.line_key(q, d));
        let shift = 4 * d;
        let c = &self.cells[q.idx()];
        if !c.live {
            // Not in the totals yet (cannot happen to a cell a stone sees
            // from afar, but a full refresh is always right).
            if save {
                self.save(q.idx());
            }
            self.refresh::<NET>(board, q);
            return;
        }
        if (c.code[0] >> shift) & 15 == new[0] && (c.code[1] >> shift) & 15 == new[1] {
            return;
        }
        let mut code = c.code;
        if save {
            self.save(q.idx());
        }
        for (k, n) in new.into_iter().enumerate() {
            code[k] = (code[k] & !(15 << shift)) | (n << shift);
        }
        self.set_codes::<NET>(q, code);
    }

    /// Undo the last `push` (the board has taken its stone back). Returns
    /// false, changing nothing, when there is no `push` to undo.
    #[inline]
    pub fn pop(&mut self) -> bool {
        let Some(f) = self.frames.pop() else {
            return false;
        };
        if let Some(n) = &mut self.net {
            n.pop(self.frames.len(), f.undo_len, &self.undo);
        }
        for &(i, c) in self.undo[f.undo_len..].iter().rev() {
            self.cells[i as usize] = c;
        }
        self.undo.truncate(f.undo_len);
        self.total = f.total;
        self.ototal = f.ototal;
        self.counts = f.counts;
        true
    }

    /// Recompute all four line codes of cell `p`, then its class and value
    /// (an occupied cell leaves the totals).
    #[inline]
    fn refresh<const NET: u8>(&mut self, board: &Board, p: Pos) {
        if board.cell(p) != EMPTY {
            let c = self.cells[p.idx()];
            if c.live {
                self.remove_from_totals(&c);
                if NET != 0 {
                    if let Some(n) = &mut self.net {
                        n.remove_cell::<NET>(p.idx());
                    }
                }
            }
            self.cells[p.idx()] = CellEval::default();
            return;
        }
        let mut code = [0u16; 2];
        for d in 0..4 {
            let [b, w] = self.table.codes(board.line_key(p, d));
            code[0] |= b << (4 * d);
            code[1] |= w << (4 * d);
        }
        self.set_codes::<NET>(p, code);
    }

    /// Take a live cell's values and classes out of the totals.
    #[inline(always)]
    fn remove_from_totals(&mut self, c: &CellEval) {
        for col in 0..2 {
            self.total[col] -= c.val[col];
            self.ototal[col] -= c.oval[col];
            self.counts[col][c.class[col] as usize] -= 1;
        }
    }

    /// Give the empty cell `p` these line codes (both colours), its class
    /// and values from the combination tables, and count it in the totals
    /// in place of what it held.
    #[inline(always)]
    fn set_codes<const NET: u8>(&mut self, p: Pos, code: [u16; 2]) {
        let old = self.cells[p.idx()];
        if old.live {
            self.remove_from_totals(&old);
        }
        let mut c = CellEval {
            code,
            live: true,
            ..CellEval::default()
        };
        for (ci, &cc) in code.iter().enumerate() {
            let (k, val, oval) = unpack(self.combo[ci][cc as usize]);
            c.class[ci] = Class::ALL[k];
            c.val[ci] = val;
            c.oval[ci] = oval;
            self.total[ci] += val;
            self.ototal[ci] += oval;
            self.counts[ci][k] += 1;
        }
        self.cells[p.idx()] = c;
        if NET != 0 {
            if let Some(n) = &mut self.net {
                let was = old.live.then_some((old.code, old.class));
                n.set_cell::<NET>(p.idx(), was, (code, c.class));
            }
        }
    }

    /// The threat class a stone of `color` on the empty cell `p` makes.
    #[inline]
    pub fn class(&self, p: Pos, color: Color) -> Class {
        self.cells[p.idx()].class[color.index()]
    }

    /// The pattern a stone of `color` on `p` makes in direction `d`.
    #[inline]
    pub fn pattern(&self, p: Pos, color: Color, d: usize) -> Pattern {
        code_pattern((self.cells[p.idx()].code[color.index()] >> (4 * d)) & 15)
    }

    /// The evaluation value of the empty cell `p` for `color` when `color`
    /// is to move.
    #[inline]
    pub fn value(&self, p: Pos, color: Color) -> i32 {
        self.cells[p.idx()].val[color.index()]
    }

    /// How many empty cells have exactly this class for `color`.
    #[inline]
    pub fn count(&self, color: Color, class: Class) -> u32 {
        self.counts[color.index()][class as usize] as u32
    }

    /// Each empty point's class and four line patterns for `color` (line
    /// d is direction d): what the point values are made of, for the
    /// offline fitter (`crate::lab::tune`), which counts them as features.
    pub fn point_patterns(&self, color: Color) -> impl Iterator<Item = (Class, [Pattern; 4])> + '_ {
        let ci = color.index();
        self.cells.iter().filter(|c| c.live).map(move |c| {
            let pats = [0, 1, 2, 3].map(|d| code_pattern((c.code[ci] >> (4 * d)) & 15));
            (c.class[ci], pats)
        })
    }

    /// Cells where `color` makes a five.
    #[inline]
    pub fn fives(&self, color: Color) -> u32 {
        self.count(color, Class::Five)
    }

    /// Cells where `color` makes an open four (and no five).
    #[inline]
    pub fn open_fours(&self, color: Color) -> u32 {
        self.count(color, Class::Flex4)
    }

    /// Cells where `color` makes any four (or more: double four, four-three).
    #[inline]
    pub fn fours(&self, color: Color) -> u32 {
        self.fours_from(color, Class::Block4)
    }

    /// Cells where `color` makes a four of class `least` or stronger (up to
    /// an open four; fives not counted).
    #[inline]
    pub fn fours_from(&self, color: Color, least: Class) -> u32 {
        let c = &self.counts[color.index()];
        (least as usize..=Class::Flex4 as usize)
            .map(|i| c[i] as u32)
            .sum()
    }

    /// Sum of the point values of `color` (as the side to move).
    #[inline]
    pub fn total(&self, color: Color) -> i32 {
        self.total[color.index()]
    }

    /// Static score for `stm`, the side to move: the net's under
    /// `EvalKind::Net` (which first applies the moves pushed since the last
    /// score, `NetState::sync`), else the classical one.
    #[inline]
    pub fn evaluate(&self, stm: Color) -> Score {
        match &self.net {
            None => self.classic(stm),
            Some(n) => n.score(stm, self.moves(), self.net_tempo(n, stm)),
        }
    }

    /// The net's logit of `stm`'s win probability (None under Classic).
    pub fn net_logit(&self, stm: Color) -> Option<f32> {
        self.net
            .as_ref()
            .map(|n| n.logit(stm, self.moves(), self.net_tempo(n, stm)))
    }

    /// The tempo index the net `n` reads for `stm` (`net::tempo_index`;
    /// the `Lines` form reads none: 0).
    #[inline(always)]
    fn net_tempo(&self, n: &NetState, stm: Color) -> usize {
        match n.form() {
            Form::Lines => 0,
            Form::Joint => net::tempo_index(self, stm),
        }
    }

    /// The classical static score for `stm`, whichever `kind`.
    #[inline]
    pub fn classic(&self, stm: Color) -> Score {
        let own = self.total[stm.index()];
        let opp = self.ototal[stm.opposite().index()];
        (own - opp + weights::THREAT_MASK_VALUE[threat_mask(self, stm)])
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Does this cache equal a from-scratch evaluation of `board`?
    pub fn same_as(&self, other: &Evaluator) -> bool {
        self.total == other.total
            && self.ototal == other.ototal
            && self.counts == other.counts
            && self.cells == other.cells
            && match (&self.net, &other.net) {
                (Some(a), Some(b)) => {
                    a.same_as(self.moves(), b, other.moves(), |i| self.cells[i].live)
                }
                (None, None) => true,
                _ => false,
            }
    }
}

/// Which threats each side holds, `MASK_BITS` bits per side (the side to
/// move's low): bit 0 a four-three or double-four point, bit 1 a
/// double-three point, bit 2 any point that makes a four, bit 3 two or more
/// points that make an open three, bit 4 a point that makes two open twos.
/// The counters make this O(1).
#[inline]
pub fn threat_mask(ev: &Evaluator, stm: Color) -> usize {
    let mut m = 0;
    for (i, c) in [stm, stm.opposite()].into_iter().enumerate() {
        let n = |k: Class| ev.count(c, k);
        let b0 = n(Class::FourThree) + n(Class::DoubleFour) > 0;
        let b1 = n(Class::DoubleThree) > 0;
        let b2 = n(Class::Block4) > 0 || b0;
        let b3 = n(Class::Flex3) >= 2;
        let b4 = n(Class::DoubleTwo) > 0;
        let bits = b0 as usize
            | (b1 as usize) << 1
            | (b2 as usize) << 2
            | (b3 as usize) << 3
            | (b4 as usize) << 4;
        m |= bits << (weights::MASK_BITS * i);
    }
    m
}

/// One step of a random push/pop walk for the tests: take back the last
/// stone (`pop`) or play a random empty cell, on the board and `ev` alike,
/// keeping `depth` (stones played by the walk).
#[cfg(test)]
pub(crate) fn walk_step(
    rng: &mut crate::brain::game::zobrist::SplitMix64,
    b: &mut Board,
    ev: &mut Evaluator,
    depth: &mut usize,
    pop: bool,
) {
    if pop {
        b.unmake().unwrap();
        assert!(ev.pop());
        *depth -= 1;
    } else {
        let p = crate::brain::game::testutil::random_empty(rng, b).unwrap();
        b.play(p);
        ev.push(b, p);
        *depth += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::testutil::random_empty;
    use crate::brain::game::zobrist::SplitMix64;
    use crate::brain::types::RuleSet;

    #[test]
    fn threat_mask_sees_each_sides_threats() {
        // Black (X) to move has a four-three point (column 6 four blocked
        // below, row 7 open three); White's stones are scattered.
        let text = "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . X . . . . . . . .
            . . . . . . X . . . . . . . .
            . . . . . . X . . . . . . . .
            . . . . X X . . . . O . . . .
            . . . . . . O . . . . . . . .
            . . . . . . . . . . . O . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . O . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . O . .";
        let b = Board::from_ascii(text, RuleSet::FREESTYLE).unwrap();
        let ev = Evaluator::new(&b);
        let stm = b.to_move();
        assert_eq!(stm, Color::Black);
        let m = threat_mask(&ev, stm);
        let side = (1 << weights::MASK_BITS) - 1;
        let (own, theirs) = (m & side, m >> weights::MASK_BITS);
        assert_eq!(own & 0b101, 0b101, "four-three and four points: {m:#x}");
        assert_eq!(
            theirs & 0b111,
            0,
            "White has no four or double three: {m:#x}"
        );
        // Seen from White's side the same bits swap halves.
        let w = threat_mask(&ev, Color::White);
        assert_eq!(w >> weights::MASK_BITS, own);
        assert_eq!(w & side, theirs);
        // The score includes the mask's value.
        let plain = ev.total[stm.index()] - ev.ototal[stm.opposite().index()];
        assert_eq!(
            ev.evaluate(stm),
            (plain + weights::THREAT_MASK_VALUE[m]).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        );
    }

    fn random_walk(rules: RuleSet, size: usize, seed: u64, moves: usize, checks: &mut usize) {
        let mut rng = SplitMix64::new(seed);
        let mut b = Board::square(size, rules).unwrap();
        let mut ev = Evaluator::new(&b);
        for _ in 0..moves {
            if b.is_full() {
                break;
            }
            // Mostly make, sometimes take back, sometimes a neutral stone.
            let r = rng.below(10);
            if r < 2 && b.move_count() > 0 {
                let m = b.unmake().unwrap();
                ev.update(&b, m.pos);
            } else {
                let p = random_empty(&mut rng, &b).unwrap();
                if r == 9 && rules.continuous {
                    b.make_neutral(p);
                } else {
                    b.play(p);
                }
                ev.update(&b, p);
            }
            let fresh = Evaluator::new(&b);
            assert!(ev.same_as(&fresh), "incremental != scratch\n{b}");
            for color in [Color::Black, Color::White] {
                assert_eq!(ev.evaluate(color), fresh.evaluate(color));
            }
            *checks += 1;
        }
    }

    #[test]
    fn incremental_equals_scratch_under_every_rule() {
        let mut checks = 0;
        for (i, rule) in Rule::ALL.into_iter().enumerate() {
            for continuous in [false, true] {
                let rules = RuleSet { rule, continuous };
                for (j, size) in [7usize, 15, 20].into_iter().enumerate() {
                    random_walk(rules, size, (i * 10 + j) as u64 + 77, 120, &mut checks);
                }
            }
        }
        assert!(checks > 2000);
    }

    #[test]
    fn push_and_pop_match_a_fresh_evaluation() {
        let mut rng = SplitMix64::new(4242);
        let mut checks = 0;
        for rule in Rule::ALL {
            let rules = RuleSet::from(rule);
            let mut b = Board::square(15, rules).unwrap();
            let mut ev = Evaluator::new(&b);
            let mut depth = 0;
            for _ in 0..400 {
                let pop = depth > 0 && (rng.below(3) == 0 || b.empty_cells().count() < 10);
                walk_step(&mut rng, &mut b, &mut ev, &mut depth, pop);
                assert!(ev.same_as(&Evaluator::new(&b)), "push/pop != scratch\n{b}");
                checks += 1;
            }
            while depth > 0 {
                b.unmake().unwrap();
                assert!(ev.pop());
                depth -= 1;
            }
            assert!(!ev.pop(), "nothing left to undo");
            assert!(ev.same_as(&Evaluator::new(&b)));
        }
        assert!(checks >= 1600);
    }

    #[test]
    fn counters_see_threats() {
        let b = Board::from_ascii(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X X X X . . .
            . . . . . . . . .
            . . O O O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            RuleSet::FREESTYLE,
        )
        .unwrap();
        let ev = Evaluator::new(&b);
        assert_eq!(ev.fives(Color::Black), 2);
        assert_eq!(ev.fives(Color::White), 0);
        assert_eq!(ev.open_fours(Color::White), 2);
        let p = b.pos(1, 2).unwrap();
        assert_eq!(ev.class(p, Color::Black), Class::Five);
        assert!(ev.evaluate(Color::Black) > 0);
        // How the two sides' scores compare here is not asserted: with a
        // five on the board the position is never scored statically (the
        // search sees the five first), and the fitted weights have no say
        // about such positions.
    }

    /// Every entry of both combination tables unpacks to the class and
    /// the signed values `point_values` gives for its four lines.
    #[test]
    fn combination_tables_keep_class_and_signed_values() {
        let c = combos();
        for (t, renju_black) in [(&c.t[0], false), (&c.t[1], true)] {
            for code in 0..1usize << 16 {
                let nib = |d: usize| ((code >> (4 * d)) & 15) as u16;
                let pats = [0, 1, 2, 3].map(|d| code_pattern(nib(d)));
                let dfs = [0, 1, 2, 3].map(|d| nib(d) == DOUBLE_FOUR_CODE);
                let class = classify(pats, dfs, renju_black);
                let (own, opp) = point_values(pats, class);
                assert_eq!(
                    unpack(t[code]),
                    (class as usize, own, opp),
                    "code {code:#x}"
                );
            }
        }
        // Negative values survive the packing.
        for (own, opp) in [
            (-1, 0),
            (0, -1),
            (-5000, 7),
            (123, -PACK_LIMIT + 1),
            (PACK_LIMIT - 1, -3),
        ] {
            assert_eq!(
                unpack(pack(Class::Flex3, own, opp)),
                (Class::Flex3 as usize, own, opp)
            );
        }
    }

    /// The table's codes, both colours at once, are each colour's code,
    /// whose pattern `get` gives, `DOUBLE_FOUR_CODE` exactly for a line
    /// with two separate fours: for every key, colour and rule.
    #[test]
    fn line_codes_match_pattern_and_double_four() {
        let mut double_fours = 0;
        for rule in Rule::ALL {
            let t = table(rule);
            for key in 0..crate::brain::game::pattern::KEYS as u32 {
                let both = t.codes(key);
                for color in [Color::Black, Color::White] {
                    let code = both[color.index()];
                    assert_eq!(code, t.code(key, color), "{rule:?} {key:#x}");
                    assert!(code <= DOUBLE_FOUR_CODE, "{rule:?} {key:#x}");
                    assert_eq!(code_pattern(code), t.get(key, color));
                    assert_eq!(code == DOUBLE_FOUR_CODE, t.double_four(key, color));
                    if code == DOUBLE_FOUR_CODE {
                        double_fours += 1;
                        assert_eq!(t.get(key, color), Pattern::Flex4);
                    }
                }
            }
        }
        assert!(double_fours > 0);
    }

    #[test]
    fn renju_overline_point_is_forbidden_class() {
        let (b, p) = crate::brain::game::testutil::renju_overline();
        let ev = Evaluator::new(&b);
        assert_eq!(ev.class(p, Color::Black), Class::Forbidden);
        assert_eq!(ev.value(p, Color::Black), 0);
    }
}
