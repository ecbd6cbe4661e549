//! Training positions for the evaluation network: datagen records replayed
//! into compressed positions (per side, the distinct 6-key tuples of the
//! empty cells with their counts; the joint form's two more keys follow
//! from the six, `joint_rows`, and its tempo index is kept per position),
//! the experimental line-window keys (`--window R`, trainer only:
//! `window_key`), the game-level held-out split, the classical score's
//! scale `K` and the targets.

pub use crate::brain::eval::net::fnv1a;
use crate::brain::eval::net::{
    cell_keys, joint_table, tempo_index, JOINT_KEYS, JOINT_ROWS, NIBBLES,
};
use std::collections::{HashMap, HashSet};

use crate::brain::eval::Evaluator;
use crate::brain::game::board::{Board, Pos};
use crate::brain::types::{Color, RuleSet, MATE_BOUND};
use crate::lab::datagen::record::{read_file, GameRecord, RecordedMove};

/// One distinct cell of a position for one side: its six embedding rows
/// (`net::cell_keys`, each below `rows()`, so a byte) and how many empty
/// cells have exactly these. Eight bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    pub keys: [u8; 6],
    pub n: u16,
}

// Every embedding row must fit a cell's byte, every tempo index a
// position's.
const _: () = assert!(crate::brain::eval::net::ROWS <= 256);
const _: () = assert!(crate::brain::eval::net::TEMPO_ENTRIES <= 256);

/// The joint form's two more embedding rows of a cell (`net::cell_keys_joint`'s
/// last two): the own and the opponent's joint key, read from the four
/// direction keys (`own_nibble · 12 + opp_nibble` each), so a cell stays
/// eight bytes.
#[inline]
pub fn joint_rows(cell: &Cell) -> [usize; 2] {
    let (mut own, mut opp) = (0u16, 0u16);
    for (d, &k) in cell.keys[..4].iter().enumerate() {
        own |= (k as u16 / NIBBLES as u16) << (4 * d);
        opp |= (k as u16 % NIBBLES as u16) << (4 * d);
    }
    let jt = joint_table();
    [
        JOINT_ROWS + jt[own as usize] as usize,
        JOINT_ROWS + JOINT_KEYS + jt[opp as usize] as usize,
    ]
}

/// A cell's four line-window keys (`window_key`, one per direction), kept
/// beside its `Cell` when the window is on.
pub type Window = [u16; 4];

/// Largest window radius: `4R` bits must fit a `u16`, and the board's line
/// keys reach five cells each way.
pub const MAX_WINDOW: usize = 4;

/// Rows of the window keys of radius `r`: `4^(2r)` (none for 0).
pub const fn window_rows(r: usize) -> usize {
    if r == 0 {
        0
    } else {
        1 << (4 * r)
    }
}

/// The line-window key of the empty cell `p` for `own` in direction `d`
/// (`Board::dirs` order), radius `r` (1..=`MAX_WINDOW`): the `2r` cells at
/// offsets `-r..-1` then `+1..+r` along `d`, two bits each from the lowest
/// (0 empty, 1 `own`'s stone, 2 the other's, 3 off the board or a neutral
/// stone), as read from the board's line key (`Board::line_key`: the same
/// codes, Black 1 and White 2, distances -5..-1 and 1..5); then the lesser
/// of that number and the one of the window read the other way, so a line
/// and its reversal share a key.
#[inline]
pub fn window_key(board: &Board, p: Pos, own: Color, d: usize, r: usize) -> u16 {
    debug_assert!((1..=MAX_WINDOW).contains(&r));
    let bits = 4 * r as u32;
    let mut fwd = (board.line_key(p, d) >> (2 * (5 - r as u32))) & ((1 << bits) - 1);
    if own == Color::White {
        // Black 1 and White 2 trade places; empty 0 and off the board 3 stay.
        fwd = ((fwd & 0x5555_5555) << 1) | ((fwd >> 1) & 0x5555_5555);
    }
    let mut rev = 0;
    for slot in 0..2 * r as u32 {
        rev |= ((fwd >> (2 * slot)) & 3) << (bits - 2 - 2 * slot);
    }
    fwd.min(rev) as u16
}

