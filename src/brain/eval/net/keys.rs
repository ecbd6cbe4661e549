//! The net's form: for every empty cell and each colour, six keys into one
//! embedding table (`cell_keys`), and how a cell's keys change when the
//! evaluator's line codes or classes do (`KeyChange`, what the kernels
//! apply).

use crate::brain::eval::weights::{Class, CLASSES};
use crate::brain::eval::Evaluator;
use crate::brain::game::board::Pos;
use crate::brain::types::Color;

/// Values a line nibble takes (`Pattern` 0..=10, 11 = double four).
pub const NIBBLES: usize = 12;

/// Rows keyed by one direction's pair of nibbles (own, opp).
pub const LINE_KEYS: usize = NIBBLES * NIBBLES;

/// The pooled sums are divided by this (so a board's ~200 empty cells give
/// inputs of order one).
pub const POOL_DIV: f32 = 32.0;

/// Keys per cell and colour: four directions and two classes.
pub const KEYS_PER_CELL: usize = 6;

/// Rows of the embedding table: the line keys, then the own class, then
/// the opponent's class.
pub const ROWS: usize = LINE_KEYS + 2 * CLASSES;

/// Rows of the quantized net's pair table (`QuantNet`'s `pairs`), each
/// `2 · fp` lanes, Black's half first: a cell's two accumulators are one
/// row of both colours, so a change of the cell is one key (`KeyChange`).
/// Line pair `line_pair(x, y)` (`x` Black's nibble, `y` White's) is
/// `[E[x·12 + y], E[y·12 + x]]` (zero for nibbles past 11, which never
/// occur); `CLASS_PAIRS + k` (Black's class `k`) is `[E[own k], E[opp k]]`
/// and `CLASS_PAIRS + 16 + k` (White's class) `[E[opp k], E[own k]]`.
/// Every key a `KeyChange` can hold is below `PAIR_ROWS` (nibbles are 4
/// bits, classes below 16).
pub const CLASS_PAIRS: usize = 256;
pub const PAIR_ROWS: usize = CLASS_PAIRS + 32;
const _: () = assert!(CLASSES <= 16);

/// The pair row of one direction's nibbles, Black's `x` and White's `y`
/// (each below 16): `16 · y + x`, what `pair_at` computes from both
/// colours' codes at once.
pub const fn line_pair(x: usize, y: usize) -> usize {
    16 * y + x
}

/// Rows of the embedding table (`ROWS`).
pub const fn rows() -> usize {
    ROWS
}

/// The six embedding rows of the empty cell `p` seen from `own`: per
/// direction `own_nibble * 12 + opp_nibble`, then `LINE_KEYS + class(own)`
/// and `LINE_KEYS + CLASSES + class(opp)`. Meaningful for empty cells only.
#[inline]
pub fn cell_keys(ev: &Evaluator, p: Pos, own: Color) -> [u16; KEYS_PER_CELL] {
    let c = &ev.cells[p.idx()];
    keys_both(c.code, c.class.map(|k| k as usize))[own.index()]
}

/// `cell_keys` of both colours (`[black, white]`) from a cell's codes
/// (four nibbles per colour) and classes, in one pass.
#[inline(always)]
fn keys_both(code: [u16; 2], class: [usize; 2]) -> [[u16; KEYS_PER_CELL]; 2] {
    let mut k = [[0u16; KEYS_PER_CELL]; 2];
    let [kb, kw] = &mut k;
    for (d, (b, w)) in kb.iter_mut().zip(kw.iter_mut()).take(4).enumerate() {
        let (x, y) = ((code[0] >> (4 * d)) & 15, (code[1] >> (4 * d)) & 15);
        *b = x * NIBBLES as u16 + y;
        *w = y * NIBBLES as u16 + x;
    }
    kb[4] = (LINE_KEYS + class[0]) as u16;
    kb[5] = (LINE_KEYS + CLASSES + class[1]) as u16;
    kw[4] = (LINE_KEYS + class[1]) as u16;
    kw[5] = (LINE_KEYS + CLASSES + class[0]) as u16;
    k
}

/// How a cell's keys change, as pair rows (`PAIR_ROWS`: one key moves both
/// colours' accumulators): a cell joining the pool (`Fresh`: its six pair
/// rows, one per direction and one per colour's class, `rows`) or
/// a counted cell going from one state to another (`Between`: the rows of
/// a changed direction or class are swapped, `swaps`). Every key
/// either gives is below `PAIR_ROWS` (nibbles are 4 bits, classes below
/// 16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum KeyChange {
    Fresh(CellState),
    Between(CellState, CellState),
}

/// A cell's line codes and classes.
pub(super) type CellState = ([u16; 2], [Class; 2]);

/// Both colours' codes in one word, Black's low: direction `d`'s nibbles
/// are then bits `4d..4d+4` and `16+4d..16+4d+4`.
#[inline(always)]
fn joint(code: [u16; 2]) -> u32 {
    code[0] as u32 | (code[1] as u32) << 16
}

