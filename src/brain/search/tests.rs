//! Search tests: tactics with known answers (ASCII boards), limits, the
//! board left unchanged, determinism.

use super::*;
use crate::brain::game::rules;
use crate::brain::types::{is_mate_score, mate_in, Color, Rule, RuleSet, INFINITE, MATE, ONE_PLY};
use iteration::{adopt_beater, root_iteration, root_reduction, widen, RootMove};
use time::Limits;
use tt::{Bound, RESERVED_MEMORY};

fn depth_req(depth: u32) -> SearchRequest {
    SearchRequest::untimed(Some(depth), None)
}

/// A request under the time manager's plan for `limits` (as the engine
/// makes it), on a board with about `empty` empty cells.
fn timed_req(limits: Limits, empty: usize) -> SearchRequest {
    let plan = time::plan(&limits, empty, 225usize.saturating_sub(empty));
    SearchRequest::planned(plan, limits.start, limits.max_depth, limits.max_nodes)
}

fn best_of(text: &str, rule: Rule, depth: u32) -> (Board, SearchResult) {
    let mut b = Board::from_ascii(text, RuleSet::from(rule)).unwrap();
    let before = b.clone();
    let mut s = Searcher::with_tt_bytes(1 << 20);
    let r = s.search(&mut b, &depth_req(depth), &mut |_| {});
    assert_eq!(b.hash(), before.hash(), "board restored");
    assert_eq!(b.history().len(), before.history().len());
    assert!(b.in_board(r.best) && b.is_empty(r.best));
    (b, r)
}

const WIN_IN_ONE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . O O O O . . . . . . .
    . . . . . . . . . . . . . . .
    . . . X X X X . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . X
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

#[test]
fn takes_a_five_and_blocks_one() {
    // Black to move (5 v 4... counts: X 5, O 4 -> White to move).
    let (b, r) = best_of(WIN_IN_ONE, Rule::Freestyle, 4);
    assert_eq!(b.to_move(), Color::White);
    let xy = b.xy(r.best);
    assert!(xy == (3, 4) || xy == (8, 4), "{xy:?}");
    assert_eq!(r.score, mate_in(1));
    // Without White's four White must block Black's.
    let text = WIN_IN_ONE.replace(". . . . O O O O . . .", ". . . . O O O . . . .");
    let text = text.replacen(
        ". . . . . . . . . . . . . . .",
        ". . . . . . . . . O . . . . .",
        1,
    );
    let (b, r) = best_of(&text, Rule::Freestyle, 4);
    let xy = b.xy(r.best);
    assert!(xy == (2, 6) || xy == (7, 6), "{xy:?}");
}

#[test]
fn answers_a_four_even_when_losing_otherwise() {
    let text = "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . X X X X O . . . .
        . . . . . . . . . . .
        . . . O O . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . X";
    let (b, r) = best_of(text, Rule::Freestyle, 5);
    assert_eq!(b.to_move(), Color::White);
    assert_eq!(b.xy(r.best), (1, 2));
}

#[test]
fn makes_an_open_four_for_a_win() {
    let text = "
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . X X X . . . . .
        . . . . . . . . . . . .
        . . . . . O . . . . . .
        . . . . . . . O . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . O";
    let (b, r) = best_of(text, Rule::Freestyle, 5);
    assert_eq!(b.to_move(), Color::Black);
    let xy = b.xy(r.best);
    assert!(xy == (3, 2) || xy == (7, 2), "{xy:?}");
    assert!(r.score >= MATE_BOUND_TEST, "{}", r.score);
}

const MATE_BOUND_TEST: Score = crate::brain::types::MATE_BOUND;

#[test]
fn defends_an_open_three() {
    let text = "
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . X X X . . . . .
        . . . . . . . . . . . .
        . . . . . O . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . X";
    let (b, r) = best_of(text, Rule::Freestyle, 4);
    assert_eq!(b.to_move(), Color::White);
    let xy = b.xy(r.best);
    assert!(
        [(3, 2), (7, 2), (2, 2), (8, 2)].contains(&xy),
        "{xy:?} score {}",
        r.score
    );
    assert!(r.score > -MATE_BOUND_TEST);
}

