//! Paired comparison of two matches played on the same schedule
//! (`sente-arena --compare BASE NEW`): the same game number means the same
//! opening and colours, so one engine's points are compared game by game,
//! which removes the openings' share of the noise (some openings are lost
//! with either colour, whichever version plays them). The interval counts
//! opening pairs, not games, as its independent units.

use std::collections::BTreeMap;

use super::report::parse_result;
use super::stats::Z95;
use crate::brain::types::Color;

/// One engine's points per game number in a `games.txt` record file.
pub fn points(text: &str, name: &str) -> Result<BTreeMap<u64, f64>, String> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let bad = |why: &str| format!("line {}: {why}", i + 1);
        if f.len() < 4 {
            return Err(bad("fewer than four tab-separated fields"));
        }
        let game: u64 = f[0].parse().map_err(|_| bad("no game number"))?;
        let black = if f[1] == name {
            true
        } else if f[2] == name {
            false
        } else {
            return Err(bad(&format!("{name:?} plays neither colour")));
        };
        let p = match parse_result(f[3]) {
            Some(Some(winner)) => ((winner == Color::Black) == black) as u8 as f64,
            Some(None) => 0.5,
            None => return Err(bad(&format!("unknown result {:?}", f[3]))),
        };
        if out.insert(game, p).is_some() {
            return Err(bad(&format!("game {game} twice")));
        }
    }
    Ok(out)
}

/// The paired comparison of the games both files hold.
/// The games of a `games.txt` record file that ended in a forfeit (the
/// referee's: a timeout, a crash, an illegal move, memory over the limit;
/// not a renju forbidden move, which is play). Lines `points` accepts.
pub fn forfeits(text: &str) -> std::collections::BTreeSet<u64> {
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let forfeit = matches!(
                f.get(4).copied(),
                Some("timeout" | "crash" | "illegal" | "memory")
            );
            forfeit.then(|| f[0].parse().ok()).flatten()
        })
        .collect()
}

/// `points` without the games of every opening pair in `pairs`.
fn without_pairs(
    points: &BTreeMap<u64, f64>,
    pairs: &std::collections::BTreeSet<u64>,
) -> BTreeMap<u64, f64> {
    points
        .iter()
        .filter(|(g, _)| !pairs.contains(&pair_of(**g)))
        .map(|(&g, &p)| (g, p))
        .collect()
}

#[derive(Debug, Clone, PartialEq)]
pub struct Paired {
    pub games: usize,
    /// Opening pairs (games 2k − 1 and 2k, numbered from 1 as in the
    /// files) with at least one game in common.
    pub pairs: usize,
    /// Mean points per game of each side, over the common games.
    pub base: f64,
    pub new: f64,
    /// Mean of (new − base) per game and its 95 % half-width.
    pub diff: f64,
    pub diff_95: f64,
    /// Games the new side scored more in, and fewer.
    pub better: usize,
    pub worse: usize,
}

/// The opening pair of a game number from a record file (1-based: games 1
/// and 2 share the first opening, colours swapped).
fn pair_of(game: u64) -> u64 {
    game.div_ceil(2)
}

/// The paired comparison. The unit of the variance is the opening pair,
/// not the game: games 2k − 1 and 2k share an opening, and when its colour
/// decides, a change that wins one of them often loses the other, so the
/// per-game differences are correlated within a pair. With D_k the sum of
/// (new − base) over pair k's common games and m_k their number (2, or 1
/// where a match stopped mid-pair), the mean per game is ΣD / Σm and its
/// variance K/(K − 1) · Σ(D_k − m_k·mean)² / (Σm)² over the K pairs (for
/// complete pairs: the sample variance of the pair means over K).
pub fn paired(base: &BTreeMap<u64, f64>, new: &BTreeMap<u64, f64>) -> Option<Paired> {
    let common: Vec<(u64, f64, f64)> = base
        .iter()
        .filter_map(|(&g, &b)| new.get(&g).map(|&n| (g, b, n)))
        .collect();
    let n = common.len();
    if n == 0 {
        return None;
    }
    // (sum of differences, games) per opening pair
    let mut by_pair: BTreeMap<u64, (f64, f64)> = BTreeMap::new();
    for &(g, b, nw) in &common {
        let e = by_pair.entry(pair_of(g)).or_insert((0.0, 0.0));
        e.0 += nw - b;
        e.1 += 1.0;
    }
    let k = by_pair.len();
    let mean = by_pair.values().map(|p| p.0).sum::<f64>() / n as f64;
    let var = if k > 1 {
        let ss: f64 = by_pair.values().map(|(d, m)| (d - m * mean).powi(2)).sum();
        k as f64 / (k - 1) as f64 * ss / (n as f64).powi(2)
    } else {
        0.0
    };
    Some(Paired {
        games: n,
        pairs: k,
        base: common.iter().map(|c| c.1).sum::<f64>() / n as f64,
        new: common.iter().map(|c| c.2).sum::<f64>() / n as f64,
        diff: mean,
        diff_95: Z95 * var.sqrt(),
        better: common.iter().filter(|c| c.2 > c.1).count(),
        worse: common.iter().filter(|c| c.2 < c.1).count(),
    })
}

