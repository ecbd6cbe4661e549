//! The board: cells in a padded array, make/unmake with a history stack, the
//! Zobrist key, and per-cell, per-direction line keys kept incrementally.
//!
//! Layout: the playing area (width × height, each 5…32) sits inside a border
//! of `PAD` wall cells, so that walking up to five cells from any playing cell
//! in any direction never leaves the array and never needs a bounds check.
//!
//! Line keys: for every cell and each of the four directions, `line_key`
//! packs the ten cells at distances -5..-1 and 1..5 along that line (the cell
//! itself excluded), two bits each, in line order (slot 0 = distance -5,
//! slot 4 = distance -1, slot 5 = distance +1, slot 9 = distance +5). Cell
//! codes: 0 empty, 1 black, 2 white, 3 wall (board edge or a neutral stone of
//! a continuous game). Make/unmake update the keys of the cells a stone sees.
//! `game::pattern` turns such a key into "what a stone of colour C placed here
//! makes in this direction" with one table look-up.
//!
//! Near cells (`candidates`, the moves the search considers): the empty
//! cells within distance 2 of a stone. Make/unmake only flip the stone's
//! bit in a 64-bit word per row; the near cells are those bits spread two
//! rows and two columns each way, computed row by row when asked, in board
//! order (cheaper than keeping a list up to date on every make and unmake:
//! bench 11 1.10 M → 1.24 M nodes/s). A GUI may widen that neighbourhood
//! (`CandidateRange`, set from `INFO caution_factor`): wider ranges add the
//! cells further out, square or along the lines, from the same stone bits.

use std::fmt;

use super::zobrist;
use crate::brain::types::{Color, RuleSet};

pub use super::geometry::{MAX_CELLS, MAX_SIZE, MAX_STRIDE, MIN_SIZE, PAD};

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const WALL: u8 = 3;

/// A cell of the padded array. Use `Board::pos`/`Board::xy` to convert from
/// and to protocol coordinates; `Pos::NONE` means "no move".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(pub u16);

impl Pos {
    pub const NONE: Pos = Pos(0);

    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub fn is_none(self) -> bool {
        self == Pos::NONE
    }

    #[inline]
    pub fn offset(self, d: isize) -> Pos {
        Pos((self.0 as isize + d) as u16)
    }
}

/// One entry of the move history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub pos: Pos,
    /// Cell code placed: BLACK, WHITE or WALL (a neutral stone).
    pub stone: u8,
    /// Side to move before this entry was made (restored on unmake).
    pub prev_to_move: Color,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    BadSize(usize, usize),
    OutOfBoard(i64, i64),
    Occupied(usize, usize),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::BadSize(w, h) => write!(
                f,
                "unsupported board size {w}x{h} (each side must be {MIN_SIZE}..{MAX_SIZE})"
            ),
            BoardError::OutOfBoard(x, y) => write!(f, "coordinate {x},{y} is outside the board"),
            BoardError::Occupied(x, y) => write!(f, "coordinate {x},{y} is already occupied"),
        }
    }
}

impl std::error::Error for BoardError {}

#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    rules: RuleSet,
    cells: Vec<u8>,
    keys: Vec<[u32; 4]>,
    /// One bit per cell holding a stone (any kind, neutral ones too), a
    /// word per row of the padded array (bit = padded column): the near
    /// cells (`candidates`) are these dilated by two, computed when asked.
    occ: Vec<u64>,
    /// Row and column of each cell of the padded array (`row << 8 | col`),
    /// so that make/unmake find a cell's bit without dividing.
    row_col: Vec<u16>,
    /// The playing columns' bits of a row.
    play_mask: u64,
    hash: u64,
    to_move: Color,
    history: Vec<Move>,
    stones: usize,
    /// Playing cells in row-major order.
    all: Vec<Pos>,
    /// Which empty cells count as near (`candidates`).
    range: CandidateRange,
}

