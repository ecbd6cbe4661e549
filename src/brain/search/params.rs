//! Search parameters: every tunable of search, time manager, threat
//! budgets, SWAP2 and pondering; an SPRT candidate touches this file only.
//!
//! Each value is named where it is used (`params::NAME()`; `tunables!`,
//! in `search::tunable`, makes it a constant function in the release
//! build and a value `set` changes at run time in a tuning build, for the
//! SPSA tuner) and keeps the
//! exact arithmetic it had inline: integer divisors stay divisors, so
//! `x / DIV` here is the same `x / 2` it was. Changing a number changes
//! the bench signature; record the new one in the commit.
//!
//! Not here: evaluation weights (`crate::brain::eval::weights`), memory sizing
//! (`DEFAULT_MEMORY` and the table's share, in `search::tt`), sizes that
//! are layout rather than tuning (`MAX_PLY`, table bits, `MAX_THREADS`, and
//! `MAX_DEPTH` in `search::deepening`, the deepest iteration, which leaves
//! `MAX_PLY` room for extensions), `HASH_BONUS` in `search::ordering` (not a
//! value but a rank: above every other ordering score) and `UNLIMITED_LEFT`
//! in `search::time` (the protocol's "untimed" `time_left`, which the
//! session reads too).

use std::time::Duration;

use super::tunable::tunables;
use crate::brain::types::{Depth, Score};

