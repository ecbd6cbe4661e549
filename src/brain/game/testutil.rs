//! Random positions for the tests, written once: the pattern, rules, board,
//! evaluation and threat tests say what kind of position they want (size,
//! rule, how many stones and where, colours, neutral stones, whether a five
//! may stand on the board) instead of each writing its own loop.
//!
//! Everything is drawn from the caller's `SplitMix64` in a fixed order (the
//! stone count first, then for each stone its cell and, for
//! `Neutral::OneIn`, the neutral draw), so a seeded test sees the same
//! positions on every run. Also `renju_overline`, a fixed renju position
//! that more than one module's tests need, and `ladder`, a 32×32 ladder of
//! fours. `pbrain-sente bench threats` draws its positions here too, so the
//! module is built outside tests (what only tests use is allowed unused).

use crate::brain::game::board::{Board, Pos};
use crate::brain::game::rules;
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::types::{Color, RuleSet};

/// A uniformly drawn empty cell; `None` on a full board.
pub fn random_empty(rng: &mut SplitMix64, b: &Board) -> Option<Pos> {
    let empties: Vec<Pos> = b.empty_cells().collect();
    pick(rng, &empties)
}

/// A uniformly drawn element of `items`; `None` if there is none.
pub fn pick<T: Copy>(rng: &mut SplitMix64, items: &[T]) -> Option<T> {
    if items.is_empty() {
        return None;
    }
    Some(items[rng.below(items.len() as u64) as usize])
}

/// Does a stone on the board stand in a five (or a win of the rule)?
pub fn has_five(b: &Board) -> bool {
    b.history()
        .iter()
        .any(|m| rules::winner_at(b, m.pos).is_some())
}

/// Where the stones go.
#[derive(Clone, Copy, Debug)]
pub enum Area {
    /// Any empty cell, uniformly.
    Anywhere,
    /// The centred square of this side: x and y drawn in it, in that order
    /// (the drawn cell may be occupied; see `RandomBoard::retry_occupied`).
    Centre(usize),
    /// A game-like spread: the first stone in the centred square of this
    /// side, every later one on an empty cell within two of a stone.
    Near(usize),
}

/// Who plays each stone.
#[derive(Clone, Copy, Debug)]
pub enum Colours {
    /// `Board::play`: the side to move, alternating.
    ToMove,
    /// Stone `i` is White when `i % k == k - 1`, else Black (`k = 2`:
    /// alternating from Black; `k = 3`: Black-heavy).
    WhiteEvery(usize),
}

/// Which stones are neutral (continuous games, and the pattern tables'
/// walls).
#[derive(Clone, Copy, Debug)]
pub enum Neutral {
    Never,
    /// Stone `i` is neutral when `i % k == k - 1`.
    Every(usize),
    /// Each stone is neutral with chance 1/k (drawn after its cell).
    OneIn(u64),
}

/// A random-position generator; build it with `RandomBoard::square` (or
/// `new`) and the chainable setters, then call `board` (or `place` to walk
/// stone by stone).
#[derive(Clone, Debug)]
pub struct RandomBoard {
    width: usize,
    height: usize,
    rules: RuleSet,
    /// Stone count: `lo` when `hi <= lo + 1`, else `lo + below(hi - lo)`.
    stones: (usize, usize),
    area: Area,
    colours: Colours,
    neutral: Neutral,
    /// When the drawn cell is occupied: draw again for the same stone
    /// (true), or skip that stone (false).
    retry_occupied: bool,
    /// Otherwise `board` answers `None` when a five stands on the board.
    allow_five: bool,
    /// Never a forbidden move for Black nor a winning move (`Area::Near`
    /// positions: game-like, nobody has won).
    legal_only: bool,
}

impl RandomBoard {
    /// A `width` × `height` board: no stones, anywhere, side to move, no
    /// neutral stones, occupied draws skipped, fives allowed.
    pub fn new(width: usize, height: usize, rules: RuleSet) -> Self {
        RandomBoard {
            width,
            height,
            rules,
            stones: (0, 0),
            area: Area::Anywhere,
            colours: Colours::ToMove,
            neutral: Neutral::Never,
            retry_occupied: false,
            allow_five: true,
            legal_only: false,
        }
    }

    pub fn square(size: usize, rules: RuleSet) -> Self {
        Self::new(size, size, rules)
    }

    /// Between `lo` and `hi - 1` stones (one draw).
    pub fn stones(mut self, lo: usize, hi: usize) -> Self {
        self.stones = (lo, hi);
        self
    }

    /// Exactly `n` stones (nothing drawn for the count).
    pub fn exactly(mut self, n: usize) -> Self {
        self.stones = (n, n);
        self
    }

    pub fn area(mut self, area: Area) -> Self {
        self.area = area;
        self
    }

    pub fn colours(mut self, colours: Colours) -> Self {
        self.colours = colours;
        self
    }

    pub fn neutral(mut self, neutral: Neutral) -> Self {
        self.neutral = neutral;
        self
    }

    /// An occupied draw is drawn again instead of skipping the stone.
    pub fn retry_occupied(mut self) -> Self {
        self.retry_occupied = true;
        self
    }

    /// `board` answers `None` for a position with a five on it.
    pub fn no_five(mut self) -> Self {
        self.allow_five = false;
        self
    }

    /// Only legal, non-winning moves (up to 2,000 tries, then `None`).
    pub fn legal_only(mut self) -> Self {
        self.legal_only = true;
        self
    }