/// The neighbourhood of the stones whose empty cells the search considers
/// (`Board::candidates`): Yixin-Board's caution factor 0–5, from the
/// narrowest (the default, what the search is tuned for) to the whole board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CandidateRange {
    /// Within Chebyshev distance 2 of a stone.
    #[default]
    Square2,
    /// Square2, and the cells 3 away along a line through a stone.
    Square2Line3,
    /// Within Chebyshev distance 3.
    Square3,
    /// Square3, and the cells 4 away along a line.
    Square3Line4,
    /// Within Chebyshev distance 4.
    Square4,
    /// Every empty cell once a stone is on the board.
    FullBoard,
}

impl CandidateRange {
    /// All of them, in caution-factor order.
    pub const ALL: [CandidateRange; 6] = [
        CandidateRange::Square2,
        CandidateRange::Square2Line3,
        CandidateRange::Square3,
        CandidateRange::Square3Line4,
        CandidateRange::Square4,
        CandidateRange::FullBoard,
    ];

    /// The range `INFO caution_factor v` asks for (None: not 0–5).
    pub fn from_caution(v: i64) -> Option<CandidateRange> {
        usize::try_from(v)
            .ok()
            .and_then(|i| Self::ALL.get(i).copied())
    }

    /// Its caution factor.
    pub fn caution(self) -> i64 {
        self as i64
    }

    /// In words, for MESSAGE lines and the docs.
    pub fn describe(self) -> &'static str {
        match self {
            CandidateRange::Square2 => "square of radius 2",
            CandidateRange::Square2Line3 => "square of radius 2 and lines to 3",
            CandidateRange::Square3 => "square of radius 3",
            CandidateRange::Square3Line4 => "square of radius 3 and lines to 4",
            CandidateRange::Square4 => "square of radius 4",
            CandidateRange::FullBoard => "the whole board",
        }
    }

    /// Is the cell `(dx, dy)` away from a stone in the range?
    pub fn covers(self, dx: i64, dy: i64) -> bool {
        let (ax, ay) = (dx.abs(), dy.abs());
        let d = ax.max(ay);
        let on_line = ax == 0 || ay == 0 || ax == ay;
        match self {
            CandidateRange::Square2 => d <= 2,
            CandidateRange::Square2Line3 => d <= 2 || (d == 3 && on_line),
            CandidateRange::Square3 => d <= 3,
            CandidateRange::Square3Line4 => d <= 3 || (d == 4 && on_line),
            CandidateRange::Square4 => d <= 4,
            CandidateRange::FullBoard => true,
        }
    }
}

