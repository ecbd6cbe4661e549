//! The learned evaluation ("net"): everything the network is, in one
//! folder.
//!
//! For every empty cell `p` and each colour `c` ("own" = `c`, "opp" = the
//! other) six keys pick rows of one embedding table of `rows()` rows:
//! per direction `d` the pair of line nibbles the evaluator keeps
//! (`own_nibble * 12 + opp_nibble`, a nibble being the `Pattern` 0..=10 or
//! 11 for a double four on one line), then the cell's threat class for `c`
//! and for the other colour. Under renju Black's forbidden cells have the
//! class `Forbidden`, so the net sees them: that is how renju is respected.
//!
//! `acc_c(p) = bias + Σ six rows` (F floats), `h_c(p) = clamp(acc, 0, 1)`,
//! `pool_c = Σ_p h_c(p) / POOL_DIV`; then `x = [pool_stm, pool_opp]`,
//! `z = clamp(W1·x + b1, 0, 1)` (H units) and `out = w2·z + b2`, the logit
//! of the side to move's win probability. The engine's score is
//! `round(out · k)` (`k` in the weights file: the classical evaluation's
//! sigmoid scale, so search margins keep their meaning), within
//! `EVAL_LIMIT`.
//!
//! The joint form (`Form::Joint`, weights file version 2; beside today's
//! `Form::Lines`, which the embedded nets keep) sees each cell whole: two
//! more keys per cell and colour, the multiset of the colour's own four
//! nibbles and that of the other colour's (`joint::joint_rank`, 1365
//! values each, rows of their own), so `acc` sums eight rows; and the
//! logit gains a learned term per threat/tempo index (`joint::tempo_index`:
//! which of five, open four or four-three, any four, double three each
//! side can make, the side to move's bits and the other's; 256 entries).
//!
//! - `keys`: the forms (the six or eight keys of a cell, how they change);
//! - `joint`: the joint form's joint keys and tempo index;
//! - `format`: the float weights (`NetWeights`), the "SNET" weights file,
//!   the embedded weights (`weights/`: freestyle's, used by every rule
//!   but renju, and renju's; `embedded_for`) and random weights for tests;
//! - `float`: the float reference forward pass (`forward_f32`), the
//!   definition the integer inference must agree with;
//! - `quant`: the quantized net (`QuantNet`) and its head, and
//!   `embedded_net_for`, a rule's embedded weights quantized;
//! - `kernel`: the per-cell integer work, one generic body instantiated
//!   for AVX2, SSE2 and scalar, chosen at run time;
//! - `accum`: the accumulators and pools the evaluator keeps incrementally
//!   (`NetState`).
//!
//! Which net a search uses is the engine's choice (`Engine::set_net`,
//! `pbrain-sente --net FILE`): the embedded one of the board's rule
//! unless it was given another.

pub(super) mod accum;
mod float;
mod format;
mod joint;
mod kernel;
mod keys;
mod quant;

pub use float::{forward_f32, head_f32, pooled_f32};
pub use format::{
    embedded_file, embedded_for, fnv1a, random, random_of, NetWeights, EMBEDDED, EMBEDDED_FILES,
    MAGIC, MAX_DIM, VERSION, VERSION_JOINT,
};
pub use joint::{
    joint_rank, joint_table, tempo_bits, tempo_index, JOINT_KEYS, TEMPO_BITS, TEMPO_ENTRIES,
};
pub(in crate::brain::eval) use kernel::{by_code, AVX2, JOINT, SCALAR, SSE2};
pub use kernel::{Kernel, LANES, QA};
pub use keys::{
    cell_keys, cell_keys_joint, line_pair, rows, Form, CLASS_PAIRS, JOINT_ROWS, KEYS_PER_CELL,
    KEYS_PER_CELL_JOINT, LINE_KEYS, NIBBLES, PAIR_ROWS, POOL_DIV, ROWS,
};
pub use quant::{embedded_net, embedded_net_for, term_limit, QuantNet, TERM_LIMIT};
