//! Training samples: arena records (`games.txt`) replayed into the quiet
//! positions the search would score statically, each with the game's result
//! and, with `--search-depth`, a search score as a second label.

use super::*;

/// One training position: features and the result for the side to move
/// (1 win, 0.5 draw, 0 loss).
#[derive(Clone, Debug)]
pub struct Sample {
    pub x: Vec<(u32, f64)>,
    pub y: f64,
    /// Which game it came from (held-out split by game).
    pub game: usize,
    /// The score of a fixed-depth search of the position, for the side to
    /// move, when the records were labelled (`--search-depth`).
    pub search: Option<f64>,
}

/// Search scores beyond this (mates, won threat lines) count as this.
pub(crate) const LABEL_CLAMP: f64 = 4000.0;

/// The score of a `depth`-ply search of `board` for the side to move,
/// clamped to `LABEL_CLAMP` (a label for `--search-depth`).
pub fn search_label(engine: &mut Engine, board: &Board, depth: u32) -> f64 {
    let limits = Limits {
        max_depth: Some(depth),
        ..Limits::default()
    };
    let stop = Default::default();
    let score = engine
        .search(board, &limits, &stop, &mut |_| {})
        .map_or(0, |r| r.score);
    (score as f64).clamp(-LABEL_CLAMP, LABEL_CLAMP)
}

/// Mix search labels into the targets: a labelled sample's target becomes
/// `lambda · sigmoid(search / k) + (1 − lambda) · result`.
pub fn mix_labels(samples: &mut [Sample], k: f64, lambda: f64) {
    for s in samples.iter_mut() {
        if let Some(v) = s.search {
            s.y = lambda * sigmoid(v / k) + (1.0 - lambda) * s.y;
        }
    }
}

/// Replay the records in `text` (arena `games.txt` lines) under `rules` on
/// a `size` board and collect the quiet positions of games that ended on
/// the board (five or draw; forfeits say nothing about the position).
/// Returns the samples and the number of games used.
pub fn samples_from_records(
    text: &str,
    rules: RuleSet,
    size: usize,
    model: Model,
    first_game: usize,
    mut label: Option<(&mut Engine, u32)>,
) -> (Vec<Sample>, usize) {
    let mut out = Vec::new();
    let mut games = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 8 || !(f[4] == "five" || f[4] == "draw") {
            continue;
        }
        let Some(winner) = parse_result(f[3]) else {
            continue;
        };
        let Ok(opening_len) = f[5].parse::<usize>() else {
            continue;
        };
        let Ok(mut board) = Board::square(size, rules) else {
            return (out, games);
        };
        let mut ev = Evaluator::new(&board);
        if let Some((searcher, _)) = label.as_mut() {
            // Each game's labels depend on that game alone.
            searcher.clear();
        }
        let mut ok = true;
        let mut positions = Vec::new();
        for (i, mv) in f[7].split_whitespace().enumerate() {
            let xy: Vec<i64> = mv.split(',').filter_map(|v| v.parse().ok()).collect();
            let color = board.to_move();
            let played = match xy[..] {
                [x, y] => board.try_make(x, y, color).ok(),
                _ => None,
            };
            let Some(p) = played else {
                ok = false;
                break;
            };
            ev.update(&board, p);
            if i + 1 >= opening_len {
                let stm = board.to_move();
                if quiet(&ev, stm) {
                    let y = match winner {
                        None => 0.5,
                        Some(c) if c == stm => 1.0,
                        Some(_) => 0.0,
                    };
                    let search = label
                        .as_mut()
                        .map(|(searcher, depth)| search_label(searcher, &board, *depth));
                    positions.push(Sample {
                        x: model.features(&ev, stm),
                        y,
                        game: first_game + games,
                        search,
                    });
                }
            }
        }
        if ok {
            out.extend(positions);
            games += 1;
        }
    }
    (out, games)
}

/// `samples_from_records` with every position labelled by a
/// `depth`-ply search, the records split among `threads` threads (each
/// with its own searcher; games keep their numbers, so the held-out split
/// is the same whatever the thread count).
pub fn labelled_samples(
    text: &str,
    rules: RuleSet,
    size: usize,
    model: Model,
    first_game: usize,
    depth: u32,
    threads: usize,
) -> (Vec<Sample>, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let per = lines.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Vec<Sample>, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(per)
            .map(|chunk| {
                let chunk = chunk.join("\n");
                scope.spawn(move || {
                    let mut searcher = Engine::with_table_bytes(16 << 20);
                    // Games are numbered from 0 inside a chunk:
                    // renumbered below, in order.
                    samples_from_records(
                        &chunk,
                        rules,
                        size,
                        model,
                        0,
                        Some((&mut searcher, depth)),
                    )
                })
            })
            .collect();
        handles
            .into_iter()
            // A worker's panic goes on as it would on one thread: a chunk
            // is never dropped in silence.
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut out = Vec::new();
    let mut games = 0;
    for (mut samples, g) in parts {
        for s in samples.iter_mut() {
            s.game += first_game + games;
        }
        out.extend(samples);
        games += g;
    }
    (out, games)
}