/// The four window keys (`window_key`) of `p` for `own`.
#[inline]
pub fn window_keys(board: &Board, p: Pos, own: Color, r: usize) -> Window {
    std::array::from_fn(|d| window_key(board, p, own, d, r))
}

/// A position: its cells in `Dataset::cells` from `start`, `own` of them
/// for the side to move then `opp` for the other side; the target `y`
/// (side to move's expected result, set by `Dataset::label`), and what it
/// is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Position {
    pub start: usize,
    pub own: u32,
    pub opp: u32,
    pub y: f32,
    /// The game's result for the side to move (1, 0.5, 0).
    pub result: f32,
    /// The search's score for the side to move.
    pub score: i32,
    /// The classical static evaluation for the side to move.
    pub classic: i32,
    /// Would the search score this position statically at its horizon
    /// (`tune::quiet`: no five to make, no open four against)?
    pub quiet: bool,
    /// Its tempo index for the side to move (`net::tempo_index`: what the
    /// joint form's tempo term reads).
    pub tempo: u8,
}

impl Position {
    /// Does the search's score claim a forced result?
    pub fn mate(&self) -> bool {
        self.score.abs() >= MATE_BOUND
    }
}

/// Positions and the arena their cells live in; with a window radius
/// `window` > 0, `win` holds each cell's window keys (`win[i]` those of
/// `cells[i]`), else it stays empty (so a cell costs 8 bytes without the
/// window, 16 with it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    pub cells: Vec<Cell>,
    pub win: Vec<Window>,
    pub pos: Vec<Position>,
    /// The line-window radius (0: none).
    pub window: usize,
}

/// One position's inputs as `model::forward` takes them: the side to
/// move's and the opponent's cells, with the window on the window keys of
/// both sides' cells in the same order (else empty), and the tempo index.
/// A pair of cell slices converts to one without window keys, tempo 0.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    pub sides: (&'a [Cell], &'a [Cell]),
    pub win: &'a [Window],
    pub tempo: u8,
}

impl<'a> From<(&'a [Cell], &'a [Cell])> for Input<'a> {
    fn from(sides: (&'a [Cell], &'a [Cell])) -> Input<'a> {
        Input {
            sides,
            win: &[],
            tempo: 0,
        }
    }
}

impl Dataset {
    /// An empty set whose positions get window keys of radius `window`.
    pub fn with_window(window: usize) -> Dataset {
        assert!(
            window <= MAX_WINDOW,
            "window radius {window} > {MAX_WINDOW}"
        );
        Dataset {
            window,
            ..Dataset::default()
        }
    }

    pub fn len(&self) -> usize {
        self.pos.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pos.is_empty()
    }

    /// The side to move's and the opponent's cells of position `i`.
    #[inline]
    pub fn sides(&self, i: usize) -> (&[Cell], &[Cell]) {
        let p = &self.pos[i];
        let mid = p.start + p.own as usize;
        (
            &self.cells[p.start..mid],
            &self.cells[mid..mid + p.opp as usize],
        )
    }