#[test]
fn exactly_five_is_not_a_win_with_overline() {
    // Standard: X X X X . X makes six at (4,1)... Black must look elsewhere;
    // under freestyle it is a win.
    let text = "
        . . . . . . . . . . O
        X X X X . X . . . . .
        . . . . . . . . . . .
        . O O . O . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . O";
    let (b, r) = best_of(text, Rule::Freestyle, 3);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(b.xy(r.best), (4, 1));
    let (b, r) = best_of(text, Rule::Standard, 3);
    assert_ne!(b.xy(r.best), (4, 1));
}

#[test]
fn caro_blocked_five_is_not_a_win() {
    // O X X X X . O: the five at (5,1) would be blocked at both ends.
    let text = "
        . . . . . . . . . . .
        O X X X X . O . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . O . . . . . . . .
        . . . . . . O . . . .";
    let (b, r) = best_of(text, Rule::Caro, 3);
    assert_eq!(b.to_move(), Color::Black);
    assert!(r.score < MATE_BOUND_TEST, "{}", r.score);
    let (b, r) = best_of(text, Rule::Freestyle, 3);
    assert_eq!(b.xy(r.best), (5, 1));
}

#[test]
fn renju_black_never_plays_forbidden() {
    // (5,4) is a double three for Black and also its most natural move.
    let text = "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . X X . . . . . .
        . . . . . . . . . . .
        . . . . . . O . . . .
        . . . . O . . O . . .
        . . . . . . . O . . .
        . . . . . . . . . . .
        . . . . . . . . . . .";
    let (b, r) = best_of(text, Rule::Renju, 4);
    assert_eq!(b.to_move(), Color::Black);
    assert!(!rules::is_forbidden(&b, r.best));
    assert_ne!(b.xy(r.best), (5, 4));
    for (m, _) in &r.ranked {
        assert!(!rules::is_forbidden(&b, *m));
    }
}

#[test]
fn limits_are_honoured() {
    let mut b = Board::from_ascii(
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X O . . . . . . .
        . . . . . . O X . . . . . . .
        . . . . . . . . . . . . . . .",
        RuleSet::FREESTYLE,
    )
    .unwrap();
    let mut s = Searcher::with_tt_bytes(1 << 20);
    let mut infos = vec![];
    let r = s.search(&mut b, &depth_req(3), &mut |i| infos.push(i.depth));
    assert_eq!(r.depth, 3);
    assert_eq!(infos, vec![1, 2, 3]);
    let req = SearchRequest::untimed(None, Some(2_000));
    let r = s.search(&mut b, &req, &mut |_| {});
    assert!(r.nodes < 2_000 + 2 * CHECK_SLACK, "{}", r.nodes);
    assert!(b.is_empty(r.best));
    // timeout_turn 0: one shallow iteration.
    let req = timed_req(
        Limits {
            turn_ms: Some(0),
            ..Limits::default()
        },
        225,
    );
    let r = s.search(&mut b, &req, &mut |_| {});
    assert_eq!(r.depth, 1);
    assert!(b.is_empty(r.best));
    // A stop flag set before the search still yields a legal move.
    let req = timed_req(Limits::default(), 225);
    req.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let r = s.search(&mut b, &req, &mut |_| {});
    assert!(b.is_empty(r.best));
}

const CHECK_SLACK: u64 = 256;

#[test]
fn multipv_ranks_distinct_moves() {
    let mut b = Board::from_ascii(
        "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . X O . . . . .
        . . . . . X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .",
        RuleSet::FREESTYLE,
    )
    .unwrap();
    let mut s = Searcher::with_tt_bytes(1 << 20);
    let mut req = depth_req(3);
    req.multipv = 4;
    let r = s.search(&mut b, &req, &mut |_| {});
    assert_eq!(r.ranked.len(), 4);
    assert_eq!(r.ranked[0].0, r.best);
    for w in r.ranked.windows(2) {
        assert!(w[0].1 >= w[1].1);
        assert_ne!(w[0].0, w[1].0);
    }
}

/// A quiet 15×15 opening (five stones) for the searches that only need a
/// position: determinism and helper threads.
const OPENING_15: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X O . . . . . . .
        . . . . . . O X . . . . . . .
        . . . . . X . . . . . . . . .
        . . . . . . . . . . . . . . .";

