//! The long threat-solver tests: the 19-four ladder and the renju
//! recursive-three positions in all eight symmetries. (The solver's speed,
//! on the same ladder, random positions and VCTs of 8+ threats, is
//! `pbrain-sente bench threats`.)

use super::*;
use crate::brain::game::testutil::{ladder, LADDER_DIRS, LADDER_FOURS};

#[test]
fn long_ladder_is_solved_whole() {
    let mut b = ladder(LADDER_FOURS, LADDER_DIRS, [true; 4]).unwrap();
    let stop = no_stop();
    let l = find_vcf(&mut b, Color::Black, 1_000_000, &stop).expect("ladder");
    validate(&b, Color::Black, &l, true);
    assert_eq!(l.len(), 2 * LADDER_FOURS + 1, "{l:?}");
    // White, to move, simply blocks the ladder's first four: no VCF left.
    b.set_to_move(Color::White);
    let first = l[0];
    b.make(first, Color::White);
    assert!(find_vcf(&mut b, Color::Black, 1_000_000, &stop).is_none());
}

/// The renju position of `renju_recursive_three`, under one of the eight
/// symmetries `s` of the square: (board, P, Q, W).
fn recursive_three_position(s: usize) -> (Board, Pos, Pos, Pos) {
    recursive_three_with(s, &[], &[])
}

/// `recursive_three_position` with extra White stones.
fn recursive_three_with(
    s: usize,
    extra_white: &[(i64, i64)],
    extra_black: &[(i64, i64)],
) -> (Board, Pos, Pos, Pos) {
    let n = 15i64;
    let map = |(x, y): (i64, i64)| {
        let (x, y) = if s & 4 != 0 { (y, x) } else { (x, y) };
        let x = if s & 1 != 0 { n - 1 - x } else { x };
        let y = if s & 2 != 0 { n - 1 - y } else { y };
        (x, y)
    };
    let mut rows = vec![vec!['.'; 15]; 15];
    let black = [(5, 7), (6, 7), (8, 7), (7, 5), (7, 6), (8, 8), (10, 10)];
    let black_col = [(9, 10), (9, 11), (9, 12)];
    let white = [
        (9, 13),
        (12, 12),
        (0, 0),
        (14, 0),
        (0, 14),
        (14, 14),
        (0, 4),
    ];
    let white_more = [(4, 14), (14, 4)];
    for (xy, c) in black
        .iter()
        .chain(&black_col)
        .chain(extra_black)
        .map(|&p| (p, 'X'))
        .chain(
            white
                .iter()
                .chain(&white_more)
                .chain(extra_white)
                .map(|&p| (p, 'O')),
        )
    {
        let (x, y) = map(xy);
        rows[y as usize][x as usize] = c;
    }
    let text: String = rows
        .iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect();
    let b = board(&text, Rule::Renju);
    let pos = |xy| {
        let (x, y) = map(xy);
        at(&b, x, y)
    };
    let (p, q, w) = (pos((7, 7)), pos((9, 9)), pos((9, 8)));
    (b, p, q, w)
}