/// The pair row (`line_pair`) of the direction whose nibbles start at bit
/// `shift` (`4d`) of the joint code `j`.
#[inline(always)]
fn pair_at(j: u32, shift: u32) -> u16 {
    let x = (j >> shift) & 0x000f_000f;
    ((x | x >> 12) & 0xff) as u16
}

/// The pair row of colour `side`'s class `k`.
#[inline(always)]
fn class_pair(side: usize, k: Class) -> u16 {
    (CLASS_PAIRS + 16 * side + k as usize) as u16
}

impl KeyChange {
    /// A fresh cell's six pair rows, in order (directions, then Black's
    /// and White's class).
    #[inline(always)]
    pub fn rows((code, class): CellState) -> [u16; KEYS_PER_CELL] {
        let j = joint(code);
        let d = |d: u32| pair_at(j, 4 * d);
        [
            d(0),
            d(1),
            d(2),
            d(3),
            class_pair(0, class[0]),
            class_pair(1, class[1]),
        ]
    }

    /// `(old row, new row)` for each direction whose nibbles differ
    /// between `old` and `new` (lowest first), then for each colour whose
    /// class differs.
    #[inline(always)]
    pub fn swaps(old: CellState, new: CellState) -> Swaps {
        let (o, n) = (joint(old.0), joint(new.0));
        let lines = ((o ^ n) | (o ^ n) >> 16) & 0xffff;
        let classes = (old.1[0] != new.1[0]) as u32 | ((old.1[1] != new.1[1]) as u32) << 1;
        Swaps {
            old: (o, old.1),
            new: (n, new.1),
            moved: lines | classes << 16,
        }
    }
}

/// The rows a counted cell swaps (`KeyChange::swaps`): its joint codes
/// (`joint`) and classes before and after, and `moved`, a nibble per
/// direction (nonzero where its codes moved) and bits 16 and 17 for the
/// classes, taken lowest first. An iterator rather than a callback: a
/// closure would be compiled without the AVX2 of the kernel that calls it.
pub(super) struct Swaps {
    old: (u32, [Class; 2]),
    new: (u32, [Class; 2]),
    moved: u32,
}

impl Iterator for Swaps {
    type Item = (u16, u16);

    #[inline(always)]
    fn next(&mut self) -> Option<(u16, u16)> {
        if self.moved == 0 {
            return None;
        }
        let t = self.moved.trailing_zeros();
        if t < 16 {
            let shift = t & !3;
            self.moved &= !(15 << shift);
            Some((pair_at(self.old.0, shift), pair_at(self.new.0, shift)))
        } else {
            let side = (t - 16) as usize;
            self.moved &= self.moved - 1;
            let (ok, nk) = (self.old.1[side], self.new.1[side]);
            Some((class_pair(side, ok), class_pair(side, nk)))
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::brain::game::board::Board;
    use crate::brain::types::RuleSet;

    /// A small freestyle position with a few shapes (the net's tests).
    pub(in crate::brain::eval::net) fn board() -> Board {
        Board::from_ascii(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X X . X . . .
            . . . O . . . . .
            . . . O O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            RuleSet::FREESTYLE,
        )
        .unwrap()
    }

    #[test]
    fn cell_keys_are_the_evaluators_patterns_and_classes() {
        let b = board();
        let ev = Evaluator::new(&b);
        let mut seen = std::collections::HashSet::new();
        for p in b.empty_cells() {
            for own in [Color::Black, Color::White] {
                let k = cell_keys(&ev, p, own);
                let opp = own.opposite();
                for (d, &key) in k[..4].iter().enumerate() {
                    let want =
                        ev.pattern(p, own, d) as usize * NIBBLES + ev.pattern(p, opp, d) as usize;
                    assert_eq!(key as usize, want, "{p:?} {own:?} {d}");
                }
                assert_eq!(k[4] as usize, LINE_KEYS + ev.class(p, own) as usize);
                assert_eq!(
                    k[5] as usize,
                    LINE_KEYS + CLASSES + ev.class(p, opp) as usize
                );
                assert!(k.iter().all(|&x| (x as usize) < rows()));
                seen.extend(k);
            }
        }
        // The position shows more than one shape.
        assert!(seen.len() > 10, "{}", seen.len());
    }

    /// Under renju a Black overline point's keys carry the Forbidden class.
    #[test]
    fn renju_forbidden_points_have_their_own_key() {
        let (b, p) = crate::brain::game::testutil::renju_overline();
        let ev = Evaluator::new(&b);
        let forbidden = Class::Forbidden as usize;
        assert_eq!(
            cell_keys(&ev, p, Color::Black)[4] as usize,
            LINE_KEYS + forbidden
        );
        assert_eq!(
            cell_keys(&ev, p, Color::White)[5] as usize,
            LINE_KEYS + CLASSES + forbidden
        );
    }
}