impl Board {
    pub fn new(width: usize, height: usize, rules: RuleSet) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(BoardError::BadSize(width, height));
        }
        let stride = width + 2 * PAD;
        let rows = height + 2 * PAD;
        let n = stride * rows;
        let mut b = Board {
            width,
            height,
            stride,
            rules,
            cells: vec![WALL; n],
            keys: vec![[0; 4]; n],
            occ: vec![0; rows],
            row_col: (0..n)
                .map(|i| ((i / stride) << 8 | (i % stride)) as u16)
                .collect(),
            play_mask: ((1u64 << width) - 1) << PAD,
            hash: 0,
            to_move: Color::Black,
            history: Vec::with_capacity(width * height),
            stones: 0,
            all: Vec::with_capacity(width * height),
            range: CandidateRange::Square2,
        };
        for y in 0..height {
            for x in 0..width {
                let p = (y + PAD) * stride + x + PAD;
                b.cells[p] = EMPTY;
                b.all.push(Pos(p as u16));
            }
        }
        b.rebuild_keys();
        Ok(b)
    }

    pub fn square(size: usize, rules: RuleSet) -> Result<Board, BoardError> {
        Board::new(size, size, rules)
    }

    fn rebuild_keys(&mut self) {
        let dirs = self.dirs();
        for i in 0..self.cells.len() {
            let mut k4 = [0u32; 4];
            for (d, &off) in dirs.iter().enumerate() {
                let mut key = 0u32;
                for (slot, dist) in (-5isize..=-1).chain(1..=5).enumerate() {
                    let j = i as isize + dist * off;
                    let c = if j < 0 || j as usize >= self.cells.len() {
                        WALL
                    } else {
                        self.cells[j as usize]
                    };
                    key |= (c as u32) << (2 * slot);
                }
                k4[d] = key;
            }
            self.keys[i] = k4;
        }
    }

    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    #[inline]
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Change the rule without touching the stones (line keys do not depend on it).
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    /// The four line directions as array offsets: horizontal, vertical,
    /// diagonal (down-right), anti-diagonal (down-left).
    #[inline]
    pub fn dirs(&self) -> [isize; 4] {
        let s = self.stride as isize;
        [1, s, s + 1, s - 1]
    }

    /// Size of the padded cell array (for per-cell tables elsewhere).
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return None;
        }
        Some(Pos(
            ((y as usize + PAD) * self.stride + x as usize + PAD) as u16
        ))
    }

    /// Protocol coordinates (x = column, y = row, 0-based) of a playing cell.
    #[inline]
    pub fn xy(&self, p: Pos) -> (usize, usize) {
        let i = p.idx();
        (i % self.stride - PAD, i / self.stride - PAD)
    }

    #[inline]
    pub fn in_board(&self, p: Pos) -> bool {
        let i = p.idx();
        if i >= self.cells.len() {
            return false;
        }
        let (x, y) = (i % self.stride, i / self.stride);
        (PAD..PAD + self.width).contains(&x) && (PAD..PAD + self.height).contains(&y)
    }

    #[inline]
    pub fn cell(&self, p: Pos) -> u8 {
        self.cells[p.idx()]
    }

    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.idx()] == EMPTY
    }

    /// Line key of cell `p` in direction `dir` (0..4); see the module doc.
    #[inline]
    pub fn line_key(&self, p: Pos, dir: usize) -> u32 {
        self.keys[p.idx()][dir]
    }

    #[inline]
    pub fn line_keys(&self, p: Pos) -> [u32; 4] {
        self.keys[p.idx()]
    }

    /// Number of stones within Chebyshev distance 2 of `p` (`p` itself
    /// included).
    pub fn near_count(&self, p: Pos) -> u8 {
        let (r, c) = self.row_col(p);
        let mask = 0x1f << (c - 2);
        (r - 2..=r + 2)
            .map(|y| (self.occ[y] & mask).count_ones() as u8)
            .sum()
    }

    /// Is there a stone within the candidate range of `p` (`p` itself
    /// included)? With the default range `near_count(p) > 0`, in one test.
    #[inline]
    pub fn has_near(&self, p: Pos) -> bool {
        let (r, c) = self.row_col(p);
        self.stones_in_rows_around(r) & (0x1f << (c - 2)) != 0
            || (self.range != CandidateRange::Square2 && self.wide_row(r) >> c & 1 != 0)
    }

    /// The candidate range (`CandidateRange::Square2` unless set).
    #[inline]
    pub fn candidate_range(&self) -> CandidateRange {
        self.range
    }

    /// Which empty cells `candidates` returns from now on (copies of the
    /// board keep it).
    pub fn set_candidate_range(&mut self, range: CandidateRange) {
        self.range = range;
    }

    /// The empty playing cells in the candidate range of a stone (by
    /// default within Chebyshev distance 2), in board order (`Pos` order),
    /// computed from the stone bits row by row.
    #[inline]
    pub fn candidates(&self) -> NearCells<'_> {
        let wide = self.range != CandidateRange::Square2;
        NearCells {
            b: self,
            row: PAD,
            bits: if wide {
                self.near_row_wide(PAD)
            } else {
                self.near_row(PAD)
            },
            wide,
        }
    }

    /// Row and column of `p` in the padded array.
    #[inline(always)]
    fn row_col(&self, p: Pos) -> (usize, usize) {
        let rc = self.row_col[p.idx()] as usize;
        (rc >> 8, rc & 255)
    }

    /// The near cells of padded row `r` (a playing row) as column bits:
    /// the stones of rows r-2..=r+2 spread two columns each way, less the
    /// occupied cells and the padding.
    #[inline(always)]
    fn near_row(&self, r: usize) -> u64 {
        let rows = self.stones_in_rows_around(r);
        let spread = rows | rows << 1 | rows << 2 | rows >> 1 | rows >> 2;
        spread & self.play_mask & !self.occ[r]
    }

    /// `near_row` with the cells a wider range adds (out of line, so that
    /// the default's loop stays as small as it was: inlined into every
    /// caller).
    #[inline(never)]
    fn near_row_wide(&self, r: usize) -> u64 {
        self.near_row(r) | self.wide_row(r) & self.play_mask & !self.occ[r]
    }

    /// The cells of padded row `r` that a range wider than the default adds
    /// (some may be occupied or padding: `near_row` masks them). Rows up to
    /// four away are inside the array: `PAD` is 5.
    #[inline(always)]
    fn wide_row(&self, r: usize) -> u64 {
        let o = &self.occ;
        // The stones of rows r-d and r+d together.
        let pair = |d: usize| o[r - d] | o[r + d];
        // Bits spread up to `k` columns each way.
        let square = |bits: u64, k: u32| (0..=k).fold(0, |a, s| a | bits << s | bits >> s);
        // Bits moved exactly `k` columns either way, or kept.
        let line = |bits: u64, k: u32| bits | bits << k | bits >> k;
        match self.range {
            CandidateRange::Square2 => 0,
            CandidateRange::Square2Line3 => o[r] << 3 | o[r] >> 3 | line(pair(3), 3),
            CandidateRange::Square3 => square(self.stones_in_rows_around(r) | pair(3), 3),
            CandidateRange::Square3Line4 => {
                square(self.stones_in_rows_around(r) | pair(3), 3)
                    | o[r] << 4
                    | o[r] >> 4
                    | line(pair(4), 4)
            }
            CandidateRange::Square4 => square(self.stones_in_rows_around(r) | pair(3) | pair(4), 4),
            CandidateRange::FullBoard if self.stones > 0 => self.play_mask,
            CandidateRange::FullBoard => 0,
        }
    }

    /// The stone bits of rows r-2..=r+2 together (padded row `r` is at
    /// least 2 from the array's edge: `PAD` is 5).
    #[inline(always)]
    fn stones_in_rows_around(&self, r: usize) -> u64 {
        let o = &self.occ;
        o[r - 2] | o[r - 1] | o[r] | o[r + 1] | o[r + 2]
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn set_to_move(&mut self, c: Color) {
        if c != self.to_move {
            self.hash ^= zobrist::keys().white_to_move;
            self.to_move = c;
        }
    }

    #[inline]
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    #[inline]
    pub fn move_count(&self) -> usize {
        self.history.len()
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().copied()
    }

    /// Stones of any kind on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    #[inline]
    pub fn is_full(&self) -> bool {
        self.stones == self.width * self.height
    }

    /// All playing cells, row-major (y, then x): a deterministic order.
    #[inline]
    pub fn cells(&self) -> &[Pos] {
        &self.all
    }

    pub fn empty_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.all.iter().copied().filter(move |&p| self.is_empty(p))
    }

    /// Place a stone of `color` and hand the move to the other side.
    /// The caller guarantees `p` is an empty playing cell.
    #[inline]
    pub fn make(&mut self, p: Pos, color: Color) {
        debug_assert!(self.in_board(p) && self.is_empty(p));
        let prev = self.to_move;
        self.put(p, color.cell());
        self.history.push(Move {
            pos: p,
            stone: color.cell(),
            prev_to_move: prev,
        });
        self.set_to_move(color.opposite());
    }

    /// Place a stone for the side to move.
    #[inline]
    pub fn play(&mut self, p: Pos) {
        self.make(p, self.to_move);
    }

    /// Place a neutral stone (continuous game, BOARD field 3): a wall for
    /// both sides' lines. The side to move does not change.
    pub fn make_neutral(&mut self, p: Pos) {
        debug_assert!(self.in_board(p) && self.is_empty(p));
        self.put(p, WALL);
        self.history.push(Move {
            pos: p,
            stone: WALL,
            prev_to_move: self.to_move,
        });
    }

    /// Take back the last entry of the history; returns it.
    pub fn unmake(&mut self) -> Option<Move> {
        let m = self.history.pop()?;
        self.remove(m.pos, m.stone);
        self.set_to_move(m.prev_to_move);
        Some(m)
    }

    /// Try a checked placement for protocol input.
    pub fn try_make(&mut self, x: i64, y: i64, color: Color) -> Result<Pos, BoardError> {
        let p = self.pos(x, y).ok_or(BoardError::OutOfBoard(x, y))?;
        if !self.is_empty(p) {
            return Err(BoardError::Occupied(x as usize, y as usize));
        }
        self.make(p, color);
        Ok(p)
    }

    #[inline]
    fn put(&mut self, p: Pos, code: u8) {
        self.cells[p.idx()] = code;
        self.hash ^= zobrist::keys().stone[code as usize - 1][p.idx()];
        self.stones += 1;
        self.xor_keys(p, code);
        let (r, c) = self.row_col(p);
        self.occ[r] |= 1 << c;
    }

    #[inline]
    fn remove(&mut self, p: Pos, code: u8) {
        self.cells[p.idx()] = EMPTY;
        self.hash ^= zobrist::keys().stone[code as usize - 1][p.idx()];
        self.stones -= 1;
        self.xor_keys(p, code);
        let (r, c) = self.row_col(p);
        self.occ[r] &= !(1 << c);
    }

    #[inline]
    fn xor_keys(&mut self, p: Pos, code: u8) {
        let c = code as u32;
        let i = p.idx() as isize;
        for (d, off) in self.dirs().into_iter().enumerate() {
            for dist in 1..=5isize {
                // p is at distance -dist from the cell ahead of it ...
                let ahead = (i + dist * off) as usize;
                self.keys[ahead][d] ^= c << (2 * (5 - dist));
                // ... and at distance +dist from the cell behind it.
                let behind = (i - dist * off) as usize;
                self.keys[behind][d] ^= c << (2 * (4 + dist));
            }
        }
    }

    /// Length of the run of `code` stones through `p` in direction `dir`,
    /// counting `p` itself as such a stone whatever it holds.
    pub fn run_length(&self, p: Pos, dir: usize, code: u8) -> usize {
        let off = self.dirs()[dir];
        let mut n = 1;
        let mut q = p.offset(off);
        while self.cells[q.idx()] == code {
            n += 1;
            q = q.offset(off);
        }
        let mut q = p.offset(-off);
        while self.cells[q.idx()] == code {
            n += 1;
            q = q.offset(-off);
        }
        n
    }

    /// Parse a board drawn as text, for tests and the bench: one row per line,
    /// cells separated by optional spaces; `.` or `_` empty, `X`/`x`/`B` black,
    /// `O`/`o`/`W` white, `#` neutral. Rows are padded to the same width.
    /// The side to move is Black if both have the same number of stones.
    pub fn from_ascii(text: &str, rules: RuleSet) -> Result<Board, BoardError> {
        let rows: Vec<Vec<u8>> = text
            .lines()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .map(|l| {
                l.chars()
                    .filter(|c| !c.is_whitespace())
                    .map(|c| match c {
                        'X' | 'x' | 'B' => BLACK,
                        'O' | 'o' | 'W' => WHITE,
                        '#' => WALL,
                        _ => EMPTY,
                    })
                    .collect()
            })
            .collect();
        let h = rows.len();
        let w = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut b = Board::new(w, h, rules)?;
        let (mut nb, mut nw) = (0, 0);
        for (y, row) in rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let p = b.pos(x as i64, y as i64).expect("inside");
                match c {
                    BLACK => {
                        b.make(p, Color::Black);
                        nb += 1;
                    }
                    WHITE => {
                        b.make(p, Color::White);
                        nw += 1;
                    }
                    WALL => b.make_neutral(p),
                    _ => {}
                }
            }
        }
        b.set_to_move(if nb > nw { Color::White } else { Color::Black });
        Ok(b)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height {
            for x in 0..self.width {
                let p = self.pos(x as i64, y as i64).expect("inside");
                let ch = match self.cell(p) {
                    BLACK => 'X',
                    WHITE => 'O',
                    WALL => '#',
                    _ => '.',
                };
                if x > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board {}x{} {} to move {:?}\n{}",
            self.width, self.height, self.rules, self.to_move, self
        )
    }
}

