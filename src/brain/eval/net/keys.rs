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

/// Every key a `KeyChange` can hold is below this: line keys come from
/// 4-bit nibbles (at most `15 · 12 + 15`), class keys from `Class` (below
/// `ROWS`). The quantized table has this many rows, the ones past `ROWS`
/// zero, so its kernels read rows without a bounds check.
pub const KEY_SPACE: usize = 15 * NIBBLES + 16;
const _: () = assert!(ROWS <= KEY_SPACE);

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

/// How a cell's six keys per colour change: a cell joining the pool
/// (`fresh`: all six keys in `adds`) or a counted cell whose keys `subs[..n]`
/// become `adds[..n]` (the same count for both colours: a direction's pair
/// of nibbles keys both, and each class keys one row of each colour).
/// Its fields are private: every key in one is below `KEY_SPACE`, and
/// `n` at most `KEYS_PER_CELL`, by construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct KeyChange {
    fresh: bool,
    n: usize,
    subs: [[u16; KEYS_PER_CELL]; 2],
    adds: [[u16; KEYS_PER_CELL]; 2],
}

/// A cell's line codes and classes.
pub(super) type CellState = ([u16; 2], [Class; 2]);

impl KeyChange {
    /// (fresh, n, rows to take out, rows to add).
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn parts(
        &self,
    ) -> (
        bool,
        usize,
        &[[u16; KEYS_PER_CELL]; 2],
        &[[u16; KEYS_PER_CELL]; 2],
    ) {
        (self.fresh, self.n, &self.subs, &self.adds)
    }

    /// Any change, for tests of the kernels (keys below `ROWS`, checked).
    #[cfg(test)]
    pub fn raw(
        fresh: bool,
        n: usize,
        subs: [[u16; KEYS_PER_CELL]; 2],
        adds: [[u16; KEYS_PER_CELL]; 2],
    ) -> KeyChange {
        assert!(n <= KEYS_PER_CELL);
        assert!(subs
            .iter()
            .chain(&adds)
            .flatten()
            .all(|&k| (k as usize) < ROWS));
        KeyChange {
            fresh,
            n,
            subs,
            adds,
        }
    }

    /// A cell joining the pool with these codes and classes.
    #[inline(always)]
    pub fn fresh((code, class): CellState) -> KeyChange {
        let class = class.map(|k| k as usize);
        KeyChange {
            fresh: true,
            n: KEYS_PER_CELL,
            subs: [[0; KEYS_PER_CELL]; 2],
            adds: keys_both(code, class),
        }
    }

    /// A counted cell going from `(code, class)` `old` to `new`: only the
    /// keys that differ (a changed direction, a changed class).
    #[inline(always)]
    pub fn between(old: CellState, new: CellState) -> KeyChange {
        let mut c = KeyChange {
            fresh: false,
            n: 0,
            subs: [[0; KEYS_PER_CELL]; 2],
            adds: [[0; KEYS_PER_CELL]; 2],
        };
        let ((oc, ok), (nc, nk)) = (old, new);
        let (ok, nk) = (ok.map(|k| k as usize), nk.map(|k| k as usize));
        let moved = (oc[0] ^ nc[0]) | (oc[1] ^ nc[1]);
        let pair = |code: [u16; 2], d: usize| {
            let (x, y) = ((code[0] >> (4 * d)) & 15, (code[1] >> (4 * d)) & 15);
            [x * NIBBLES as u16 + y, y * NIBBLES as u16 + x]
        };
        let mut push = |sub: [u16; 2], add: [u16; 2]| {
            for side in 0..2 {
                c.subs[side][c.n] = sub[side];
                c.adds[side][c.n] = add[side];
            }
            c.n += 1;
        };
        for d in 0..4 {
            if (moved >> (4 * d)) & 15 != 0 {
                push(pair(oc, d), pair(nc, d));
            }
        }
        let own = |k: [usize; 2], side: usize| (LINE_KEYS + k[side]) as u16;
        let opp = |k: [usize; 2], side: usize| (LINE_KEYS + CLASSES + k[1 - side]) as u16;
        if ok[0] != nk[0] {
            // Black's class: Black's own row, White's opponent row.
            push([own(ok, 0), opp(ok, 1)], [own(nk, 0), opp(nk, 1)]);
        }
        if ok[1] != nk[1] {
            push([opp(ok, 0), own(ok, 1)], [opp(nk, 0), own(nk, 1)]);
        }
        c
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
