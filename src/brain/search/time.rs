//! Time manager: turns the manager's limits (timeout_turn, timeout_match,
//! time_left) into a per-move plan: an optimum ("soft": do not start another
//! iteration after this) and a maximum ("hard": abort the search). Both are
//! pure functions of the limits, the board's stone counts, elapsed time and
//! what the search reports after each iteration (`SearchProgress`), so they
//! are tested without sleeping; the searcher reads the clock.
//!
//! With a game clock, a move's share is the usable clock divided by a
//! moves-to-go guess (one move per `MTG_EMPTY_PER_MOVE` empty cells, within
//! `MTG_MIN`..`MTG_MAX`) plus any increment; the soft limit is the share
//! divided by `SOFT_PER_MOVE_DIVISOR`, and after each iteration a new one is
//! started within the soft limit only if it could end before the hard limit.
//! Time not spent is saved for later moves. Time a turn limit alone gives is
//! not saved for later moves, so when the turn limit binds (alone, or
//! tighter than the clock's share) the soft limit is the hard one and
//! iterating goes on until the hard limit cuts an iteration: the cut
//! iteration still plays a root move that had already beaten the first move
//! searched at that depth. Moves with a single legal reply, or whose result
//! is proven, answer at once.
//!
//! `TIME_ADAPTIVE` chooses how the clock's soft limit is used (issue 72).
//! At 0 (the default until clock matches decide) the plan is static: the
//! soft limit is the planned one and an iteration is started only if one
//! as long as the last still fits. At 1 the share behind the soft limit is
//! the adaptive plan's own (`adaptive_moves_to_go`: fewer moves to go, and
//! `TIME_SOFT_SHARE_PCT` of the share rather than half), and the plan follows the search
//! (`TimePlan::soft_limit_now`): after each completed iteration the soft
//! limit is scaled by the game's phase (a move-importance curve over the
//! stones on the board, peaking at `TIME_PHASE_PEAK_STONES`), by the best
//! move's stability (iterations it has held past `TIME_STABLE_FREE_ITERS`
//! shrink it, by `TIME_STABLE_STEP_PCT` each down to `TIME_STABLE_MIN_PCT`),
//! by a falling score (`TIME_FALL_PCT_PER_100` per 100 points below the
//! previous iterations', at most `TIME_FALL_MAX_PCT`) and by the best move's
//! changes in the last `TIME_CHANGE_WINDOW` iterations (`TIME_CHANGE_PCT`
//! each), within `TIME_SOFT_MIN_PCT`..`TIME_SOFT_MAX_PCT` of the planned soft
//! limit and never past the hard one; the next iteration is expected to take
//! the last one's time times the last two's ratio (the effective branching,
//! within `TIME_EBF_MIN_PCT`..`TIME_EBF_MAX_PCT`) and is started only if
//! `TIME_FIT_PCT` of it would end before the hard limit; and a clock that is ample for the turn
//! (the turn's hard limit times the moves to go times
//! `TIME_AMPLE_HORIZON_PCT` within the usable clock) is used as a turn limit
//! alone is used, to its hard limit. The hard limits are the same at 0 and 1.
//!
//! Safety: the turn limit is cut by a margin (`TURN_MARGIN_DIVISOR` of it,
//! at least `TURN_MARGIN_MIN_MS`), the game clock by another
//! (`CLOCK_MARGIN_DIVISOR`, at least `CLOCK_MARGIN_MIN_MS`), and one move
//! spends at most `1 / MAX_SPEND_DIVISOR` of what is left and
//! `HARD_PER_MOVE_FACTOR` shares, because managers measure from when they
//! sent the command and the machine may be busy (GomocupJudge kills a brain
//! one second after its time is up). A watchdog thread (`search::watchdog`)
//! raises the stop flag at the hard limit, so no part of the search can
//! overrun on a busy machine.
//! `timeout_turn 0` answers at once; `max_depth` and `max_node` are honoured,
//! and with no time control at all a turn of `DEFAULT_TURN_MS` is assumed
//! (soft limit: its hard limit over `DEFAULT_SOFT_DIVISOR`). Every value
//! named here lives in `params`.

use std::time::Instant;

use super::params;
use crate::brain::game::Pos;
use crate::brain::types::{is_mate_score, Score};

/// Everything the manager told us that bounds one search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// `INFO timeout_turn` in ms (None: not given; Some(0): answer at once).
    pub turn_ms: Option<u64>,
    /// `INFO timeout_match` in ms (None or 0: unlimited).
    pub match_ms: Option<u64>,
    /// `INFO time_left` in ms, if the game is timed.
    pub time_left_ms: Option<i64>,
    /// `INFO max_depth`.
    pub max_depth: Option<u32>,
    /// `INFO max_node`.
    pub max_nodes: Option<u64>,
    /// `INFO time_increment` in ms: what the clock gains after each move
    /// (Fischer; None or 0: none).
    pub increment_ms: Option<u64>,
    /// When the request arrived (the clock starts here, not when search starts).
    pub start: Instant,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            turn_ms: None,
            match_ms: None,
            time_left_ms: None,
            max_depth: None,
            max_nodes: None,
            increment_ms: None,
            start: Instant::now(),
        }
    }
}

