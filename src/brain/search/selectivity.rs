//! The selectivity formulas of the tree search, in depth units (`ONE_PLY`
//! a ply): how much a late move is reduced and how many quiet moves a node
//! tries. The values they read are `params`' (`LMR_*`, `LMP_*`); where they
//! are applied is `alphabeta`'s move loop.

use super::params;
use crate::brain::types::{Depth, ONE_PLY};

/// Whole plies in `depth` (rounded down).
#[inline]
pub fn plies(depth: Depth) -> i32 {
    depth.div_euclid(ONE_PLY)
}

/// Late-move reduction, in depth units, of the `i`-th move (0-based) at
/// `depth`, before rounding: `params::LMR_BASE` plus the product of the
/// logarithms of depth (in plies) and move number over
/// `params::LMR_DIVISOR`.
pub(super) fn lmr_units(depth: Depth, i: usize) -> Depth {
    let d = (depth as f32 / ONE_PLY as f32).max(1.0).ln();
    let m = ((i + 1) as f32).ln();
    ((params::LMR_BASE() + d * m / params::LMR_DIVISOR()) * ONE_PLY as f32) as Depth
}

/// A reduction rounded down to whole `params::LMR_GRAIN` units (whole
/// plies at the default grain).
pub(super) fn grained(r: Depth) -> Depth {
    r - r.rem_euclid(params::LMR_GRAIN())
}

/// Late-move reduction of a late quiet move (`lmr_units`, rounded to the
/// grain).
pub fn lmr_reduction(depth: Depth, i: usize) -> Depth {
    grained(lmr_units(depth, i))
}

/// Reduction of a late move that is not quiet: a late tactical move
/// (`params::LMR_TACTICAL_SCALE`) or a late answer in a node that must
/// answer a threat (`params::LMR_FORCED_SCALE`), as sixteenths of the quiet
/// reduction.
pub(super) fn lmr_scaled(depth: Depth, i: usize, scale: i32) -> Depth {
    grained(lmr_units(depth, i) * scale / 16)
}

/// Late-move pruning: at depth d (whole plies) a node tries at most
/// `params::LMP_BASE` + d² / `params::LMP_DEPTH_DIVISOR` quiet moves
/// (`params::LMP_PV_FACTOR` times that at PV nodes).
pub(super) fn lmp_limit(depth: Depth, pv_node: bool) -> usize {
    let d = plies(depth).max(1) as usize;
    let n = params::LMP_BASE() + d * d / params::LMP_DEPTH_DIVISOR();
    if pv_node {
        n * params::LMP_PV_FACTOR()
    } else {
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reductions in depth units: the default grain gives the whole-ply
    /// formula (1 ply at depth 3 / move 3, 3 at depth 8 / move 20); the
    /// raw units carry the fraction; a scale of 0 reduces nothing and 16
    /// as much as a quiet move; fractional depths reduce between their
    /// neighbours.
    #[test]
    fn reductions_in_fractions_of_a_ply() {
        assert_eq!(
            grained(lmr_units(3 * ONE_PLY, 3)),
            lmr_reduction(3 * ONE_PLY, 3)
        );
        if params::LMR_GRAIN() == ONE_PLY {
            assert_eq!(lmr_reduction(3 * ONE_PLY, 3), ONE_PLY);
            assert_eq!(lmr_reduction(8 * ONE_PLY, 20), 3 * ONE_PLY);
        }
        for d in 1..30 {
            for i in 0..60 {
                let depth = d * ONE_PLY;
                let whole = (params::LMR_BASE()
                    + (d as f32).ln() * ((i + 1) as f32).ln() / params::LMR_DIVISOR())
                    as i32;
                let raw = lmr_units(depth, i);
                assert!(
                    raw >= whole * ONE_PLY && raw < (whole + 1) * ONE_PLY,
                    "{d} {i}"
                );
                assert_eq!(lmr_scaled(depth, i, 0), 0);
                assert!(lmr_scaled(depth, i, 16) == grained(raw));
                assert!(lmr_units(depth + ONE_PLY / 2, i) >= raw);
                assert!(lmr_units(depth + ONE_PLY / 2, i) <= lmr_units(depth + ONE_PLY, i));
            }
        }
        assert!(
            lmr_units(8 * ONE_PLY, 20) % ONE_PLY != 0,
            "a fraction to keep"
        );
        assert_eq!(plies(-1), -1);
        assert_eq!(plies(ONE_PLY * 5 + 3), 5);
    }

    /// The quiet-move count grows with depth and doubles (by the factor) at
    /// PV nodes; depth 0 counts as one ply.
    #[test]
    fn quiet_move_count() {
        for d in 0..20 {
            let n = lmp_limit(d * ONE_PLY, false);
            assert_eq!(lmp_limit(d * ONE_PLY, true), n * params::LMP_PV_FACTOR());
            assert!(lmp_limit((d + 1) * ONE_PLY, false) >= n);
        }
        assert_eq!(lmp_limit(0, false), lmp_limit(ONE_PLY, false));
        assert_eq!(
            lmp_limit(4 * ONE_PLY, false),
            params::LMP_BASE() + 16 / params::LMP_DEPTH_DIVISOR()
        );
    }
}