/// `sente-arena --compare`: read both files, print the comparison.
pub fn run(base_path: &str, new_path: &str, name: &str) -> Result<String, String> {
    let read = |p: &str| {
        std::fs::read_to_string(p)
            .map_err(|e| format!("{p}: {e}"))
            .and_then(|t| {
                let pts = points(&t, name).map_err(|e| format!("{p}: {e}"))?;
                Ok((pts, forfeits(&t)))
            })
    };
    let ((b, bf), (n, nf)) = (read(base_path)?, read(new_path)?);
    let p = paired(&b, &n).ok_or("the two files have no game number in common")?;
    let forfeit_pairs: std::collections::BTreeSet<u64> =
        bf.iter().chain(nf.iter()).map(|&g| pair_of(g)).collect();
    let clean = (!forfeit_pairs.is_empty())
        .then(|| {
            paired(
                &without_pairs(&b, &forfeit_pairs),
                &without_pairs(&n, &forfeit_pairs),
            )
        })
        .flatten();
    let clean_line = match clean {
        Some(c) => format!(
            "without the {} opening pairs with a forfeit in either match ({} and {} forfeits): \
             paired difference {:+.1} ± {:.1} points per 100 games (over {} pairs, {} games)\n",
            forfeit_pairs.len(),
            bf.len(),
            nf.len(),
            100.0 * c.diff,
            100.0 * c.diff_95,
            c.pairs,
            c.games
        ),
        None if forfeit_pairs.is_empty() => String::new(),
        None => format!(
            "every common opening pair holds a forfeit ({} and {})\n",
            bf.len(),
            nf.len()
        ),
    };
    Ok(format!(
        "games {} in common ({} and {} in the files)\n\
         {name} scored {:.1} % in the base and {:.1} % in the new match\n\
         paired difference {:+.1} ± {:.1} points per 100 games (95 %, over {} opening pairs); new better in {}, worse in {}\n{clean_line}",
        p.games,
        b.len(),
        n.len(),
        100.0 * p.base,
        100.0 * p.new,
        100.0 * p.diff,
        100.0 * p.diff_95,
        p.pairs,
        p.better,
        p.worse
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "1\tsente\trapfi\t1-0\tfive\t3\tsente made five\t7,7\n\
                        2\trapfi\tsente\t1-0\tfive\t3\trapfi made five\t7,7\n\
                        3\tsente\trapfi\t1/2-1/2\tdraw\t3\tfull\t7,7\n\
                        4\trapfi\tsente\t1-0\tfive\t3\trapfi made five\t7,7\n";

    #[test]
    fn points_follow_colour_and_result() {
        let p = points(BASE, "sente").unwrap();
        assert_eq!(
            p.values().copied().collect::<Vec<_>>(),
            [1.0, 0.0, 0.5, 0.0]
        );
        let r = points(BASE, "rapfi").unwrap();
        assert_eq!(
            r.values().copied().collect::<Vec<_>>(),
            [0.0, 1.0, 0.5, 1.0]
        );
    }

    /// Forfeits are counted and their opening pairs left out of a second
    /// comparison; a renju forbidden move is play, not a forfeit.
    #[test]
    fn forfeit_pairs_are_left_out_of_a_second_comparison() {
        let new_text = "1\tsente\trapfi\t1-0\ttimeout\t3\trapfi: no answer\t7,7\n\
                        2\trapfi\tsente\t1-0\tfive\t3\t\t7,7\n\
                        3\tsente\trapfi\t1-0\tfive\t3\t\t7,7\n\
                        4\trapfi\tsente\t0-1\tforbidden\t3\t\t7,7\n";
        assert_eq!(forfeits(new_text).into_iter().collect::<Vec<_>>(), [1]);
        assert!(forfeits(BASE).is_empty());
        let dir = std::env::temp_dir().join(format!("sente-compare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (bp, np) = (dir.join("base.txt"), dir.join("new.txt"));
        std::fs::write(&bp, BASE).unwrap();
        std::fs::write(&np, new_text).unwrap();
        let out = run(bp.to_str().unwrap(), np.to_str().unwrap(), "sente").unwrap();
        // Games 3 and 4 (pair 2): +0.5 and +1 over the base.
        assert!(
            out.contains("without the 1 opening pairs with a forfeit in either match (0 and 1 forfeits): paired difference +75.0"),
            "{out}"
        );
        let same = run(bp.to_str().unwrap(), bp.to_str().unwrap(), "sente").unwrap();
        assert!(!same.contains("without"), "{same}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_records_are_refused() {
        assert!(points(BASE, "nobody").is_err());
        assert!(points("x\tsente\trapfi\t1-0", "sente").is_err());
        assert!(points("1\tsente\trapfi\t2-0", "sente").is_err());
        assert!(points("1\tsente\trapfi", "sente").is_err());
        let twice = "1\tsente\trapfi\t1-0\n1\trapfi\tsente\t1-0\n";
        assert!(points(twice, "sente").is_err());
    }

    #[test]
    fn pairs_only_common_games() {
        let base = points(BASE, "sente").unwrap();
        // The new match wins game 2, loses game 1, and has no game 4.
        let new_text = "1\tsente\trapfi\t0-1\tfive\t3\t\t7,7\n\
                        2\trapfi\tsente\t0-1\tfive\t3\t\t7,7\n\
                        3\tsente\trapfi\t1/2-1/2\tdraw\t3\t\t7,7\n\
                        5\trapfi\tsente\t0-1\tfive\t3\t\t7,7\n";
        let new = points(new_text, "sente").unwrap();
        let p = paired(&base, &new).unwrap();
        assert_eq!(p.games, 3);
        assert_eq!((p.better, p.worse), (1, 1));
        assert!((p.base - 0.5).abs() < 1e-12 && (p.new - 0.5).abs() < 1e-12);
        assert!(p.diff.abs() < 1e-12);
        // Differences +1, −1 in games 1 and 2 (one opening, colours
        // swapped: they cancel) and 0 in game 3: every opening pair sums to
        // 0, so no spread. (Per game it was 1.96 √(1/3).)
        assert_eq!(p.pairs, 2);
        assert!(p.diff_95.abs() < 1e-12);
        // A match against itself differs by nothing.
        let same = paired(&base, &base).unwrap();
        assert_eq!((same.diff, same.diff_95, same.better), (0.0, 0.0, 0));
        assert!(paired(&base, &BTreeMap::new()).is_none());
    }

    #[test]
    fn variance_is_per_opening_pair() {
        let map = |v: &[f64]| -> BTreeMap<u64, f64> {
            v.iter()
                .enumerate()
                .map(|(i, &x)| (i as u64 + 1, x))
                .collect()
        };
        // Per-game differences 1 0 | 0 0 | −1 1 | 1 1: pair sums 1, 0, 0, 2.
        let base = map(&[0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        let new = map(&[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
        let p = paired(&base, &new).unwrap();
        assert_eq!((p.games, p.pairs, p.better, p.worse), (8, 4, 4, 1));
        assert!((p.diff - 0.375).abs() < 1e-12);
        // Pair means 0.5, 0, 0, 1: sample variance 0.22917, over 4 pairs
        // 0.057292; checked in Python. (Per game: 0.069196.)
        let want = Z95 * (0.057_291_666_666_666_67f64).sqrt();
        assert!((p.diff_95 - want).abs() < 1e-12, "{}", p.diff_95);
        assert!((p.diff_95 - 0.469_131_3).abs() < 1e-6, "{}", p.diff_95);
        // A match cut mid-pair: game 8 missing, pair 4 has one game (sum 1).
        let mut short = new.clone();
        short.remove(&8);
        let p = paired(&base, &short).unwrap();
        assert_eq!((p.games, p.pairs), (7, 4));
        let mean = 2.0 / 7.0;
        let ss = [(1.0, 2.0), (0.0, 2.0), (0.0, 2.0), (1.0, 1.0)]
            .iter()
            .map(|(d, m): &(f64, f64)| (d - m * mean).powi(2))
            .sum::<f64>();
        let want = Z95 * (4.0 / 3.0 * ss / 49.0).sqrt();
        assert!((p.diff - mean).abs() < 1e-12);
        assert!((p.diff_95 - want).abs() < 1e-12);
        assert_eq!(pair_of(1), 1);
        assert_eq!(pair_of(2), 1);
        assert_eq!(pair_of(3), 2);
    }
}