/// `time_left` value managers send when the game is not timed (`i32::MAX`;
/// at or above it, the session and `plan` read "untimed"). Defined once,
/// here; the protocol's session uses it too.
pub const UNLIMITED_LEFT: i64 = 2_147_483_647;

/// Per-move plan in milliseconds from `Limits::start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// Do not start a new iteration once this much time is used (adaptive:
    /// before it is scaled by `soft_limit_now`).
    pub soft_ms: u64,
    /// Abort the search at this point.
    pub hard_ms: u64,
    /// `timeout_turn 0`: answer at once (one shallow iteration, no clock).
    pub instant: bool,
    /// No time limit at all (only depth/node limits or a stop command).
    pub unlimited: bool,
    /// The soft limit follows the search (`TIME_ADAPTIVE`; see
    /// `soft_limit_now`).
    pub adaptive: bool,
    /// The game phase's factor on the soft limit, in percent (100 unless
    /// adaptive).
    pub phase_pct: u64,
}

/// What the search knows after its completed iterations, all the plan
/// reads of it: fed one iteration at a time by `record`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchProgress {
    /// Completed iterations.
    pub iteration: u32,
    /// The last completed iteration's best move (None: none yet).
    pub best: Option<Pos>,
    /// Completed iterations the best move has held (1: new at the last).
    pub stable_iterations: u32,
    /// Changes of the best move in the last `TIME_CHANGE_WINDOW` iterations.
    pub best_move_changes: u32,
    /// The last completed iteration's score.
    pub score: Score,
    /// The score of the iteration before it ...
    pub prev_score: Option<Score>,
    /// ... and of the one before that.
    pub prev2_score: Option<Score>,
    /// How long the last completed iteration took (ms).
    pub last_iter_ms: u64,
    /// How long the one before it took (None: it was the first).
    pub prev_iter_ms: Option<u64>,
    /// One bit an iteration, set where the best move changed (the last in
    /// bit 0).
    change_bits: u32,
}

impl SearchProgress {
    /// A completed iteration: its best move, its score and how long it took.
    pub fn record(&mut self, best: Pos, score: Score, iter_ms: u64) {
        let changed = self.best.is_some_and(|b| b != best);
        self.change_bits = (self.change_bits << 1) | u32::from(changed);
        self.stable_iterations = if self.best == Some(best) {
            self.stable_iterations + 1
        } else {
            1
        };
        self.best = Some(best);
        if self.iteration > 0 {
            self.prev2_score = self.prev_score;
            self.prev_score = Some(self.score);
            self.prev_iter_ms = Some(self.last_iter_ms);
        }
        self.iteration += 1;
        self.score = score;
        self.last_iter_ms = iter_ms;
        let window = params::TIME_CHANGE_WINDOW().min(32);
        let mask = if window >= 32 {
            u32::MAX
        } else {
            (1u32 << window) - 1
        };
        self.best_move_changes = (self.change_bits & mask).count_ones();
    }
}

/// The game phase's factor on the soft limit (percent): a bump over the
/// stones on the board, `TIME_PHASE_PEAK_PCT` at `TIME_PHASE_PEAK_STONES`,
/// halfway down to `TIME_PHASE_FLOOR_PCT` `TIME_PHASE_WIDTH_STONES` away.
pub fn phase_pct(stones: usize) -> u64 {
    let (peak, floor) = (
        params::TIME_PHASE_PEAK_PCT(),
        params::TIME_PHASE_FLOOR_PCT(),
    );
    let w2 = params::TIME_PHASE_WIDTH_STONES().max(1).pow(2);
    let d = (stones as u64).abs_diff(params::TIME_PHASE_PEAK_STONES());
    let d2 = d.saturating_mul(d);
    let bump = |hi: u64, lo: u64| lo + (hi - lo) * w2 / w2.saturating_add(d2);
    if peak >= floor {
        bump(peak, floor)
    } else {
        floor - (bump(floor, peak) - peak)
    }
}

/// The best move's stability factor (percent): 100 while it has held
/// `TIME_STABLE_FREE_ITERS` iterations or fewer, then `TIME_STABLE_STEP_PCT`
/// less an iteration, not below `TIME_STABLE_MIN_PCT`.
pub fn stability_pct(stable_iterations: u32) -> u64 {
    let past = stable_iterations.saturating_sub(params::TIME_STABLE_FREE_ITERS());
    100u64
        .saturating_sub(u64::from(past).saturating_mul(params::TIME_STABLE_STEP_PCT()))
        .max(params::TIME_STABLE_MIN_PCT().min(100))
}

/// The best move's changes factor (percent): `TIME_CHANGE_PCT` more a change.
pub fn changes_pct(best_move_changes: u32) -> u64 {
    100 + u64::from(best_move_changes).saturating_mul(params::TIME_CHANGE_PCT())
}

/// The falling score's factor (percent): `TIME_FALL_PCT_PER_100` more per
/// 100 points the score is below the previous iterations' (the mean of the
/// last two where there are two), at most `TIME_FALL_MAX_PCT` more; 100 when
/// it did not fall, or a score is a proven result.
pub fn falling_pct(p: &SearchProgress) -> u64 {
    let Some(prev) = p.prev_score else {
        return 100;
    };
    let reference = match p.prev2_score {
        Some(prev2) if !is_mate_score(prev2) => (prev + prev2) / 2,
        _ => prev,
    };
    if is_mate_score(prev) || is_mate_score(p.score) || p.score >= reference {
        return 100;
    }
    let fall = (reference - p.score) as u64;
    100 + (fall.saturating_mul(params::TIME_FALL_PCT_PER_100()) / 100)
        .min(params::TIME_FALL_MAX_PCT())
}

