//! Unit tests of the threat solver: hand-drawn positions (among them the
//! renju recursive-three positions, where a White stone off every line of a
//! Black point makes it forbidden), a scan-based reference VCF on random
//! positions, full-width checks of VCT claims; the long ones (a 19-four ladder, the
//! renju recursive three in all eight symmetries) in `long`.

use super::*;
use crate::brain::game::rules::is_win;
use crate::brain::game::testutil::{Area, Colours, RandomBoard};
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::types::RuleSet;

fn board(text: &str, rule: Rule) -> Board {
    Board::from_ascii(text, RuleSet::from(rule)).unwrap()
}

fn at(b: &Board, x: i64, y: i64) -> Pos {
    b.pos(x, y).unwrap()
}

fn no_stop() -> AtomicBool {
    AtomicBool::new(false)
}

fn win_points(b: &Board, c: Color) -> Vec<Pos> {
    b.empty_cells().filter(|&e| is_win(b, e, c)).collect()
}

fn forbidden(b: &Board, c: Color, p: Pos) -> bool {
    c == Color::Black && rules::is_forbidden(b, p)
}

/// A random unfinished position for the reference checks: `stones.0` to
/// `stones.1 - 1` stones, alternating from Black, at least `margin` cells
/// from the edge; `None` when somebody has a five.
fn alternating(
    rule: Rule,
    size: usize,
    margin: usize,
    stones: (usize, usize),
    rng: &mut SplitMix64,
) -> Option<Board> {
    RandomBoard::square(size, RuleSet::from(rule))
        .stones(stones.0, stones.1)
        .area(Area::Centre(size - 2 * margin))
        .colours(Colours::WhiteEvery(2))
        .retry_occupied()
        .no_five()
        .board(rng)
}

/// Replay a claimed line and check every step with the rules module
/// (no pattern tables): attacker moves are legal (and fours under VCF),
/// defender moves are forced blocks, and the line ends in a win.
fn validate(b: &Board, attacker: Color, line: &[Pos], vcf: bool) {
    let mut b = b.clone();
    let d = attacker.opposite();
    assert!(!line.is_empty());
    for (i, &m) in line.iter().enumerate() {
        assert!(b.in_board(m) && b.is_empty(m), "move {i} occupied\n{b:?}");
        let last = i + 1 == line.len();
        if i % 2 == 0 {
            assert!(!forbidden(&b, attacker, m), "forbidden attacker move {i}");
            if last {
                if is_win(&b, m, attacker) {
                    return;
                }
                // Renju: White's four whose block is forbidden to Black.
                b.make(m, attacker);
                let w = win_points(&b, attacker);
                assert!(
                    b.rules().rule == Rule::Renju && d == Color::Black,
                    "last move {i} of {line:?} is no win\n{b:?}"
                );
                assert!(w.len() == 1 && forbidden(&b, d, w[0]) && win_points(&b, d).is_empty());
                return;
            }
            b.make(m, attacker);
            if vcf {
                assert!(
                    !win_points(&b, attacker).is_empty(),
                    "move {i} is no four\n{b:?}"
                );
            }
        } else {
            assert!(win_points(&b, d).is_empty(), "defender had a five at {i}");
            let w = win_points(&b, attacker);
            if vcf || !w.is_empty() {
                assert!(w.contains(&m), "defender move {i} is not a block\n{b:?}");
            }
            b.make(m, d);
        }
    }
    panic!("line does not end with a win");
}

/// Reference VCF written straight from the rules with `is_win` scans.
fn slow_vcf(b: &mut Board, a: Color, depth: u32) -> bool {
    let d = a.opposite();
    if !win_points(b, a).is_empty() {
        return true;
    }
    let dfive = win_points(b, d);
    if dfive.is_empty() && depth == 0 {
        return false;
    }
    let cands: Vec<Pos> = if dfive.is_empty() {
        b.empty_cells().collect()
    } else {
        dfive.clone()
    };
    for q in cands {
        if forbidden(b, a, q) {
            continue;
        }
        b.make(q, a);
        let af = win_points(b, a);
        let mut r = !af.is_empty() && win_points(b, d).is_empty();
        for &w in &af {
            if !r {
                break;
            }
            if forbidden(b, d, w) {
                continue;
            }
            b.make(w, d);
            r = slow_vcf(b, a, depth - dfive.is_empty() as u32);
            b.unmake();
        }
        b.unmake();
        if r {
            return true;
        }
    }
    false
}

#[test]
fn double_four_in_one() {
    let mut b = board(
        "
        . . . . . . . . . . .
        . O X X X . . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . O . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .",
        Rule::Freestyle,
    );
    let line = find_vcf(&mut b, Color::Black, 100_000, &no_stop()).expect("vcf");
    validate(&b, Color::Black, &line, true);
    assert_eq!(line[0], at(&b, 5, 1));
    // Renju: the same double four is forbidden to Black...
    let mut r = b.clone();
    r.set_rules(RuleSet::from(Rule::Renju));
    let rl = find_vcf(&mut r, Color::Black, 100_000, &no_stop());
    if let Some(l) = &rl {
        validate(&r, Color::Black, l, true);
        assert_ne!(l[0], at(&r, 5, 1));
    }
}

