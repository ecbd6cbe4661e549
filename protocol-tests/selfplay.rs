//! Self-play: full games of `pbrain-sente` against itself, two processes
//! driven by a mini referee exactly as a tournament manager drives them
//! (START, INFO, a BOARD opening for each side's first move, then TURN).
//! Every rule (freestyle, standard, renju, caro, continuous) on 15×15 and
//! 20×20, plus a 6×6 game where a full-board draw is likely. The referee
//! checks every move (on the board, empty, not forbidden to Black under
//! renju) and judges wins twice — with `rules::is_win` and with its own line
//! count below — and the two must agree. Each game must
//! end with a five for the side that made it or a draw on a full board (a
//! continuous game: after two fives, a full board or a move cap).
//!
//! Games run in parallel with short turn limits so the whole test takes
//! well under a minute on two cores.

mod harness;

use std::thread;
use std::time::{Duration, Instant};

use harness::{parse_point, Engine, ANSWER_TIMEOUT};
use sente::brain::game::board::{BLACK, EMPTY, WALL, WHITE};
use sente::brain::game::rules::{is_forbidden, is_win};
use sente::brain::game::{Board, Pos};
use sente::{Color, Rule, RuleSet};

const TURN_MS: u64 = 60;
/// A continuous game stops after this many fives …
const CONTINUOUS_FIVES: usize = 2;
/// … or this many moves.
const CONTINUOUS_MOVE_CAP: usize = 160;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Win(Color),
    Draw,
    /// Continuous game: the fives made by (Black, White), and why it stopped.
    Continuous {
        fives: (usize, usize),
        full: bool,
    },
}

/// The referee's own win test for the stone just placed on `p`.
fn own_win(b: &Board, p: Pos, color: Color, rule: Rule) -> bool {
    let me = color.cell();
    let opp = color.opposite().cell();
    let dirs = b.dirs();
    dirs.iter().any(|&d| {
        let mut fwd = p;
        let mut n = 1;
        while b.cell(fwd.offset(d)) == me {
            fwd = fwd.offset(d);
            n += 1;
        }
        let mut back = p;
        while b.cell(back.offset(-d)) == me {
            back = back.offset(-d);
            n += 1;
        }
        match n {
            0..=4 => false,
            5 if rule == Rule::Caro => {
                // Blocked at both ends by opponent stones: no win. The edge
                // (a wall cell) does not block.
                !(b.cell(fwd.offset(d)) == opp && b.cell(back.offset(-d)) == opp)
            }
            5 => true,
            _ => match rule {
                Rule::Freestyle | Rule::Caro => true,
                Rule::Standard => false,
                Rule::Renju => color == Color::White,
            },
        }
    })
}

/// The stones of the winning line(s) through `p` (continuous game: they
/// become neutral).
fn winning_stones(b: &Board, p: Pos, color: Color) -> Vec<Pos> {
    let me = color.cell();
    let mut out = vec![p];
    for d in b.dirs() {
        let mut line = vec![];
        for s in [d, -d] {
            let mut q = p.offset(s);
            while b.cell(q) == me {
                line.push(q);
                q = q.offset(s);
            }
        }
        if line.len() + 1 >= 5 {
            out.extend(line);
        }
    }
    out
}

struct Player {
    e: Engine,
    /// Needs the whole position (first move, or neutral stones appeared).
    needs_board: bool,
}

struct Game {
    name: String,
    size: usize,
    bits: u32,
    opening: Vec<(i64, i64)>,
}

/// Rebuild the referee board with neutral stones replacing `gone`.
fn neutralize(b: &Board, gone: &[Pos]) -> Board {
    let mut nb = Board::new(b.width(), b.height(), b.rules()).unwrap();
    for m in b.history() {
        if gone.contains(&m.pos) || m.stone == WALL {
            nb.make_neutral(m.pos);
        } else if m.stone == BLACK {
            nb.make(m.pos, Color::Black);
        } else {
            nb.make(m.pos, Color::White);
        }
    }
    nb.set_to_move(b.to_move());
    nb
}

