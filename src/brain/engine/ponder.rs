//! Pondering: thinking on the opponent's time. After we answer a move, the
//! engine may hand its `Searcher` to a background thread that searches the
//! position after the reply we predict (the second move of our principal
//! variation; when the PV has none, the best move of a short search of the
//! opponent's position) with an unlimited request and its own stop flag.
//! This file owns that thread, the prediction and what happens when the
//! opponent's move arrives: on a *hit* (the position is the one being searched) the running
//! search goes on under the new move's time plan; on anything else it is
//! stopped and the searcher (with its warm transposition table) comes back.
//!
//! Nothing here writes to stdout: the ponder search's iterations are kept in
//! `Progress` and logged on stderr; only the engine's answer to a real move
//! reports anything.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::brain::game::rules::{finished, is_legal};
use crate::brain::game::{Board, Pos};
use crate::brain::search::time::{SearchProgress, TimePlan};
use crate::brain::search::{SearchInfo, SearchRequest, SearchResult, Searcher};

/// Depth cap of a ponder search when the manager set none: deeper than any
/// search reaches (the searcher caps it at its own maximum ply anyway). A
/// ponder search is untimed: only this, a node limit or the stop flag ends it.
pub const PONDER_MAX_DEPTH: u32 = 1_000;

/// How often the engine looks at the clock while waiting for a ponder hit
/// to finish.
const POLL: Duration = crate::brain::search::params::PONDER_POLL;

/// What to ponder after our move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The opponent's predicted reply; we search the position after it.
    Reply(Pos),
    /// No usable prediction from the PV: a short search of the position
    /// with the opponent to move guesses the reply; failing that, the
    /// opponent's position is searched (no hit possible, the table warms).
    OpponentToMove,
    /// The game is over (or the board full): nothing to think about.
    Nothing,
}

/// Choose what to ponder. `after` is the board after our move `ours`; `pv`
/// is the principal variation of the search that chose it (`pv[0]` should be
/// `ours`, `pv[1]` the opponent's best reply).
pub fn target(after: &Board, ours: Pos, pv: &[Pos]) -> Target {
    if after.is_full() || finished(after).is_some() {
        return Target::Nothing;
    }
    let reply = match pv {
        [first, reply, ..] if *first == ours => *reply,
        _ => return Target::OpponentToMove,
    };
    if usable_reply(after, reply) {
        Target::Reply(reply)
    } else {
        Target::OpponentToMove
    }
}

/// May the opponent play `reply` on `after`, leaving us a move to think
/// about (a reply that ends the game leaves none)?
fn usable_reply(after: &Board, reply: Pos) -> bool {
    if !is_legal(after, reply) {
        return false;
    }
    let mut next = after.clone();
    next.play(reply);
    !(next.is_full() || finished(&next).is_some())
}

/// Node budget of the short search that guesses the reply when the PV has
/// none (some 0.1 s; it also warms the table for the opponent's position).
pub const GUESS_NODES: u64 = crate::brain::search::params::PONDER_GUESS_NODES;

/// The opponent's best move on `after` by a short search, if usable.
fn guess_reply(
    searcher: &mut Searcher,
    after: &Board,
    stop: &Arc<AtomicBool>,
    max_nodes: Option<u64>,
) -> Option<Pos> {
    let req = SearchRequest {
        stop: stop.clone(),
        ..SearchRequest::untimed(
            Some(PONDER_MAX_DEPTH),
            Some(max_nodes.map_or(GUESS_NODES, |n| n.min(GUESS_NODES))),
        )
    };
    let r = searcher.search(&mut after.clone(), &req, &mut |_: &SearchInfo| {});
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    usable_reply(after, r.best).then_some(r.best)
}

/// What the ponder thread shares with the engine.
#[derive(Default)]
struct Progress {
    /// The predicted reply and the position after it, once known.
    target: Option<(Board, Pos)>,
    /// The last completed iteration of the search after the predicted reply
    /// (elapsed counts from that search's start).
    last: Option<SearchInfo>,
    /// What the time plan reads of the completed iterations (iteration
    /// times from the differences of their `elapsed`).
    search: SearchProgress,
    /// Set on a hit: the move's clock start and time plan; stop after the
    /// first iteration after which the plan says to stop iterating.
    hit_plan: Option<(Instant, TimePlan)>,
    /// The search has ended (by itself or stopped).
    finished: bool,
}