tunables! {
    // Aspiration windows (root iterations).

    /// Half-width of the first aspiration window around the previous score.
    ASPIRATION: Score = 60;
    /// Window half-width past which a failing iteration is searched open.
    ASPIRATION_OPEN: Score = 4_000;
    /// First iteration depth searched with an aspiration window.
    ASPIRATION_MIN_DEPTH: i32 = 4;
    /// A failed window grows by `delta / ASPIRATION_GROWTH_DIVISOR` (1.5×).
    ASPIRATION_GROWTH_DIVISOR: Score = 2;

    // Root late-move reductions.

    /// Root moves searched at full depth before late quiet ones are reduced.
    ROOT_LMR_FULL_MOVES: usize = 4;
    /// First iteration depth at which late quiet root moves are reduced.
    ROOT_LMR_MIN_DEPTH: i32 = 4;

    // Tree late-move reductions: `LMR_BASE + ln(depth) * ln(i + 1) / LMR_DIVISOR`.
    // LMR_BASE, LMR_DIVISOR, LMP_BASE, RFP_MARGIN_NET and Q_DELTA_NET are SPSA
    // run s7's point (scripts/spsa-runs/s7.txt; tuned against Rapfi at a node count).

    /// Moves searched at full depth before reductions start (tree nodes).
    LMR_FULL_MOVES: usize = 3;
    /// Least remaining depth at which late quiet moves are reduced.
    LMR_MIN_DEPTH: i32 = 3;
    /// Constant term of the reduction formula (truncated to plies after the sum).
    LMR_BASE: f32 = 0.362;
    /// Divisor of `ln(depth) * ln(i + 1)` in the reduction formula.
    LMR_DIVISOR: f32 = 2.1413;
    /// Extra reduction at a non-PV node, in depth units (16: one ply).
    LMR_NON_PV_EXTRA: Depth = 16;

    // The selectivity package (issue 43), in depth units (`ONE_PLY` = 16 a
    // ply): how finely reductions are sized, which moves past the first few
    // are reduced, how much a raised alpha takes off, and how far each
    // extension goes. The defaults are the search as it was before them
    // (whole-ply reductions of late quiet moves only, one-ply extensions);
    // SPSA tunes them together.

    /// Reductions are rounded down to a multiple of this many units (16:
    /// whole plies; 1: the formula's own fraction).
    LMR_GRAIN: Depth = 16;
    /// A late tactical move (a four, a three, a block of either) is reduced by
    /// this many sixteenths of a late quiet move's reduction (0: never).
    LMR_TACTICAL_SCALE: i32 = 0;
    /// A late answer in a node that must answer a threat (a four or an open
    /// three of the opponent's) is reduced by this many sixteenths (0: never).
    LMR_FORCED_SCALE: i32 = 0;
    /// Once a move raises alpha without a cutoff (PV nodes), the node's later
    /// moves are searched this many units shallower (never below one ply).
    ALPHA_RAISE_REDUCTION: Depth = 0;
    /// A singular hash move is searched this much deeper.
    SE_EXTENSION: Depth = 16;
    /// A forced node's single reply is searched this much deeper (16: it costs
    /// no depth).
    FORCED_EXTENSION: Depth = 16;

    // Late-move pruning: at most `LMP_BASE + d * d / LMP_DEPTH_DIVISOR` quiet moves.

    /// Quiet moves always tried at any depth.
    LMP_BASE: usize = 3;
    /// Divisor of depth² in the quiet-move count.
    LMP_DEPTH_DIVISOR: usize = 2;
    /// PV nodes try this many times as many quiet moves.
    LMP_PV_FACTOR: usize = 2;
    /// 1: the count limit applies to every move of an unforced node, the
    /// tactical ones (double threes and stronger) too, not only to quiet
    /// ones; 0: quiet moves only (the search before it).
    LMP_ALL: i32 = 0;

    // Reverse futility pruning.

    /// Deepest remaining depth at which a node may fail high on its static score.
    RFP_MAX_DEPTH: i32 = 4;
    /// Margin over beta per remaining ply for that fail high.
    RFP_MARGIN: Score = 120;
    /// The same margin when the net evaluates (issue 44: the net's static
    /// score is closer to the search's, so it may want a narrower margin).
    RFP_MARGIN_NET: Score = 112;

    // Futility pruning of moves (issue 43): in a non-PV node within
    // `FUTILITY_MAX_DEPTH` plies of the horizon, with alpha no mate score,
    // a late quiet move (not a killer, after a move was searched) is not
    // searched when the node's static score plus `FUTILITY_BASE` plus
    // `FUTILITY_MARGIN` a remaining ply is still at most alpha.

    /// Deepest remaining depth (plies) pruned so; 0: off (the search before it).
    FUTILITY_MAX_DEPTH: i32 = 0;
    /// The margin's constant part.
    FUTILITY_BASE: Score = 100;
    /// The margin per remaining ply.
    FUTILITY_MARGIN: Score = 120;

    // Razoring (issue 43): a non-PV node within `RAZOR_MAX_DEPTH` plies of
    // the horizon whose static score is `RAZOR_MARGIN` a remaining ply or
    // more below alpha, with nothing of the opponent's to answer, is settled
    // by the four quiescence when that fails low too.

    /// Deepest remaining depth (plies) razored; 0: off (the search before it).
    RAZOR_MAX_DEPTH: i32 = 0;
    /// Margin below alpha per remaining ply.
    RAZOR_MARGIN: Score = 250;

    // Static mate check (issue 43), at every node the side to move has no
    // five against it: a double four or an open four it can make wins in
    // three; a four-three it can make with no four for the opponent to make
    // wins in five (not for Black under renju, whose open-four point may be
    // forbidden). 0: off (only the open four with no opposing four, after
    // move generation, as before); 1: on.

    /// 1: the static mate check at every node; 0: off.
    STATIC_MATE: i32 = 0;

    /// 1: facing a four-three or double-four point of the opponent's (and
    /// nothing stronger), only our fours and the moves that take every such
    /// point away are searched, as facing an open three (`movegen`); 2:
    /// every move is searched, those defences are never pruned as quiet
    /// moves and the other late moves are reduced `FOUR_THREE_REDUCTION`
    /// more; 0: off.
    FOUR_THREE_DEFENCE: i32 = 0;
    /// The extra reduction of a late move that leaves such a point (units).
    FOUR_THREE_REDUCTION: Depth = 16;

    // Singular extension.

    /// Least remaining depth at which the hash move is tested for singularity.
    SE_MIN_DEPTH: i32 = 6;
    /// The hash entry may be at most this many plies shallower than the node.
    SE_TT_DEPTH: i32 = 2;
    /// Margin below the hash score, per remaining ply, the other moves must stay under.
    SE_MARGIN: Score = 16;
    /// The other moves are searched to `depth / SE_DEPTH_DIVISOR`.
    SE_DEPTH_DIVISOR: i32 = 2;
    /// No test at plies of `SE_MAX_PLY_FACTOR` times the root depth or more.
    SE_MAX_PLY_FACTOR: i32 = 2;

    // Four quiescence at the horizon.

    /// 1: a horizon node facing the opponent's open three is searched one
    /// ply (its defences and our fours; +180.7 ± 83.8 Elo when added);
    /// 0: it goes to the quiescence like any other (issue 71 item 1: with
    /// the VCF quiescence, decided by measurement).
    HORIZON_THREE: i32 = 1;
    /// Fours in a row tried at the horizon (past it only four-threes and more).
    Q_FOURS: u32 = 2;
    /// 1: the VCF quiescence (issue 71 item 1; `horizon::quiesce_vcf`):
    /// table-backed, the first four anywhere and every later one continuing
    /// the side's last four (on one of its lines within four cells, or
    /// within two cells of it) or making a second threat, bounded by the
    /// fours there are (and `Q_VCF_MAX_FOURS`), not by `Q_FOURS`. 0: the
    /// four quiescence as measured (the default until games decide).
    Q_VCF: i32 = 0;
    /// The VCF quiescence's guard: at most this many fours in one line.
    Q_VCF_MAX_FOURS: u32 = 12;
    /// Static score this far or more below alpha stands: no four is tried.
    Q_DELTA: Score = 300;
    /// The same margin when the net evaluates.
    Q_DELTA_NET: Score = 267;
    /// With the net: a horizon whose classical score lies this far or more
    /// outside the window stands on it, without the net's (0: off). The
    /// classical score is kept up to date by every move; the net's costs
    /// the sync of the moves since the last one. At 800 about nine in
    /// ten horizons stand on the classical score (1.7 % of those the net
    /// would have judged the other way); the net searches
    /// 20–25 % more nodes a second in middle games; SPRT at 200 ms over
    /// 0 (off): +41.6 ± 21.6 Elo (RESULTS.md).
    LAZY_MARGIN_NET: Score = 800;

    // Move ordering: killers and history.

    /// History values stay within ±HISTORY_MAX (gravity update).
    HISTORY_MAX: i32 = 1 << 14;
    /// History bonus of a cutoff is depth², at most this.
    HISTORY_BONUS_MAX: i32 = 400;
    /// At the start of a search every history value is divided by this.
    HISTORY_FADE_DIVISOR: i32 = 4;
    /// History adds `history / HISTORY_ORDER_DIVISOR` to a move's ordering score.
    HISTORY_ORDER_DIVISOR: i32 = 64;
    /// The opponent's pattern value at a move counts `1 / DEFENCE_VALUE_DIVISOR`.
    DEFENCE_VALUE_DIVISOR: i32 = 2;
    /// Moves `MoveOrder::score_head` sorts whole; the rest are sorted only when
    /// the node gets that far (`sort_tail`).
    SORTED_HEAD: usize = 8;

    // Transposition table replacement.

    /// A current entry this many plies deeper than a non-exact store is kept.
    TT_KEEP_DEPTH_MARGIN: i32 = 2;
    /// Victim choice: an entry's depth less this much per generation of age.
    TT_AGE_WEIGHT: i32 = 8;

    // Threat-solver node budgets (`threat_budget`, per search).

    /// Under a node limit, the most one solver call takes: `max_nodes / THREAT_NODE_SHARE`.
    THREAT_NODE_SHARE: u64 = 8;
    /// `timeout_turn 0`: our VCF at the root (no VCT, no defence).
    INSTANT_VCF_NODES: u64 = 3_000;
    /// Depth- or node-limited search (bench, analysis): our VCF at the root.
    UNLIMITED_VCF_NODES: u64 = 20_000;
    /// Depth- or node-limited search: our VCT at the root.
    UNLIMITED_VCT_NODES: u64 = 20_000;
    /// Depth- or node-limited search: the opponent's VCF and its re-checks.
    UNLIMITED_DEFEND_NODES: u64 = 20_000;
    /// Timed search: our VCF nodes per ms of the hard limit.
    VCF_NODES_PER_MS: u64 = 30;
    /// Timed search: least VCF nodes at the root.
    VCF_MIN_NODES: u64 = 500;
    /// Timed search: most VCF nodes at the root.
    VCF_MAX_NODES: u64 = 200_000;
    /// Timed search: no root VCT under this hard limit (ms).
    VCT_MIN_MS: u64 = 300;
    /// Timed search: our VCT nodes per ms of the hard limit.
    VCT_NODES_PER_MS: u64 = 30;
    /// Timed search: most VCT nodes at the root.
    VCT_MAX_NODES: u64 = 300_000;
    /// Timed search: the opponent's VCF (and re-checks) nodes per ms.
    DEFEND_NODES_PER_MS: u64 = 15;
    /// Timed search: least nodes for the opponent's VCF and its re-checks.
    DEFEND_MIN_NODES: u64 = 500;
    /// Timed search: most nodes for the opponent's VCF and its re-checks.
    DEFEND_MAX_NODES: u64 = 150_000;

    // Threat solver.

    // Threat solver: the order of the attacker's moves (`attacker_moves`), by
    // rank, highest first; a move that also makes two or more threes gets
    // `THREAT_MULTI_THREE_BONUS` within its rank (ranks are doubled for it).

    /// An open four or a double four.
    THREAT_RANK_WINNING_FOUR: u8 = 4;
    /// A four that also makes a three.
    THREAT_RANK_FOUR_THREE: u8 = 3;
    /// Any other four.
    THREAT_RANK_FOUR: u8 = 2;
    /// Under VCT, a three (open, or a wide closed one).
    THREAT_RANK_THREE: u8 = 1;
    /// Within a rank, a move making two or more threes first.
    THREAT_MULTI_THREE_BONUS: u8 = 1;

    // Time manager (`time::plan`).

    /// Turn time used when the manager gave no time control at all (ms).
    DEFAULT_TURN_MS: u64 = 5_000;
    /// Turn-limit safety margin: `turn / TURN_MARGIN_DIVISOR` (10 %) ...
    TURN_MARGIN_DIVISOR: u64 = 10;
    /// ... at least this many ms (two busy engines answered 31 ms late).
    TURN_MARGIN_MIN_MS: u64 = 40;
    /// Game-clock safety margin: `left / CLOCK_MARGIN_DIVISOR` (5 %) ...
    CLOCK_MARGIN_DIVISOR: u64 = 20;
    /// ... at least this many ms.
    CLOCK_MARGIN_MIN_MS: u64 = 50;
    /// Moves to go: one per this many empty cells ...
    MTG_EMPTY_PER_MOVE: usize = 6;
    /// ... at least this many ...
    MTG_MIN: u64 = 8;
    /// ... at most this many.
    MTG_MAX: u64 = 30;
    /// Hard limit: at most `usable / MAX_SPEND_DIVISOR` of the clock on one move.
    MAX_SPEND_DIVISOR: u64 = 3;
    /// Hard limit: at most this many times the per-move share.
    HARD_PER_MOVE_FACTOR: u64 = 4;
    /// Soft limit: the per-move share divided by this.
    SOFT_PER_MOVE_DIVISOR: u64 = 2;
    /// No time control: the soft limit is the hard one divided by this.
    DEFAULT_SOFT_DIVISOR: u64 = 2;

    // The adaptive time plan (issue 72; `time::TimePlan::soft_limit_now`).
    // With a game clock that binds, the soft limit above is scaled after
    // each completed iteration by four factors in percent, multiplied: the
    // game's phase (a curve over the stones on the board), the best move's
    // stability (shrinks once it has held long), a falling score (grows)
    // and the best move's recent changes (grows); the product is kept
    // within `TIME_SOFT_MIN_PCT`..`TIME_SOFT_MAX_PCT` of the plan's soft
    // limit and never past the hard limit. The next iteration starts only
    // if one as long as the last times the effective branching factor
    // (`TIME_EBF_*`) still ends before the hard limit. A clock that is
    // ample for the turn (the turn's hard limit times the remaining-move
    // horizon within what is left) is used as a turn limit alone is. The
    // hard limits and the watchdog are the same either way.

    /// 1: the adaptive plan; 0: the static plan exactly (the soft limit as
    /// planned, one more iteration as long as the last must fit, no
    /// ample-clock mode). 0 until clock matches against the static plan
    /// decide (issue 72 item 3; a tuning build's `--param TIME_ADAPTIVE=1`).
    TIME_ADAPTIVE: i32 = 0;
    /// Phase curve: percent of the soft limit at its peak ...
    TIME_PHASE_PEAK_PCT: u64 = 130;
    /// ... and far from it (the curve falls from the peak toward this) ...
    TIME_PHASE_FLOOR_PCT: u64 = 70;
    /// ... the peak's stone count (the middlegame) ...
    TIME_PHASE_PEAK_STONES: u64 = 24;
    /// ... and this many stones from the peak the curve is halfway down
    /// (`floor + (peak - floor) * w² / (w² + d²)`).
    TIME_PHASE_WIDTH_STONES: u64 = 20;
    /// Stability: a best move held this many completed iterations or fewer
    /// leaves the soft limit as it is ...
    TIME_STABLE_FREE_ITERS: u32 = 4;
    /// ... each further iteration it holds takes this many percent off ...
    TIME_STABLE_STEP_PCT: u64 = 6;
    /// ... down to this percent.
    TIME_STABLE_MIN_PCT: u64 = 55;
    /// Changes of the best move are counted over this many last iterations
    /// (at most 32) ...
    TIME_CHANGE_WINDOW: u32 = 4;
    /// ... and each adds this many percent.
    TIME_CHANGE_PCT: u64 = 25;
    /// A score fallen below the previous iterations' (the mean of the last
    /// two) adds this many percent per 100 points fallen ...
    TIME_FALL_PCT_PER_100: u64 = 30;
    /// ... at most this many.
    TIME_FALL_MAX_PCT: u64 = 100;
    /// The scaled soft limit is at least this percent of the plan's ...
    TIME_SOFT_MIN_PCT: u64 = 25;
    /// ... and at most this percent (and never past the hard limit).
    TIME_SOFT_MAX_PCT: u64 = 300;
    /// The next iteration is estimated to take the last one's time times the
    /// last two iterations' ratio (effective branching), in percent, at
    /// least this (100: as long as the last, the static rule) ...
    TIME_EBF_MIN_PCT: u64 = 100;
    /// ... and at most this.
    TIME_EBF_MAX_PCT: u64 = 250;
    /// The next iteration is started if this percent of its estimate ends
    /// before the hard limit (a cut iteration still plays a root move that
    /// beat the first; 100: all of it).
    TIME_FIT_PCT: u64 = 50;
    /// The adaptive plan's own share of the clock: one move to go per this
    /// many empty cells (the static plan's six guesses games far longer
    /// than they are: a freestyle game against Rapfi lasts 20-27 moves a
    /// side, and the static plan ended them with two thirds of the clock) ...
    TIME_MTG_EMPTY_PER_MOVE: usize = 10;
    /// ... at most this many (at least `MTG_MIN`) ...
    TIME_MTG_MAX: u64 = 20;
    /// ... and the soft limit is this percent of that share (the static
    /// plan: `100 / SOFT_PER_MOVE_DIVISOR`), before the factors above.
    TIME_SOFT_SHARE_PCT: u64 = 70;
    /// Ample clock: the turn is used as a turn limit alone is used when its
    /// hard limit times the moves to go times this percent is within the
    /// usable clock.
    TIME_AMPLE_HORIZON_PCT: u64 = 100;

    /// Root threats stop once `elapsed * ROOT_THREAT_TIME_SHARE >= hard limit`
    /// (the solver has only node budgets; it keeps a quarter of the clock).
    ROOT_THREAT_TIME_SHARE: u64 = 4;
    /// Least nodes for re-checking the opponent's VCF after each root move.
    DEFEND_MIN_NODES_PER_MOVE: u64 = 100;

    // SWAP2 decisions and pondering (the engine's).

    /// Per-turn budget assumed for SWAP2 decisions when the manager gave none.
    SWAP2_DEFAULT_TURN_MS: u64 = 5_000;
    /// SWAP2 probes share this many tenths of the turn ...
    SWAP2_TURN_TENTHS: u64 = 8;
    /// ... and of at most `time_left / SWAP2_CLOCK_DIVISOR` of the clock.
    SWAP2_CLOCK_DIVISOR: u64 = 8;

    // Stop-flag and clock polling.

    // Lazy SMP helpers.

    /// Odd-numbered helpers start this many plies deeper than the main thread.
    HELPER_ODD_DEPTH_OFFSET: i32 = 1;
}

