//! What the tuner prints: a line per iteration (k, the result, and per
//! parameter c_k, a_k, the sign of Δ and θ after the update), the
//! trajectory table and the block of `NAME: TYPE = V;` lines ready for
//! `src/brain/search/params.rs`.

use super::state::{Record, State};

/// The line for iteration `rec` (faults: games not ended by a five or a
/// full board).
pub fn iteration_line(st: &State, rec: &Record, faults: usize) -> String {
    let s = &st.schedule;
    let mut line = format!("iter {}/{} r {:+.3}", rec.k + 1, s.iters, rec.r);
    for (i, p) in st.params.iter().enumerate() {
        line.push_str(&format!(
            " | {} {:.3} (c {:.3} a {:.4} {})",
            p.name,
            rec.theta[i],
            s.c(p, rec.k),
            s.a(p, rec.k),
            if rec.delta[i] > 0.0 { '+' } else { '-' }
        ));
    }
    if faults > 0 {
        line.push_str(&format!(" | {faults} game(s) lost by fault"));
    }
    line
}

/// θ over the run: the start and up to `rows` iterations evenly spread,
/// the last always among them.
pub fn trajectory(st: &State, rows: usize) -> String {
    let n = st.history.len();
    let width = st
        .params
        .iter()
        .map(|p| p.name.len().max(10))
        .collect::<Vec<_>>();
    let mut out = format!(
        "trajectory ({n} of {} iterations):\n{:>6} {:>7}",
        st.schedule.iters, "iter", "r"
    );
    for (p, w) in st.params.iter().zip(&width) {
        out.push_str(&format!(" {:>w$}", p.name));
    }
    out.push('\n');
    out.push_str(&format!("{:>6} {:>7}", "start", ""));
    for (p, w) in st.params.iter().zip(&width) {
        out.push_str(&format!(" {:>w$.3}", p.start));
    }
    out.push('\n');
    let step = n.div_ceil(rows.max(1)).max(1);
    for (i, rec) in st.history.iter().enumerate() {
        if (i + 1) % step != 0 && i + 1 != n {
            continue;
        }
        out.push_str(&format!("{:>6} {:>+7.3}", rec.k + 1, rec.r));
        for (t, w) in rec.theta.iter().zip(&width) {
            out.push_str(&format!(" {t:>w$.3}"));
        }
        out.push('\n');
    }
    out
}

/// The tuned values as lines of the `tunables!` block of `params.rs`,
/// after a comment saying where they come from.
pub fn params_block(st: &State) -> String {
    let theta = st.theta();
    let mut out = format!(
        "    // SPSA: {} of {} iterations, {} pairs each, seed {}\n",
        st.history.len(),
        st.schedule.iters,
        st.pairs,
        st.seed
    );
    for (p, &t) in st.params.iter().zip(&theta) {
        out.push_str(&p.rust_line(t));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::spsa::method::Schedule;
    use crate::lab::spsa::spec;

    #[test]
    fn lines_table_and_block() {
        let ps =
            spec::parse("X, 5, 0, 100, 4, 0.2\nLMR_DIVISOR, 2.2, 1, 4, 0.2, 0.002, f32\n").unwrap();
        let mut st = State::new(ps, Schedule::standard(50), 4, 3);
        for k in 0..50 {
            st.apply(if k % 3 == 0 { -0.5 } else { 1.0 });
        }
        let last = st.history.last().unwrap().clone();
        let line = iteration_line(&st, &last, 2);
        assert!(line.starts_with("iter 50/50 r +1.000 | X "), "{line}");
        assert!(line.contains("(c 4.000 a 3.2000"), "{line}");
        assert!(line.ends_with("| 2 game(s) lost by fault"), "{line}");
        let table = trajectory(&st, 10);
        assert_eq!(table.lines().count(), 3 + 10, "{table}");
        assert!(table
            .lines()
            .last()
            .unwrap()
            .trim_start()
            .starts_with("50 "));
        let block = params_block(&st);
        let theta = st.theta();
        assert_eq!(
            block,
            format!(
                "    // SPSA: 50 of 50 iterations, 4 pairs each, seed 3\n    X: i32 = {};\n\
                 \x20   LMR_DIVISOR: f32 = {};\n",
                theta[0].round(),
                format!("{:.4}", theta[1]).trim_end_matches('0')
            )
        );
    }
}