#[test]
fn chain_of_fours() {
    // Black's four at (5,2) forces (6,2); then (5,5) is a double four.
    let mut b = board(
        "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . O X X X . . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . O X X X . . . . . .
        . . . . . O . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .",
        Rule::Freestyle,
    );
    let line = find_vcf(&mut b, Color::Black, 1_000_000, &no_stop());
    let mut c = b.clone();
    assert_eq!(line.is_some(), slow_vcf(&mut c, Color::Black, 4));
    let l = line.expect("vcf");
    assert_eq!(l.len(), 5, "{l:?}");
    assert_eq!(&l[..2], &[at(&b, 5, 2), at(&b, 6, 2)]);
    validate(&b, Color::Black, &l, true);
}

#[test]
fn defender_five_refutes() {
    // Black has a four-making move, but White already has a four: Black
    // must block, and the block is no four.
    let mut b = board(
        "
        . . . . . . . . . . .
        . O X X X . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . O . . . . .
        . . . . . . . . . . .
        O O O O . . . . . . .",
        Rule::Freestyle,
    );
    b.set_to_move(Color::Black);
    assert!(find_vcf(&mut b, Color::Black, 100_000, &no_stop()).is_none());
    // White simply wins.
    let l = find_vcf(&mut b, Color::White, 100_000, &no_stop()).unwrap();
    assert_eq!(l, vec![at(&b, 4, 10)]);
}

#[test]
fn caro_blocked_four_is_no_threat() {
    let text = "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . O X X X . O . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .";
    let mut b = board(text, Rule::Caro);
    assert!(find_vcf(&mut b, Color::Black, 100_000, &no_stop()).is_none());
    let mut f = board(text, Rule::Freestyle);
    // Freestyle: X at (5,2) is a four, but one four alone is no VCF.
    assert!(find_vcf(&mut f, Color::Black, 100_000, &no_stop()).is_none());
}

#[test]
fn renju_white_wins_on_black_forbidden_point() {
    // White's four completes at (5,5); that point is a double-three for
    // Black, so Black cannot block.
    let mut b = board(
        "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . X . . . . . . .
        . . . . X . . . . . .
        . . . X X . . . . . .
        . . . . . . . . . . .
        . . . . . O . . . . .
        . . . . . O . . . . .
        . . . . . O . . . . .
        . . . . . X . . . . .",
        Rule::Renju,
    );
    let p = at(&b, 5, 5);
    assert!(rules::is_forbidden(&b, p));
    let l = find_vcf(&mut b, Color::White, 100_000, &no_stop()).expect("white vcf");
    validate(&b, Color::White, &l, true);
    assert_eq!(l, vec![at(&b, 5, 6)]);
    // Under freestyle Black blocks there and White has nothing.
    b.set_rules(RuleSet::from(Rule::Freestyle));
    assert!(find_vcf(&mut b, Color::White, 100_000, &no_stop()).is_none());
}

#[test]
fn counter_four_must_be_answered() {
    // Black's only four is at (4,6) (with an open three on the diagonal).
    // White's only block, (5,6), makes a White four; Black must answer it
    // at (5,7), which also makes Black's open four on the diagonal. The
    // other end of that diagonal, (1,3), makes the same open four but
    // ignores White's four, and comes first in board order: a solver that
    // does not answer counter-fours finds a false line through it, and one
    // that gives up on them finds none.
    let mut b = board(
        "
        . . . . . . . . . O O
        . . . . . . . . . . .
        . . . . . X . . . . .
        . . . . . O . . . . .
        . . X . . O . . . . .
        . . . X . O . . . . .
        O X X X . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .",
        Rule::Freestyle,
    );
    let (a, d) = (Color::Black, Color::White);
    let line = find_vcf(&mut b, a, 100_000, &no_stop()).expect("Black wins by VCF");
    let mut c = b.clone();
    assert!(slow_vcf(&mut c, a, 3), "the reference finds the win too");
    // A real win: fours, forced blocks, and the defender never left a five.
    validate(&b, a, &line, true);
    // It goes through the counter-four and answers it: after the first
    // four and its block White has exactly one five point, and Black's
    // next move takes it.
    assert!(line.len() >= 5, "{line:?}");
    let mut c = b.clone();
    c.make(line[0], a);
    c.make(line[1], d);
    assert_eq!(win_points(&c, d), vec![line[2]], "{line:?}\n{c:?}");
}