/// Safety margin for the per-turn limit. 40 ms at least: two engines
/// sharing two busy cores were seen answering 31 ms after the hard limit.
pub fn turn_margin(turn_ms: u64) -> u64 {
    (turn_ms / params::TURN_MARGIN_DIVISOR()).max(params::TURN_MARGIN_MIN_MS())
}

/// Safety margin for the remaining game time.
pub fn clock_margin(left_ms: u64) -> u64 {
    (left_ms / params::CLOCK_MARGIN_DIVISOR()).max(params::CLOCK_MARGIN_MIN_MS())
}

/// Estimate of how many more moves we will have to make (the static plan's).
pub fn moves_to_go(empty_cells: usize) -> u64 {
    ((empty_cells / params::MTG_EMPTY_PER_MOVE()) as u64)
        .clamp(params::MTG_MIN(), params::MTG_MAX())
}

/// The adaptive plan's estimate: one move per `TIME_MTG_EMPTY_PER_MOVE`
/// empty cells, within `MTG_MIN`..`TIME_MTG_MAX`.
pub fn adaptive_moves_to_go(empty_cells: usize) -> u64 {
    let per = params::TIME_MTG_EMPTY_PER_MOVE().max(1);
    ((empty_cells / per) as u64).clamp(
        params::MTG_MIN().min(params::TIME_MTG_MAX()),
        params::TIME_MTG_MAX().max(1),
    )
}

/// Build the plan for one move on a board with `empty_cells` empty cells
/// (the moves-to-go estimate) and `stones` stones (the game's phase), the
/// static or the adaptive one as `TIME_ADAPTIVE` says.
pub fn plan(limits: &Limits, empty_cells: usize, stones: usize) -> TimePlan {
    plan_with(limits, empty_cells, stones, params::TIME_ADAPTIVE() != 0)
}

/// `plan`, adaptive or not as `adaptive` says.
pub fn plan_with(limits: &Limits, empty_cells: usize, stones: usize, adaptive: bool) -> TimePlan {
    if limits.turn_ms == Some(0) {
        return TimePlan {
            soft_ms: 0,
            hard_ms: 0,
            instant: true,
            unlimited: false,
            adaptive: false,
            phase_pct: 100,
        };
    }
    let mut hard: Option<u64> = None;
    let mut soft: Option<u64> = None;
    if let Some(turn) = limits.turn_ms {
        let h = turn.saturating_sub(turn_margin(turn)).max(1);
        hard = Some(h);
        // Unused turn time is lost: iterate until the hard limit (see
        // `stop_iterating`).
        soft = Some(h);
    }
    let match_limited = limits.match_ms.map(|m| m > 0).unwrap_or(false);
    let left = match limits.time_left_ms {
        Some(l) if l < UNLIMITED_LEFT => Some(l.max(0) as u64),
        Some(_) => None,
        None if match_limited => limits.match_ms,
        None => None,
    };
    if let Some(left) = left {
        let usable = left.saturating_sub(clock_margin(left));
        // A Fischer increment comes back after every move: each move may
        // spend it on top of its share (the hard cap below still holds).
        let per_move = usable / moves_to_go(empty_cells) + limits.increment_ms.unwrap_or(0);
        let h = (usable / params::MAX_SPEND_DIVISOR())
            .min(per_move.saturating_mul(params::HARD_PER_MOVE_FACTOR()))
            .max(1);
        hard = Some(hard.map_or(h, |x| x.min(h)));
        // The soft limit: half the static share, or, adaptive, a part of
        // its own larger share (the hard limit above is the same either way).
        let s = if adaptive {
            let share =
                usable / adaptive_moves_to_go(empty_cells) + limits.increment_ms.unwrap_or(0);
            (u128::from(share) * u128::from(params::TIME_SOFT_SHARE_PCT()) / 100) as u64
        } else {
            per_move / params::SOFT_PER_MOVE_DIVISOR()
        }
        .max(1);
        soft = Some(soft.map_or(s, |x| x.min(s)));
        // Ample clock: the turn's hard limit for every move to go (and
        // more) is within the clock; it is used as a turn limit alone is.
        if let (true, Some(turn)) = (adaptive, limits.turn_ms) {
            let turn_hard = turn.saturating_sub(turn_margin(turn)).max(1);
            let horizon = u128::from(adaptive_moves_to_go(empty_cells))
                * u128::from(params::TIME_AMPLE_HORIZON_PCT())
                / 100;
            if u128::from(turn_hard) * horizon.max(1) <= u128::from(usable) {
                soft = hard;
            }
        }
    }
    match (soft, hard) {
        (Some(s), Some(h)) => TimePlan {
            soft_ms: s.min(h),
            hard_ms: h,
            instant: false,
            unlimited: false,
            adaptive,
            phase_pct: if adaptive { phase_pct(stones) } else { 100 },
        },
        _ => {
            if limits.max_depth.is_some() || limits.max_nodes.is_some() {
                TimePlan::UNLIMITED
            } else {
                let h = params::DEFAULT_TURN_MS() - turn_margin(params::DEFAULT_TURN_MS());
                TimePlan {
                    soft_ms: h / params::DEFAULT_SOFT_DIVISOR(),
                    hard_ms: h,
                    instant: false,
                    unlimited: false,
                    adaptive: false,
                    phase_pct: 100,
                }
            }
        }
    }
}

