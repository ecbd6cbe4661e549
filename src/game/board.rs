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
//! a continuous game). `game::pattern` turns such a key into "what a stone of
//! colour C placed here makes in this direction" with one table look-up.

use std::fmt;

use super::zobrist;
use crate::types::{Color, RuleSet};

pub const PAD: usize = 5;
pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 32;
pub const MAX_STRIDE: usize = MAX_SIZE + 2 * PAD;
pub const MAX_CELLS: usize = MAX_STRIDE * MAX_STRIDE;

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const WALL: u8 = 3;

const NOT_CAND: u16 = u16::MAX;

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
    /// Stones (any kind) within Chebyshev distance 2 of each cell.
    near: Vec<u8>,
    /// Candidate cells, kept incrementally: empty playing cells with a stone
    /// within distance 2, in no particular order (see `candidates`).
    cand: Vec<Pos>,
    /// Index of each cell in `cand`, or `NOT_CAND`.
    cand_at: Vec<u16>,
    hash: u64,
    to_move: Color,
    history: Vec<Move>,
    stones: usize,
    /// Playing cells in row-major order.
    all: Vec<Pos>,
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
            near: vec![0; n],
            cand: Vec::with_capacity(width * height),
            cand_at: vec![NOT_CAND; n],
            hash: 0,
            to_move: Color::Black,
            history: Vec::with_capacity(width * height),
            stones: 0,
            all: Vec::with_capacity(width * height),
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

    /// Number of stones within Chebyshev distance 2 of `p`.
    #[inline]
    pub fn near_count(&self, p: Pos) -> u8 {
        self.near[p.idx()]
    }

    /// The empty playing cells within Chebyshev distance 2 of a stone,
    /// maintained on make/unmake (order depends on history: sort it when
    /// order matters).
    #[inline]
    pub fn candidates(&self) -> &[Pos] {
        &self.cand
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
        self.add_near(p, 1);
    }

    #[inline]
    fn remove(&mut self, p: Pos, code: u8) {
        self.cells[p.idx()] = EMPTY;
        self.hash ^= zobrist::keys().stone[code as usize - 1][p.idx()];
        self.stones -= 1;
        self.xor_keys(p, code);
        self.add_near(p, -1);
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

    /// Count a stone placed on (`delta` 1) or taken from (-1) `p` in the
    /// near counts of the 5×5 square around it, and update the candidate
    /// list where a count crossed zero. Each row of five counts is updated
    /// as one word: no count exceeds 25 and a stone is only taken where it
    /// was counted, so no byte carries or borrows into the next.
    #[inline]
    fn add_near(&mut self, p: Pos, delta: i8) {
        const ONES5: u64 = 0x01_0101_0101;
        const ONES8: u64 = 0x0101_0101_0101_0101;
        const HIGH8: u64 = 0x8080_8080_8080_8080;
        const REST: u64 = !0xff_ffff_ffff;
        let s = self.stride as isize;
        let i = p.idx() as isize;
        for dy in -2..=2isize {
            // The row's five cells and three beyond them (padding keeps
            // all eight inside the array).
            let j0 = (i + dy * s - 2) as usize;
            let word: [u8; 8] = self.near[j0..j0 + 8].try_into().expect("eight bytes");
            let old = u64::from_le_bytes(word);
            let new = if delta > 0 { old + ONES5 } else { old - ONES5 };
            self.near[j0..j0 + 8].copy_from_slice(&new.to_le_bytes());
            // Zero bytes of x are the counts that crossed (now 1 after a
            // placement, 0 after a removal). The zero-byte test flags every
            // one of them, sometimes a neighbour too: each flag is checked.
            let x = (new ^ if delta > 0 { ONES5 } else { 0 }) | REST;
            let mut flags = x.wrapping_sub(ONES8) & !x & HIGH8;
            if dy == 0 {
                // `p` itself: its emptiness just changed.
                flags |= 0x80 << 16;
            }
            while flags != 0 {
                let b = flags.trailing_zeros() as usize / 8;
                flags &= flags - 1;
                let (j, n) = (j0 + b, (new >> (8 * b)) as u8);
                let crossed = if delta > 0 { n == 1 } else { n == 0 };
                if !crossed && j != p.idx() {
                    continue;
                }
                let want = self.cells[j] == EMPTY && n > 0;
                let at = self.cand_at[j];
                if want && at == NOT_CAND {
                    self.cand_at[j] = self.cand.len() as u16;
                    self.cand.push(Pos(j as u16));
                } else if !want && at != NOT_CAND {
                    self.cand.swap_remove(at as usize);
                    if let Some(&moved) = self.cand.get(at as usize) {
                        self.cand_at[moved.idx()] = at;
                    }
                    self.cand_at[j] = NOT_CAND;
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::zobrist::SplitMix64;

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
            for i in 0..n {
                let empties: Vec<Pos> = b.empty_cells().collect();
                let p = empties[rng.below(empties.len() as u64) as usize];
                hashes.push(b.hash());
                if i % 17 == 16 {
                    b.make_neutral(p);
                } else {
                    b.play(p);
                }
                assert_eq!(b.keys, fresh_keys(&b), "incremental keys diverged");
                let mut cand = b.candidates().to_vec();
                cand.sort_unstable();
                let scan: Vec<Pos> = b.empty_cells().filter(|&q| b.near_count(q) > 0).collect();
                assert_eq!(cand, scan, "incremental candidates diverged");
            }
            while let Some(_m) = b.unmake() {
                assert_eq!(b.hash(), hashes.pop().unwrap());
                let mut cand = b.candidates().to_vec();
                cand.sort_unstable();
                assert!(cand.iter().all(|&q| b.is_empty(q) && b.near_count(q) > 0));
                assert_eq!(
                    cand.len(),
                    b.empty_cells().filter(|&q| b.near_count(q) > 0).count()
                );
            }
            assert_eq!(b.hash(), start_hash);
            assert_eq!(b.keys, start_keys);
            assert_eq!(b.stone_count(), 0);
            assert!(b.near.iter().all(|&n| n == 0));
            assert!(b.candidates().is_empty());
        }
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
