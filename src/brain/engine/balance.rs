//! Balanced moves (YXBALANCEONE s, YXBALANCETWO s), as pure procedures over
//! a *ranker*: a callback that searches a position for the side to move
//! with a share of this turn's time and returns its best few legal moves,
//! each with an exact score from the mover's point of view. The engine
//! supplies the real searcher; tests supply fakes.
//!
//! `s` is a score in the engine's units (as in `MESSAGE` evaluations) for
//! the side to move when the command comes, as in Rapfi: positive `s` asks
//! for a position that favours that side by `s`.
//!
//! On a lopsided board (the mover far ahead, or `s` far from the position's
//! score) the best moves are all far from `s`, and the move nearest it may
//! be one a search ranks 30th or lower. So both commands score every
//! candidate cheaply first, then spend most of the turn on the few whose
//! scores are nearest `s`:
//!
//! - Broad (`broad`): one multi-PV search ranks every root move with an
//!   exact score; the legal cells within two of a stone that it leaves out
//!   (a search that proves a win ranks that move alone; a forced defence or
//!   the opponent's VCF narrows the root) are each scored by the opponent's
//!   best reply after them, in small equal shares. On an empty board the
//!   search's root holds the centre only, so the `OPENING` cells, centre to
//!   corner (one of each symmetric set), are scored that way instead.
//! - ONE: the broad ranking takes a quarter of the turn, the cells it
//!   leaves out another quarter; the `ONE_RESCORE` moves nearest `s` are
//!   scored again by the opponent's best reply, sharing the rest (at least
//!   half the turn), and the nearest of those re-scores is the answer.
//! - TWO: our move, then the opponent's. A broad ranking of our moves takes
//!   a quarter of the turn; for each of the `TWO_FIRST` first moves nearest
//!   `s`, a broad ranking of the opponent's replies (at most
//!   `TWO_CELLS` left-out cells scored one by one) takes an equal part of
//!   half the turn; the `TWO_RESCORE` pairs nearest `s` (the score after the
//!   pair, for the side to move, the same side again) are searched again,
//!   sharing the rest, and the nearest of those is the answer.
//!
//! A re-score the ranker cannot give (the move ends the game, or the search
//! was stopped) keeps the broad score. Time: the ranker is given `parts`,
//! and its search takes `1/parts` of what is left of the turn's budget;
//! `Shares` turns the fixed fractions above into `parts`, so a call that
//! ends early (a proven win, a five) leaves its time to the later ones.
//! Nothing is random: ties go to the earlier move in the order scored.

use super::legal::is_legal;
use crate::brain::game::{Board, Pos};
use crate::brain::types::{score_text, Score};

/// How many of the moves nearest `s` YXBALANCEONE scores again.
pub const ONE_RESCORE: usize = 8;
/// How many first moves (those nearest `s`) YXBALANCETWO ranks replies to.
pub const TWO_FIRST: usize = 4;
/// At most this many left-out cells are scored one by one as replies to
/// each first move (nearest the first move).
pub const TWO_CELLS: usize = 16;
/// How many of the pairs nearest `s` YXBALANCETWO searches again.
pub const TWO_RESCORE: usize = 6;

/// `n` for a ranking of every root move.
pub const EVERY: usize = usize::MAX;

/// Rank the best `n` legal moves of `board` for the side to move, with
/// `1/parts` of what is left of the turn's budget: best first, scores from
/// the mover's view. An error means no score (the game is over there, or
/// the search was stopped).
pub type Rank<'a> = dyn FnMut(&Board, usize, u64) -> Result<Vec<(Pos, Score)>, String> + 'a;

#[derive(Clone, Debug)]
pub struct Balanced {
    /// The position after the moves.
    pub board: Board,
    /// The moves, in order (one or two).
    pub moves: Vec<Pos>,
    /// The score after them for the side that was to move.
    pub score: Score,
    /// What the choice was based on, for a MESSAGE line.
    pub note: String,
}

/// First-move cells on an empty board, as offsets from the centre: one of
/// each of a few symmetric sets, from the centre out towards the corner
/// (the further out, the less a first stone is worth).
const OPENING: [(i64, i64); 8] = [
    (0, 0),
    (1, 1),
    (2, 1),
    (3, 3),
    (4, 2),
    (5, 5),
    (6, 3),
    (6, 6),
];

