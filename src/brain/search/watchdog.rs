//! Watchdog: a small timer thread per search that raises the search's own
//! stop flag at the hard deadline, or as soon as the caller's stop flag is
//! raised. Every part of the search (alpha-beta, the threat solver) polls
//! that one flag, so none of them can run past the deadline on its own
//! node budget, even when a busy machine slows the search down.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Instant;

use super::params;

pub struct Watchdog {
    flag: Arc<AtomicBool>,
    done: Arc<(Mutex<bool>, Condvar)>,
}

impl Watchdog {
    /// Start watching: `outer` is the caller's stop flag (END, YXSTOP),
    /// `deadline` the hard limit (None: only mirror `outer`).
    pub fn start(outer: Arc<AtomicBool>, deadline: Option<Instant>) -> Watchdog {
        let flag = Arc::new(AtomicBool::new(outer.load(Ordering::Relaxed)));
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let (f, d) = (flag.clone(), done.clone());
        let spawned = thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || watch(&outer, deadline, &f, &d));
        if let Err(e) = spawned {
            // Without a timer the search still reads the clock itself.
            log::warn!("could not start the search watchdog: {e}");
        }
        Watchdog { flag, done }
    }

    /// The flag the search must poll.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }
}

fn watch(
    outer: &AtomicBool,
    deadline: Option<Instant>,
    flag: &AtomicBool,
    done: &(Mutex<bool>, Condvar),
) {
    let (lock, cv) = done;
    let mut finished = match lock.lock() {
        Ok(g) => g,
        Err(_) => return,
    };
    loop {
        if *finished {
            return;
        }
        if outer.load(Ordering::Relaxed) {
            break;
        }
        let now = Instant::now();
        let wait = match deadline {
            Some(d) if d <= now => break,
            Some(d) => (d - now).min(params::WATCHDOG_POLL),
            None => params::WATCHDOG_POLL,
        };
        finished = match cv.wait_timeout(finished, wait) {
            Ok((g, _)) => g,
            Err(_) => return,
        };
    }
    flag.store(true, Ordering::Relaxed);
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let (lock, cv) = &*self.done;
        if let Ok(mut g) = lock.lock() {
            *g = true;
        }
        cv.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn wait_for(flag: &AtomicBool) -> bool {
        // Generous: only proves the flag gets raised, not how fast.
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if flag.load(Ordering::Relaxed) {
                return true;
            }
            thread::sleep(Duration::from_millis(1));
        }
        false
    }

    #[test]
    fn raises_the_flag_at_the_deadline() {
        let outer = Arc::new(AtomicBool::new(false));
        let start = Instant::now();
        let w = Watchdog::start(outer.clone(), Some(start + Duration::from_millis(20)));
        assert!(wait_for(w.flag()));
        assert!(start.elapsed() >= Duration::from_millis(20));
        assert!(
            !outer.load(Ordering::Relaxed),
            "the caller's flag is not touched"
        );
    }

    #[test]
    fn mirrors_the_callers_stop() {
        let outer = Arc::new(AtomicBool::new(false));
        let w = Watchdog::start(outer.clone(), None);
        assert!(!w.flag().load(Ordering::Relaxed));
        outer.store(true, Ordering::Relaxed);
        assert!(wait_for(w.flag()));
    }

    #[test]
    fn a_finished_search_is_left_alone() {
        let outer = Arc::new(AtomicBool::new(false));
        let w = Watchdog::start(outer, Some(Instant::now() + Duration::from_millis(500)));
        let flag = w.flag.clone();
        drop(w);
        thread::sleep(Duration::from_millis(700));
        assert!(!flag.load(Ordering::Relaxed));
    }
}