impl TimePlan {
    /// No clock at all: only a depth or node limit, or a stop command,
    /// ends the search.
    pub const UNLIMITED: TimePlan = TimePlan {
        soft_ms: u64::MAX,
        hard_ms: u64::MAX,
        instant: false,
        unlimited: true,
        adaptive: false,
        phase_pct: 100,
    };

    /// After a completed iteration (`progress` has recorded it): is it time
    /// to answer? With only a turn limit, only at the hard limit. With a
    /// game clock, yes past the soft limit (`soft_limit_now`), or when the
    /// next iteration (`next_iter_ms`) would not end before the hard limit:
    /// time not spent there is saved for later moves.
    pub fn stop_iterating(&self, elapsed_ms: u64, progress: &SearchProgress) -> bool {
        if self.unlimited {
            return false;
        }
        if self.soft_ms >= self.hard_ms {
            // The turn limit binds (alone, or tighter than the clock's
            // share, or the clock is ample): time not used now cannot be
            // spent later past the turn limit, and a cut iteration still
            // plays a move that beat the last one's best.
            return elapsed_ms >= self.hard_ms;
        }
        elapsed_ms >= self.soft_limit_now(progress)
            || elapsed_ms.saturating_add(self.must_fit_ms(progress)) >= self.hard_ms
    }

    /// The soft limit after the iterations `progress` has recorded: the
    /// planned one, or, adaptive, that scaled by the phase, stability,
    /// falling-score and changes factors (within `TIME_SOFT_MIN_PCT` ..
    /// `TIME_SOFT_MAX_PCT` of it, never past the hard limit).
    pub fn soft_limit_now(&self, progress: &SearchProgress) -> u64 {
        if !self.adaptive || self.unlimited || self.soft_ms >= self.hard_ms {
            return self.soft_ms;
        }
        let pct = [
            stability_pct(progress.stable_iterations),
            falling_pct(progress),
            changes_pct(progress.best_move_changes),
        ]
        .iter()
        .fold(u128::from(self.phase_pct), |acc, &f| {
            acc * u128::from(f) / 100
        });
        let pct = pct.clamp(
            u128::from(params::TIME_SOFT_MIN_PCT()),
            u128::from(params::TIME_SOFT_MAX_PCT()).max(u128::from(params::TIME_SOFT_MIN_PCT())),
        );
        let scaled = u128::from(self.soft_ms) * pct / 100;
        (scaled.min(u128::from(self.hard_ms)) as u64).max(1)
    }

    /// How long the next iteration is expected to take: as long as the last
    /// (static), or, adaptive, the last times the effective branching of
    /// the last two (`TIME_EBF_MIN_PCT`..`TIME_EBF_MAX_PCT`).
    pub fn next_iter_ms(&self, progress: &SearchProgress) -> u64 {
        let last = progress.last_iter_ms;
        if !self.adaptive {
            return last;
        }
        let (lo, hi) = (params::TIME_EBF_MIN_PCT(), params::TIME_EBF_MAX_PCT());
        let ebf = match progress.prev_iter_ms {
            Some(prev) if prev > 0 => (u128::from(last) * 100 / u128::from(prev)) as u64,
            _ => lo,
        }
        .clamp(lo.min(hi), hi.max(lo));
        (u128::from(last) * u128::from(ebf) / 100).min(u128::from(u64::MAX)) as u64
    }

    /// How much of the next iteration must end before the hard limit for
    /// it to be started: all of one as long as the last (static), or,
    /// adaptive, `TIME_FIT_PCT` of its estimate (`next_iter_ms`): a cut
    /// iteration still plays a root move that beat the first one searched.
    pub fn must_fit_ms(&self, progress: &SearchProgress) -> u64 {
        let next = self.next_iter_ms(progress);
        if !self.adaptive {
            return next;
        }
        (u128::from(next) * u128::from(params::TIME_FIT_PCT()) / 100).min(u128::from(u64::MAX))
            as u64
    }

    /// During the search: must we abort now?
    pub fn out_of_time(&self, elapsed_ms: u64) -> bool {
        !self.unlimited && !self.instant && elapsed_ms >= self.hard_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tuning build's tests share one set of parameter values: these
    /// read them, and take turns with the tests that set them.
    fn lock() -> std::sync::MutexGuard<'static, ()> {
        crate::brain::search::tunable::test_lock()
    }

    fn limits(turn: Option<u64>, matchm: Option<u64>, left: Option<i64>) -> Limits {
        Limits {
            turn_ms: turn,
            match_ms: matchm,
            time_left_ms: left,
            ..Limits::default()
        }
    }

    /// The static plan (`TIME_ADAPTIVE` 0), on a board with `empty` empty
    /// cells and 25 stones.
    fn plan(l: &Limits, empty: usize) -> TimePlan {
        plan_with(l, empty, 25, false)
    }

