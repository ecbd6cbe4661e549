//! The net's form: for every empty cell and each colour, six keys into one
//! embedding table (`cell_keys`), two more in the joint form
//! (`Form::Joint`, `cell_keys_joint`), and how a cell's keys change when
//! the evaluator's line codes or classes do (`KeyChange`, what the kernels
//! apply).

use super::joint::{joint_rank, JOINT_KEYS, TEMPO_ENTRIES};
use crate::brain::eval::weights::{Class, CLASSES};
use crate::brain::eval::Evaluator;
use crate::brain::game::board::Pos;
use crate::brain::types::Color;

/// Which keys a net's cells have (its weights file says: version 1 or 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// Six keys per cell and colour (`cell_keys`): the four directions'
    /// nibble pairs and the two classes. The embedded nets' form.
    Lines,
    /// The six and two joint keys (`cell_keys_joint`): the multiset of the
    /// colour's own four nibbles and that of the other colour's
    /// (`joint::joint_rank`), so a cell is seen whole; and a learned term
    /// added to the output per threat/tempo index (`joint::tempo_index`).
    Joint,
}

impl Form {
    pub const ALL: [Form; 2] = [Form::Lines, Form::Joint];

    /// Rows of the embedding table (`ROWS`, then in the joint form the own
    /// joint keys' `JOINT_KEYS` rows and the opponent's).
    pub const fn rows(self) -> usize {
        match self {
            Form::Lines => ROWS,
            Form::Joint => ROWS + 2 * JOINT_KEYS,
        }
    }

    /// Keys per cell and colour.
    pub const fn keys_per_cell(self) -> usize {
        match self {
            Form::Lines => KEYS_PER_CELL,
            Form::Joint => KEYS_PER_CELL_JOINT,
        }
    }

    /// Entries of the tempo table added to the output (none in `Lines`).
    pub const fn tempo(self) -> usize {
        match self {
            Form::Lines => 0,
            Form::Joint => TEMPO_ENTRIES,
        }
    }

    /// Rows of the quantized net's pair table (`PAIR_ROWS`; the joint
    /// form's joint pairs after them, `joint_pair`).
    pub const fn pair_rows(self) -> usize {
        match self {
            Form::Lines => PAIR_ROWS,
            Form::Joint => JOINT_PAIRS + 2 * (JOINT_KEYS + 1),
        }
    }