/// The whole turn's budget, in the units `Shares` hands out (divisible by
/// every number up to 16).
pub const WHOLE: u64 = 720_720;

/// The turn's budget in `WHOLE` units, handed out as the ranker's `parts`:
/// a search given `parts` takes `1/parts` of the time left, so a call that
/// is to take `units` of the `left` units still planned is given
/// `ceil(left / units)` parts. Units planned for a call not made (a move
/// that ends the game) go to the later calls in proportion.
struct Shares {
    left: u64,
}

impl Shares {
    fn new() -> Shares {
        Shares { left: WHOLE }
    }

    /// `parts` for a call that is to take `units`.
    fn take(&mut self, units: u64) -> u64 {
        let units = units.clamp(1, self.left.max(1));
        let parts = self.left.div_ceil(units).max(1);
        self.left = self.left.saturating_sub(units);
        parts
    }

    /// Planned units that no call will take.
    fn drop(&mut self, units: u64) {
        self.left = self.left.saturating_sub(units);
    }

    /// `parts` for the first of `calls` calls that share all that is left
    /// equally (the last one gets all of it).
    fn rest(&mut self, calls: usize) -> u64 {
        let calls = calls.max(1) as u64;
        self.left -= self.left / calls;
        calls
    }
}

/// The `OPENING` cells of an empty board.
fn opening(board: &Board) -> Vec<Pos> {
    let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
    OPENING
        .iter()
        .filter_map(|&(dx, dy)| board.pos(cx + dx, cy + dy))
        .collect()
}

/// Legal empty cells within two of a stone (`Board::candidates`) that are
/// not in `ranked`, nearest the last move first (then in board order), at
/// most `most`.
fn left_out(board: &Board, ranked: &[(Pos, Score)], most: usize) -> Vec<Pos> {
    let last = board.last_move().map(|m| board.xy(m.pos));
    let mut cells: Vec<(usize, Pos)> = board
        .candidates()
        .filter(|p| !ranked.iter().any(|(q, _)| q == p) && is_legal(board, *p))
        .map(|p| {
            let (x, y) = board.xy(p);
            let d = last.map_or(0, |(lx, ly)| lx.abs_diff(x).max(ly.abs_diff(y)));
            (d, p)
        })
        .collect();
    cells.sort();
    cells.into_iter().take(most).map(|(_, p)| p).collect()
}

/// The mover's score after `p`: minus the opponent's best reply's. None
/// when the ranker gives none (`p` ends the game, or the search stopped).
fn after(board: &Board, p: Pos, parts: u64, rank: &mut Rank) -> Option<Score> {
    let mut b = board.clone();
    b.play(p);
    let replies = rank(&b, 1, parts).ok()?;
    replies.first().map(|&(_, s)| s.saturating_neg())
}

/// Every candidate move of `board` with its score for the mover, in the
/// order scored: the root moves as one multi-PV search ranks them, given
/// `search` units, then the cells it left out (at most `most`), each scored
/// by the opponent's best reply, sharing `cells` units. On an empty board:
/// the `OPENING` cells, sharing both. An error when the ranking has none
/// (the game is over, the search stopped).
fn broad(
    board: &Board,
    search: u64,
    cells: u64,
    most: usize,
    shares: &mut Shares,
    rank: &mut Rank,
) -> Result<Vec<(Pos, Score)>, String> {
    let (mut out, todo, mut pool) = if board.stone_count() == 0 {
        (Vec::new(), opening(board), search + cells)
    } else {
        let ranked = match rank(board, EVERY, shares.take(search)) {
            Ok(r) => r,
            Err(e) => {
                shares.drop(cells);
                return Err(e);
            }
        };
        let todo = left_out(board, &ranked, most);
        (ranked, todo, cells)
    };
    let n = todo.len();
    for (i, p) in todo.into_iter().enumerate() {
        let units = pool / (n - i) as u64;
        pool -= units;
        let parts = shares.take(units);
        if let Some(s) = after(board, p, parts, rank) {
            out.push((p, s));
        }
    }
    shares.drop(pool);
    Ok(out)
}

fn off(score: Score, bias: i64) -> i64 {
    (i64::from(score) - bias).abs()
}

/// The `k` entries whose scores are nearest `bias`, nearest first (ties in
/// the order given).
fn nearest<T: Copy>(items: &[T], score: impl Fn(&T) -> Score, bias: i64, k: usize) -> Vec<T> {
    let mut v = items.to_vec();
    v.sort_by_key(|t| off(score(t), bias));
    v.truncate(k);
    v
}