    /// The static plan and the adaptive one.
    fn both(l: &Limits, empty: usize) -> [TimePlan; 2] {
        [false, true].map(|a| plan_with(l, empty, 25, a))
    }

    /// Progress whose last iteration took `last_iter_ms`.
    fn took(last_iter_ms: u64) -> SearchProgress {
        SearchProgress {
            last_iter_ms,
            ..SearchProgress::default()
        }
    }

    /// `n` iterations of `iter_ms` each with the same best move and score.
    fn steady(n: u32, iter_ms: u64) -> SearchProgress {
        let mut p = SearchProgress::default();
        for _ in 0..n {
            p.record(Pos(7), 50, iter_ms);
        }
        p
    }

    /// A 3 s / 180 s game with 180 s left, 25 stones: the clock binds.
    fn clock_bound() -> Limits {
        limits(Some(30_000), Some(180_000), Some(180_000))
    }

    /// A Fischer increment is spent on top of the clock's share, within
    /// the same cap of a third of what is left.
    #[test]
    fn an_increment_adds_to_each_move() {
        let _turn = lock();
        let base = limits(None, Some(60_000), Some(60_000));
        let with = Limits {
            increment_ms: Some(2_000),
            ..base.clone()
        };
        let (a, b) = (plan(&base, 200), plan(&with, 200));
        assert!(
            b.soft_ms > a.soft_ms && b.hard_ms > a.hard_ms,
            "{a:?} {b:?}"
        );
        let short = Limits {
            time_left_ms: Some(3_000),
            increment_ms: Some(60_000),
            ..base
        };
        for p in both(&short, 200) {
            assert!(p.hard_ms <= 1_000);
        }
    }

    #[test]
    fn turn_limit_keeps_a_margin() {
        let _turn = lock();
        for turn in [50u64, 100, 1_000, 5_000, 30_000] {
            for p in both(&limits(Some(turn), None, None), 200) {
                assert!(p.hard_ms + 40 <= turn, "{turn}: {p:?}");
                assert!(p.hard_ms * 10 <= turn * 9, "{turn}: {p:?}");
                assert!(p.soft_ms <= p.hard_ms);
                if turn >= 100 {
                    assert!(p.hard_ms >= turn / 2, "uses most of the turn: {p:?}");
                }
                assert!(!p.stop_iterating(0, &took(0)));
                assert!(p.out_of_time(p.hard_ms));
                assert!(!p.out_of_time(p.hard_ms - 1));
            }
        }
    }

    #[test]
    fn zero_turn_answers_at_once() {
        let _turn = lock();
        for p in both(&limits(Some(0), Some(100_000), Some(50_000)), 200) {
            assert!(p.instant);
            assert!(p.stop_iterating(0, &took(0)));
        }
    }

    #[test]
    fn game_clock_bounds_every_move() {
        let _turn = lock();
        for adaptive in [false, true] {
            let plan = |l: &Limits, empty| plan_with(l, empty, 225 - empty, adaptive);
            // 30 s turns but only 2 s left in the game.
            let p = plan(&limits(Some(30_000), Some(180_000), Some(2_000)), 150);
            assert!(p.hard_ms <= 2_000 / 3, "{p:?}");
            assert!(p.soft_ms <= p.hard_ms);
            // Negative or zero time left: still a tiny, non-zero budget.
            let p = plan(&limits(Some(30_000), Some(180_000), Some(-5)), 150);
            assert!(p.hard_ms <= 1, "{p:?}");
            // Spending the plan move after move never empties the clock.
            let mut left: i64 = 60_000;
            for mv in 0..100 {
                let p = plan(
                    &limits(Some(10_000), Some(60_000), Some(left)),
                    225 - 2 * mv,
                );
                assert!((p.hard_ms as i64) < left.max(1), "{mv}: {p:?} left {left}");
                left -= p.hard_ms as i64;
            }
            assert!(left > 0);
        }
    }

    /// The hard limit is the same whether the plan is adaptive or not.
    #[test]
    fn the_hard_limit_does_not_depend_on_the_mode() {
        let _turn = lock();
        for (turn, matchm, left) in [
            (Some(5_000), Some(120_000), Some(120_000)),
            (Some(5_000), Some(120_000), Some(9_000)),
            (Some(1_250), Some(30_000), Some(30_000)),
            (Some(500), None, None),
            (None, Some(60_000), None),
            (Some(30_000), Some(180_000), Some(400)),
        ] {
            for empty in [220, 150, 40, 5] {
                let [s, a] = both(&limits(turn, matchm, left), empty);
                assert_eq!(s.hard_ms, a.hard_ms, "{s:?} {a:?}");
                assert!(a.soft_ms <= a.hard_ms);
            }
        }
    }

    #[test]
    fn unlimited_clock_uses_the_turn() {
        let _turn = lock();
        for adaptive in [false, true] {
            let p = plan_with(
                &limits(Some(1_000), Some(0), Some(UNLIMITED_LEFT)),
                200,
                25,
                adaptive,
            );
            assert_eq!(p.hard_ms, 900);
            let q = plan_with(&limits(Some(1_000), None, None), 200, 25, adaptive);
            assert_eq!(p, q);
        }
    }