#[test]
fn matches_slow_reference_on_random_positions() {
    let mut rng = SplitMix64::new(31337);
    let mut wins = 0;
    let mut total = 0;
    for rule in Rule::ALL {
        for game in 0..40 {
            let size = 9 + (game % 3) as usize;
            // Skip finished games.
            let Some(mut b) = alternating(rule, size, 1, (10, 24), &mut rng) else {
                continue;
            };
            for attacker in [Color::Black, Color::White] {
                let mut s = ThreatSolver::new();
                let fast = s.solve(&mut b, attacker, Mode::Vcf, 3, u64::MAX, &no_stop());
                let mut c = b.clone();
                let slow = slow_vcf(&mut c, attacker, 3);
                assert_eq!(fast.is_some(), slow, "{rule:?} {attacker:?}\n{b:?}");
                if let Some(l) = fast {
                    validate(&b, attacker, &l, true);
                    wins += 1;
                }
                total += 1;
            }
        }
    }
    assert!(wins >= 10 && wins < total, "{wins} of {total}");
}

/// Every claimed VCT must survive every defender reply to its first
/// move, not only the replies the solver chose to look at.
#[test]
fn vct_claims_survive_every_reply() {
    let mut rng = SplitMix64::new(808);
    let stop = no_stop();
    let mut checked = 0;
    for rule in Rule::ALL {
        for game in 0..80 {
            let size = 10 + (game % 2) as usize;
            let Some(mut b) = alternating(rule, size, 2, (8, 18), &mut rng) else {
                continue;
            };
            for attacker in [Color::Black, Color::White] {
                let mut s = ThreatSolver::new();
                let Some(line) = s.vct(&mut b, attacker, 3, 300_000, &stop) else {
                    continue;
                };
                validate(&b, attacker, &line, false);
                let q = line[0];
                let d = attacker.opposite();
                if is_win(&b, q, attacker) {
                    continue;
                }
                b.make(q, attacker);
                if win_points(&b, attacker).is_empty() && win_points(&b, d).is_empty() {
                    checked += 1;
                    for m in b.empty_cells().collect::<Vec<_>>() {
                        if forbidden(&b, d, m) {
                            continue;
                        }
                        b.make(m, d);
                        let r = s.vct(&mut b, attacker, 3, 300_000, &stop);
                        assert!(
                            r.is_some(),
                            "{rule:?}: reply {:?} to {:?} refutes\n{b:?}",
                            b.xy(m),
                            b.xy(q)
                        );
                        b.unmake();
                    }
                }
                b.unmake();
            }
        }
    }
    assert!(checked >= 20, "only {checked} threat-first wins checked");
}

#[test]
fn renju_overline_completion_is_no_four() {
    let text = "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . O X X X . X X . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .";
    let mut b = board(text, Rule::Freestyle);
    let stop = no_stop();
    assert_eq!(
        find_vcf(&mut b, Color::Black, 10_000, &stop),
        Some(vec![at(&b, 5, 2)])
    );
    let mut r = board(text, Rule::Renju);
    assert_eq!(find_vcf(&mut r, Color::Black, 10_000, &stop), None);
    // White gets no such restriction.
    let mut w = board(
        &text.replace('X', "o").replace('O', "X").replace('o', "O"),
        Rule::Renju,
    );
    assert_eq!(
        find_vcf(&mut w, Color::White, 10_000, &stop),
        Some(vec![at(&w, 5, 2)])
    );
}

#[test]
fn neutral_stone_blocks_a_line() {
    let text = "
        . . . . . . . . . . .
        . O X X X . . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . O . . . . .
        . . . . . . . . . . .";
    let stop = no_stop();
    let mut b = Board::from_ascii(
        text,
        RuleSet {
            rule: Rule::Freestyle,
            continuous: true,
        },
    )
    .unwrap();
    assert!(find_vcf(&mut b, Color::Black, 10_000, &stop).is_some());
    // A neutral stone at (6,1) leaves the horizontal line no room.
    b.make_neutral(at(&b, 6, 1));
    assert!(find_vcf(&mut b, Color::Black, 10_000, &stop).is_none());
}

#[test]
fn vct_double_three() {
    // Freestyle: Black's (5,5) makes two open threes (a win by threats,
    // no four involved).
    let mut b = board(
        "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . X X . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . O .
        . . . . . . . . . . .
        . . . . . . . . . O .
        . O . . . . . . . . .",
        Rule::Freestyle,
    );
    b.set_to_move(Color::Black);
    let stop = no_stop();
    assert!(find_vcf(&mut b, Color::Black, 100_000, &stop).is_none());
    let l = find_vct(&mut b, Color::Black, 2_000_000, &stop).expect("vct");
    validate(&b, Color::Black, &l, false);
    // Renju: the same point is forbidden; no quick VCT through it.
    let mut r = b.clone();
    r.set_rules(RuleSet::from(Rule::Renju));
    if let Some(l) = ThreatSolver::new().vct(&mut r, Color::Black, 3, 2_000_000, &stop) {
        assert_ne!(l[0], at(&r, 5, 5));
        validate(&r, Color::Black, &l, false);
    }
}

#[test]
fn no_vct_from_a_lone_two() {
    let mut b = board(
        "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . X X . . . . .
        . . . . . O . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .",
        Rule::Freestyle,
    );
    let stop = no_stop();
    assert!(find_vct(&mut b, Color::Black, 200_000, &stop).is_none());
    assert!(find_vct(&mut b, Color::White, 200_000, &stop).is_none());
}

mod long;