fn lock(m: &Mutex<Progress>) -> MutexGuard<'_, Progress> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the ponder thread hands back when its search ends.
struct Done {
    /// None when the search panicked (the engine builds a new searcher).
    searcher: Option<Searcher>,
    /// None when stopped while guessing the reply.
    result: Option<SearchResult>,
}

/// How a ponder hit went, for the log and the MESSAGE line.
#[derive(Clone, Debug)]
pub struct HitReport {
    /// Depth the ponder search had completed when the move arrived.
    pub depth_at_hit: u32,
    /// Ponder time spent before the move arrived, ms.
    pub ponder_ms: u64,
    /// Depth of the answer.
    pub depth: u32,
    /// From the move's arrival to the answer, ms.
    pub turn_ms: u64,
}

/// A running ponder search.
pub struct Ponder {
    stop: Arc<AtomicBool>,
    progress: Arc<Mutex<Progress>>,
    rx: Receiver<Done>,
    handle: Option<JoinHandle<()>>,
    started: Instant,
}

impl Ponder {
    /// Start pondering `target` after our move (`after` = the board after
    /// it), moving the searcher out of `slot` onto the ponder thread.
    /// `max_depth` and `max_nodes` are the manager's limits, if any. None
    /// when there is nothing to search or no searcher (the slot is left as
    /// it was), or when no thread could be started (the searcher went with
    /// it; the engine builds a new one).
    pub fn start(
        slot: &mut Option<Searcher>,
        after: &Board,
        target: Target,
        max_depth: Option<u32>,
        max_nodes: Option<u64>,
    ) -> Option<Ponder> {
        let mut board = after.clone();
        let mut progress = Progress::default();
        let guess = match target {
            Target::Nothing => return None,
            Target::OpponentToMove => true,
            Target::Reply(p) => {
                board.play(p);
                progress.target = Some((board.clone(), p));
                false
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new(progress));
        let (tx, rx) = channel();
        let started = Instant::now();
        let (thread_progress, thread_stop) = (progress.clone(), stop.clone());
        let mut searcher = slot.take()?;
        let spawned = thread::Builder::new().name("ponder".into()).spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| {
                if guess {
                    let reply = guess_reply(&mut searcher, &board, &thread_stop, max_nodes);
                    if thread_stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    if let Some(p) = reply {
                        board.play(p);
                        lock(&thread_progress).target = Some((board.clone(), p));
                    }
                }
                let req = SearchRequest {
                    stop: thread_stop.clone(),
                    ..SearchRequest::untimed(Some(max_depth.unwrap_or(PONDER_MAX_DEPTH)), max_nodes)
                };
                let r = searcher.search(&mut board, &req, &mut |info: &SearchInfo| {
                    let mut g = lock(&thread_progress);
                    log::debug!(
                        "ponder depth {} score {} nodes {} time {} ms",
                        info.depth,
                        info.score,
                        info.nodes,
                        info.elapsed.as_millis()
                    );
                    let last_iter = g
                        .last
                        .as_ref()
                        .map_or(info.elapsed, |l| info.elapsed.saturating_sub(l.elapsed));
                    let best = info.pv.first().copied().unwrap_or(Pos::NONE);
                    g.search
                        .record(best, info.score, last_iter.as_millis() as u64);
                    if let Some((turn_start, plan)) = g.hit_plan {
                        let elapsed = turn_start.elapsed().as_millis() as u64;
                        if plan.stop_iterating(elapsed, &g.search) {
                            thread_stop.store(true, Ordering::Relaxed);
                        }
                    }
                    g.last = Some(info.clone());
                });
                Some(r)
            }));
            let done = match result {
                Ok(r) => Done {
                    searcher: Some(searcher),
                    result: r,
                },
                Err(_) => {
                    log::error!("ponder search panicked");
                    Done {
                        searcher: None,
                        result: None,
                    }
                }
            };
            lock(&thread_progress).finished = true;
            let _ = tx.send(done);
        });
        match spawned {
            Ok(handle) => Some(Ponder {
                stop,
                progress,
                rx,
                handle: Some(handle),
                started,
            }),
            Err(e) => {
                log::warn!("could not start the ponder thread: {e}");
                None
            }
        }
    }

    /// The reply we predicted (None: none yet, or pondering with the
    /// opponent to move).
    pub fn predicted(&self) -> Option<Pos> {
        lock(&self.progress).target.as_ref().map(|t| t.1)
    }

    /// Is the ponder search looking at exactly `board` (same stones, same
    /// side to move, same rules), with a predicted reply that led there?
    pub fn is_hit(&self, board: &Board) -> bool {
        let g = lock(&self.progress);
        let Some((b, _)) = &g.target else {
            return false;
        };
        board.hash() == b.hash()
            && board.stone_count() == b.stone_count()
            && board.to_move() == b.to_move()
            && board.rules() == b.rules()
            && board.width() == b.width()
            && board.height() == b.height()
    }

    /// Depth completed so far (0: not one iteration yet).
    pub fn depth(&self) -> u32 {
        lock(&self.progress).last.as_ref().map_or(0, |i| i.depth)
    }

    /// One line for YXSHOWINFO: what is pondered and how far it got.
    pub fn describe(&self) -> String {
        let g = lock(&self.progress);
        let what = match &g.target {
            Some((b, p)) => {
                let (x, y) = b.xy(*p);
                format!("{x},{y}")
            }
            None => "opponent to move".into(),
        };
        let depth = g.last.as_ref().map_or(0, |i| i.depth);
        let state = if g.finished { "finished" } else { "running" };
        format!("ponder {what} depth {depth} {state}")
    }

    /// Stop the search and take the searcher back (None if it panicked).
    /// Takes as long as the search needs to notice its stop flag.
    pub fn stop(mut self) -> Option<Searcher> {
        self.stop.store(true, Ordering::Relaxed);
        let done = self.rx.recv().ok();
        self.join();
        done.and_then(|d| d.searcher)
    }

    /// A hit: let the search go on under this move's `plan`, whose clock
    /// starts at `turn_start` (when the move arrived), and return the
    /// searcher and the result. As in a normal search, the first iteration
    /// after which the plan says to stop iterating (`TimePlan::stop_iterating`,
    /// on the ponder search's iterations) stops it, and the hard limit or
    /// `turn_stop` (YXSTOP) stops it at once; the head start from pondering
    /// makes it deeper. It answers at once when the ponder search has ended
    /// by itself (proven result, depth or node limit), or when it has
    /// already completed an iteration later than the plan's hard limit on the
    /// ponder clock: no search of this move could have gone deeper.
    pub fn finish_hit(
        mut self,
        plan: TimePlan,
        turn_start: Instant,
        turn_stop: &AtomicBool,
    ) -> (Option<Searcher>, Option<SearchResult>, HitReport) {
        let (depth_at_hit, ponder_ms) = {
            let mut g = lock(&self.progress);
            let ponder_ms = self.started.elapsed().as_millis() as u64;
            let done_iter_ms = g.last.as_ref().map(|i| i.elapsed.as_millis() as u64);
            let enough = !plan.unlimited && done_iter_ms.is_some_and(|ms| ms >= plan.hard_ms);
            if plan.instant || enough {
                self.stop.store(true, Ordering::Relaxed);
            } else if !plan.unlimited {
                g.hit_plan = Some((turn_start, plan));
            }
            (g.last.as_ref().map_or(0, |i| i.depth), ponder_ms)
        };
        let hard = if plan.unlimited {
            u64::MAX
        } else {
            plan.hard_ms
        };
        let done = loop {
            match self.rx.recv_timeout(POLL) {
                Ok(d) => break Some(d),
                Err(RecvTimeoutError::Timeout) => {
                    let due = turn_stop.load(Ordering::Relaxed)
                        || turn_start.elapsed().as_millis() as u64 >= hard;
                    if due && !self.stop.swap(true, Ordering::Relaxed) {
                        log::debug!(
                            "ponder hit: stopped at {} ms",
                            turn_start.elapsed().as_millis()
                        );
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break None,
            }
        };
        log::debug!(
            "ponder hit: search ended at {} ms",
            turn_start.elapsed().as_millis()
        );
        self.join();
        let (searcher, result) = match done {
            Some(d) => (d.searcher, d.result),
            None => (None, None),
        };
        let report = HitReport {
            depth_at_hit,
            ponder_ms,
            depth: result.as_ref().map_or(0, |r| r.depth),
            turn_ms: turn_start.elapsed().as_millis() as u64,
        };
        (searcher, result, report)
    }

    fn join(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Ponder {
    /// A ponder never outlives its engine: stop and wait (end of input).
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::types::RuleSet;

    fn board(text: &str, rules: RuleSet) -> Board {
        Board::from_ascii(text, rules).unwrap()
    }

    const POS: &str = "\
.........
.........
.........
...XO....
....X....
.........
.........
.........
.........
";

    #[test]
    fn the_second_pv_move_is_the_prediction() {
        let mut b = board(POS, RuleSet::default());
        // White to move (3 stones): our move, then the predicted reply.
        let ours = b.pos(5, 5).unwrap();
        let reply = b.pos(3, 5).unwrap();
        b.play(ours);
        assert_eq!(target(&b, ours, &[ours, reply]), Target::Reply(reply));
        assert_eq!(
            target(&b, ours, &[ours, reply, b.pos(0, 0).unwrap()]),
            Target::Reply(reply)
        );
    }

    #[test]
    fn unusable_pvs_ponder_with_the_opponent_to_move() {
        let mut b = board(POS, RuleSet::default());
        let ours = b.pos(5, 5).unwrap();
        b.play(ours);
        let free = b.pos(3, 5).unwrap();
        let taken = b.pos(4, 4).unwrap();
        // Too short, not starting with our move, or an occupied/off-board reply.
        assert_eq!(target(&b, ours, &[]), Target::OpponentToMove);
        assert_eq!(target(&b, ours, &[ours]), Target::OpponentToMove);
        assert_eq!(target(&b, ours, &[free, ours]), Target::OpponentToMove);
        assert_eq!(target(&b, ours, &[ours, taken]), Target::OpponentToMove);
        assert_eq!(target(&b, ours, &[ours, ours]), Target::OpponentToMove);
        assert_eq!(target(&b, ours, &[ours, Pos::NONE]), Target::OpponentToMove);
    }

    #[test]
    fn no_pondering_once_the_game_is_over() {
        // Our (Black's) move makes five: nothing to ponder.
        let mut b = board(
            "\
.........
XXXX.....
OOOO.....
.........
.........
.........
.........
.........
.........
",
            RuleSet::default(),
        );
        let five = b.pos(4, 1).unwrap();
        b.play(five);
        let any = b.pos(7, 7).unwrap();
        assert_eq!(target(&b, five, &[five, any]), Target::Nothing);
        // A predicted reply that makes their five: ponder without it.
        let mut b = board(
            "\
.........
XXX.....X
OOOO.....
.........
.........
.........
.........
.........
.........
",
            RuleSet::default(),
        );
        // 4 X, 4 O: Black (us) to move; White's reply at 4,2 makes five.
        let ours = b.pos(8, 8).unwrap();
        b.play(ours);
        let their_five = b.pos(4, 2).unwrap();
        assert_eq!(
            target(&b, ours, &[ours, their_five]),
            Target::OpponentToMove
        );
        let other = b.pos(6, 6).unwrap();
        assert_eq!(target(&b, ours, &[ours, other]), Target::Reply(other));
    }

    /// Black stones making 4,4 a double three (row 4 and column 4).
    const DOUBLE_THREE_AT_4_4: &str = "\
O.......O
.........
....X....
....X....
..XX.....
.........
.........
.........
O........
";

    #[test]
    fn renju_forbidden_predictions_are_refused() {
        // 4 X, 3 O: White (us) to move; then Black may not play the double
        // three at 4,4 (row 4: 2,3,4; column 4: 2,3,4).
        let rules = RuleSet::from_bits(4);
        let mut b = board(DOUBLE_THREE_AT_4_4, rules);
        let ours = b.pos(8, 8).unwrap();
        b.play(ours);
        let double_three = b.pos(4, 4).unwrap();
        assert!(crate::brain::game::rules::is_forbidden(&b, double_three));
        assert_eq!(
            target(&b, ours, &[ours, double_three]),
            Target::OpponentToMove
        );
        // The same point is fine for Black under freestyle.
        let mut b = board(DOUBLE_THREE_AT_4_4, RuleSet::default());
        b.play(ours);
        assert_eq!(
            target(&b, ours, &[ours, double_three]),
            Target::Reply(double_three)
        );
    }
}