    #[test]
    fn a_turn_limit_alone_is_used_to_the_hard_limit() {
        let _turn = lock();
        for p in both(&limits(Some(500), None, None), 200) {
            assert_eq!((p.soft_ms, p.hard_ms), (450, 450));
            // 200 ms used, the last iteration took 100: one more fits.
            assert!(!p.stop_iterating(200, &took(100)));
            // 300 ms used, the last took 160: it would not end, but time not
            // used now is lost and a cut iteration still plays a better move.
            assert!(!p.stop_iterating(300, &took(160)));
            assert!(!p.stop_iterating(449, &took(1_000)));
            assert!(p.stop_iterating(450, &took(0)));
            // Nothing the search reports moves the soft limit.
            assert_eq!(p.soft_limit_now(&steady(20, 5)), 450);
        }
        // With a game clock the soft limit stays below the hard one.
        let q = plan(&limits(Some(5_000), Some(180_000), Some(180_000)), 200);
        assert!(q.soft_ms < q.hard_ms, "{q:?}");
        assert!(q.stop_iterating(q.soft_ms, &took(0)));
        assert!(!q.stop_iterating(q.soft_ms - 1, &took(0)));
    }

    #[test]
    fn match_time_without_time_left_is_used() {
        let _turn = lock();
        for p in both(&limits(None, Some(60_000), None), 200) {
            assert!(!p.unlimited);
            assert!(p.hard_ms <= 20_000 && p.soft_ms < p.hard_ms, "{p:?}");
        }
    }

    #[test]
    fn depth_or_node_limits_alone_are_untimed() {
        let _turn = lock();
        let mut l = limits(None, None, None);
        l.max_depth = Some(4);
        for p in both(&l, 200) {
            let late = took(u64::MAX - 1);
            assert!(
                p.unlimited && !p.stop_iterating(u64::MAX - 1, &late) && !p.out_of_time(u64::MAX)
            );
        }
        for p in both(&limits(None, None, None), 200) {
            assert!(!p.unlimited && p.hard_ms < params::DEFAULT_TURN_MS());
        }
    }

    #[test]
    fn fewer_empty_cells_mean_more_time_per_move() {
        let _turn = lock();
        let early = plan(&limits(None, Some(100_000), Some(100_000)), 220);
        let late = plan(&limits(None, Some(100_000), Some(100_000)), 30);
        assert!(late.soft_ms > early.soft_ms);
    }

    /// The static plan reads nothing of the search but the last
    /// iteration's time: the soft limit as planned, and one more iteration
    /// as long as the last must fit.
    #[test]
    fn the_static_plan_ignores_the_search() {
        let _turn = lock();
        let p = plan(&clock_bound(), 200);
        assert!(!p.adaptive && p.phase_pct == 100);
        let mut moving = SearchProgress::default();
        for i in 0..10u16 {
            moving.record(Pos(i % 2), 500 - 100 * i as Score, 10);
        }
        for pr in [steady(1, 10), steady(30, 10), moving] {
            assert_eq!(p.soft_limit_now(&pr), p.soft_ms);
            assert_eq!(p.next_iter_ms(&pr), 10);
        }
        let mut fast_growing = took(100);
        fast_growing.prev_iter_ms = Some(10);
        // 100 ms more fits before the hard limit: go on, though the ratio
        // says the next would take far longer.
        assert!(p.soft_ms + 100 < p.hard_ms, "{p:?}");
        assert!(!p.stop_iterating(p.soft_ms - 1, &fast_growing));
        assert!(p.stop_iterating(p.soft_ms, &fast_growing));
    }

    #[test]
    fn progress_counts_stability_changes_and_scores() {
        let _turn = lock();
        let mut p = SearchProgress::default();
        p.record(Pos(1), 10, 1);
        assert_eq!(
            (p.iteration, p.stable_iterations, p.best_move_changes),
            (1, 1, 0)
        );
        assert_eq!((p.prev_score, p.prev_iter_ms), (None, None));
        p.record(Pos(1), 20, 2);
        p.record(Pos(2), 5, 4);
        assert_eq!((p.stable_iterations, p.best_move_changes), (1, 1));
        assert_eq!(
            (p.score, p.prev_score, p.prev2_score),
            (5, Some(20), Some(10))
        );
        assert_eq!((p.last_iter_ms, p.prev_iter_ms), (4, Some(2)));
        p.record(Pos(1), 5, 8);
        assert_eq!((p.stable_iterations, p.best_move_changes), (1, 2));
        // Changes older than the window are forgotten.
        for _ in 0..params::TIME_CHANGE_WINDOW() {
            p.record(Pos(1), 5, 8);
        }
        assert_eq!(p.best_move_changes, 0);
        assert_eq!(p.stable_iterations, 1 + params::TIME_CHANGE_WINDOW());
    }