/// Iterator over a board's near cells (`Board::candidates`).
pub struct NearCells<'a> {
    b: &'a Board,
    /// The padded row being read, and its near cells not yet returned.
    row: usize,
    bits: u64,
    /// The board's range is wider than the default (read once).
    wide: bool,
}

impl Iterator for NearCells<'_> {
    type Item = Pos;

    #[inline(always)]
    fn next(&mut self) -> Option<Pos> {
        while self.bits == 0 {
            self.row += 1;
            if self.row >= PAD + self.b.height {
                return None;
            }
            self.bits = if self.wide {
                self.b.near_row_wide(self.row)
            } else {
                self.b.near_row(self.row)
            };
        }
        let c = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(Pos((self.row * self.b.stride + c) as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::testutil::{Neutral, RandomBoard};
    use crate::brain::game::zobrist::SplitMix64;

    /// Stones (any kind, neutral ones too) within Chebyshev distance 2
    /// of `q`, counted cell by cell.
    fn stones_near_by_scan(b: &Board, q: Pos) -> u8 {
        let (x, y) = b.xy(q);
        let mut n = 0;
        for dy in -2i64..=2 {
            for dx in -2i64..=2 {
                if let Some(r) = b.pos(x as i64 + dx, y as i64 + dy) {
                    n += (b.cell(r) != EMPTY) as u8;
                }
            }
        }
        n
    }

    fn near_by_scan(b: &Board, q: Pos) -> bool {
        let n = stones_near_by_scan(b, q);
        assert_eq!(b.near_count(q), n, "near count of {:?}", b.xy(q));
        n > 0
    }

    fn fresh_keys(b: &Board) -> Vec<[u32; 4]> {
        let mut c = b.clone();
        c.rebuild_keys();
        c.keys
    }

    #[test]
    fn sizes() {
        assert!(Board::square(4, RuleSet::default()).is_err());
        assert!(Board::square(33, RuleSet::default()).is_err());
        assert!(Board::new(5, 32, RuleSet::default()).is_ok());
        let b = Board::new(20, 15, RuleSet::default()).unwrap();
        assert_eq!(b.cells().len(), 300);
        let p = b.pos(19, 14).unwrap();
        assert_eq!(b.xy(p), (19, 14));
        assert!(b.pos(20, 0).is_none());
        assert!(b.pos(0, -1).is_none());
    }

    #[test]
    fn make_unmake_restores_everything() {
        let mut rng = SplitMix64::new(7);
        for &(w, h) in &[(15, 15), (20, 20), (5, 9), (32, 32)] {
            let mut b = Board::new(w, h, RuleSet::default()).unwrap();
            let start_hash = b.hash();
            let start_keys = b.keys.clone();
            let mut hashes = vec![];
            let n = (w * h).min(60);
            let walk = RandomBoard::new(w, h, RuleSet::default()).neutral(Neutral::Every(17));
            for i in 0..n {
                hashes.push(b.hash());
                walk.place(&mut rng, &mut b, i).unwrap();
                assert_eq!(b.keys, fresh_keys(&b), "incremental keys diverged");
                let cand: Vec<Pos> = b.candidates().collect();
                let scan: Vec<Pos> = b.empty_cells().filter(|&q| near_by_scan(&b, q)).collect();
                assert_eq!(cand, scan, "candidates diverged");
                for q in b.empty_cells() {
                    assert_eq!(b.has_near(q), near_by_scan(&b, q));
                }
            }
            while let Some(_m) = b.unmake() {
                assert_eq!(b.hash(), hashes.pop().unwrap());
                let cand: Vec<Pos> = b.candidates().collect();
                let scan: Vec<Pos> = b.empty_cells().filter(|&q| near_by_scan(&b, q)).collect();
                assert_eq!(cand, scan, "candidates diverged after unmake");
            }
            assert_eq!(b.hash(), start_hash);
            assert_eq!(b.keys, start_keys);
            assert_eq!(b.stone_count(), 0);
            assert!(b.occ.iter().all(|&n| n == 0));
            assert_eq!(b.candidates().next(), None);
        }
    }

    /// Is there a stone (any kind) at an offset `range` covers from `q`?
    fn in_range_by_scan(b: &Board, q: Pos, range: CandidateRange) -> bool {
        let (x, y) = b.xy(q);
        b.all.iter().any(|&s| {
            let (sx, sy) = b.xy(s);
            b.cell(s) != EMPTY && range.covers(sx as i64 - x as i64, sy as i64 - y as i64)
        })
    }

    #[test]
    fn every_candidate_range_lists_the_cells_it_covers() {
        let mut rng = SplitMix64::new(11);
        // Small boards put stones near every edge; 32 wide uses the most
        // column bits.
        for &(w, h) in &[(15, 15), (7, 5), (32, 32), (9, 20)] {
            for range in CandidateRange::ALL {
                let mut b = Board::new(w, h, RuleSet::default()).unwrap();
                b.set_candidate_range(range);
                assert_eq!(b.candidates().next(), None, "empty board, {range:?}");
                let walk = RandomBoard::new(w, h, RuleSet::default()).neutral(Neutral::Every(13));
                for i in 0..(w * h).min(24) {
                    walk.place(&mut rng, &mut b, i).unwrap();
                    let cand: Vec<Pos> = b.candidates().collect();
                    let scan: Vec<Pos> = b
                        .empty_cells()
                        .filter(|&q| in_range_by_scan(&b, q, range))
                        .collect();
                    assert_eq!(cand, scan, "{w}x{h} {range:?} after {} stones", i + 1);
                    for q in b.empty_cells() {
                        assert_eq!(b.has_near(q), in_range_by_scan(&b, q, range));
                    }
                    // A copy keeps the range.
                    assert_eq!(b.clone().candidate_range(), range);
                }
            }
        }
        // Each range holds the one before it, and the scale is the caution
        // factor's.
        for (i, pair) in CandidateRange::ALL.windows(2).enumerate() {
            assert_eq!(CandidateRange::from_caution(i as i64), Some(pair[0]));
            for dx in -6..=6 {
                for dy in -6..=6 {
                    assert!(!pair[0].covers(dx, dy) || pair[1].covers(dx, dy));
                }
            }
        }
        assert_eq!(CandidateRange::from_caution(6), None);
        assert_eq!(CandidateRange::from_caution(-1), None);
    }

    #[test]
    fn hash_depends_on_side_to_move_and_not_on_order() {
        let mut a = Board::square(15, RuleSet::default()).unwrap();
        let mut b = a.clone();
        let p = a.pos(7, 7).unwrap();
        let q = a.pos(8, 8).unwrap();
        let r = a.pos(3, 4).unwrap();
        a.make(p, Color::Black);
        a.make(q, Color::White);
        a.make(r, Color::Black);
        b.make(r, Color::Black);
        b.make(q, Color::White);
        b.make(p, Color::Black);
        assert_eq!(a.hash(), b.hash());
        let h = a.hash();
        a.set_to_move(Color::Black);
        assert_ne!(a.hash(), h);
    }

    #[test]
    fn ascii_round_trip_and_runs() {
        let text = "\
            . . . . .\n\
            . X X X .\n\
            . O . O .\n\
            . . # . .\n\
            . . . . .\n";
        let b = Board::from_ascii(text, RuleSet::default()).unwrap();
        assert_eq!(b.to_string(), text.replace("\\\n", "\n"));
        assert_eq!(b.to_move(), Color::White);
        let p = b.pos(4, 1).unwrap();
        assert_eq!(b.run_length(p, 0, BLACK), 4);
        // key of (0,1) horizontally: cells +1..+4 are X X X ., +5 is the wall.
        let k = b.line_key(b.pos(0, 1).unwrap(), 0);
        assert_eq!((k >> 10) & 3, BLACK as u32); // slot 5 = distance +1
        assert_eq!((k >> 14) & 3, BLACK as u32);
        assert_eq!((k >> 16) & 3, EMPTY as u32);
        assert_eq!((k >> 18) & 3, WALL as u32);
        assert_eq!(k & 3, WALL as u32);
    }
}
