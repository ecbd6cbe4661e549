//! What a tournament plays, before it plays: who meets whom (`Format`,
//! `pairings`), the engines (`EngineSpec`), the schedule of colour-swapped
//! pairs over the openings (`schedule`), and which share of it a shard
//! plays (`Shard`). Used by the runner (`tournament`), the reports
//! (`tourreport`, `html`) and the merge (`tourmerge`).

use super::openings;

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    Gauntlet,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }

    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "round-robin" | "roundrobin" | "rr" => Some(Format::RoundRobin),
            "gauntlet" => Some(Format::Gauntlet),
            _ => None,
        }
    }
}

/// One engine of a tournament: its name in the results, its command, and
/// options sent to it alone as `INFO key value` after the standard INFO
/// settings (`thread_num`, `max_node`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    pub fn info_lines(&self) -> Vec<String> {
        self.options
            .iter()
            .map(|(k, v)| format!("INFO {k} {v}"))
            .collect()
    }
}

/// `--shard K/N`: the K-th (1-based) of N shares of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard wants K/N with 1 <= K <= N, got {s:?}");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether this shard plays scheduled game `s` (its whole pair goes
    /// with it).
    pub fn takes(&self, s: &Scheduled) -> bool {
        s.pair % self.count == self.index - 1
    }

    pub fn text(&self) -> String {
        format!("{}/{}", self.index, self.count)
    }
}

/// The engine pairs that meet, as (first, second) indices.
pub fn pairings(n: usize, format: Format) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet => (1..n).map(|b| (0, b)).collect(),
    }
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// 0-based number in the whole schedule.
    pub game: usize,
    /// Number of its colour-swapped pair in the whole schedule.
    pub pair: usize,
    /// Index into `pairings`.
    pub pairing: usize,
    /// The pairing's engines: `a` is the first.
    pub a: usize,
    pub b: usize,
    /// Index into the opening list.
    pub opening: usize,
    pub a_black: bool,
}

/// The whole schedule: for each pair number p, each pairing plays the two
/// games of opening `order[p mod len]`, its first engine Black first (as
/// the two-engine runner's `openings::slot` does per pairing).
pub fn schedule(
    pairs: &[(usize, usize)],
    games_per_pair: usize,
    order: &[usize],
) -> Vec<Scheduled> {
    let mut out = Vec::new();
    let rounds = games_per_pair.div_ceil(2);
    for p in 0..rounds {
        for (m, &(a, b)) in pairs.iter().enumerate() {
            for g in [2 * p, 2 * p + 1] {
                if g >= games_per_pair {
                    continue;
                }
                let slot = openings::slot(g, order);
                out.push(Scheduled {
                    game: out.len(),
                    pair: p * pairs.len() + m,
                    pairing: m,
                    a,
                    b,
                    opening: slot.opening,
                    a_black: slot.engine1_black,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_per_format() {
        assert_eq!(
            pairings(4, Format::RoundRobin),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(pairings(4, Format::Gauntlet), vec![(0, 1), (0, 2), (0, 3)]);
        assert_eq!(Format::parse("gauntlet"), Some(Format::Gauntlet));
        assert_eq!(Format::parse("x"), None);
    }

    #[test]
    fn schedule_interleaves_pairings_and_swaps_colours() {
        let pairs = pairings(3, Format::RoundRobin);
        let order = openings::order(2, None);
        let s = schedule(&pairs, 4, &order);
        assert_eq!(s.len(), 12);
        // Pair 0 of every pairing, then pair 1.
        let first: Vec<(usize, usize, usize, bool)> = s[..6]
            .iter()
            .map(|g| (g.a, g.b, g.opening, g.a_black))
            .collect();
        assert_eq!(
            first,
            vec![
                (0, 1, 0, true),
                (0, 1, 0, false),
                (0, 2, 0, true),
                (0, 2, 0, false),
                (1, 2, 0, true),
                (1, 2, 0, false)
            ]
        );
        assert!(s[6..].iter().all(|g| g.opening == 1));
        for (i, g) in s.iter().enumerate() {
            assert_eq!(g.game, i);
            assert_eq!(g.pair, i / 2);
        }
        // Every pairing plays each opening with each colour.
        for m in 0..3 {
            let mine: Vec<_> = s.iter().filter(|g| g.pairing == m).collect();
            assert_eq!(mine.len(), 4);
            assert_eq!(mine.iter().filter(|g| g.a_black).count(), 2);
        }
        // Odd games per pairing: the last pair is a single game.
        let s = schedule(&pairs, 3, &order);
        assert_eq!(s.len(), 9);
        assert_eq!(s.iter().filter(|g| g.pairing == 2).count(), 3);
    }

    #[test]
    fn shards_partition_the_schedule_by_pairs() {
        let pairs = pairings(4, Format::RoundRobin);
        let order = openings::order(5, Some(3));
        let s = schedule(&pairs, 6, &order);
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { index: k, count: 3 }).collect();
        let mut seen = vec![0; s.len()];
        for sh in &shards {
            for g in s.iter().filter(|g| sh.takes(g)) {
                seen[g.game] += 1;
                // The colour-swapped partner is in the same shard.
                let partner = s
                    .iter()
                    .find(|o| o.pair == g.pair && o.game != g.game)
                    .unwrap();
                assert!(sh.takes(partner));
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        assert!(Shard::parse("0/3").is_err());
        assert!(Shard::parse("4/3").is_err());
        assert!(Shard::parse("x").is_err());
    }
}
