//! The padded board's geometry: the sizes every array indexed by a cell
//! (the board's cells, the Zobrist keys) is built from. Its own module so
//! that `board` and `zobrist` both depend on it and not on each other.

/// Wall cells around the playing area on each side: a line window of ten
/// cells around any playable cell stays inside the array.
pub const PAD: usize = 5;
/// Smallest board side the protocol accepts.
pub const MIN_SIZE: usize = 5;
/// Largest board side the protocol accepts.
pub const MAX_SIZE: usize = 32;
/// Row length of the padded array for the largest board.
pub const MAX_STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Cells of the padded array for the largest board.
pub const MAX_CELLS: usize = MAX_STRIDE * MAX_STRIDE;