    /// A best move that has held many iterations stops earlier than one
    /// that keeps changing.
    #[test]
    fn a_stable_best_move_stops_earlier_than_an_unstable_one() {
        let _turn = lock();
        let p = plan_with(&clock_bound(), 200, 25, true);
        assert!(p.adaptive && p.soft_ms < p.hard_ms, "{p:?}");
        let stable = steady(20, 1);
        let mut unstable = SearchProgress::default();
        for i in 0..20u16 {
            unstable.record(Pos(i % 3), 50, 1);
        }
        let (s, u) = (p.soft_limit_now(&stable), p.soft_limit_now(&unstable));
        assert!(
            s < p.soft_ms && p.soft_ms < u && u <= p.hard_ms,
            "{s} {u} {p:?}"
        );
        let between = (s + u) / 2;
        assert!(p.stop_iterating(between, &stable));
        assert!(!p.stop_iterating(between, &unstable));
        // Monotone in stability, down to the floor.
        let curve: Vec<u64> = (1..30).map(stability_pct).collect();
        assert!(curve.windows(2).all(|w| w[0] >= w[1]), "{curve:?}");
        assert_eq!(curve[0], 100);
        assert_eq!(*curve.last().unwrap(), params::TIME_STABLE_MIN_PCT());
        assert!(changes_pct(2) > changes_pct(1) && changes_pct(1) > changes_pct(0));
    }

    /// A score that just fell searches on longer; one that rose does not.
    #[test]
    fn a_falling_score_stops_later() {
        let _turn = lock();
        let p = plan_with(&clock_bound(), 200, 25, true);
        let run = |scores: &[Score]| {
            let mut pr = SearchProgress::default();
            for &sc in scores {
                pr.record(Pos(7), sc, 1);
            }
            pr
        };
        let flat = run(&[40, 40, 40]);
        let fell = run(&[40, 40, -160]);
        let rose = run(&[40, 40, 240]);
        assert_eq!(falling_pct(&flat), 100);
        assert_eq!(falling_pct(&rose), 100);
        assert!(falling_pct(&fell) > 100);
        assert!(falling_pct(&run(&[40, 40, -1_000])) <= 100 + params::TIME_FALL_MAX_PCT());
        assert!(falling_pct(&run(&[40, 40, -260])) >= falling_pct(&fell));
        let (f, n) = (p.soft_limit_now(&fell), p.soft_limit_now(&flat));
        assert!(f > n, "{f} {n}");
        assert!(p.stop_iterating(n, &flat) && !p.stop_iterating(n, &fell));
        // A proven result is no fall.
        assert_eq!(
            falling_pct(&run(&[40, 40, -crate::brain::types::MATE + 9])),
            100
        );
    }

    /// The phase curve peaks in the middlegame and falls away from it on
    /// both sides, never below its floor.
    #[test]
    fn the_phase_curve_peaks_in_the_middlegame() {
        let _turn = lock();
        let peak = params::TIME_PHASE_PEAK_STONES() as usize;
        let curve: Vec<u64> = (0..=225).map(phase_pct).collect();
        assert_eq!(curve[peak], params::TIME_PHASE_PEAK_PCT());
        assert!(curve[..=peak].windows(2).all(|w| w[0] <= w[1]), "{curve:?}");
        assert!(curve[peak..].windows(2).all(|w| w[0] >= w[1]), "{curve:?}");
        assert!(curve.iter().all(|&c| c >= params::TIME_PHASE_FLOOR_PCT()));
        assert!(curve[0] < curve[peak] && curve[200] < curve[peak]);
        // A middlegame move gets more time than an opening or endgame one.
        let at = |stones| plan_with(&clock_bound(), 200, stones, true);
        let pr = steady(3, 1);
        let mid = at(peak).soft_limit_now(&pr);
        assert!(mid > at(2).soft_limit_now(&pr) && mid > at(150).soft_limit_now(&pr));
    }

    /// However the search goes, the scaled soft limit stays within its
    /// bounds and never passes the hard limit.
    #[test]
    fn the_scaled_soft_limit_never_passes_the_hard_one() {
        let _turn = lock();
        for l in [
            clock_bound(),
            limits(Some(5_000), Some(120_000), Some(7_000)),
            limits(None, Some(30_000), Some(900)),
        ] {
            for empty in [220, 120, 10] {
                let p = plan_with(&l, empty, 225 - empty, true);
                let mut pr = SearchProgress::default();
                for i in 0..40u16 {
                    // The best move changes every iteration, the score falls.
                    pr.record(Pos(i), 1_000 - 300 * i as Score, 1);
                    let s = p.soft_limit_now(&pr);
                    assert!(s <= p.hard_ms, "{s} {p:?}");
                    assert!(p.stop_iterating(p.hard_ms, &pr));
                    let max = p.soft_ms * params::TIME_SOFT_MAX_PCT() / 100;
                    assert!(s <= max.max(1), "{s} {p:?}");
                }
                let s = p.soft_limit_now(&steady(40, 1));
                assert!(
                    s >= p.soft_ms * params::TIME_SOFT_MIN_PCT() / 100,
                    "{s} {p:?}"
                );
            }
        }
    }