fn board_lines(b: &Board, me: Color) -> Vec<String> {
    let mut v = vec!["BOARD".to_string()];
    for m in b.history() {
        let (x, y) = b.xy(m.pos);
        let f = match m.stone {
            WALL => 3,
            s if s == me.cell() => 1,
            _ => 2,
        };
        v.push(format!("{x},{y},{f}"));
    }
    v.push("DONE".into());
    v
}

fn report(game: &Game, moves: usize, e: &Engine, board: &Board, msg: String) -> String {
    format!(
        "{}: move {moves}: {msg}\n{}\n{board}",
        game.name,
        e.tail(16)
    )
}

fn play(game: &Game) -> (Outcome, usize) {
    let rules = RuleSet::from_bits(game.bits);
    let mut board = Board::square(game.size, rules).unwrap();
    let mut players = [(); 2].map(|_| Player {
        e: Engine::spawn(),
        needs_board: true,
    });
    for p in players.iter_mut() {
        // INFO first (allowed at any time), so the engine sizes its tables
        // once, for the small budget, when START comes.
        p.e.setup(&[
            format!("INFO timeout_turn {TURN_MS}"),
            "INFO timeout_match 0".into(),
            "INFO max_memory 67108864".into(),
            "INFO game_type 1".into(),
            format!("INFO rule {}", game.bits),
            format!("START {}", game.size),
        ])
        .unwrap_or_else(|m| panic!("{}: {m}", game.name));
    }
    for &(x, y) in &game.opening {
        let c = board.to_move();
        board.try_make(x, y, c).unwrap();
    }
    let mut fives = (0, 0);
    let mut last: Option<Pos> = None;
    let mut moves = 0;
    let outcome = loop {
        if board.is_full() {
            break if rules.continuous {
                Outcome::Continuous { fives, full: true }
            } else {
                Outcome::Draw
            };
        }
        let color = board.to_move();
        let pl = &mut players[color.index()];
        if pl.needs_board {
            for l in board_lines(&board, color) {
                pl.e.send(&l).unwrap();
            }
            pl.needs_board = false;
        } else {
            let (x, y) = board.xy(last.expect("a previous move"));
            pl.e.send(&format!("TURN {x},{y}")).unwrap();
        }
        let answer = pl.e.answer(ANSWER_TIMEOUT);
        // The game, the move, the last lines and the board, for a failure.
        let fail = |msg: String| -> ! { panic!("{}", report(game, moves, &pl.e, &board, msg)) };
        let ans = answer.unwrap_or_else(|e| fail(e));
        let (x, y) = parse_point(&ans).unwrap_or_else(|| fail(ans.clone()));
        let p = board
            .pos(x, y)
            .unwrap_or_else(|| fail(format!("{ans} is off the board")));
        if board.cell(p) != EMPTY {
            fail(format!("{ans} is occupied"));
        }
        if rules.rule == Rule::Renju && color == Color::Black && is_forbidden(&board, p) {
            fail(format!("Black played the forbidden point {ans}"));
        }
        board.make(p, color);
        last = Some(p);
        moves += 1;
        let lib = is_win(&board, p, color);
        let own = own_win(&board, p, color, rules.rule);
        assert_eq!(
            lib,
            own,
            "{}",
            report(
                game,
                moves,
                &players[color.index()].e,
                &board,
                format!("rules::is_win says {lib}, the referee's count says {own} after {ans}")
            )
        );
        if !own {
            if rules.continuous && moves >= CONTINUOUS_MOVE_CAP {
                break Outcome::Continuous { fives, full: false };
            }
            continue;
        }
        if !rules.continuous {
            break Outcome::Win(color);
        }
        // Continuous: the five's stones become neutral and play goes on;
        // both engines get the new position as a BOARD.
        match color {
            Color::Black => fives.0 += 1,
            Color::White => fives.1 += 1,
        }
        let gone = winning_stones(&board, p, color);
        board = neutralize(&board, &gone);
        for pl in players.iter_mut() {
            pl.needs_board = true;
        }
        if fives.0 + fives.1 >= CONTINUOUS_FIVES {
            break Outcome::Continuous { fives, full: false };
        }
    };
    for pl in players.iter_mut() {
        pl.e.send("END").unwrap();
        let st = pl.e.wait_exit(Duration::from_secs(5)).unwrap();
        assert!(st.success(), "{}: exit status {st}", game.name);
    }
    // Cross-check the final state: a win means a five of that colour on the
    // board; a draw means a full board with no five.
    match &outcome {
        Outcome::Win(c) => assert!(is_win(&board, last.unwrap(), *c)),
        Outcome::Draw => assert!(board.is_full()),
        Outcome::Continuous { full, .. } => {
            assert!(*full || moves >= CONTINUOUS_MOVE_CAP || fives.0 + fives.1 >= 2);
            let neutral = board
                .cells()
                .iter()
                .filter(|&&p| board.cell(p) == WALL)
                .count();
            assert!(neutral >= 5 * (fives.0 + fives.1));
        }
    }
    let _ = WHITE;
    (outcome, moves)
}

