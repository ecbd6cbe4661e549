//! Time manager: turns the manager's limits (timeout_turn, timeout_match,
//! time_left) into a per-move plan: an optimum ("soft": do not start another
//! iteration after this) and a maximum ("hard": abort the search). Both are
//! pure functions of the limits and elapsed time, so they are tested without
//! sleeping; the searcher reads the clock.
//!
//! With a game clock, the soft limit is half the move's share of the clock,
//! and after each iteration a new one is started within the soft limit only
//! if it could end before the hard limit, i.e. if one more iteration as long
//! as the last one still fits (the next one is usually longer): time not spent
//! is saved for later moves. Time a turn limit alone gives is not saved for
//! later moves, so when the turn limit binds (alone, or tighter than the
//! clock's share) the soft limit is the hard one and iterating goes on until
//! the hard limit cuts an iteration: the cut iteration still plays a root move
//! that had already beaten the first move searched at that depth. Moves with a
//! single legal reply, or whose result is proven, answer at once.
//!
//! Safety: the turn limit is cut by max(40 ms, 10 %), the game clock by
//! max(50 ms, 5 %) and never more than a third of what is left is spent on one
//! move, because managers measure from when they sent the command and the
//! machine may be busy (GomocupJudge kills a brain one second after its time
//! is up). A watchdog thread (`search::watchdog`) raises the stop flag at the
//! hard limit, so no part of the search can overrun on a busy machine.
//! `timeout_turn 0` answers at once; `max_depth` and `max_node` are honoured,
//! and with no time control at all a turn of 5 s is assumed. (These numbers,
//! the moves-to-go bounds and the soft-limit fractions live in `params`.)

use std::time::Instant;

use super::params;

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
    /// Do not start a new iteration once this much time is used.
    pub soft_ms: u64,
    /// Abort the search at this point.
    pub hard_ms: u64,
    /// `timeout_turn 0`: answer at once (one shallow iteration, no clock).
    pub instant: bool,
    /// No time limit at all (only depth/node limits or a stop command).
    pub unlimited: bool,
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

/// Estimate of how many more moves we will have to make.
pub fn moves_to_go(empty_cells: usize) -> u64 {
    ((empty_cells / params::MTG_EMPTY_PER_MOVE()) as u64)
        .clamp(params::MTG_MIN(), params::MTG_MAX())
}

