//! The tuned parameters: the params file (one `NAME, start, min, max,
//! c_end, r_end[, TYPE]` line each, in fishtest's layout) parsed and
//! checked, and how a value is written for the engine (`--param NAME=V`)
//! and for `src/brain/search/params.rs`.

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation size at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration (the step there is
    /// `r_end · c_end · r` for a result `r`).
    pub r_end: f64,
    /// The Rust type of the constant (`i32`, `usize`, `Score`, `f32`…).
    pub ty: String,
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

impl Param {
    /// Integer types are rounded for the engine; `f32` and `f64` are not.
    pub fn is_int(&self) -> bool {
        !matches!(self.ty.as_str(), "f32" | "f64")
    }

    /// The value the engine gets for `v`: clamped to [min, max], rounded to
    /// the nearest integer for an integer type.
    pub fn engine_value(&self, v: f64) -> f64 {
        let v = v.clamp(self.min, self.max);
        if self.is_int() {
            v.round()
        } else {
            v
        }
    }

    /// `engine_value` as the engine reads it.
    pub fn text(&self, v: f64) -> String {
        let v = self.engine_value(v);
        if self.is_int() {
            format!("{}", v as i64)
        } else {
            format!("{v}")
        }
    }

    /// `    NAME: TYPE = V;`, a line of the `tunables!` block of `params.rs`,
    /// with the value as the engine would get it
    /// (floats to 4 decimals).
    pub fn rust_line(&self, v: f64) -> String {
        let value = if self.is_int() {
            self.text(v)
        } else {
            let s = format!("{:.4}", self.engine_value(v));
            let s = s.trim_end_matches('0');
            if s.ends_with('.') {
                format!("{s}0")
            } else {
                s.to_string()
            }
        };
        format!("    {}: {} = {value};", self.name, self.ty)
    }

    /// The line of the params file that gives this parameter.
    pub fn file_line(&self) -> String {
        format!(
            "{}, {}, {}, {}, {}, {}, {}",
            self.name, self.start, self.min, self.max, self.c_end, self.r_end, self.ty
        )
    }
}

/// Parse one line (`n` is its number, for errors).
fn parse_line(line: &str, n: usize) -> Result<Param, String> {
    let f: Vec<&str> = line.split(',').map(str::trim).collect();
    if f.len() != 6 && f.len() != 7 {
        return Err(format!(
            "line {n}: expected `NAME, start, min, max, c_end, r_end[, TYPE]`, got {} field(s)",
            f.len()
        ));
    }
    let name = f[0];
    if !is_ident(name) {
        return Err(format!("line {n}: bad parameter name {name:?}"));
    }
    let what = ["start", "min", "max", "c_end", "r_end"];
    let mut v = [0.0f64; 5];
    for i in 0..5 {
        v[i] = f[i + 1]
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("line {n}: {name}: bad {} {:?}", what[i], f[i + 1]))?;
    }
    let [start, min, max, c_end, r_end] = v;
    let ty = match f.get(6) {
        Some(t) if is_ident(t) => t.to_string(),
        Some(t) => return Err(format!("line {n}: {name}: bad type {t:?}")),
        None if f[1..4].iter().all(|s| s.parse::<i64>().is_ok()) => "i32".to_string(),
        None => "f32".to_string(),
    };
    let p = Param {
        name: name.to_string(),
        start,
        min,
        max,
        c_end,
        r_end,
        ty,
    };
    if min > max {
        return Err(format!("line {n}: {name}: min {min} > max {max}"));
    }
    if !(min..=max).contains(&start) {
        return Err(format!(
            "line {n}: {name}: start {start} outside [{min}, {max}]"
        ));
    }
    if c_end <= 0.0 || r_end <= 0.0 {
        return Err(format!(
            "line {n}: {name}: c_end and r_end must be positive"
        ));
    }
    // θ is continuous and only the engine's values are rounded, so an integer
    // parameter may start between integers (where an earlier run stopped).
    if p.is_int() && [min, max].iter().any(|x| x.fract() != 0.0) {
        return Err(format!(
            "line {n}: {name}: an integer parameter ({}) needs integer min and max",
            p.ty
        ));
    }
    Ok(p)
}