#[test]
fn same_search_same_nodes() {
    let mut counts = vec![];
    for _ in 0..2 {
        let mut b = Board::from_ascii(OPENING_15, RuleSet::FREESTYLE).unwrap();
        let mut s = Searcher::with_tt_bytes(1 << 20);
        counts.push(s.search(&mut b, &depth_req(4), &mut |_| {}).nodes);
    }
    assert_eq!(counts[0], counts[1]);
}

/// The ordering diagnostics count what the search did: a deeper search
/// makes more cutoffs; each fail-low node searched at least one move; a
/// search that ends at the root probe (a five to make) counts none.
#[test]
fn cutoff_counts_follow_the_search() {
    let count = |text: &str, depth: u32| {
        let mut b = Board::from_ascii(text, RuleSet::FREESTYLE).unwrap();
        let mut s = Searcher::with_tt_bytes(1 << 20);
        s.search(&mut b, &depth_req(depth), &mut |_| {});
        s.stats.cutoffs
    };
    let (shallow, deep) = (count(OPENING_15, 3), count(OPENING_15, 6));
    let total = |c: &Cutoffs| c.by.iter().sum::<u64>();
    assert!(total(&shallow) > 0 && total(&deep) > total(&shallow));
    assert!(deep.fail_low > 0 && deep.fail_low_moves >= deep.fail_low);
    assert!((0.0..=1.0).contains(&deep.first_share()));
    assert_eq!(count(WIN_IN_ONE, 6), Cutoffs::default());
}

#[test]
fn empty_and_full_boards() {
    let mut b = Board::square(15, RuleSet::FREESTYLE).unwrap();
    let mut s = Searcher::with_tt_bytes(1 << 20);
    let r = s.search(&mut b, &depth_req(2), &mut |_| {});
    assert_eq!(b.xy(r.best), (7, 7));
    let mut b = Board::square(5, RuleSet::FREESTYLE).unwrap();
    // Fill without fives: a pattern of pairs.
    for y in 0..5i64 {
        for x in 0..5i64 {
            let c = if ((x / 2) + y) % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.try_make(x, y, c).unwrap();
        }
    }
    let r = s.search(&mut b, &depth_req(2), &mut |_| {});
    assert!(r.best.is_none());
}

#[test]
fn four_then_open_three_is_a_win_at_depth_one() {
    let text = "
        O . . . . . . . . . . O
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . O X X X . . . . . .
        . . . . . . X . . . . .
        . . . . . . X . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        O . . . . . . . . . . O";
    let (b, r) = best_of(text, Rule::Freestyle, 1);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(b.xy(r.best), (6, 5));
    assert!(r.score >= MATE_BOUND_TEST, "{}", r.score);
    // The same holds with the solver switched off: the horizon sees the
    // forced block and then the unanswerable open four.
    let mut b2 = Board::from_ascii(text, RuleSet::from(Rule::Freestyle)).unwrap();
    let mut s = Searcher::with_tt_bytes(1 << 20);
    s.options = SearchOptions {
        root_threats: false,
        ..SearchOptions::default()
    };
    let r2 = s.search(&mut b2, &depth_req(1), &mut |_| {});
    assert_eq!(b2.xy(r2.best), (6, 5));
    assert!(r2.score >= MATE_BOUND_TEST, "{}", r2.score);
}

/// `best_of` with `threads` search threads and no root threat solver, so
/// that the tree (and the helpers) must find the answer.
fn best_of_threads(text: &str, depth: u32, threads: usize) -> (Board, SearchResult, Searcher) {
    let mut b = Board::from_ascii(text, RuleSet::from(Rule::Freestyle)).unwrap();
    let before = b.clone();
    let mut s = Searcher::with_tt_bytes(1 << 20);
    s.options.root_threats = false;
    s.set_threads(threads);
    let r = s.search(&mut b, &depth_req(depth), &mut |_| {});
    assert_eq!(b.hash(), before.hash(), "board restored");
    assert!(b.in_board(r.best) && b.is_empty(r.best));
    (b, r, s)
}

