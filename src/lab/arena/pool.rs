//! The game pool shared by matches and tournaments: worker threads play
//! games that the caller's thread hands out one at a time, reading each
//! result before it hands out another, so that no game starts once a stop
//! rule (SPRT, rating width) has fired. Each worker has a scratch folder for
//! `INFO folder`, removed when the pool finishes.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

pub struct Pool<T> {
    job_tx: Option<Sender<usize>>,
    rx: Receiver<T>,
    handles: Vec<JoinHandle<()>>,
    folders: Vec<PathBuf>,
    sent: usize,
    received: usize,
    total: usize,
}

impl<T: Send + 'static> Pool<T> {
    /// Start `workers` threads (at least one, at most `total`), named
    /// `NAME-W`, and hand out the first game to each. `play(k, folder)`
    /// plays game `k` (0-based, up to `total`) in the worker's scratch
    /// folder (created on first use by whoever needs it).
    pub fn start<F>(name: &str, workers: usize, total: usize, play: F) -> Result<Self, String>
    where
        F: Fn(usize, &Path) -> T + Send + Sync + 'static,
    {
        let (job_tx, job_rx) = mpsc::channel::<usize>();
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (tx, rx) = mpsc::channel::<T>();
        let play = Arc::new(play);
        let workers = workers.clamp(1, total.max(1));
        let mut pool = Pool {
            job_tx: Some(job_tx),
            rx,
            handles: Vec::new(),
            folders: Vec::new(),
            sent: 0,
            received: 0,
            total,
        };
        for w in 0..workers {
            let folder =
                std::env::temp_dir().join(format!("sente-{name}-{}-{w}", std::process::id()));
            let (job_rx, tx, play) = (job_rx.clone(), tx.clone(), play.clone());
            let dir = folder.clone();
            let h = thread::Builder::new()
                .name(format!("{name}-{w}"))
                .spawn(move || loop {
                    let job = job_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok(k)) = job else { break };
                    if tx.send(play(k, &dir)).is_err() {
                        break;
                    }
                })
                .map_err(|e| e.to_string())?;
            pool.handles.push(h);
            pool.folders.push(folder);
        }
        for _ in 0..workers {
            pool.feed();
        }
        Ok(pool)
    }

    /// Hand out the next game, if any is left; false when none is.
    pub fn feed(&mut self) -> bool {
        if self.sent >= self.total {
            return false;
        }
        match &self.job_tx {
            Some(tx) if tx.send(self.sent).is_ok() => {
                self.sent += 1;
                true
            }
            _ => false,
        }
    }

    /// The next finished game, in the order they finish; None once every
    /// game handed out has come back (or the workers are gone).
    pub fn result(&mut self) -> Option<T> {
        if self.received >= self.sent {
            return None;
        }
        let r = self.rx.recv().ok()?;
        self.received += 1;
        Some(r)
    }

    /// Games handed out so far.
    pub fn sent(&self) -> usize {
        self.sent
    }

    /// Hand out nothing more, wait for the workers and remove their folders.
    pub fn finish(mut self) {
        self.job_tx = None;
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
        for f in &self.folders {
            let _ = fs::remove_dir_all(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games come back once each; nothing is handed out past `total` or
    /// after the caller stops feeding; folders are removed.
    #[test]
    fn hands_out_one_at_a_time_and_stops_when_told() {
        let mut pool = Pool::start("pooltest", 3, 10, |k, dir: &Path| {
            fs::create_dir_all(dir).unwrap();
            (k, dir.to_path_buf())
        })
        .unwrap();
        assert_eq!(pool.sent(), 3);
        let mut seen = Vec::new();
        let mut dirs = Vec::new();
        while let Some((k, d)) = pool.result() {
            seen.push(k);
            dirs.push(d);
            if seen.len() < 6 {
                pool.feed();
            }
        }
        seen.sort();
        assert_eq!(seen, (0..8).collect::<Vec<_>>(), "3 at once, then 5 more");
        pool.finish();
        assert!(dirs.iter().all(|d| !d.exists()));
        let mut all = Pool::start("pooltest2", 4, 2, |k, _: &Path| k).unwrap();
        assert_eq!(all.sent(), 2, "no more workers than games");
        assert!(!all.feed());
        let mut got = vec![all.result().unwrap(), all.result().unwrap()];
        got.sort();
        assert_eq!(got, vec![0, 1]);
        assert_eq!(all.result(), None);
        all.finish();
    }
}