    /// Position `i`'s inputs: its cells and, with the window on, their
    /// window keys.
    #[inline]
    pub fn input(&self, i: usize) -> Input<'_> {
        let p = &self.pos[i];
        let win = if self.window > 0 {
            &self.win[p.start..p.start + (p.own + p.opp) as usize]
        } else {
            &[]
        };
        Input {
            sides: self.sides(i),
            win,
            tempo: p.tempo,
        }
    }

    /// Add the position on `board` for the side to move.
    pub fn push(&mut self, board: &Board, result_stm: f32, score: i32) {
        let ev = Evaluator::new(board);
        let stm = board.to_move();
        let start = self.cells.len();
        let (r, cells, win) = (self.window, &mut self.cells, &mut self.win);
        let own = compress(&ev, board, stm, r, cells, win);
        let opp = compress(&ev, board, stm.opposite(), r, cells, win);
        self.pos.push(Position {
            start,
            own,
            opp,
            y: result_stm,
            result: result_stm,
            score,
            classic: ev.evaluate(stm),
            quiet: crate::lab::tune::quiet(&ev, stm),
            tempo: tempo_index(&ev, stm) as u8,
        });
    }

    fn append(&mut self, other: Dataset) {
        assert_eq!(self.window, other.window);
        let base = self.cells.len();
        self.cells.extend(other.cells);
        self.win.extend(other.win);
        self.pos.extend(other.pos.into_iter().map(|mut p| {
            p.start += base;
            p
        }));
    }

    /// Set the targets: `lambda * sigmoid(score / k) + (1 - lambda) * result`,
    /// and for a search score that claims a forced result, 1 or 0.
    pub fn label(&mut self, k: f64, lambda: f64) {
        for p in &mut self.pos {
            p.y = if p.mate() {
                (p.score > 0) as u8 as f32
            } else {
                (lambda * sigmoid(p.score as f64 / k) + (1.0 - lambda) * p.result as f64) as f32
            };
        }
    }
}

/// The distinct key tuples of `color`'s empty cells, with counts, appended
/// to `out` in sorted order; returns how many. With a window radius
/// `r` > 0 a tuple is the cell's keys and its window keys (`window_keys`),
/// which go to `win` beside the cells; with 0 the window plays no part and
/// `win` is left alone.
fn compress(
    ev: &Evaluator,
    board: &Board,
    color: Color,
    r: usize,
    out: &mut Vec<Cell>,
    win: &mut Vec<Window>,
) -> u32 {
    let mut keys: Vec<([u8; 6], Window)> = board
        .empty_cells()
        .map(|p| {
            let k = cell_keys(ev, p, color).map(|k| k as u8);
            let w = if r > 0 {
                window_keys(board, p, color, r)
            } else {
                [0; 4]
            };
            (k, w)
        })
        .collect();
    keys.sort_unstable();
    let before = out.len();
    for (i, &(k, w)) in keys.iter().enumerate() {
        if i > 0 && keys[i - 1] == (k, w) {
            let last = out.len() - 1;
            out[last].n += 1;
        } else {
            out.push(Cell { keys: k, n: 1 });
            if r > 0 {
                win.push(w);
            }
        }
    }
    (out.len() - before) as u32
}

#[inline]
pub fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

/// Is this game held out? One in `every` games by a hash of the seed and
/// the game's text, so the split does not depend on file order or on how
/// the shards were merged; 0 holds none out. With `moves_only` the hash
/// covers the rule, the size, the opening and the moves but not the
/// scores or the result, so a game relabelled by a deeper search
/// (`datagen relabel`) is held out exactly when its source game is, and
/// nets trained on either labels are compared on the same games.
pub fn held_out(game: &GameRecord, seed: u64, every: u64, moves_only: bool) -> bool {
    if every == 0 {
        return false;
    }
    let mut text = seed.to_le_bytes().to_vec();
    if moves_only {
        let g = GameRecord {
            result: 0.5,
            moves: game
                .moves
                .iter()
                .map(|m| RecordedMove {
                    score: 0,
                    best: false,
                    ..*m
                })
                .collect(),
            ..game.clone()
        };
        text.extend(b"moves:");
        text.extend(g.format().bytes());
    } else {
        text.extend(game.format().bytes());
    }
    fnv1a(&text).is_multiple_of(every)
}

