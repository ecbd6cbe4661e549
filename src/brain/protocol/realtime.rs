//! Live thinking for Yixin-Board (`INFO show_detail`): which of a search's
//! reports become lines. `ShowDetail` is the setting (detail: the MESSAGE
//! line of each iteration, shown unless the GUI turns it off; realtime: the
//! `MESSAGE REALTIME …` lines, off unless asked for), `Realtime` the rate
//! limit of one search's realtime lines.
//!
//! Realtime lines, as Yixin-Board reads them: `POS x,y` when the main
//! thread starts on a root move and `DONE x,y` when it leaves it, then
//! `LOST x,y` if that move is proven lost or `BEST x,y` if it is the best so
//! far; `REFRESH` and `BEST x,y` (the iteration's move) after each completed
//! iteration. So that a fast search does not flood the pipe, nothing is
//! shown below depth `MIN_DEPTH` nor before the move has run `MIN_MS` (the
//! GUI needs no live view of a search it never sees); after that a root
//! move's `POS` is shown only `GAP_MS` or more after the last one shown
//! (its `DONE` always follows it), `BEST` only when the best move changes,
//! `LOST` always. A search of a few seconds so sends some tens of lines a
//! second, where every root move would be a thousand.

use std::time::{Duration, Instant};

use crate::brain::engine::SearchInfo;
use crate::brain::engine::{RootEvent, RootEventKind};
use crate::brain::game::{Board, Pos};

/// No realtime line for iterations shallower than this.
pub const MIN_DEPTH: u32 = 6;
/// No per-root-move line before the move has run this long.
pub const MIN_MS: u64 = 200;
/// At least this long between two root moves' POS lines.
pub const GAP_MS: u64 = 100;

/// `INFO show_detail`: what the GUI wants to see of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShowDetail {
    /// The `MESSAGE REALTIME …` lines.
    pub realtime: bool,
    /// The MESSAGE line of each iteration (depth, score, nodes, speed,
    /// time, PV).
    pub detail: bool,
}

impl Default for ShowDetail {
    /// Detail only: what a manager that never sends show_detail has
    /// always seen.
    fn default() -> Self {
        ShowDetail {
            realtime: false,
            detail: true,
        }
    }
}

impl ShowDetail {
    /// `INFO show_detail` 0 (none), 1 (realtime), 2 (detail), 3 (both);
    /// None for any other value.
    pub fn from_code(v: i64) -> Option<ShowDetail> {
        (0..=3).contains(&v).then_some(ShowDetail {
            realtime: v & 1 != 0,
            detail: v & 2 != 0,
        })
    }

    /// The code `from_code` reads.
    pub fn code(self) -> u8 {
        self.realtime as u8 | (self.detail as u8) << 1
    }
}

/// The realtime lines of one search whose clock started at `start`.
#[derive(Clone, Debug)]
pub struct Realtime {
    start: Instant,
    /// When the last POS line was shown.
    last_pos: Option<Instant>,
    /// The root move whose POS was shown and whose DONE is due.
    open: Option<Pos>,
    /// The last BEST shown since the last REFRESH.
    best: Option<Pos>,
}

fn xy(board: &Board, p: Pos) -> Option<String> {
    board.in_board(p).then(|| {
        let (x, y) = board.xy(p);
        format!("{x},{y}")
    })
}

impl Realtime {
    pub fn new(start: Instant) -> Self {
        Realtime {
            start,
            last_pos: None,
            open: None,
            best: None,
        }
    }

    /// The line of a root move's event seen at `now`, if it is shown.
    pub fn root_line(&mut self, view: &Board, ev: RootEvent, now: Instant) -> Option<String> {
        let early = now.saturating_duration_since(self.start) < Duration::from_millis(MIN_MS);
        if ev.depth < MIN_DEPTH || early {
            return None;
        }
        let kind = match ev.kind {
            RootEventKind::Searching => {
                let due = self.last_pos.is_none_or(|t| {
                    now.saturating_duration_since(t) >= Duration::from_millis(GAP_MS)
                });
                if !due {
                    return None;
                }
                self.last_pos = Some(now);
                self.open = Some(ev.mv);
                "POS"
            }
            RootEventKind::Done => {
                if self.open.take() != Some(ev.mv) {
                    return None;
                }
                "DONE"
            }
            RootEventKind::Lost => "LOST",
            RootEventKind::Best => {
                if self.best == Some(ev.mv) {
                    return None;
                }
                self.best = Some(ev.mv);
                "BEST"
            }
        };
        Some(format!("REALTIME {kind} {}", xy(view, ev.mv)?))
    }

