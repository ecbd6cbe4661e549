//! The feature model of the fitter: how a position becomes one feature
//! vector (per weight: how often it counts), which weights are fitted, and
//! the engine's current weights as a starting vector.

use super::*;

/// Number of weights per side: the line patterns, then the classes.
pub const PATTERNS: usize = OWN_PATTERN_VALUE.len();
pub const WEIGHTS: usize = PATTERNS + CLASSES;
/// Where the threat masks' bit-pair weights start in the mask model:
/// after both sides' tables.
pub(crate) const MASK_START: usize = 2 * WEIGHTS;
/// The tempo weight, after the bit pairs.
pub(crate) const TEMPO_INDEX: usize = MASK_START + PAIRS;
/// The pattern-pair weights, after the tempo: a `PAIR_PATTERNS` square
/// for the side to move's points, then one for the opponent's (only the
/// upper triangles are ever counted).
pub(crate) const PATTERN_PAIR_START: usize = TEMPO_INDEX + 1;
pub(crate) const PATTERN_PAIR_WEIGHTS: usize = PAIR_PATTERNS * PAIR_PATTERNS;

/// The index of bit pair `(i, j)`, `i <= j`, in `MASK_PAIRS`.
pub fn pair_index(i: usize, j: usize) -> usize {
    MASK_PAIRS
        .iter()
        .position(|&p| p == (i, j))
        .unwrap_or_else(|| panic!("({i}, {j}) is not a bit pair"))
}

/// The bit pairs a threat mask holds (both bits set), as `MASK_PAIRS`
/// indices.
pub fn pairs(mask: usize) -> impl Iterator<Item = usize> {
    MASK_PAIRS
        .iter()
        .enumerate()
        .filter(move |(_, &(i, j))| holds_pair(mask, i, j))
        .map(|(k, _)| k)
}

/// The side to move's (`own`) or the opponent's current weights as one
/// vector (patterns, then class bonuses).
pub fn current_weights(own: bool) -> [f64; WEIGHTS] {
    let (pv, cb) = if own {
        (&OWN_PATTERN_VALUE, &OWN_CLASS_BONUS)
    } else {
        (&OPP_PATTERN_VALUE, &OPP_CLASS_BONUS)
    };
    let mut w = [0.0; WEIGHTS];
    for (i, v) in pv.iter().enumerate() {
        w[i] = *v as f64;
    }
    for (i, v) in cb.iter().enumerate() {
        w[PATTERNS + i] = *v as f64;
    }
    w
}

/// The side to move's weight relative to the opponent's in the tied model.
pub(crate) const TIED_OWN: f64 = 1.25;

/// How a score is built from the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Separate pattern and class weights for the side to move's and the
    /// opponent's points (`WEIGHTS` each, side to move first): the
    /// engine's form in 0.4.0 and 0.5.0.
    Split,
    /// One weight per line pattern and per class, the side to move's counts
    /// weighing 10/8 (the engine's form before 0.4.0; for comparison).
    Tied,
    /// The engine's form since 0.7.0: `Split` plus a value per bit pair
    /// of the threat mask (`eval::threat_mask`: which threats each side
    /// holds; 0.6.0 had one value per mask), a tempo, and a value per two
    /// patterns on two lines of one point, for each side (after the two
    /// tables, in that order).
    Masks,
}

impl Model {
    pub fn dims(self) -> usize {
        match self {
            Model::Tied => WEIGHTS,
            Model::Split => MASK_START,
            Model::Masks => PATTERN_PAIR_START + 2 * PATTERN_PAIR_WEIGHTS,
        }
    }

    /// The sparse feature vector of the position for the side to move
    /// (index, value; indices ascending): the score is its dot product with
    /// the weights (before the clamp to `EVAL_LIMIT`).
    pub fn features(self, ev: &Evaluator, stm: Color) -> Vec<(u32, f64)> {
        let mut x = vec![0.0; self.dims()];
        for (color, own) in [(stm, true), (stm.opposite(), false)] {
            let (base, v) = match (self, own) {
                (Model::Split | Model::Masks, true) => (0, 1.0),
                (Model::Split | Model::Masks, false) => (WEIGHTS, -1.0),
                (Model::Tied, true) => (0, TIED_OWN),
                (Model::Tied, false) => (0, -1.0),
            };
            for (class, pats) in ev.point_patterns(color) {
                if class == Class::Forbidden {
                    continue; // worth nothing, whatever its patterns
                }
                for p in pats {
                    x[base + p as usize] += v;
                }
                x[base + PATTERNS + class as usize] += v;
                if self == Model::Masks {
                    let pp = PATTERN_PAIR_START + if own { 0 } else { PATTERN_PAIR_WEIGHTS };
                    for (a, b) in pattern_pairs(pats) {
                        x[pp + a * PAIR_PATTERNS + b] += v;
                    }
                }
            }
        }
        if self == Model::Masks {
            for k in pairs(threat_mask(ev, stm)) {
                x[MASK_START + k] = 1.0;
            }
            x[TEMPO_INDEX] = 1.0;
        }
        x.iter()
            .enumerate()
            .filter(|(_, v)| **v != 0.0)
            .map(|(i, v)| (i as u32, *v))
            .collect()
    }

    /// The engine's current weights in this model (tied: the opponent's
    /// tables, a starting point).
    pub fn current(self) -> Vec<f64> {
        match self {
            Model::Tied => current_weights(false).to_vec(),
            Model::Split => current_weights(true)
                .into_iter()
                .chain(current_weights(false))
                .collect(),
            Model::Masks => {
                let mut w = Model::Split.current();
                let mut mask = [0.0; PAIRS];
                for &(i, j, v) in THREAT_PAIR_FITTED.iter() {
                    mask[pair_index(i, j)] = v as f64;
                }
                w.extend(mask);
                w.push(TEMPO as f64);
                for t in [&OWN_PATTERN_PAIR, &OPP_PATTERN_PAIR] {
                    w.extend(t.iter().flatten().map(|&v| v as f64));
                }
                w
            }
        }
    }
}

/// Weights never tuned (index within one side's `WEIGHTS`): worthless
/// patterns (none, overline), the forbidden class (worth nothing by rule),
/// and fives (never on a quiet board).
pub(crate) fn frozen(k: usize) -> bool {
    k == Pattern::None as usize
        || k == Pattern::Overline as usize
        || k == Pattern::Five as usize
        || k == PATTERNS + Class::Forbidden as usize
        || k == PATTERNS + Class::None as usize
        || k == PATTERNS + Class::Five as usize
}

/// Would the search score this position statically at its horizon?
pub fn quiet(ev: &Evaluator, stm: Color) -> bool {
    let opp = stm.opposite();
    ev.fives(stm) == 0
        && ev.fives(opp) == 0
        && ev.open_fours(opp) == 0
        && !(ev.open_fours(stm) > 0 && ev.fours(opp) == 0)
}