#[test]
fn lazy_smp_plays_the_same_tactics() {
    for threads in [2, 4] {
        let open_four = "
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . X X X . . . . .
            . . . . . . . . . . . .
            . . . . . O . . . . . .
            . . . . . . . O . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . O";
        let (b, r, s) = best_of_threads(open_four, 5, threads);
        let xy = b.xy(r.best);
        assert!(xy == (3, 2) || xy == (7, 2), "{threads} threads: {xy:?}");
        assert!(r.score >= MATE_BOUND_TEST, "{threads} threads: {}", r.score);
        assert_eq!(s.threads(), threads);
        let open_three = "
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . X X X . . . . .
            . . . . . . . . . . . .
            . . . . . O . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . X";
        let (b, r, _) = best_of_threads(open_three, 4, threads);
        let xy = b.xy(r.best);
        assert!(
            [(3, 2), (7, 2), (2, 2), (8, 2)].contains(&xy),
            "{threads} threads: {xy:?}"
        );
    }
}

#[test]
fn helper_threads_run_and_are_joined_before_the_answer() {
    let (_, r, s) = best_of_threads(OPENING_15, 5, 3);
    assert!(r.depth >= 5);
    let (started, live) = s.helper_counts();
    assert_eq!(started, 2, "both helpers ran");
    assert_eq!(live, 0, "no helper outlives the search");
    // One thread: no helper at all.
    let (_, _, s) = best_of_threads(OPENING_15, 5, 1);
    assert_eq!(s.helper_counts(), (0, 0));
}

#[test]
fn thread_requests_are_clamped() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(clamp_threads(0), 1);
    assert_eq!(clamp_threads(-3), 1);
    assert_eq!(clamp_threads(1), 1);
    assert_eq!(clamp_threads(2), 2.min(cores));
    assert_eq!(clamp_threads(i64::MAX), cores.min(MAX_THREADS));
    let mut s = Searcher::with_tt_bytes(1 << 16);
    s.set_threads(1_000);
    assert_eq!(s.threads(), MAX_THREADS);
    s.set_threads(0);
    assert_eq!(s.threads(), 1);
}

#[test]
fn thread_count_fits_the_memory_budget() {
    // 40 MB: everything is reserve, no room for a helper.
    assert_eq!(threads_for_memory(40 << 20), 1);
    let mut s = Searcher::new(40 << 20);
    s.set_threads(8);
    assert_eq!(s.threads(), 1);
    // 80 MB: helpers fit, and the table gives up their share.
    let mut s = Searcher::new(80 << 20);
    let one = s.tt_bytes();
    assert_eq!(one, tt_bytes_for(80 << 20));
    s.set_threads(3);
    assert_eq!(s.threads(), 3);
    assert_eq!(s.tt_bytes(), tt_bytes_for_threads(80 << 20, 3));
    assert_eq!(one - s.tt_bytes(), params::HELPER_BYTES);
    s.set_threads(64);
    assert_eq!(s.threads(), threads_for_memory(80 << 20));
    assert!(s.threads() < 10);
    // Table plus helpers stay within the budget less the reserve.
    for threads in [1, 2, 4, 8, 64] {
        let mut s = Searcher::new(100 << 20);
        s.set_threads(threads);
        let used = s.tt_bytes() + (s.threads() - 1) * params::HELPER_BYTES;
        assert!(used <= (100 << 20) - RESERVED_MEMORY, "{threads} threads");
    }
    s.set_threads(1);
    assert_eq!(s.tt_bytes(), one);
    // The default budget leaves room for every thread we allow.
    assert_eq!(
        threads_for_memory(0),
        MAX_THREADS.min(1 + (155 << 20) / params::HELPER_BYTES)
    );
    // Searchers without a budget (bench, tests) only cap at MAX_THREADS.
    let mut s = Searcher::with_tt_bytes(1 << 16);
    s.set_threads(1_000);
    assert_eq!(s.threads(), MAX_THREADS);
}