/// Parse a params file: a parameter a line, `#` comments and blank lines
/// skipped; names unique; at least one parameter.
pub fn parse(text: &str) -> Result<Vec<Param>, String> {
    let mut out: Vec<Param> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let p = parse_line(line, i + 1)?;
        if out.iter().any(|q| q.name == p.name) {
            return Err(format!("line {}: {} is given twice", i + 1, p.name));
        }
        out.push(p);
    }
    if out.is_empty() {
        return Err("no parameters in the params file".into());
    }
    Ok(out)
}

pub fn load(path: &std::path::Path) -> Result<Vec<Param>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_types_and_comments() {
        let ps = parse(
            "# tuned\nRFP_MARGIN, 120, 40, 300, 10, 0.002\n\nLMR_DIVISOR, 2.2, 1.0, 4.0, 0.2, 0.002\n\
             LMP_BASE, 2, 0, 8, 1, 0.002, usize\n",
        )
        .unwrap();
        assert_eq!(ps.len(), 3);
        assert_eq!(ps[0].name, "RFP_MARGIN");
        assert_eq!((ps[0].start, ps[0].min, ps[0].max), (120.0, 40.0, 300.0));
        assert_eq!((ps[0].c_end, ps[0].r_end), (10.0, 0.002));
        assert_eq!(ps[0].ty, "i32");
        assert_eq!(ps[1].ty, "f32");
        assert_eq!(ps[2].ty, "usize");
        assert_eq!(parse(&ps[2].file_line()).unwrap()[0], ps[2]);
    }

    /// A run may start where another stopped: an integer parameter's start
    /// between integers is kept as it is, and the engine gets it rounded.
    #[test]
    fn an_integer_parameter_may_start_between_integers() {
        let ps = parse("LMP_BASE, 3.2, 0, 8, 1, 0.02, usize\n").unwrap();
        assert_eq!(ps[0].start, 3.2);
        assert_eq!(ps[0].text(ps[0].start), "3");
        assert_eq!(parse(&ps[0].file_line()).unwrap()[0], ps[0]);
    }

    #[test]
    fn values_for_the_engine_and_for_params_rs() {
        let ps = parse("A, 5, 0, 10, 1, 0.1\nB, 2.2, 1, 4, 0.2, 0.1, f32\n").unwrap();
        assert_eq!(ps[0].text(6.5), "7");
        assert_eq!(ps[0].text(-3.0), "0");
        assert_eq!(ps[0].text(12.4), "10");
        assert_eq!(ps[1].text(2.5), "2.5");
        assert_eq!(ps[1].text(9.0), "4");
        assert_eq!(ps[0].rust_line(6.49), "    A: i32 = 6;");
        assert_eq!(ps[1].rust_line(2.0), "    B: f32 = 2.0;");
        assert_eq!(ps[1].rust_line(2.345_67), "    B: f32 = 2.3457;");
    }

    /// At the parameters' values the block's lines are params.rs's own.
    #[test]
    fn lines_are_those_of_params_rs() {
        let source = include_str!("../../brain/search/params.rs");
        let ps = parse(
            "RFP_MARGIN, 120, 40, 300, 10, 0.002, Score\nLMR_DIVISOR, 2.1413, 1, 4, 0.2, 0.002, f32\n\
             LMP_BASE, 3, 0, 8, 1, 0.002, usize\n",
        )
        .unwrap();
        for p in &ps {
            let line = p.rust_line(p.start);
            assert!(
                source.lines().any(|l| l == line),
                "{line:?} is not in params.rs"
            );
        }
    }

    #[test]
    fn rejects_bad_lines() {
        let bad = [
            ("A, 5, 0, 10, 1", "5 field"),
            ("A, 5, 10, 0, 1, 0.1", "min 10 > max 0"),
            ("A, 50, 0, 10, 1, 0.1", "outside"),
            ("A, x, 0, 10, 1, 0.1", "bad start"),
            ("A B, 5, 0, 10, 1, 0.1", "bad parameter name"),
            ("A, 5, 0, 10, 0, 0.1", "positive"),
            ("A, 5, 0, 10, 1, 0.1, i32 x", "bad type"),
            ("A, 5, 0, 10.5, 1, 0.1, i32", "integer"),
            ("A, 5, 0, 10, 1, 0.1\nA, 5, 0, 10, 1, 0.1", "twice"),
            ("# nothing", "no parameters"),
        ];
        for (text, want) in bad {
            let e = parse(text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