/// How records become positions.
#[derive(Clone, Copy, Debug)]
pub struct DataOptions {
    pub rules: RuleSet,
    /// Hold out one game in `holdout` (0: none).
    pub holdout: u64,
    pub seed: u64,
    /// Split by the moves alone (`held_out`'s `moves_only`).
    pub split_moves: bool,
    /// Keep positions whose search score claims a forced result (target 1
    /// or 0); otherwise they are skipped.
    pub mates: bool,
    pub threads: usize,
    /// Line-window radius of the cells' window keys (0: none).
    pub window: usize,
}

/// What loading found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    pub games: usize,
    pub other_rules: usize,
    pub held_games: usize,
    pub mates_skipped: usize,
}

/// The positions of `games` (only those under `o.rules`): training set,
/// held-out set. Built on `o.threads` threads over contiguous runs of
/// games, joined in order: the same for any thread count.
pub fn positions(games: &[GameRecord], o: &DataOptions) -> (Dataset, Dataset, LoadStats) {
    let mut stats = LoadStats::default();
    let mine: Vec<(&GameRecord, bool)> = games
        .iter()
        .filter(|g| {
            let ok = g.rules.rule == o.rules.rule;
            stats.other_rules += !ok as usize;
            ok
        })
        .map(|g| (g, held_out(g, o.seed, o.holdout, o.split_moves)))
        .collect();
    stats.games = mine.len();
    stats.held_games = mine.iter().filter(|g| g.1).count();
    let threads = o.threads.clamp(1, mine.len().max(1));
    let per = mine.len().div_ceil(threads).max(1);
    let parts: Vec<(Dataset, Dataset, usize)> = std::thread::scope(|s| {
        let hs: Vec<_> = mine
            .chunks(per)
            .map(|run| s.spawn(move || extract(run, o.mates, o.window)))
            .collect();
        hs.into_iter().map(|h| h.join().expect("extract")).collect()
    });
    let (mut train, mut held) = (
        Dataset::with_window(o.window),
        Dataset::with_window(o.window),
    );
    for (t, h, skipped) in parts {
        train.append(t);
        held.append(h);
        stats.mates_skipped += skipped;
    }
    (train, held, stats)
}

fn extract(run: &[(&GameRecord, bool)], mates: bool, window: usize) -> (Dataset, Dataset, usize) {
    let (mut train, mut held) = (Dataset::with_window(window), Dataset::with_window(window));
    let mut skipped = 0;
    for &(g, is_held) in run {
        let d = if is_held { &mut held } else { &mut train };
        g.replay(|board, _, m| {
            if m.score.abs() >= MATE_BOUND && !mates {
                skipped += 1;
                return;
            }
            let r = match board.to_move() {
                Color::Black => g.result,
                Color::White => 1.0 - g.result,
            };
            d.push(board, r, m.score);
        });
    }
    (train, held, skipped)
}

/// Read record files, keep the games `filter` keeps, and build the sets;
/// also the games `filter` left out.
pub fn load(
    files: &[String],
    o: &DataOptions,
    filter: &GameFilter,
) -> anyhow::Result<(Dataset, Dataset, LoadStats, usize)> {
    let mut games = Vec::new();
    for f in files {
        games.extend(read_file(f).map_err(|e| anyhow::anyhow!("{f}: {e}"))?);
    }
    let dropped = filter.retain(&mut games);
    let (t, h, st) = positions(&games, o);
    Ok((t, h, st, dropped))
}