#[test]
fn renju_recursive_three() {
    // Black (to move after White's reply) has just made the split three
    // X X . X on row 7; its only straight-four point is P = (7,7), where
    // Black also makes an open three in column 7 and the split three
    // (7,7) (8,8) . (10,10) on the diagonal. That diagonal three could
    // become a straight four only at Q = (9,9), and Q (with P played) also
    // makes a four in column 9 (9,9..12 against White's (9,13)): a double
    // four, so Q is forbidden, the diagonal three is not real and P (four +
    // one real three) is allowed: a winning point. White's W = (9,8), on
    // none of P's lines, kills Q's column four; Q becomes a plain four
    // point, the diagonal three real, and P a forbidden four-three-three.
    let stop = no_stop();
    for s in 0..8 {
        let (mut b, p, q, w) = recursive_three_position(s);
        let (px, py) = b.xy(p);
        let (wx, wy) = b.xy(w);
        let (dx, dy) = (wx as i64 - px as i64, wy as i64 - py as i64);
        assert!(
            dx != 0 && dy != 0 && dx.abs() != dy.abs(),
            "W on a line of P"
        );
        // The rules: P allowed, and Q forbidden once P is Black's...
        assert!(!rules::is_forbidden(&b, p), "{s}\n{b:?}");
        b.make(p, Color::Black);
        assert!(rules::is_forbidden(&b, q), "{s}");
        b.unmake();
        // ...and after W, P forbidden, Q (with P played) allowed.
        b.make(w, Color::White);
        assert!(rules::is_forbidden(&b, p), "{s}");
        b.make(p, Color::Black);
        assert!(!rules::is_forbidden(&b, q), "{s}");
        b.unmake();
        b.unmake();

        // The solver, defending: P is the three's only winning four point,
        // and W must be among White's replies (it was not before: W lies on
        // none of P's lines and makes no White four). Every White move after
        // which no winning four point is left must be tried.
        let ctx = Ctx {
            t: table(Rule::Renju),
            renju: true,
            caro: false,
            attacker: Color::Black,
            defender: Color::White,
            mode: Mode::Vct,
            stop: &stop,
            salt: 0,
        };
        let wins = winning_four_points(&mut b, &ctx);
        assert!(wins.iter().all(|&(k, _)| k == p) && !wins.is_empty(), "{s}");
        let solver = ThreatSolver::new();
        let defs = solver.defences(&mut b, &ctx, &wins);
        assert!(defs.contains(&w), "{s}: W missing from the defences");
        for r in b.empty_cells().collect::<Vec<_>>() {
            b.make(r, Color::White);
            let refutes = winning_four_points(&mut b, &ctx).is_empty();
            b.unmake();
            assert!(!refutes || defs.contains(&r), "{s}: {:?}", b.xy(r));
        }

        // The solver, attacking: without W, P wins at once (an open four
        // with a three); with W on the board P is forbidden, and no line of
        // the solver may use it. The slow reference agrees on both.
        assert!(slow_vcf(&mut b, Color::Black, 1), "{s}");
        let l = find_vcf(&mut b, Color::Black, 100_000, &stop).expect("VCF through P");
        validate(&b, Color::Black, &l, true);
        assert_eq!(l.len(), 3, "{s}: {l:?}");
        b.make(w, Color::White);
        let won = slow_vcf(&mut b, Color::Black, 2);
        let l = find_vcf(&mut b, Color::Black, 100_000, &stop);
        assert_eq!(won, l.is_some(), "{s}");
        for line in [l, find_vct(&mut b, Color::Black, 200_000, &stop)]
            .into_iter()
            .flatten()
        {
            validate(&b, Color::Black, &line, false);
            assert_ne!(line[0], p, "{s}: forbidden first move");
        }
        b.unmake();
    }
}

#[test]
fn renju_recursive_three_white() {
    // The colour turned round: White adds (10,8) (11,8) (13,8) (Black
    // (14,8) closes the row) and (6,8) (9,5) (10,4) on P's anti-diagonal.
    // W = (9,8) is now a White four (five point (12,8)) that also makes P
    // forbidden; White's next four (8,6) has P as its only five point, so
    // Black cannot block: a VCF that exists only through the recursive
    // three rule (under freestyle Black blocks on P and White has none).
    let stop = no_stop();
    let white = [(10, 8), (11, 8), (13, 8), (9, 5), (10, 4), (6, 8)];
    for s in 0..8 {
        let (mut b, p, _, w) = recursive_three_with(s, &white, &[(14, 8)]);
        assert!(!rules::is_forbidden(&b, p), "{s}");
        assert!(slow_vcf(&mut b, Color::White, 2), "{s}");
        let l = find_vcf(&mut b, Color::White, 100_000, &stop).expect("White VCF");
        validate(&b, Color::White, &l, true);
        assert_eq!((l.len(), l[0]), (3, w), "{s}");
        for &m in &l {
            let c = if m == l[1] {
                Color::Black
            } else {
                Color::White
            };
            b.make(m, c);
        }
        assert_eq!(win_points(&b, Color::White), vec![p], "{s}");
        assert!(rules::is_forbidden(&b, p), "{s}");
        for _ in &l {
            b.unmake();
        }
        b.set_rules(RuleSet::from(Rule::Freestyle));
        assert!(!slow_vcf(&mut b, Color::White, 2), "{s}");
        assert!(
            find_vcf(&mut b, Color::White, 100_000, &stop).is_none(),
            "{s}"
        );
    }
}