fn games() -> Vec<Game> {
    let o15 = [
        ("freestyle", 0, "9,9 6,9 6,6"),
        ("standard", 1, "8,5 6,8 5,9"),
        ("renju", 4, "7,7 8,7 4,6"),
        ("caro", 8, "8,9 8,8 9,8"),
        ("continuous", 2, "5,9 6,10 4,5 8,7"),
    ];
    let o20 = [
        ("freestyle", 0, "10,9 8,8 8,7"),
        ("standard", 1, "7,9 8,8 8,11"),
        ("renju", 4, "10,10 11,10 7,9"),
        ("caro", 8, "10,11 10,10 11,10"),
        ("continuous", 2, "9,9 10,10 8,11 11,9"),
    ];
    // A tiny board where a full-board draw is a likely end.
    let mut v = vec![Game {
        name: "standard 6x6".into(),
        size: 6,
        bits: 1,
        opening: vec![(2, 2), (3, 3), (2, 3)],
    }];
    for (size, list) in [(15, o15), (20, o20)] {
        for (name, bits, opening) in list {
            v.push(Game {
                name: format!("{name} {size}x{size}"),
                size,
                bits,
                opening: opening
                    .split(' ')
                    .map(|t| parse_point(t).unwrap())
                    .collect(),
            });
        }
    }
    v
}

#[test]
fn selfplay_every_rule_on_15_and_20() {
    let t0 = Instant::now();
    let handles: Vec<_> = games()
        .into_iter()
        .map(|g| {
            thread::spawn(move || {
                let t = Instant::now();
                let (o, n) = play(&g);
                (g.name, o, n, t.elapsed())
            })
        })
        .collect();
    let mut failed = 0;
    for h in handles {
        match h.join() {
            Ok((name, o, n, dt)) => eprintln!("selfplay {name}: {o:?} after {n} moves ({dt:.1?})"),
            Err(_) => failed += 1,
        }
    }
    eprintln!("selfplay: all games in {:.1?}", t0.elapsed());
    assert_eq!(failed, 0, "{failed} games failed (see the panics above)");
}

#[test]
fn referee_line_count_matches_the_rules() {
    // The referee's own judgement must be able to disagree with a wrong
    // answer: check it on the classic cases.
    let cases = [
        ("X X X X X", Rule::Standard, true),
        ("X X X X X X", Rule::Standard, false),
        ("X X X X X X", Rule::Freestyle, true),
        ("X X X X X X", Rule::Renju, false),
        ("O X X X X X O", Rule::Caro, false),
        ("X X X X X O", Rule::Caro, true),
        ("O O O O O O .", Rule::Renju, true),
    ];
    for (row, rule, want) in cases {
        let rules = RuleSet {
            rule,
            continuous: false,
        };
        let text = format!("{row} . . . .\n. . . . . . . . . . .\n. . . . . . . . . . .\n. . . . . . . . . . .\n. . . . . . . . . . .\n");
        let b = Board::from_ascii(&text, rules).unwrap();
        let p = b.pos(2, 0).unwrap();
        let color = if b.cell(p) == BLACK {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(own_win(&b, p, color, rule), want, "{row} {rule:?}");
        assert_eq!(is_win(&b, p, color), want, "{row} {rule:?} (library)");
    }
}