    /// The next iteration is expected to grow as the last two did: one
    /// whose part `TIME_FIT_PCT` would not end before the hard limit is not
    /// started.
    #[test]
    fn the_next_iteration_must_fit_by_the_branching_estimate() {
        let _turn = lock();
        let p = plan_with(&clock_bound(), 200, 25, true);
        let mut pr = steady(6, 10);
        pr.record(Pos(7), 50, 30);
        let ebf = 300u64.clamp(params::TIME_EBF_MIN_PCT(), params::TIME_EBF_MAX_PCT());
        assert_eq!(p.next_iter_ms(&pr), 30 * ebf / 100);
        let mut even = steady(6, 40);
        even.record(Pos(7), 50, 40);
        assert_eq!(p.next_iter_ms(&even), 40 * params::TIME_EBF_MIN_PCT() / 100);
        // Just under the soft limit, with an iteration as long as the last
        // still fitting: the one growing as the last two did is not started,
        // the one as long as the last is.
        let (growing, flat) = (
            |l: u64| {
                let mut g = steady(6, l / 3);
                g.record(Pos(7), 50, l);
                g
            },
            |l: u64| steady(7, l),
        );
        let soft = p.soft_limit_now(&flat(0));
        let fit = params::TIME_FIT_PCT();
        let l = (p.hard_ms - soft) * 9 / 10;
        assert_eq!(p.soft_limit_now(&growing(l)), soft);
        assert_eq!(p.must_fit_ms(&growing(l)), l * ebf / 100 * fit / 100);
        assert!(
            ebf * fit / 100 >= 125 && soft - 1 + l * fit / 100 < p.hard_ms,
            "{p:?}"
        );
        assert!(p.stop_iterating(soft - 1, &growing(l)));
        assert!(!p.stop_iterating(soft - 1, &flat(l)));
        // The static plan wants all of an iteration as long as the last.
        let s = plan(&clock_bound(), 200);
        assert_eq!(s.must_fit_ms(&growing(l)), l);
    }

    /// An ample clock (the turn for every move to go is within it) is used
    /// as a turn limit alone is; a tight one keeps the clock's soft limit.
    #[test]
    fn an_ample_clock_uses_the_turn() {
        let _turn = lock();
        // 1.8 s turns (after the margin), 95 s usable, 20 moves to go by
        // the adaptive plan's guess: the turn for every move to go fits, but
        // half the static plan's share (1.58 s) is below the turn.
        let ample = limits(Some(2_000), Some(100_000), Some(100_000));
        let [s, a] = both(&ample, 200);
        assert!(s.soft_ms < s.hard_ms, "static: {s:?}");
        assert_eq!((a.soft_ms, a.hard_ms), (a.hard_ms, s.hard_ms), "{a:?}");
        assert!(!a.stop_iterating(a.hard_ms - 1, &steady(30, 500)));
        assert!(a.stop_iterating(a.hard_ms, &took(0)));
        // 5 s turns and 60 s left for some 20 moves: the clock binds.
        let tight = plan_with(
            &limits(Some(5_000), Some(120_000), Some(60_000)),
            200,
            25,
            true,
        );
        assert!(tight.soft_ms < tight.hard_ms, "{tight:?}");
    }

    /// A whole clock-bound game, each move spending its soft limit: the
    /// adaptive plan spends more of the clock in a game of typical length
    /// than the static one, and neither runs out in a game of any length.
    #[test]
    fn the_adaptive_plan_spends_more_of_the_clock_and_never_runs_out() {
        let _turn = lock();
        // Fastgame scaled by 4 (1.25 s a move, 30 s a game) and the lower
        // groups' scaled by 10 (3 s, 18 s); 15x15 from 4 stones.
        for (turn, clock) in [(1_250u64, 30_000u64), (3_000, 18_000)] {
            let play = |adaptive: bool, moves: usize| {
                let mut left = clock;
                for m in 0..moves {
                    let stones = 4 + 2 * m;
                    let l = limits(Some(turn), Some(clock), Some(left as i64));
                    let p = plan_with(&l, 225usize.saturating_sub(stones), stones, adaptive);
                    assert!(
                        p.soft_ms <= p.hard_ms && p.hard_ms < left.max(1),
                        "{p:?} {left}"
                    );
                    left -= p.soft_limit_now(&steady(6, 1));
                }
                left
            };
            let (s, a) = (play(false, 25), play(true, 25));
            assert!(a < s, "{turn}/{clock}: adaptive leaves {a} ms, static {s}");
            assert!(
                a > clock / 20,
                "{turn}/{clock}: adaptive leaves only {a} ms"
            );
            for adaptive in [false, true] {
                assert!(play(adaptive, 110) > 0);
            }
        }
        assert!(adaptive_moves_to_go(200) < moves_to_go(200));
        assert!(adaptive_moves_to_go(0) >= params::MTG_MIN().min(params::TIME_MTG_MAX()));
    }

    /// `TIME_ADAPTIVE` chooses the plan `plan` makes (a tuning build sets
    /// it): 0 the static one, 1 the adaptive one, with the same hard limit.
    #[cfg(feature = "tune")]
    #[test]
    fn the_switch_chooses_the_plan() {
        let _turn = lock();
        assert_eq!(params::TIME_ADAPTIVE(), 0);
        let l = clock_bound();
        assert_eq!(super::plan(&l, 200, 25), plan_with(&l, 200, 25, false));
        params::set("TIME_ADAPTIVE", 1.0).unwrap();
        let on = super::plan(&l, 200, 25);
        params::set("TIME_ADAPTIVE", 0.0).unwrap();
        assert_eq!(on, plan_with(&l, 200, 25, true));
        assert!(on.adaptive && on.hard_ms == super::plan(&l, 200, 25).hard_ms);
    }
}
