//! `sente-arena sprt`: the SPRT and the Elo interval of a result already
//! played, from its pair counts (pentanomial) or its W-D-L, so that a logged
//! match can be re-scored with the arena's current statistics (the exact
//! GSPRT) without playing it again; or, with `--error-table`, the SPRT's
//! error rates by simulation (`stats::errors`).

use super::report;
use super::stats::{errors, Sprt, Tally};
use crate::cli::{num, value};

pub const USAGE: &str = "\
usage: sente-arena sprt (--penta P0/P1/P2/P3/P4 | --wdl W-D-L | both)
                        [--elo0 E] [--elo1 E] [--alpha A] [--beta B]
       sente-arena sprt --error-table [--runs N] [--elo0 E] [--elo1 E] [--alpha A] [--beta B]

  re-scores a played result: score, Elo ± 95 %, LOS and the SPRT's LLR and
  decision as a match run now would print them
  --penta           opening pairs by engine 1's points: 0 / ½ / 1 / 1½ / 2
  --wdl             engine 1's wins, draws and losses over single games
                    (with --penta, the games' counts; alone, a trinomial SPRT)
  --elo0, --elo1    the hypotheses, logistic Elo [0, 10]
  --alpha, --beta   error rates [0.05, 0.05]
  --error-table     instead: the SPRT's error rates on colour-decided pairs,
                    N simulated SPRTs per row [5000; minutes], as a Markdown table
";

/// What `sprt` is asked.
#[derive(Clone, Debug, PartialEq)]
pub struct Rescore {
    pub tally: Tally,
    pub sprt: Sprt,
    /// `--error-table`: simulated SPRTs per row of the error-rate table,
    /// printed instead of a result (the tally is then empty).
    pub table_runs: Option<u32>,
}

/// Whether `args` ask for `sprt`.
pub fn wants(args: &[String]) -> bool {
    args.first().map(String::as_str) == Some("sprt")
}

/// `N` counts separated by `sep` (`--penta a/b/c/d/e`, `--wdl w-d-l`);
/// `what` names them in the error.
fn counts<const N: usize>(opt: &str, v: &str, sep: char, what: &str) -> Result<[u64; N], String> {
    let parts: Vec<&str> = v.split(sep).collect();
    if parts.len() != N {
        return Err(format!("{opt}: want {what}, got {v:?}"));
    }
    let mut out = [0; N];
    for (o, p) in out.iter_mut().zip(&parts) {
        *o = num(opt, p.trim())?;
    }
    Ok(out)
}

/// Parse `sprt …` (the arguments after the program name); None for help.
pub fn parse(args: &[String]) -> Result<Option<Rescore>, String> {
    let mut penta = None;
    let mut wdl = None;
    let mut sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let mut table_runs = None;
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--help" | "-h" => return Ok(None),
            "--error-table" => table_runs = Some(table_runs.unwrap_or(5000)),
            "--runs" => table_runs = Some(num(a, &value(&mut it, a)?)?),
            "--penta" => {
                penta = Some(counts(
                    a,
                    &value(&mut it, a)?,
                    '/',
                    "five counts a/b/c/d/e",
                )?)
            }
            "--wdl" => wdl = Some(counts(a, &value(&mut it, a)?, '-', "wins-draws-losses")?),
            "--elo0" => sprt.elo0 = num(a, &value(&mut it, a)?)?,
            "--elo1" => sprt.elo1 = num(a, &value(&mut it, a)?)?,
            "--alpha" => sprt.alpha = num(a, &value(&mut it, a)?)?,
            "--beta" => sprt.beta = num(a, &value(&mut it, a)?)?,
            other => return Err(format!("sprt: unknown option {other:?}")),
        }
    }
    if !sprt.elo0.is_finite() || !sprt.elo1.is_finite() || sprt.elo1 <= sprt.elo0 {
        return Err("sprt: --elo1 must be above --elo0".into());
    }
    let rate = |x: f64| x > 0.0 && x < 0.5;
    if !rate(sprt.alpha) || !rate(sprt.beta) {
        return Err("sprt: --alpha and --beta must lie in (0, 0.5)".into());
    }
    let mut tally = Tally::default();
    if table_runs.is_some() {
        if penta.is_some() || wdl.is_some() || !args.iter().any(|a| a == "--error-table") {
            return Err("sprt: --runs goes with --error-table, --penta and --wdl without".into());
        }
        return Ok(Some(Rescore {
            tally,
            sprt,
            table_runs,
        }));
    }
    match (penta, wdl) {
        (None, None) => return Err("sprt: give --penta, --wdl or both".into()),
        (p, Some([w, d, l])) => {
            tally.wins = w;
            tally.draws = d;
            tally.losses = l;
            if let Some(p) = p {
                tally.penta = p;
                // Half-points: the pairs' must be part of the games', and
                // the games outside a pair make up the rest.
                let points = p[1] + 2 * p[2] + 3 * p[3] + 4 * p[4];
                let games = 2 * p.iter().sum::<u64>();
                let all = 2 * w + d;
                if games > tally.games()
                    || points > all
                    || all - points > 2 * (tally.games() - games)
                {
                    return Err(format!(
                        "sprt: the pairs ({games} games, {} points) do not fit {w}-{d}-{l}",
                        points as f64 / 2.0
                    ));
                }
            }
        }
        (Some(p), None) => {
            // Games consistent with the pairs: ½ and 1½ hold one draw, 1 a
            // win and a loss (the score, all the statistics use, is exact).
            tally.penta = p;
            tally.wins = p[2] + p[3] + 2 * p[4];
            tally.draws = p[1] + p[3];
            tally.losses = 2 * p[0] + p[1] + p[2];
        }
    }
    Ok(Some(Rescore {
        tally,
        sprt,
        table_runs: None,
    }))
}

