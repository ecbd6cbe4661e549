//! The fitted weights printed as Rust arrays, ready for `eval/weights.rs`.

use super::*;

/// The weights as Rust arrays for `weights.rs`, rounded (split: the side
/// to move's tables, then the opponent's; masks: then the fitted bit pairs
/// whose value is not zero, the tempo and the pattern pairs).
pub fn as_rust(w: &[f64]) -> String {
    let mut s = String::new();
    let r = |v: f64| v.round() as i64;
    let (tables, rest) = w.split_at(w.len().min(MASK_START));
    for (i, part) in tables.chunks(WEIGHTS).enumerate() {
        let who = if w.len() > WEIGHTS {
            ["OWN_", "OPP_"][i.min(1)]
        } else {
            "TIED_"
        };
        let list = |vals: &[f64]| {
            vals.iter()
                .map(|&v| r(v).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            s,
            "pub const {who}PATTERN_VALUE: [i32; {PATTERNS}] = [{}];",
            list(&part[..PATTERNS])
        );
        let _ = writeln!(
            s,
            "pub const {who}CLASS_BONUS: [i32; CLASSES] = [{}];",
            list(&part[PATTERNS..])
        );
    }
    if rest.len() < PAIRS + 1 + 2 * PATTERN_PAIR_WEIGHTS {
        return s;
    }
    let fitted: Vec<String> = MASK_PAIRS
        .iter()
        .zip(&rest[..PAIRS])
        .filter(|(_, v)| r(**v) != 0)
        .map(|(&(i, j), &v)| format!("({i}, {j}, {})", r(v)))
        .collect();
    let _ = writeln!(
        s,
        "pub const THREAT_PAIR_FITTED: [(usize, usize, i32); {}] = [{}];",
        fitted.len(),
        fitted.join(", ")
    );
    let _ = writeln!(s, "pub const TEMPO: i32 = {};", r(rest[PAIRS]));
    for (who, t) in ["OWN", "OPP"]
        .iter()
        .zip(rest[PAIRS + 1..].chunks(PATTERN_PAIR_WEIGHTS))
    {
        let rows: Vec<String> = t
            .chunks(PAIR_PATTERNS)
            .map(|row| {
                let v: Vec<String> = row.iter().map(|&v| r(v).to_string()).collect();
                format!("[{}]", v.join(", "))
            })
            .collect();
        let _ = writeln!(
            s,
            "pub const {who}_PATTERN_PAIR: [[i32; PAIR_PATTERNS]; PAIR_PATTERNS] = [{}];",
            rows.join(", ")
        );
    }
    s
}
