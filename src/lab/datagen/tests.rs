//! Tests of the generator: games replay legally and end as recorded, a run
//! is a function of its arguments, and shards put together are the run.

use super::*;
use crate::brain::types::Rule;

fn tiny(rules: RuleSet, games: u64) -> Config {
    Config {
        rules,
        size: 15,
        nodes: 400,
        games,
        seed: 11,
        ..Config::default()
    }
}

fn text(cfg: &Config) -> String {
    let mut out = Vec::new();
    run(cfg, &mut out, None).unwrap();
    String::from_utf8(out).unwrap()
}

fn games(text: &str) -> Vec<GameRecord> {
    text.lines()
        .filter_map(|l| parse_line(l).unwrap())
        .collect()
}

/// Every game replays legally (renju: Black never on a forbidden point),
/// exploration moves come first, and a decisive result is a five of the
/// winner on the final board or a win the search proved on the last two
/// moves.
fn check_games(cfg: &Config, recs: &[GameRecord]) {
    assert_eq!(recs.len() as u64, cfg.games);
    let mut decisive = 0;
    for r in recs {
        assert_eq!((r.rules, r.size), (cfg.rules, cfg.size));
        assert!(!r.moves.is_empty());
        assert!(r.moves[cfg.random_plies.min(r.moves.len())..]
            .iter()
            .all(|m| m.best));
        r.replay(|b, i, m| {
            let p = b.pos(m.x as i64, m.y as i64).unwrap();
            assert!(is_legal(b, p), "move {i} {m:?} illegal");
            assert!(finished(b).is_none(), "played on after a five");
        });
        let b = r.final_board().unwrap();
        let five = finished(&b).map(|(c, _)| win_for(c));
        if r.result != 0.5 {
            decisive += 1;
            if five != Some(r.result) {
                let n = r.moves.len();
                assert!(n >= ADJUDICATE_PLIES, "{}", r.format());
                // The last mover's score and the one before: the same winner.
                let last = &r.moves[n - 2..];
                let winner_of = |k: usize, s: Score| {
                    // Move k's player is Black when (opening + k) is even.
                    let black = (r.opening.len() + k).is_multiple_of(2);
                    (s > 0) == black
                };
                for (j, m) in last.iter().enumerate() {
                    assert!(m.score.abs() >= MATE_BOUND, "{}", r.format());
                    assert_eq!(
                        winner_of(n - 2 + j, m.score),
                        r.result == 1.0,
                        "{}",
                        r.format()
                    );
                }
            }
        } else {
            assert_eq!(five, None);
        }
    }
    assert!(decisive > 0, "no game decided at all");
}

#[test]
fn games_replay_and_end_as_recorded() {
    let cfg = tiny(RuleSet::FREESTYLE, 4);
    let t = text(&cfg);
    assert!(t.starts_with("# sente-datagen v1 rule=freestyle size=15 nodes=400 seed=11 shard=1/1"));
    let recs = games(&t);
    check_games(&cfg, &recs);
    // Exploration moves are recorded as such, and games differ.
    assert!(recs.iter().any(|r| r.moves[..4].iter().any(|m| !m.best)));
    assert!(recs.windows(2).all(|w| w[0] != w[1]));
}

#[test]
fn renju_games_stay_legal() {
    let cfg = Config {
        max_plies: 60,
        ..tiny(RuleSet::from(Rule::Renju), 3)
    };
    let recs = games(&text(&cfg));
    assert!(recs.iter().all(|r| r.moves.len() <= 60));
    check_games(&cfg, &recs);
}

#[test]
fn same_arguments_same_text() {
    let cfg = tiny(RuleSet::FREESTYLE, 3);
    let a = text(&cfg);
    assert_eq!(a, text(&cfg));
    let other = text(&Config { seed: 12, ..cfg });
    assert_ne!(games(&a), games(&other));
}

/// Shards 1/3, 2/3, 3/3 taken line by line in turn are the 1/1 run.
#[test]
fn shards_make_the_whole_run() {
    let whole = tiny(RuleSet::FREESTYLE, 5);
    let all = games(&text(&whole));
    let shards: Vec<Vec<GameRecord>> = (1..=3)
        .map(|k| {
            games(&text(&Config {
                shard: (k, 3),
                ..whole.clone()
            }))
        })
        .collect();
    assert_eq!(shards.iter().map(Vec::len).collect::<Vec<_>>(), [2, 2, 1]);
    let merged: Vec<GameRecord> = (0..all.len())
        .map(|i| shards[i % 3][i / 3].clone())
        .collect();
    assert_eq!(merged, all);
}