    /// A fresh position, or `None` when it has a five and `no_five` was
    /// asked for, or `legal_only` found no moves.
    pub fn board(&self, rng: &mut SplitMix64) -> Option<Board> {
        let mut b = Board::new(self.width, self.height, self.rules).ok()?;
        let (lo, hi) = self.stones;
        let n = if hi > lo + 1 {
            lo + rng.below((hi - lo) as u64) as usize
        } else {
            lo
        };
        let mut tries = 0;
        for i in 0..n {
            loop {
                if let Area::Near(_) = self.area {
                    if i > 0 {
                        tries += 1;
                        if tries > 2000 {
                            return None;
                        }
                    }
                }
                match self.try_place(rng, &mut b, i) {
                    Try::Placed(_) | Try::Full => break,
                    Try::Occupied if !self.retry_occupied => break,
                    Try::Occupied | Try::Illegal => {}
                }
            }
        }
        if !self.allow_five && has_five(&b) {
            return None;
        }
        Some(b)
    }

    /// Stone `i` of a walk: draw its cell and place it; `None` if the cell
    /// was occupied (or illegal) or the board is full. For tests that check
    /// something after every stone.
    pub fn place(&self, rng: &mut SplitMix64, b: &mut Board, i: usize) -> Option<Pos> {
        match self.try_place(rng, b, i) {
            Try::Placed(p) => Some(p),
            _ => None,
        }
    }

    fn try_place(&self, rng: &mut SplitMix64, b: &mut Board, i: usize) -> Try {
        let p = match self.area {
            Area::Anywhere => random_empty(rng, b),
            Area::Near(_) if b.stone_count() > 0 => {
                let near: Vec<Pos> = b.empty_cells().filter(|&p| b.near_count(p) > 0).collect();
                pick(rng, &near)
            }
            Area::Centre(side) | Area::Near(side) => {
                let x = (self.width - side) / 2 + rng.below(side as u64) as usize;
                let y = (self.height - side) / 2 + rng.below(side as u64) as usize;
                b.pos(x as i64, y as i64)
            }
        };
        let Some(p) = p else {
            return Try::Full;
        };
        if !b.is_empty(p) {
            return Try::Occupied;
        }
        let neutral = match self.neutral {
            Neutral::Never => false,
            Neutral::Every(k) => i % k == k - 1,
            Neutral::OneIn(k) => rng.below(k) == 0,
        };
        let colour = match self.colours {
            Colours::ToMove => b.to_move(),
            Colours::WhiteEvery(k) if i % k == k - 1 => Color::White,
            Colours::WhiteEvery(_) => Color::Black,
        };
        if self.legal_only
            && !neutral
            && ((colour == Color::Black && rules::is_forbidden(b, p))
                || rules::is_win(b, p, colour))
        {
            return Try::Illegal;
        }
        if neutral {
            b.make_neutral(p);
        } else {
            match self.colours {
                Colours::ToMove => b.play(p),
                Colours::WhiteEvery(_) => b.make(p, colour),
            }
        }
        Try::Placed(p)
    }
}

enum Try {
    Placed(Pos),
    Occupied,
    Illegal,
    Full,
}

/// A renju position where Black's point (4, 1) would make an overline
/// (forbidden to Black), returned with that point.
pub fn renju_overline() -> (Board, Pos) {
    let b = Board::from_ascii(
        "
        . . . . . . . . . .
        . X X X . X X . . .
        . . . . . . . . . .
        . . O . O . O . O .
        . . . . . . . . . .",
        RuleSet::from(crate::brain::types::Rule::Renju),
    )
    .unwrap();
    let p = b.pos(4, 1).unwrap();
    (b, p)
}

/// A staircase of blocked threes on a 32×32 board: each four Black makes
/// is the first stone of the next three, so the only win is the whole
/// ladder of `n` fours (the last one open). `dirs`/`split` give each
/// segment's direction and form (split: stones at +1 and +3, the four on +2).
pub fn ladder(n: usize, dirs: [(i64, i64); 4], split: [bool; 4]) -> Option<Board> {
    let mut b = Board::square(32, RuleSet::from(crate::brain::types::Rule::Freestyle)).unwrap();
    let (mut x, mut y) = (1i64, 1i64);
    let put = |b: &mut Board, x: i64, y: i64, c: Color| -> Option<()> {
        let p = b.pos(x, y)?;
        if !b.is_empty(p) {
            return None;
        }
        b.make(p, c);
        Some(())
    };
    put(&mut b, x, y, Color::Black)?;
    for k in 0..n {
        let (dx, dy) = dirs[k % 4];
        let sp = split[k % 4];
        put(&mut b, x + dx, y + dy, Color::Black)?;
        let far = if sp { 3 } else { 2 };
        put(&mut b, x + far * dx, y + far * dy, Color::Black)?;
        if k + 1 < n {
            put(&mut b, x - dx, y - dy, Color::White)?;
        }
        let step = if sp { 2 } else { 3 };
        x += step * dx;
        y += step * dy;
    }
    b.set_to_move(Color::Black);
    Some(b)
}

/// The ladder of the long test and of `bench threats`: 19 fours.
pub const LADDER_FOURS: usize = 19;
/// Its segments' directions.
pub const LADDER_DIRS: [(i64, i64); 4] = [(1, 0), (1, 1), (0, 1), (1, 1)];