#[test]
fn aspiration_widens_gently_and_opens_only_when_far_off() {
    // Inside the window: the iteration is done.
    assert_eq!(widen(-60, 60, 10, params::ASPIRATION()), None);
    // A fail low moves alpha below the score and beta to the old middle.
    let (a, b, d) = widen(940, 1060, 900, params::ASPIRATION()).unwrap();
    assert_eq!((a, b), (900 - params::ASPIRATION(), 1000));
    assert!(
        d > params::ASPIRATION() && d < 2 * params::ASPIRATION(),
        "grows 1.5x: {d}"
    );
    // A fail high keeps alpha and moves beta above the score.
    let (a, b, _) = widen(940, 1060, 1200, params::ASPIRATION()).unwrap();
    assert_eq!((a, b), (940, 1200 + params::ASPIRATION()));
    // Repeated fails keep a finite window for several passes (the old 4x
    // schedule opened it on the third), then open it.
    let (mut a, mut b, mut d) = (-60, 60, params::ASPIRATION());
    let mut s = 0;
    let mut narrow = 0;
    loop {
        s -= 100;
        if a <= s {
            s = a - 1;
        }
        (a, b, d) = widen(a, b, s, d).unwrap();
        if a == -INFINITE && b == INFINITE {
            break;
        }
        assert!(a < s && b > s, "the score is inside the new window");
        narrow += 1;
        assert!(narrow < 20, "opens at last");
    }
    assert!(
        narrow >= 5,
        "{narrow} narrow re-searches before the open window"
    );
    // A mate score opens the window at once.
    assert_eq!(
        widen(-60, 60, -MATE + 10, params::ASPIRATION()),
        Some((-INFINITE, INFINITE, 90))
    );
}

#[test]
fn only_late_quiet_root_moves_of_deep_iterations_are_reduced() {
    let (d, late) = (
        params::ROOT_LMR_MIN_DEPTH() + 4,
        params::ROOT_LMR_FULL_MOVES() + 6,
    );
    assert!(
        root_reduction(d, late, false) >= ONE_PLY,
        "a late quiet move"
    );
    assert_eq!(root_reduction(d, late, true), 0, "a tactical move");
    assert_eq!(
        root_reduction(d, params::ROOT_LMR_FULL_MOVES() - 1, false),
        0
    );
    assert_eq!(
        root_reduction(params::ROOT_LMR_MIN_DEPTH() - 1, late, false),
        0
    );
    // Later moves and deeper iterations are reduced at least as much.
    assert!(root_reduction(d + 6, late + 20, false) > root_reduction(d, late, false));
    for i in 0..60 {
        assert!(root_reduction(d, i + 1, false) >= root_reduction(d, i, false));
    }
}

#[test]
fn a_stopped_iteration_keeps_the_move_that_beat_the_first() {
    // What a root pass records: White (O) to move must block Black's closed
    // four; searched after a quiet move that loses at once, the block beats
    // it and is remembered.
    let text = WIN_IN_ONE
        .replace(". . . . O O O O . . .", ". . . . O O O . . . .")
        .replace(". . . X X X X . . .", ". . O X X X X . . .");
    let mut board = Board::from_ascii(&text, RuleSet::from(Rule::Freestyle)).unwrap();
    assert_eq!(board.to_move(), Color::White);
    let block = board.pos(7, 6).unwrap();
    let quiet = board.pos(0, 0).unwrap();
    let tt = Tt::new(1 << 16);
    let mut ord = ordering::MoveOrder::default();
    let mut threat = ThreatSolver::new();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let pos = Position::new(&mut board);
    let mut ecache = super::evalcache::EvalCache::new();
    let mut tree = Tree::unlimited(pos, &tt, &mut ord, &mut threat, &mut ecache, &stop);
    let mut rms = RootMove::list(vec![quiet, block]);
    root_iteration(&mut tree, &mut rms, 2, -INFINITE, INFINITE, 1, &mut |_| {}).unwrap();
    let (mv, score, pv) = tree
        .root_beater
        .clone()
        .expect("the block beat the first move");
    assert_eq!(mv, block);
    assert!(!is_mate_score(score), "{score}");
    assert_eq!(pv.first(), Some(&block));
    // Searched first, the block is beaten by nothing: no beater.
    tree.root_beater = None;
    let mut rms = RootMove::list(vec![block, quiet]);
    root_iteration(&mut tree, &mut rms, 2, -INFINITE, INFINITE, 1, &mut |_| {}).unwrap();
    assert!(tree.root_beater.is_none());

    // What the stopped search plays: the beater first, the others shifted.
    let a = Pos(1);
    let b = Pos(2);
    let c = Pos(3);
    let mut completed = RootMove::list(vec![a, b, c]);
    assert_eq!(adopt_beater(&mut completed, (c, 77, vec![c, a])), Some(77));
    let order: Vec<Pos> = completed.iter().map(|r| r.mv).collect();
    assert_eq!(order, vec![c, a, b]);
    assert_eq!(
        (completed[0].score, completed[0].pv.clone()),
        (77, vec![c, a])
    );
    // A move that is not a root move changes nothing.
    assert_eq!(
        adopt_beater(&mut completed, (Pos(9), 5, vec![Pos(9)])),
        None
    );
    let order: Vec<Pos> = completed.iter().map(|r| r.mv).collect();
    assert_eq!(order, vec![c, a, b]);
}