/// Build the plan for one move. `empty_cells` feeds the moves-to-go estimate.
pub fn plan(limits: &Limits, empty_cells: usize) -> TimePlan {
    if limits.turn_ms == Some(0) {
        return TimePlan {
            soft_ms: 0,
            hard_ms: 0,
            instant: true,
            unlimited: false,
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
        let s = (per_move / params::SOFT_PER_MOVE_DIVISOR()).max(1);
        soft = Some(soft.map_or(s, |x| x.min(s)));
    }
    match (soft, hard) {
        (Some(s), Some(h)) => TimePlan {
            soft_ms: s.min(h),
            hard_ms: h,
            instant: false,
            unlimited: false,
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
    };

    /// After a completed iteration that took `last_iter_ms`: is it time to
    /// answer? With only a turn limit, only at the hard limit. With a game
    /// clock, yes past the soft limit, or when even an iteration no longer
    /// than the last one (the next usually takes longer) would pass the hard
    /// limit: time not spent there is saved for later moves.
    pub fn stop_iterating(&self, elapsed_ms: u64, last_iter_ms: u64) -> bool {
        if self.unlimited {
            return false;
        }
        if self.soft_ms >= self.hard_ms {
            // The turn limit binds (alone, or tighter than the clock's
            // share): time not used now cannot be spent later past the
            // turn limit, and a cut iteration still plays a move that beat
            // the last one's best.
            return elapsed_ms >= self.hard_ms;
        }
        elapsed_ms >= self.soft_ms || elapsed_ms.saturating_add(last_iter_ms) >= self.hard_ms
    }

    /// During the search: must we abort now?
    pub fn out_of_time(&self, elapsed_ms: u64) -> bool {
        !self.unlimited && !self.instant && elapsed_ms >= self.hard_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(turn: Option<u64>, matchm: Option<u64>, left: Option<i64>) -> Limits {
        Limits {
            turn_ms: turn,
            match_ms: matchm,
            time_left_ms: left,
            ..Limits::default()
        }
    }

    /// A Fischer increment is spent on top of the clock's share, within
    /// the same cap of a third of what is left.
    #[test]
    fn an_increment_adds_to_each_move() {
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
        assert!(plan(&short, 200).hard_ms <= 1_000);
    }

    #[test]
    fn turn_limit_keeps_a_margin() {
        for turn in [50u64, 100, 1_000, 5_000, 30_000] {
            let p = plan(&limits(Some(turn), None, None), 200);
            assert!(p.hard_ms + 40 <= turn, "{turn}: {p:?}");
            assert!(p.hard_ms * 10 <= turn * 9, "{turn}: {p:?}");
            assert!(p.soft_ms <= p.hard_ms);
            if turn >= 100 {
                assert!(p.hard_ms >= turn / 2, "uses most of the turn: {p:?}");
            }
            assert!(!p.stop_iterating(0, 0));
            assert!(p.out_of_time(p.hard_ms));
            assert!(!p.out_of_time(p.hard_ms - 1));
        }
    }

    #[test]
    fn zero_turn_answers_at_once() {
        let p = plan(&limits(Some(0), Some(100_000), Some(50_000)), 200);
        assert!(p.instant);
        assert!(p.stop_iterating(0, 0));
    }

    #[test]
    fn game_clock_bounds_every_move() {
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

    #[test]
    fn unlimited_clock_uses_the_turn() {
        let p = plan(&limits(Some(1_000), Some(0), Some(UNLIMITED_LEFT)), 200);
        assert_eq!(p.hard_ms, 900);
        let q = plan(&limits(Some(1_000), None, None), 200);
        assert_eq!(p, q);
    }

    #[test]
    fn a_turn_limit_alone_is_used_to_the_hard_limit() {
        let p = plan(&limits(Some(500), None, None), 200);
        assert_eq!((p.soft_ms, p.hard_ms), (450, 450));
        // 200 ms used, the last iteration took 100: one more fits.
        assert!(!p.stop_iterating(200, 100));
        // 300 ms used, the last took 160: it would not end, but time not
        // used now is lost and a cut iteration still plays a better move.
        assert!(!p.stop_iterating(300, 160));
        assert!(!p.stop_iterating(449, 1_000));
        assert!(p.stop_iterating(450, 0));
        // With a game clock the soft limit stays below the hard one.
        let q = plan(&limits(Some(5_000), Some(180_000), Some(180_000)), 200);
        assert!(q.soft_ms < q.hard_ms, "{q:?}");
        assert!(q.stop_iterating(q.soft_ms, 0));
        assert!(!q.stop_iterating(q.soft_ms - 1, 0));
    }

    #[test]
    fn match_time_without_time_left_is_used() {
        let p = plan(&limits(None, Some(60_000), None), 200);
        assert!(!p.unlimited);
        assert!(p.hard_ms <= 20_000 && p.soft_ms < p.hard_ms, "{p:?}");
    }

    #[test]
    fn depth_or_node_limits_alone_are_untimed() {
        let mut l = limits(None, None, None);
        l.max_depth = Some(4);
        let p = plan(&l, 200);
        assert!(
            p.unlimited
                && !p.stop_iterating(u64::MAX - 1, u64::MAX - 1)
                && !p.out_of_time(u64::MAX)
        );
        let p = plan(&limits(None, None, None), 200);
        assert!(!p.unlimited && p.hard_ms < params::DEFAULT_TURN_MS());
    }

    #[test]
    fn fewer_empty_cells_mean_more_time_per_move() {
        let early = plan(&limits(None, Some(100_000), Some(100_000)), 220);
        let late = plan(&limits(None, Some(100_000), Some(100_000)), 30);
        assert!(late.soft_ms > early.soft_ms);
    }
}