/// An openings file's openings are played in turn; the move cap draws.
#[test]
fn given_openings_and_the_move_cap() {
    let cfg = Config {
        openings: Some(vec![vec![(7, 7), (8, 7)], vec![(3, 3)]]),
        max_plies: 6,
        random_plies: 0,
        ..tiny(RuleSet::FREESTYLE, 3)
    };
    let recs = games(&text(&cfg));
    let openings: Vec<_> = recs.iter().map(|r| r.opening.clone()).collect();
    assert_eq!(
        openings,
        [vec![(7, 7), (8, 7)], vec![(3, 3)], vec![(7, 7), (8, 7)]]
    );
    for r in &recs {
        assert_eq!((r.moves.len(), r.result), (6, 0.5));
        assert!(r.moves.iter().all(|m| m.best));
    }
}

#[test]
fn bad_shards_are_refused() {
    assert_eq!(parse_shard("2/3"), Ok((2, 3)));
    for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
        assert!(parse_shard(bad).is_err(), "{bad}");
    }
}

/// An exploration move must block a four (or win at once).
#[test]
fn a_move_that_lets_a_five_through() {
    let b = Board::from_ascii(
        "\
        . . . . . . . . .\n\
        . X X X X . . . .\n\
        . . . . . . . . .\n\
        . O O O . . . . .\n\
        . . . . . . . . .\n\
        . . . . . . . . .\n\
        . . . . . . . . .\n\
        . . . . . . . . .\n\
        . . . . . . . . .\n",
        RuleSet::FREESTYLE,
    )
    .unwrap();
    assert_eq!(b.to_move(), Color::White);
    let at = |x, y| b.pos(x, y).unwrap();
    assert!(lets_five_through(&b, at(4, 3)));
    // An open four: blocking one end leaves the other.
    assert!(lets_five_through(&b, at(0, 1)) && lets_five_through(&b, at(5, 1)));
    let mut closed = b.clone();
    closed.make(at(0, 1), Color::White);
    closed.make(at(8, 8), Color::Black);
    assert!(!lets_five_through(&closed, at(5, 1)), "blocks the four");
    assert!(lets_five_through(&closed, at(4, 3)));
}

/// `--eval net`: the net's own games, legal, and not the classical ones.
#[test]
fn net_games_are_the_nets_own() {
    let classic = tiny(RuleSet::FREESTYLE, 3);
    let net = Config {
        eval: crate::brain::engine::EvalKind::Net,
        ..classic.clone()
    };
    let t = text(&net);
    check_games(&net, &games(&t));
    assert_ne!(t, text(&classic));
}

/// `--net FILE`: the embedded net's own file gives the embedded net's
/// games (the header aside, which names the file's hash), another net
/// gives other games, and `main_datagen` reads the file.
#[test]
fn a_net_file_plays_like_the_embedded_net_it_holds() {
    use crate::brain::eval::net::{embedded_for, fnv1a, random, QuantNet, EMBEDDED};
    let embedded = Config {
        eval: crate::brain::engine::EvalKind::Net,
        ..tiny(RuleSet::FREESTYLE, 2)
    };
    let same = QuantNet::new(&embedded_for(Rule::Freestyle)).unwrap();
    let given = Config {
        net: Some((std::sync::Arc::new(same), fnv1a(EMBEDDED))),
        ..embedded.clone()
    };
    let (a, b) = (text(&embedded), text(&given));
    assert!(a.lines().next().unwrap().ends_with("eval=net net=embedded"));
    let want = format!("eval=net net={:016x}", fnv1a(EMBEDDED));
    assert!(b.lines().next().unwrap().ends_with(&want), "{b}");
    assert_eq!(
        a.lines().skip(1).collect::<Vec<_>>(),
        b.lines().skip(1).collect::<Vec<_>>()
    );
    let other = Config {
        net: Some((
            std::sync::Arc::new(QuantNet::new(&random(8, 8, 5)).unwrap()),
            1,
        )),
        ..embedded.clone()
    };
    assert_ne!(
        text(&other).lines().skip(1).collect::<Vec<_>>(),
        a.lines().skip(1).collect::<Vec<_>>()
    );

    let dir = std::env::temp_dir().join(format!("sente-datagen-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (file, out) = (dir.join("net.bin"), dir.join("games.txt"));
    std::fs::write(&file, EMBEDDED).unwrap();
    let args: Vec<String> = [
        "--nodes", "400", "--games", "2", "--seed", "11", "--quiet", "--net",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        file.display().to_string(),
        "--out".into(),
        out.display().to_string(),
    ])
    .collect();
    assert_eq!(main_datagen(&args), 0);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), b);
    let bad = dir.join("missing.bin").display().to_string();
    assert_eq!(main_datagen(&["--net".to_string(), bad]), 2);
    std::fs::remove_dir_all(&dir).ok();
}