    /// The lines after a completed iteration: REFRESH and its best move
    /// (a POS still open is closed first).
    pub fn iteration_lines(&mut self, view: &Board, info: &SearchInfo) -> Vec<String> {
        let first = info.pv.first().copied();
        match first.and_then(|p| xy(view, p)) {
            Some(best) if info.depth >= MIN_DEPTH => {
                self.best = first;
                let mut lines: Vec<String> = self
                    .open
                    .take()
                    .and_then(|p| xy(view, p))
                    .map(|p| format!("REALTIME DONE {p}"))
                    .into_iter()
                    .collect();
                lines.push("REALTIME REFRESH".into());
                lines.push(format!("REALTIME BEST {best}"));
                lines
            }
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::types::RuleSet;

    #[test]
    fn show_detail_codes() {
        assert_eq!(ShowDetail::default().code(), 2);
        for v in 0..=3 {
            assert_eq!(ShowDetail::from_code(v).unwrap().code() as i64, v);
        }
        assert!(!ShowDetail::from_code(0).unwrap().detail);
        assert!(ShowDetail::from_code(1).unwrap().realtime);
        assert_eq!(ShowDetail::from_code(4), None);
        assert_eq!(ShowDetail::from_code(-1), None);
    }

    /// Lines are held back below `MIN_DEPTH` and, per move, before
    /// `MIN_MS` (a clock passed in, so no test waits).
    #[test]
    fn shallow_or_early_searches_show_nothing() {
        let b = Board::square(15, RuleSet::default()).unwrap();
        let start = Instant::now();
        let mut rt = Realtime::new(start);
        let mv = b.pos(3, 4).unwrap();
        let ev = |kind, depth| RootEvent { kind, mv, depth };
        let late = start + Duration::from_millis(MIN_MS);
        let early = start + Duration::from_millis(MIN_MS - 1);
        assert_eq!(
            rt.root_line(&b, ev(RootEventKind::Searching, MIN_DEPTH), late)
                .as_deref(),
            Some("REALTIME POS 3,4")
        );
        assert_eq!(
            rt.root_line(&b, ev(RootEventKind::Done, MIN_DEPTH), late)
                .as_deref(),
            Some("REALTIME DONE 3,4")
        );
        assert_eq!(
            rt.root_line(&b, ev(RootEventKind::Lost, MIN_DEPTH), late)
                .as_deref(),
            Some("REALTIME LOST 3,4")
        );
        assert_eq!(
            rt.root_line(&b, ev(RootEventKind::Done, MIN_DEPTH - 1), late),
            None
        );
        assert_eq!(
            rt.root_line(&b, ev(RootEventKind::Best, MIN_DEPTH), early),
            None
        );
        let info = |depth| SearchInfo {
            depth,
            score: 0,
            nodes: 1,
            elapsed: Duration::ZERO,
            pv: vec![mv],
        };
        assert_eq!(
            rt.iteration_lines(&b, &info(MIN_DEPTH)),
            vec!["REALTIME REFRESH", "REALTIME BEST 3,4"]
        );
        assert!(rt.iteration_lines(&b, &info(MIN_DEPTH - 1)).is_empty());
    }

    /// Past the start, POS lines come at most one per `GAP_MS`, each
    /// followed by its DONE; moves in between show nothing; BEST only when
    /// the best move changes (again after a REFRESH).
    #[test]
    fn a_fast_search_is_thinned_out() {
        let b = Board::square(15, RuleSet::default()).unwrap();
        let start = Instant::now();
        let mut rt = Realtime::new(start);
        let at = |ms| start + Duration::from_millis(MIN_MS + ms);
        let mut lines = Vec::new();
        // 50 root moves 10 ms apart: 500 ms.
        for i in 0..50u64 {
            let mv = b.pos(i as i64 % 15, i as i64 / 15).unwrap();
            for kind in [
                RootEventKind::Searching,
                RootEventKind::Done,
                RootEventKind::Best,
            ] {
                let ev = RootEvent {
                    kind,
                    mv: if kind == RootEventKind::Best {
                        b.pos(7, 7).unwrap()
                    } else {
                        mv
                    },
                    depth: MIN_DEPTH,
                };
                lines.extend(rt.root_line(&b, ev, at(i * 10)));
            }
        }
        let pos: Vec<&String> = lines.iter().filter(|l| l.contains("POS")).collect();
        assert_eq!(pos.len(), 5, "{lines:?}");
        assert_eq!(pos[1], "REALTIME POS 10,0");
        let done = lines.iter().filter(|l| l.contains("DONE")).count();
        assert_eq!(done, 5);
        let best: Vec<&String> = lines.iter().filter(|l| l.contains("BEST")).collect();
        assert_eq!(best, vec!["REALTIME BEST 7,7"]);
        let info = SearchInfo {
            depth: MIN_DEPTH,
            score: 0,
            nodes: 1,
            elapsed: Duration::ZERO,
            pv: vec![b.pos(7, 7).unwrap()],
        };
        rt.iteration_lines(&b, &info);
        let ev = RootEvent {
            kind: RootEventKind::Best,
            mv: b.pos(8, 8).unwrap(),
            depth: MIN_DEPTH,
        };
        assert_eq!(
            rt.root_line(&b, ev, at(600)).as_deref(),
            Some("REALTIME BEST 8,8")
        );
    }
}
