//! The long threat-solver tests, split from `threat_tests.rs`: the speed
//! report and the long VCT (ignored by default), the 20-four ladder, and the
//! renju recursive-three positions in all eight symmetries.

use super::*;

mod speed {
    //! Run: `cargo test --release --lib threat::tests::speed -- --ignored --nocapture`
    use super::*;
    use crate::brain::game::testutil::{Area, Colours, RandomBoard};
    use crate::brain::game::zobrist::SplitMix64;
    use crate::brain::types::RuleSet;
    use std::time::Instant;

    #[test]
    #[ignore]
    fn vcf_and_vct_speed() {
        let mut b = super::ladder(super::LADDER_FOURS, super::LADDER_DIRS, [true; 4]).unwrap();
        let _ = table(Rule::Freestyle);
        let mut solver = ThreatSolver::new();
        let t0 = Instant::now();
        let l = solver.vcf(&mut b, Color::Black, 10_000_000, &AtomicBool::new(false));
        eprintln!(
            "ladder VCF of {} fours: {} plies, {} nodes, {:?}",
            super::LADDER_FOURS,
            l.map_or(0, |l| l.len()),
            solver.nodes(),
            t0.elapsed()
        );
        let mut rng = SplitMix64::new(4242);
        for rule in Rule::ALL {
            let t0 = Instant::now();
            let _ = crate::brain::game::pattern::PatternTable::build(rule);
            eprintln!("{} pattern table built in {:?}", rule.name(), t0.elapsed());
            let _ = table(rule);
            let mut slowest = 0.0f64;
            let rs = RuleSet::from(rule);
            let mut solver = ThreatSolver::new();
            let (mut nodes, mut found, mut vnodes, mut vfound) = (0u64, 0, 0u64, 0);
            let (mut t_vcf, mut t_vct) = (0.0, 0.0);
            let mut longest = 0;
            let gen = RandomBoard::square(15, rs)
                .stones(20, 50)
                .area(Area::Centre(9))
                .colours(Colours::WhiteEvery(2))
                .no_five();
            for _ in 0..200 {
                let Some(mut b) = gen.board(&mut rng) else {
                    continue;
                };
                let stop = AtomicBool::new(false);
                let t0 = Instant::now();
                let r = solver.vcf(&mut b, Color::Black, 1_000_000, &stop);
                t_vcf += t0.elapsed().as_secs_f64();
                slowest = slowest.max(t0.elapsed().as_secs_f64());
                nodes += solver.nodes();
                if let Some(l) = &r {
                    found += 1;
                    longest = longest.max(l.len());
                }
                let t0 = Instant::now();
                let r = solver.vct(&mut b, Color::Black, 6, 200_000, &stop);
                t_vct += t0.elapsed().as_secs_f64();
                vnodes += solver.nodes();
                vfound += r.is_some() as usize;
            }
            eprintln!(
                "{}: slowest VCF call {:.2} ms",
                rule.name(),
                slowest * 1000.0
            );
            eprintln!(
                "{}: VCF {found} found, longest {longest} plies, {nodes} nodes, {:.0} nodes/s; VCT(6) {vfound} found, {vnodes} nodes, {:.0} nodes/s, {:.2}s",
                rule.name(),
                nodes as f64 / t_vcf,
                vnodes as f64 / t_vct,
                t_vct
            );
        }
    }
}

mod long_vct {
    //! VCTs of 8 or more threats on game-like middle-game positions (15×15,
    //! every rule): time and nodes per solve. Reproduce with
    //! `cargo test --release --lib threat::tests::long_vct -- --ignored --nocapture`
    //! (or `scripts/tactics.sh`).
    use super::*;
    use std::time::Instant;

    #[test]
    #[ignore]
    fn vct_of_eight_threats() {
        let stop = no_stop();
        let mut rng = SplitMix64::new(0x8_7C7);
        let mut solver = ThreatSolver::new();
        for rule in Rule::ALL {
            let _ = table(rule);
        }
        let (mut times, mut nodes, mut secs) = (Vec::new(), 0u64, 0.0f64);
        let (mut tried, mut longest) = (0, 0);
        // Bounded report: at most 90 s of wall time on a busy machine.
        let start = Instant::now();
        while times.len() < 10 && tried < 600 && start.elapsed().as_secs() < 90 {
            tried += 1;
            let rule = Rule::ALL[tried % 4];
            // A game-like position: 20 to 39 stones within two cells of
            // earlier ones, legal for the rule, nobody has won.
            let Some(mut b) = RandomBoard::square(15, RuleSet::from(rule))
                .stones(20, 40)
                .area(Area::Near(5))
                .legal_only()
                .board(&mut rng)
            else {
                continue;
            };
            let a = b.to_move();
            if !win_points(&b, a).is_empty() || !win_points(&b, a.opposite()).is_empty() {
                continue;
            }
            solver.clear();
            if solver.vcf(&mut b, a, 1_000_000, &stop).is_some() {
                continue; // a VCF, not the VCT measured here
            }
            solver.clear();
            let t0 = Instant::now();
            let r = solver.vct(&mut b, a, 12, 400_000, &stop);
            let dt = t0.elapsed().as_secs_f64();
            let Some(l) = r else { continue };
            let threats = l.len().div_ceil(2);
            if threats < 8 {
                continue;
            }
            validate(&b, a, &l, false);
            longest = longest.max(threats);
            times.push(dt * 1000.0);
            nodes += solver.nodes();
            secs += dt;
        }
        times.sort_by(|x, y| x.partial_cmp(y).unwrap());
        if times.is_empty() {
            eprintln!("VCT of 8+ threats: none found in {tried} positions");
            return;
        }
        let pct = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        eprintln!(
            "VCT of 8+ threats: {} positions (of {tried} tried), longest {longest} threats; \
             median {:.1} ms, p90 {:.1} ms, max {:.1} ms; {:.0} nodes/s",
            times.len(),
            pct(0.5),
            pct(0.9),
            pct(1.0),
            nodes as f64 / secs.max(1e-9)
        );
    }
}

/// A staircase of blocked threes on a 32×32 board: each four Black makes
/// is the first stone of the next three, so the only win is the whole
/// ladder of `n` fours (the last one open). `dirs`/`split` give each
/// segment's direction and form (split: stones at +1 and +3, the four on +2).
fn ladder(n: usize, dirs: [(i64, i64); 4], split: [bool; 4]) -> Option<Board> {
    let mut b = Board::square(32, RuleSet::from(Rule::Freestyle)).unwrap();
    let (mut x, mut y) = (1i64, 1i64);
    let put = |b: &mut Board, x: i64, y: i64, c: Color| -> Option<()> {
        let p = b.pos(x, y)?;
        if !b.is_empty(p) {
            return None;
        }
        b.make(p, c);
        Some(())
    };
    put(&mut b, x, y, Color::Black)?;
    for k in 0..n {
        let (dx, dy) = dirs[k % 4];
        let sp = split[k % 4];
        put(&mut b, x + dx, y + dy, Color::Black)?;
        let far = if sp { 3 } else { 2 };
        put(&mut b, x + far * dx, y + far * dy, Color::Black)?;
        if k + 1 < n {
            put(&mut b, x - dx, y - dy, Color::White)?;
        }
        let step = if sp { 2 } else { 3 };
        x += step * dx;
        y += step * dy;
    }
    b.set_to_move(Color::Black);
    Some(b)
}

const LADDER_FOURS: usize = 19;
const LADDER_DIRS: [(i64, i64); 4] = [(1, 0), (1, 1), (0, 1), (1, 1)];

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