/// Which games a training reads. `--exclude-panel`: none that passes
/// through a position of an evaluation panel (`evalpanel`), since a net
/// scored on a panel must not have trained on the games it was drawn
/// from, whose other positions are close to the panel's own.
/// `--games-of`: only the games (the same rule, size and stones in order)
/// of other records, each as many times as they hold it, e.g. the source
/// games of a relabelled file, so two labellings of the same games are
/// compared.
#[derive(Default)]
pub struct GameFilter {
    /// Per rule name and board size, every panel position's stones.
    panel: HashMap<(&'static str, usize), StoneSets>,
    /// Per rule name and board size, every kept game's stones and how many
    /// times it is listed (None: all games).
    only: Option<HashMap<(&'static str, usize), StoneCounts>>,
}

/// Positions as their stones in order, Black first.
type StoneSets = HashSet<Vec<(usize, usize)>>;
/// Games as their stones in order, and how many times each is listed.
type StoneCounts = HashMap<Vec<(usize, usize)>, usize>;

impl GameFilter {
    /// Add the positions of the panel files `paths` (left out).
    pub fn exclude_panels(&mut self, paths: &[String]) -> anyhow::Result<()> {
        for p in paths {
            let (entries, _) = crate::lab::evalpanel::read_panel(std::path::Path::new(p))?;
            for e in entries {
                self.panel
                    .entry((e.rules.rule.name(), e.size))
                    .or_default()
                    .insert(e.moves);
            }
        }
        Ok(())
    }

    /// Keep only the games of the record files `paths` (none given: all).
    pub fn only_games_of(&mut self, paths: &[String]) -> anyhow::Result<()> {
        for f in paths {
            for g in read_file(f).map_err(|e| anyhow::anyhow!("{f}: {e}"))? {
                *self
                    .only
                    .get_or_insert_with(HashMap::new)
                    .entry((g.rules.rule.name(), g.size))
                    .or_default()
                    .entry(g.stones())
                    .or_insert(0) += 1;
            }
        }
        Ok(())
    }

    /// Panel positions known.
    pub fn panel_len(&self) -> usize {
        self.panel.values().map(HashSet::len).sum()
    }

    /// Games listed by `only_games_of` (None: no such filter).
    pub fn only_len(&self) -> Option<usize> {
        self.only
            .as_ref()
            .map(|m| m.values().flat_map(HashMap::values).sum())
    }

    /// Does `g` pass through a panel position (same rule, size and
    /// stones in the same order)?
    pub fn on_panel(&self, g: &GameRecord) -> bool {
        let Some(set) = self.panel.get(&(g.rules.rule.name(), g.size)) else {
            return false;
        };
        let s = g.stones();
        (0..=s.len()).any(|n| set.contains(&s[..n]))
    }

    /// Keep the games to read, in order: none on a panel and, if games
    /// are listed, only listed ones, each no more often than it is listed.
    /// Returns how many were dropped.
    pub fn retain(&self, games: &mut Vec<GameRecord>) -> usize {
        let before = games.len();
        let mut left = self.only.clone();
        games.retain(|g| {
            if self.on_panel(g) {
                return false;
            }
            let Some(left) = &mut left else {
                return true;
            };
            match left
                .get_mut(&(g.rules.rule.name(), g.size))
                .and_then(|m| m.get_mut(&g.stones()))
            {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    true
                }
                _ => false,
            }
        });
        before - games.len()
    }
}

/// Mean squared error of `sigmoid(classic / k)` against the game results,
/// over the quiet positions without a forced score.
fn classic_result_mse(d: &Dataset, k: f64) -> f64 {
    let (mut s, mut n) = (0.0, 0usize);
    for p in d.pos.iter().filter(|p| p.quiet && !p.mate()) {
        let e = sigmoid(p.classic as f64 / k) - p.result as f64;
        s += e * e;
        n += 1;
    }
    s / n.max(1) as f64
}

/// The classical evaluation's scale: the `K` (score units per logit) for
/// which `sigmoid(classic / K)` best predicts the results on the quiet
/// positions, those the search scores statically (least squares,
/// golden-section search over 10..5000 on a log scale; as `tune` fits
/// it). The search's
/// scores are on the same scale, so the targets use it too, and the net
/// stores it so its logit times `K` is a score the search understands.
pub fn fit_k(d: &Dataset) -> f64 {
    let (mut lo, mut hi) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if classic_result_mse(d, a.exp()) < classic_result_mse(d, b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}