// Fixed at build time: sizes, polling intervals, and values other constants
// are made from (not settable with `--param`).

/// Ordering bonus of the first and second killer of a ply.
pub const KILLER_BONUS: [i32; 2] = [900, 800];
/// Longest attack (in attacker moves) VCF/VCT iterative deepening tries.
pub const MAX_THREATS: u32 = 40;
/// A 3-stone SWAP2 position within this score of even is "balanced"
/// (opening books call a position balanced within about ±150).
pub const SWAP2_BALANCE: Score = 150;
/// Node budget of the short search that guesses the opponent's reply to
/// ponder on when the PV has none (some 0.1 s; it warms the table too).
pub const PONDER_GUESS_NODES: u64 = 30_000;
/// How often the engine looks at the clock while a ponder hit finishes.
pub const PONDER_POLL: Duration = Duration::from_millis(2);
/// Tree nodes between two reads of the stop flag, node count and clock.
pub const TREE_CHECK_EVERY: u64 = 64;
/// The threat solver reads the stop flag when `nodes & THREAT_POLL_MASK == 0`.
pub const THREAT_POLL_MASK: u64 = 1023;
/// How often the watchdog mirrors the caller's stop flag (bounds STOP latency).
pub const WATCHDOG_POLL: Duration = Duration::from_millis(2);
/// Memory counted per helper against `max_memory` (solver table, the net's
/// score cache, buffers, stack; generous).
pub const HELPER_BYTES: usize = 4 << 20;
/// The net's score cache (`evalcache`) has 2^this slots of 8 bytes per
/// search thread (512 KB: within `HELPER_BYTES` for a helper, within the
/// table's reserve for the main thread). In middle games at 500 ms, 2^12
/// slots found 7.5 % of the scores asked for, 2^14 11.1 %, 2^16 12.5 %,
/// 2^18 14.3 %, 2^20 14.8 % (RESULTS.md).
pub const EVAL_CACHE_BITS: u32 = 16;
/// Most search threads `INFO thread_num` may ask for.
pub const MAX_THREADS: usize = 64;
