//! The planted problem in-process: SPSA tunes the planted engine's X
//! (`arena::fake::planted_strength`, best at 37) on games played inside
//! the test (no processes), through the same state, schedule and update as
//! a real run. A tuner that steps the wrong way, mis-scales its gains or
//! loses the sign of Δ ends far from 37 and fails.

use super::method::Schedule;
use super::play::{result, PairResult};
use super::spec;
use super::state::State;
use crate::brain::types::{Color, RuleSet};
use crate::lab::arena::fake::{planted_game, PLANTED_BEST};

/// One iteration's pairs of θ+ against θ− from the empty board, each game
/// seeded by the run seed, the iteration and the game.
fn play(st: &State) -> Vec<PairResult> {
    let (plus, minus) = (st.point(1.0)[0], st.point(-1.0)[0]);
    (0..st.pairs)
        .map(|j| {
            let seed =
                st.seed ^ ((st.next_k() * st.pairs + j) as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
            let a = planted_game(15, RuleSet::FREESTYLE, &[], [plus, minus], seed);
            let b = planted_game(15, RuleSet::FREESTYLE, &[], [minus, plus], seed ^ 1);
            let points = |w: Option<Color>, plus_colour: Color| match w {
                None => 0.5,
                Some(c) if c == plus_colour => 1.0,
                Some(_) => 0.0,
            };
            let p = points(a, Color::Black) + points(b, Color::White);
            PairResult {
                pair: j,
                plus: p,
                minus: 2.0 - p,
                faults: 0,
            }
        })
        .collect()
}

/// Tune X from `start`: 100 iterations of 6 pairs, c_end 3, r_end 0.3.
fn tune(start: f64, seed: u64) -> State {
    let ps = spec::parse(&format!("X, {start}, 0, 100, 3, 0.3")).unwrap();
    let mut st = State::new(ps, Schedule::standard(100), 6, seed);
    while !st.finished() {
        let r = result(&play(&st));
        st.apply(r);
    }
    st
}

#[test]
fn finds_the_planted_optimum_from_both_sides() {
    for (start, seed) in [(5.0, 1), (80.0, 2)] {
        let st = tune(start, seed);
        let x = st.theta()[0];
        // The mean of the last twenty iterates too: not a lucky last step.
        let tail: f64 = st.history[80..].iter().map(|r| r.theta[0]).sum::<f64>() / 20.0;
        eprintln!("from {start}: X = {x:.2}, last twenty {tail:.2}");
        assert!((x - PLANTED_BEST).abs() < 6.0, "from {start}: X = {x}");
        assert!(
            (tail - PLANTED_BEST).abs() < 6.0,
            "from {start}: tail {tail}"
        );
    }
}