/// The report `sprt` prints: the match summary's result and SPRT lines, or
/// the error-rate table.
pub fn report(r: &Rescore) -> String {
    if let Some(runs) = r.table_runs {
        return errors::error_table(&r.sprt, runs);
    }
    let mut out = report::tally_lines(&r.tally);
    out.push_str(&report::sprt_line(
        &r.sprt,
        &r.tally,
        r.sprt.state(&r.tally),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::cli::test_args as args;
    use crate::lab::arena::stats::SprtState;

    #[test]
    fn pairs_alone_give_the_pairs_score() {
        let r = parse(&args("sprt --penta 16/11/123/10/11"))
            .unwrap()
            .unwrap();
        // Points: 11·½ + 123·1 + 10·1½ + 11·2 = 165.5 of 171 pairs.
        assert_eq!(r.tally.games(), 342);
        assert!((r.tally.score() - 165.5 / 342.0).abs() < 1e-12);
        assert_eq!(r.tally.penta, [16, 11, 123, 10, 11]);
        assert_eq!(r.sprt.elo1, 10.0);
    }

    #[test]
    fn the_report_is_the_runners_llr() {
        let r = parse(&args("sprt --penta 2/3/50/15/30 --wdl 125-18-57 --elo1 20"))
            .unwrap()
            .unwrap();
        let text = report(&r);
        let llr = r.sprt.llr_pentanomial(&r.tally);
        assert!(text.contains(&format!("LLR {llr:.3} [")), "{text}");
        assert!(
            text.contains("pairs 100 (0, 1/2, 1, 3/2, 2 points): 2 3 50 15 30"),
            "{text}"
        );
        // A clear gain: H1 at [0, 20].
        assert_eq!(r.sprt.state(&r.tally), SprtState::AcceptH1);
        assert!(text.contains(SprtState::AcceptH1.text()), "{text}");
        // The same result (+123 Elo) fails a test of +250 against +350.
        let hard = parse(&args("sprt --penta 2/3/50/15/30 --elo0 250 --elo1 350"))
            .unwrap()
            .unwrap();
        assert_eq!(hard.sprt.state(&hard.tally), SprtState::AcceptH0);
    }

    #[test]
    fn games_alone_are_trinomial() {
        let r = parse(&args("sprt --wdl 60-0-40")).unwrap().unwrap();
        assert_eq!(r.tally.pairs(), 0);
        let llr = r.sprt.llr_trinomial(&r.tally);
        assert!(llr > 0.0);
        let text = report(&r);
        assert!(text.contains(&format!("LLR {llr:.3} [")), "{text}");
        assert!(!text.contains("pairs"), "{text}");
        assert!((r.tally.score() - 0.6).abs() < 1e-12);
    }

    #[test]
    fn the_error_table_is_asked() {
        let r = parse(&args("sprt --error-table --runs 3 --elo1 5"))
            .unwrap()
            .unwrap();
        assert_eq!((r.table_runs, r.sprt.elo1), (Some(3), 5.0));
        let text = report(&r);
        assert!(text.starts_with("| true Elo |"), "{text}");
        assert_eq!(text.lines().count(), 2 + 14, "{text}");
        let r = parse(&args("sprt --error-table")).unwrap().unwrap();
        assert_eq!(r.table_runs, Some(5000));
        assert_eq!(
            parse(&args("sprt --penta 1/1/1/1/1"))
                .unwrap()
                .unwrap()
                .table_runs,
            None
        );
    }

    #[test]
    fn bad_input_is_refused() {
        for bad in [
            "sprt",
            "sprt --penta 1/2/3/4",
            "sprt --penta 1/2/x/4/5",
            "sprt --wdl 1-2",
            "sprt --wdl 1-2-3 --elo0 5 --elo1 5",
            "sprt --wdl 1-2-3 --elo1 NaN",
            "sprt --wdl 1-2-3 --alpha 0.7",
            "sprt --wdl 1-2-3 --what",
            // 10 pairs of 2 points need 20 wins.
            "sprt --penta 0/0/0/0/10 --wdl 5-0-15",
            // 10 pairs of 1 point hold 10 points, not 15.
            "sprt --penta 0/0/10/0/0 --wdl 15-0-5",
            "sprt --runs 10",
            "sprt --error-table --wdl 1-2-3",
            "sprt --error-table --runs x",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
        assert_eq!(parse(&args("sprt --help")).unwrap(), None);
    }
}