/// YXBALANCEONE: the move closest to `bias` for the side to move.
pub fn one(mut board: Board, bias: i64, rank: &mut Rank) -> Result<Balanced, String> {
    let mut shares = Shares::new();
    let scored = broad(&board, WHOLE / 4, WHOLE / 4, usize::MAX, &mut shares, rank)?;
    let near = nearest(&scored, |&(_, s)| s, bias, ONE_RESCORE);
    let mut best: Option<(i64, Pos, Score)> = None;
    for (i, &(mv, broad_score)) in near.iter().enumerate() {
        let parts = shares.rest(near.len() - i);
        let score = after(&board, mv, parts, rank).unwrap_or(broad_score);
        let d = off(score, bias);
        if best.is_none_or(|(bd, ..)| d < bd) {
            best = Some((d, mv, score));
        }
    }
    let (_, mv, score) = best.ok_or("no legal move left")?;
    board.play(mv);
    Ok(Balanced {
        board,
        moves: vec![mv],
        score,
        note: format!(
            "balance1: {} moves scored, the {} nearest again: score {} for the mover (bias {bias})",
            scored.len(),
            near.len(),
            score_text(score)
        ),
    })
}

/// YXBALANCETWO: our move and the opponent's reply after which the side to
/// move scores closest to `bias`.
pub fn two(board: Board, bias: i64, rank: &mut Rank) -> Result<Balanced, String> {
    let mut shares = Shares::new();
    let firsts = broad(&board, WHOLE / 6, WHOLE / 12, usize::MAX, &mut shares, rank)?;
    let firsts = nearest(&firsts, |&(_, s)| s, bias, TWO_FIRST);
    // Half the turn for the replies, an equal part for each first move, a
    // fifth of that for the left-out cells.
    let each = WHOLE / 2 / firsts.len().max(1) as u64;
    let mut pairs: Vec<(Pos, Pos, Score)> = Vec::new();
    for &(m1, _) in &firsts {
        let mut b = board.clone();
        b.play(m1);
        // A first move that ends the game has no replies.
        let Ok(replies) = broad(&b, each - each / 5, each / 5, TWO_CELLS, &mut shares, rank) else {
            continue;
        };
        pairs.extend(replies.iter().map(|&(m2, s)| (m1, m2, s.saturating_neg())));
    }
    let near = nearest(&pairs, |&(.., s)| s, bias, TWO_RESCORE);
    let mut best: Option<(i64, Pos, Pos, Score)> = None;
    for (i, &(m1, m2, broad_score)) in near.iter().enumerate() {
        let parts = shares.rest(near.len() - i);
        let mut b = board.clone();
        b.play(m1);
        b.play(m2);
        // The side to move after the pair is ours again: its own score.
        let score = rank(&b, 1, parts)
            .ok()
            .and_then(|r| r.first().map(|&(_, s)| s))
            .unwrap_or(broad_score);
        let d = off(score, bias);
        if best.is_none_or(|(bd, ..)| d < bd) {
            best = Some((d, m1, m2, score));
        }
    }
    let (_, m1, m2, score) = best.ok_or("no pair of legal moves left")?;
    let mut board = board;
    board.play(m1);
    board.play(m2);
    Ok(Balanced {
        board,
        moves: vec![m1, m2],
        score,
        note: format!(
            "balance2: {} pairs after {} first moves, the {} nearest again: score {} for the side to move (bias {bias})",
            pairs.len(),
            firsts.len(),
            near.len(),
            score_text(score)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::types::RuleSet;

    fn empty() -> Board {
        Board::square(15, RuleSet::default()).unwrap()
    }

    /// A board with one stone in the corner (not empty: the moves are
    /// ranked, not the opening cells): eight candidate cells.
    fn played() -> Board {
        let mut b = empty();
        b.play(b.pos(0, 0).unwrap());
        b
    }

    /// Four stones far apart: about a hundred candidate cells.
    fn spread() -> Board {
        let mut b = empty();
        for (x, y) in [(3, 3), (11, 11), (3, 11), (11, 3)] {
            b.play(b.pos(x, y).unwrap());
        }
        b
    }

    fn cells(b: &Board) -> Vec<Pos> {
        b.candidates().filter(|&p| is_legal(b, p)).collect()
    }

    const WHOLE_TIME: u64 = 1_000_000_000;

    /// A consistent fake searcher over one root position: `first(p, i)` is
    /// the mover's score after move `p` (the root's `i`-th candidate cell,
    /// board order) and the opponent's best reply; after `p`, the
    /// opponent's `j`-th candidate reply (board order) leaves the mover
    /// `first + step * j` (the first reply is the best); after a pair the
    /// mover scores that. `win`: the root ranking proves a win and ranks
    /// that move alone; `narrow`: so does every ranking of replies (their
    /// best alone). `misjudge`: added to the root ranking's scores only (a
    /// shallow multi-PV search misjudging some moves). It keeps a clock:
    /// each call spends `1/parts` of what is left of `WHOLE_TIME`, as the
    /// engine's searches do, and records (stones beyond the root, n, the
    /// time spent).
    struct Fake {
        root: usize,
        root_cells: Vec<Pos>,
        first: Box<dyn Fn(Pos, usize) -> Score>,
        step: Score,
        win: Option<Pos>,
        narrow: bool,
        misjudge: Box<dyn Fn(Pos) -> Score>,
        left: u64,
        calls: Vec<(usize, usize, u64)>,
    }

    impl Fake {
        fn new(root: &Board, first: impl Fn(Pos, usize) -> Score + 'static) -> Fake {
            Fake {
                root: root.stone_count(),
                root_cells: cells(root),
                first: Box::new(first),
                step: 25,
                win: None,
                narrow: false,
                misjudge: Box::new(|_| 0),
                left: WHOLE_TIME,
                calls: Vec::new(),
            }
        }

        fn score_first(&self, p: Pos) -> Score {
            let i = self.root_cells.iter().position(|&q| q == p).unwrap();
            (self.first)(p, i)
        }

        fn rank(&mut self, b: &Board, n: usize, parts: u64) -> Result<Vec<(Pos, Score)>, String> {
            let spent = self.left / parts.max(1);
            self.left -= spent;
            let depth = b.stone_count() - self.root;
            self.calls.push((depth, n, spent));
            let h = b.history();
            let mut ranked: Vec<(Pos, Score)> = match depth {
                0 if self.win.is_some() => vec![(self.win.unwrap(), 29_990)],
                0 => {
                    let cells = self.root_cells.iter().enumerate();
                    cells
                        .map(|(i, &p)| (p, (self.first)(p, i) + (self.misjudge)(p)))
                        .collect()
                }
                1 => {
                    let v = self.score_first(h[h.len() - 1].pos);
                    let replies = cells(b).into_iter().enumerate();
                    let mut r: Vec<_> = replies
                        .map(|(j, q)| (q, -(v + self.step * j as Score)))
                        .collect();
                    if self.narrow {
                        r.truncate(1);
                    }
                    r
                }
                2 => {
                    let (m1, m2) = (h[h.len() - 2].pos, h[h.len() - 1].pos);
                    let mut b1 = b.clone();
                    b1.unmake();
                    let j = cells(&b1).iter().position(|&q| q == m2).unwrap();
                    let s = self.score_first(m1) + self.step * j as Score;
                    vec![(cells(b)[0], s)]
                }
                _ => return Err("too deep".into()),
            };
            ranked.sort_by_key(|&(p, s)| (-s, p));
            ranked.truncate(n);
            Ok(ranked)
        }

        fn spent(&self) -> u64 {
            self.calls.iter().map(|c| c.2).sum()
        }
    }

    fn by_list(scores: &'static [Score], rest: Score) -> impl Fn(Pos, usize) -> Score {
        move |_, i| scores.get(i).copied().unwrap_or(rest)
    }

    #[test]
    fn one_picks_the_score_closest_to_the_bias() {
        let scores = &[500, 30, -200];
        for (bias, want) in [(0, 30), (300, 500), (-150, -200), (10_000, 500)] {
            let mut fake = Fake::new(&played(), by_list(scores, -5_000));
            let d = one(played(), bias, &mut |b: &Board, n, p| fake.rank(b, n, p)).unwrap();
            assert_eq!(d.score, want, "bias {bias}");
            assert_eq!(d.moves.len(), 1);
            assert_eq!(d.board.stone_count(), 2);
        }
    }

    #[test]
    fn two_scores_the_pair_for_the_side_to_move() {
        // The reply's score is the opponent's: the side to move after the
        // pair scores its negation (first + 1000 j, never below first).
        for (bias, want) in [(200, 100), (-90, -190)] {
            let mut fake = Fake::new(&played(), by_list(&[100, -190, 40], 5_000));
            fake.step = 1_000;
            let d = two(played(), bias, &mut |b: &Board, n, p| fake.rank(b, n, p)).unwrap();
            assert_eq!(d.score, want, "bias {bias}");
            assert_eq!(d.moves.len(), 2);
            assert_ne!(d.moves[0], d.moves[1]);
            assert_eq!(d.board.stone_count(), 3);
        }
    }

    #[test]
    fn an_empty_board_tries_cells_around_the_centre() {
        // Score each position by its stones' distance from the centre: the
        // mover's score after the first move is minus the reply's.
        let mut rank = |b: &Board, _: usize, _: u64| {
            let p = b.history().last().map(|m| m.pos).unwrap();
            let (x, y) = b.xy(p);
            let d = (x as Score - 7).abs() + (y as Score - 7).abs();
            let reply = b.empty_cells().next().unwrap();
            Ok(vec![(reply, -100 * d)])
        };
        let d = one(empty(), 300, &mut rank).unwrap();
        assert_eq!(d.score, 300);
        assert_eq!(d.board.xy(d.moves[0]), (9, 8));
    }

    #[test]
    fn nothing_to_rank_is_an_error() {
        let mut none = |_: &Board, _: usize, _: u64| Ok(Vec::new());
        assert!(one(played(), 0, &mut none).is_err());
        assert!(two(played(), 0, &mut none).is_err());
        let mut over = |_: &Board, _: usize, _: u64| Err("the game is over".to_string());
        assert!(one(played(), 0, &mut over).is_err());
        assert!(two(played(), 0, &mut over).is_err());
    }

    /// The mover far ahead: every move keeps about +3000 but one, the 40th
    /// candidate, which scores 30 and which a search ranks last.
    #[test]
    fn one_finds_the_balanced_move_a_search_ranks_last() {
        let board = spread();
        let special = cells(&board)[40];
        let mut fake = Fake::new(&board, move |p, i| {
            if p == special {
                30
            } else {
                3_000 - 10 * i as Score
            }
        });
        let d = one(board.clone(), 0, &mut |b: &Board, n, p| fake.rank(b, n, p)).unwrap();
        assert_eq!(d.moves, vec![special]);
        assert_eq!(d.score, 30);
    }

    /// The mover has a proven win, which the root search ranks alone: the
    /// other cells are scored one by one and the balanced one is found.
    #[test]
    fn a_proven_win_leaves_the_other_cells_to_be_scored_one_by_one() {
        let board = spread();
        let all = cells(&board);
        let (win, special) = (all[5], all[70]);
        let mut fake = Fake::new(&board, move |p, i| match p {
            _ if p == win => 29_990,
            _ if p == special => -40,
            _ => 2_000 + 3 * i as Score,
        });
        fake.win = Some(win);
        let d = one(board.clone(), 0, &mut |b: &Board, n, p| fake.rank(b, n, p)).unwrap();
        assert_eq!(d.moves, vec![special]);
        assert_eq!(d.score, -40);
    }

    /// TWO: the only pair near `s` needs a first move a search ranks last
    /// and the opponent's 13th best reply (the first move leaves the mover
    /// -300, each worse reply 25 more).
    #[test]
    fn two_finds_the_balanced_pair_past_the_best_moves() {
        let board = spread();
        let special = cells(&board)[50];
        let mut fake = Fake::new(&board, move |p, i| {
            if p == special {
                -300
            } else {
                2_500 - 5 * i as Score
            }
        });
        let d = two(board.clone(), 0, &mut |b: &Board, n, p| fake.rank(b, n, p)).unwrap();
        assert_eq!(d.moves[0], special);
        assert_eq!(d.score, 0);
        let mut b1 = board.clone();
        b1.play(special);
        let j = cells(&b1).iter().position(|&q| q == d.moves[1]);
        assert_eq!(j, Some(12));
    }

    /// The broad ranking misjudges two moves: one it puts at `s` is 800
    /// away, one it puts 300 away is 60 away. The re-scores decide.
    #[test]
    fn the_re_scores_decide() {
        let board = spread();
        let all = cells(&board);
        let (decoy, real) = (all[10], all[20]);
        let mut fake = Fake::new(&board, move |p, i| match p {
            _ if p == decoy => 800,
            _ if p == real => 60,
            _ => 3_000 - i as Score,
        });
        fake.misjudge = Box::new(move |p| match p {
            _ if p == decoy => -800,
            _ if p == real => 240,
            _ => 0,
        });
        let d = one(board.clone(), 0, &mut |b: &Board, n, p| fake.rank(b, n, p)).unwrap();
        assert_eq!((d.moves[0], d.score), (real, 60));
    }

    /// Stopped after the broad ranking (every later call fails): ONE
    /// answers with the move that ranking put nearest `s`.
    #[test]
    fn a_stopped_search_answers_from_what_it_has() {
        let board = spread();
        let all = cells(&board);
        let mut fake = Fake::new(&board, move |_, i| 1_000 - 20 * i as Score);
        let mut calls = 0;
        let d = one(board.clone(), 0, &mut |b: &Board, n, p| {
            calls += 1;
            if calls > 1 {
                return Err("stopped".into());
            }
            fake.rank(b, n, p)
        })
        .unwrap();
        assert_eq!((d.moves[0], d.score), (all[50], 0));
    }

    /// ONE's budget: the broad ranking a quarter of the turn, the cells it
    /// leaves out a quarter between them, `ONE_RESCORE` re-scores the rest
    /// (each at least an eighth of half the turn); never more than the
    /// turn, one call per cell at most.
    #[test]
    fn one_keeps_to_its_budget() {
        let board = spread();
        let n_cells = cells(&board).len();
        for win in [false, true] {
            let mut fake = Fake::new(&board, |_, i| 1_000 - 10 * i as Score);
            fake.win = win.then(|| cells(&board)[0]);
            one(board.clone(), 0, &mut |b: &Board, n, p| fake.rank(b, n, p)).unwrap();
            let c = &fake.calls;
            let left_out = if win { n_cells - 1 } else { 0 };
            assert_eq!(c.len(), 1 + left_out + ONE_RESCORE, "win {win}");
            assert_eq!(c[0], (0, EVERY, WHOLE_TIME / 4));
            let cheap: u64 = c[1..1 + left_out].iter().map(|x| x.2).sum();
            assert!(cheap <= WHOLE_TIME / 4 + 1, "{cheap}");
            for &(depth, n, spent) in &c[1 + left_out..] {
                assert_eq!((depth, n), (1, 1));
                assert!(spent >= WHOLE_TIME / 2 / ONE_RESCORE as u64, "{spent}");
            }
            assert!(fake.spent() <= WHOLE_TIME);
            assert!(fake.spent() >= WHOLE_TIME - 10, "the turn is used");
        }
    }

    /// TWO's budget: the broad ranking of first moves a sixth of the turn
    /// (the cells it leaves out a twelfth), the replies to each of
    /// `TWO_FIRST` first moves an equal part of half the turn (at most
    /// `TWO_CELLS` left-out replies each), the `TWO_RESCORE` re-scores the
    /// rest (each at least a sixth of a quarter); never more than the turn.
    #[test]
    fn two_keeps_to_its_budget() {
        let board = spread();
        for narrow in [false, true] {
            let mut fake = Fake::new(&board, |_, i| 1_000 - 10 * i as Score);
            fake.narrow = narrow;
            two(board.clone(), 0, &mut |b: &Board, n, p| fake.rank(b, n, p)).unwrap();
            let c = &fake.calls;
            let replies = if narrow { 1 + TWO_CELLS } else { 1 };
            assert_eq!(c.len(), 1 + TWO_FIRST * replies + TWO_RESCORE);
            assert_eq!(c[0], (0, EVERY, WHOLE_TIME / 6));
            let firsts = &c[1..1 + TWO_FIRST * replies];
            let ranked: u64 = firsts.iter().map(|x| x.2).sum();
            assert!(ranked <= WHOLE_TIME / 2 + WHOLE_TIME / 12 + 1, "{ranked}");
            assert!(firsts.iter().step_by(replies).all(|x| x.1 == EVERY));
            for &(depth, n, spent) in &c[1 + TWO_FIRST * replies..] {
                assert_eq!((depth, n), (2, 1));
                assert!(spent >= WHOLE_TIME / 4 / TWO_RESCORE as u64, "{spent}");
            }
            assert!(fake.spent() <= WHOLE_TIME);
            assert!(fake.spent() >= WHOLE_TIME - 10, "the turn is used");
        }
    }
}