    /// `lines` or `joint` (what `--form` takes).
    pub fn name(self) -> &'static str {
        match self {
            Form::Lines => "lines",
            Form::Joint => "joint",
        }
    }

    pub fn parse(s: &str) -> Option<Form> {
        Form::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// Values a line nibble takes (`joint::NIBBLES`, where the joint form's
/// multisets are counted from it).
pub use super::joint::NIBBLES;

/// Rows keyed by one direction's pair of nibbles (own, opp).
pub const LINE_KEYS: usize = NIBBLES * NIBBLES;

/// The pooled sums are divided by this (so a board's ~200 empty cells give
/// inputs of order one).
pub const POOL_DIV: f32 = 32.0;

/// Keys per cell and colour: four directions and two classes.
pub const KEYS_PER_CELL: usize = 6;

/// Keys per cell and colour in the joint form: those six, then the own
/// and the opponent's joint key.
pub const KEYS_PER_CELL_JOINT: usize = 8;

/// The joint form's embedding rows: own joint key `j` is row
/// `JOINT_ROWS + j`, the opponent's `JOINT_ROWS + JOINT_KEYS + j`.
pub const JOINT_ROWS: usize = ROWS;

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

/// The joint form's pair rows follow: Black's joint key `j` is
/// `joint_pair(0, j)` = `[E[own j], E[opp j]]`, White's `joint_pair(1, j)`
/// = `[E[opp j], E[own j]]` (`j` up to `NO_JOINT`, whose rows are zero).
pub const JOINT_PAIRS: usize = PAIR_ROWS;

/// The pair row of colour `side`'s joint key `j` (`joint::joint_table`).
#[inline(always)]
pub const fn joint_pair(side: usize, j: u16) -> u16 {
    (JOINT_PAIRS + side * (JOINT_KEYS + 1) + j as usize) as u16
}

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

/// The joint form's eight embedding rows of the empty cell `p` seen from
/// `own`: `cell_keys`, then `JOINT_ROWS + joint(own's code)` and
/// `JOINT_ROWS + JOINT_KEYS + joint(opp's code)`.
#[inline]
pub fn cell_keys_joint(ev: &Evaluator, p: Pos, own: Color) -> [u16; KEYS_PER_CELL_JOINT] {
    let k = cell_keys(ev, p, own);
    let code = ev.cells[p.idx()].code;
    let (o, x) = (code[own.index()], code[own.opposite().index()]);
    let j = |c: u16| joint_rank(c) as usize;
    [
        k[0],
        k[1],
        k[2],
        k[3],
        k[4],
        k[5],
        (JOINT_ROWS + j(o)) as u16,
        (JOINT_ROWS + JOINT_KEYS + j(x)) as u16,
    ]
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
/// rows, one per direction and one per colour's class, `rows`; in the
/// joint form also one per colour's joint key, `rows_joint`) or a counted
/// cell going from one state to another (`Between`: the rows of a changed
/// direction, class or joint key are swapped, `swaps`). Every key either
/// gives is below the form's `Form::pair_rows` (nibbles are 4 bits,
/// classes below 16, joint keys at most `NO_JOINT`).
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

    /// A fresh cell's eight pair rows in the joint form: `rows`, then
    /// Black's and White's joint pair (`jt`: `joint::joint_table`).
    #[inline(always)]
    pub fn rows_joint(state: CellState, jt: &[u16]) -> [u16; KEYS_PER_CELL_JOINT] {
        let jt: &JointTable = jt.try_into().expect("a joint table");
        let r = KeyChange::rows(state);
        let code = state.0;
        [
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            r[5],
            joint_pair(0, jt[code[0] as usize]),
            joint_pair(1, jt[code[1] as usize]),
        ]
    }

    /// `(old row, new row)` for each direction whose nibbles differ
    /// between `old` and `new` (lowest first), then for each colour whose
    /// class differs; with `J` (the joint form), then for each colour
    /// whose joint key differs (`jt`: `joint::joint_table`; unread
    /// without `J`).
    #[inline(always)]
    pub fn swaps<const J: bool>(old: CellState, new: CellState, jt: &[u16]) -> Swaps<J> {
        let (o, n) = (joint(old.0), joint(new.0));
        let lines = ((o ^ n) | (o ^ n) >> 16) & 0xffff;
        let classes = (old.1[0] != new.1[0]) as u32 | ((old.1[1] != new.1[1]) as u32) << 1;
        let mut moved = lines | classes << 16;
        let mut joints = [(0, 0); 2];
        if J {
            let jt: &JointTable = jt.try_into().expect("a joint table");
            for side in 0..2 {
                if old.0[side] != new.0[side] {
                    let (a, b) = (jt[old.0[side] as usize], jt[new.0[side] as usize]);
                    if a != b {
                        moved |= 1 << (18 + side);
                        joints[side] = (joint_pair(side, a), joint_pair(side, b));
                    }
                }
            }
        }
        Swaps {
            old: (o, old.1),
            new: (n, new.1),
            moved,
            joints,
        }
    }
}

/// `joint::joint_table`: a colour's joint key for each 16-bit code.
pub(super) type JointTable = [u16; 1 << 16];

/// The rows a counted cell swaps (`KeyChange::swaps`): its joint codes
/// (`joint`) and classes before and after, and `moved`, a nibble per
/// direction (nonzero where its codes moved), bits 16 and 17 for the
/// classes and, with `J`, bits 18 and 19 for the joint keys (whose rows
/// `joints` holds, old and new), taken lowest first. An iterator rather
/// than a callback: a closure would be compiled without the AVX2 of the
/// kernel that calls it.
pub(super) struct Swaps<const J: bool> {
    old: (u32, [Class; 2]),
    new: (u32, [Class; 2]),
    moved: u32,
    joints: [(u16, u16); 2],
}

impl<const J: bool> Iterator for Swaps<J> {
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
        } else if !J || t < 18 {
            let side = (t - 16) as usize;
            self.moved &= self.moved - 1;
            let (ok, nk) = (self.old.1[side], self.new.1[side]);
            Some((class_pair(side, ok), class_pair(side, nk)))
        } else {
            self.moved &= self.moved - 1;
            Some(self.joints[(t - 18) as usize & 1])
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

    /// The joint form's keys are the six, then the ranks of the
    /// multisets of the own and the opponent's four patterns.
    #[test]
    fn joint_keys_are_the_multisets_of_the_patterns() {
        let b = board();
        let ev = Evaluator::new(&b);
        let mut joints = std::collections::HashSet::new();
        for p in b.empty_cells() {
            for own in [Color::Black, Color::White] {
                let k = cell_keys_joint(&ev, p, own);
                assert_eq!(k[..KEYS_PER_CELL], cell_keys(&ev, p, own));
                let opp = own.opposite();
                let multiset = |c: Color| {
                    let mut m = [0, 1, 2, 3].map(|d| ev.pattern(p, c, d) as usize);
                    m.sort_unstable();
                    m
                };
                let rank = |c: Color| {
                    let code = [0, 1, 2, 3]
                        .iter()
                        .fold(0u16, |x, &d| x | (ev.pattern(p, c, d) as u16) << (4 * d));
                    joint_rank(code) as usize
                };
                assert_eq!(k[6] as usize, JOINT_ROWS + rank(own));
                assert_eq!(k[7] as usize, JOINT_ROWS + JOINT_KEYS + rank(opp));
                assert!(k.iter().all(|&x| (x as usize) < Form::Joint.rows()));
                joints.insert((multiset(own), k[6]));
            }
        }
        // Several multisets, each with one key.
        let keys: std::collections::HashSet<_> = joints.iter().map(|j| j.1).collect();
        let sets: std::collections::HashSet<_> = joints.iter().map(|j| j.0).collect();
        assert!(keys.len() > 3 && keys.len() == sets.len() && joints.len() == keys.len());
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