#[test]
fn a_lone_move_pv_gets_the_tables_reply() {
    let mut b = Board::square(15, RuleSet::from(Rule::Freestyle)).unwrap();
    b.play(b.pos(7, 7).unwrap());
    let before = b.hash();
    let (m, reply) = (b.pos(7, 6).unwrap(), b.pos(8, 6).unwrap());
    let tt = Tt::new(1 << 16);
    let mut pv = vec![m];
    complete_pv(&tt, &mut b, &mut pv);
    assert_eq!(pv, vec![m], "no entry: nothing to add");
    b.play(m);
    tt.store(b.hash(), 1, 3, 0, Bound::Exact, reply);
    b.unmake();
    complete_pv(&tt, &mut b, &mut pv);
    assert_eq!(pv, vec![m, reply]);
    assert_eq!(b.hash(), before, "board left at the root");
    // A longer PV is left alone, and so is a stored reply on an occupied cell.
    complete_pv(&tt, &mut b, &mut pv);
    assert_eq!(pv.len(), 2);
    b.play(m);
    tt.store(b.hash(), 1, 3, 0, Bound::Exact, b.pos(7, 7).unwrap());
    b.unmake();
    let mut lone = vec![m];
    complete_pv(&tt, &mut b, &mut lone);
    assert_eq!(lone, vec![m]);
}

/// With the net as evaluation (`SearchOptions::eval`) the search runs
/// under every rule, is deterministic, plays no renju forbidden point and
/// differs from the classical search (its leaves are the net's scores);
/// the threat code is the same, so helpers and all still find an open four.
#[test]
fn net_evaluation_searches_under_every_rule() {
    for rule in Rule::ALL {
        let mut seen = vec![];
        for eval in [EvalKind::Classic, EvalKind::Net, EvalKind::Net] {
            let mut b = Board::from_ascii(OPENING_15, RuleSet::from(rule)).unwrap();
            let mut s = Searcher::with_tt_bytes(1 << 20);
            s.options.eval = eval;
            let r = s.search(&mut b, &depth_req(4), &mut |_| {});
            assert!(b.in_board(r.best) && b.is_empty(r.best), "{rule:?}");
            if rule == Rule::Renju && b.to_move() == Color::Black {
                assert!(!rules::is_forbidden(&b, r.best));
            }
            seen.push((r.nodes, r.score, r.best));
        }
        assert_eq!(
            seen[1], seen[2],
            "{rule:?}: the net search is deterministic"
        );
        assert_ne!(seen[0], seen[1], "{rule:?}: the net changes the search");
    }
    let open_four = "
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . X X X . . . . .
        . . . . . . . . . . . .
        . . . . . O . . . . . .
        . . . . . . . O . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . O";
    let mut b = Board::from_ascii(open_four, RuleSet::from(Rule::Freestyle)).unwrap();
    let mut s = Searcher::with_tt_bytes(1 << 20);
    s.options.root_threats = false;
    s.options.eval = EvalKind::Net;
    s.set_threads(2);
    let r = s.search(&mut b, &depth_req(5), &mut |_| {});
    assert!([(3, 2), (7, 2)].contains(&b.xy(r.best)));
    assert!(r.score >= MATE_BOUND_TEST, "{}", r.score);
    assert_eq!(s.helper_counts().0, 1);
}