/// `--mix P`: about P % of the games are mixed, either colour, drawn from
/// (seed, i) alone; 0 mixes none and 100 all.
#[test]
fn the_mixed_side_is_drawn_per_game() {
    let at = |mix| Config {
        mix,
        ..tiny(RuleSet::FREESTYLE, 1)
    };
    let sides = |mix| (0..2000).map(move |i| mixed_side(&at(mix), i));
    assert!(sides(0).all(|s| s.is_none()));
    assert!(sides(100).all(|s| s.is_some()));
    let mixed: Vec<Color> = sides(30).flatten().collect();
    assert!((500..700).contains(&mixed.len()), "{}", mixed.len());
    let white = mixed.iter().filter(|&&c| c == Color::White).count();
    assert!(
        (mixed.len() / 3..mixed.len() * 2 / 3).contains(&white),
        "{white}"
    );
    assert_eq!(sides(30).collect::<Vec<_>>(), sides(30).collect::<Vec<_>>());
    let reseeded = Config { seed: 12, ..at(30) };
    assert_ne!(
        (0..2000)
            .map(|i| mixed_side(&reseeded, i))
            .collect::<Vec<_>>(),
        sides(30).collect::<Vec<_>>()
    );
}

/// In a mixed game the mixed side's moves come from the other evaluation:
/// with no exploration, a game's first move is what a fresh engine of the
/// mover's evaluation chooses on the opening board (the classical engine's
/// when the mixed side moves first, the net's otherwise), and the two
/// differ there, so a game played by one engine throughout fails.
#[test]
fn mixed_games_give_the_mixed_side_the_other_evaluation() {
    use crate::brain::engine::EvalKind;
    let opening = vec![(7, 7), (8, 7), (7, 9)];
    let cfg = Config {
        eval: EvalKind::Net,
        mix: 100,
        random_plies: 0,
        max_plies: 3,
        openings: Some(vec![opening.clone()]),
        ..tiny(RuleSet::FREESTYLE, 6)
    };
    let board = place(&cfg, &opening).unwrap();
    let first = |eval| {
        let mut e = player(cfg.rules, eval);
        let stop = Arc::new(AtomicBool::new(false));
        let c = e
            .choose_move(&board, &limits(cfg.nodes), &stop, &mut |_| {})
            .unwrap();
        board.xy(c.mv)
    };
    let (net, classic) = (first(EvalKind::Net), first(EvalKind::Classic));
    assert_ne!(net, classic, "the test needs an opening where they differ");
    let t = text(&cfg);
    assert!(t.lines().next().unwrap().ends_with("mix=100"), "{t}");
    let recs = games(&t);
    let mut seen = [false; 2];
    for (i, r) in recs.iter().enumerate() {
        let side = mixed_side(&cfg, i as u64).unwrap();
        seen[side.index()] = true;
        let m = r.moves[0];
        let want = if side == board.to_move() {
            classic
        } else {
            net
        };
        assert_eq!((m.x, m.y), want, "game {i}, mixed side {side:?}");
    }
    assert_eq!(seen, [true, true], "both colours mixed in six games");
    // The same games without the mix are the net's alone.
    assert_ne!(
        games(&text(&Config {
            mix: 0,
            ..cfg.clone()
        })),
        recs
    );
}

#[test]
fn a_mix_over_100_is_refused() {
    let cfg = Config {
        mix: 101,
        ..tiny(RuleSet::FREESTYLE, 1)
    };
    assert!(run(&cfg, &mut Vec::new(), None).is_err());
    assert_eq!(main_datagen(&["--mix".into(), "101".into()]), 2);
}