/// The net's score cache changes no search: with it, without it, and
/// warm from an earlier search (a fresh table each time), a net search
/// plays the same move with the same score and node count under every
/// rule; the cache is filled only when the net evaluates.
#[test]
fn the_net_score_cache_changes_no_search() {
    for rule in Rule::ALL {
        let mut b = Board::from_ascii(OPENING_15, RuleSet::from(rule)).unwrap();
        let mut run = |s: &mut Searcher| {
            s.tt = Tt::new(1 << 20);
            let r = s.search(&mut b, &depth_req(5), &mut |_| {});
            (r.best, r.score, r.nodes)
        };
        let mut off = Searcher::with_tt_bytes(1 << 20);
        off.options.eval = EvalKind::Net;
        off.ecache = EvalCache::default();
        let mut on = Searcher::with_tt_bytes(1 << 20);
        on.options.eval = EvalKind::Net;
        let plain = run(&mut off);
        assert_eq!(run(&mut on), plain, "{rule:?}: with the cache");
        assert!(on.ecache.enabled() && !off.ecache.enabled());
        assert_eq!(run(&mut on), plain, "{rule:?}: with the warm cache");
        let mut classic = Searcher::with_tt_bytes(1 << 20);
        classic.options.eval = EvalKind::Classic;
        run(&mut classic);
        assert!(
            !classic.ecache.enabled(),
            "{rule:?}: classic leaves it alone"
        );
    }
}

/// Renju's end of a full board: when every empty cell is forbidden to
/// Black, Black's move can only be forbidden and loses. With one White
/// stone taken back (White to move, two cells left), White's winning move
/// is to fill the legal cell and leave Black only the overline point; the
/// other cell gives Black a legal last move (a draw). A board from datagen.
#[test]
fn renju_black_without_a_legal_cell_has_lost() {
    let full = "
        X O O O X X O O X X O O O X O
        X X O O X O O O X O X X O O X
        X X O X X X O X O O X X X O X
        O O O X O X O O O X O O O X X
        X O X O X O X X X X O O O X O
        O O X O X X O O O X X X X O X
        X O O X O O X X O X X X O X X
        O X O X O O X O O O O X O X O
        X O X X O O X X O X O O O X O
        X O O O X O O X X O X X X X O
        O X X O O X O X O O O X X O O
        X O O X X X O O X X X X O O X
        O O X O X X X O X O O X X X X
        X X X O O O O X X O O O X O X
        X O X O X X X X . X X O O O O";
    let rules = RuleSet::from(Rule::Renju);
    let b = Board::from_ascii(full, rules).unwrap();
    let last = b.pos(8, 14).unwrap();
    assert_eq!(b.to_move(), Color::Black);
    assert!(rules::is_forbidden(&b, last));
    let mut s = Searcher::with_tt_bytes(1 << 20);
    let mut copy = b.clone();
    let r = s.search(&mut copy, &depth_req(2), &mut |_| {});
    assert_eq!(r.best, last);
    assert!(is_mate_score(r.score) && r.score < 0, "{}", r.score);
    // Take back a White stone whose cell Black could fill legally.
    let grid: Vec<Vec<&str>> = full
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect();
    let mut tested = 0;
    for (y, row) in grid.iter().enumerate() {
        for x in (0..row.len()).filter(|&x| row[x] == "O") {
            let mut rows = grid.clone();
            rows[y][x] = ".";
            let text = rows
                .iter()
                .map(|r| r.join(" "))
                .collect::<Vec<_>>()
                .join("\n");
            let mut b = Board::from_ascii(&text, rules).unwrap();
            let q = b.pos(x as i64, y as i64).unwrap();
            assert_eq!(b.to_move(), Color::White);
            if !rules::is_legal(&b, q) || rules::is_win(&b, q, Color::Black) {
                continue;
            }
            let r = s.search(&mut b, &depth_req(3), &mut |_| {});
            assert_eq!(b.xy(r.best), (x, y), "{text}");
            assert!(is_mate_score(r.score) && r.score > 0, "{} {text}", r.score);
            tested += 1;
            if tested == 3 {
                return;
            }
        }
    }
    panic!("only {tested} boards");
}
