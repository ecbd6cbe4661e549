//! Tactics suite for the threat-space solver (`search::threat`): generated
//! middle-game positions under every rule on 15×15 and 20×20 boards (some
//! played into a corner), checked against two references written here from
//! the rules module alone (`is_win`, `is_forbidden`; no pattern tables, no
//! solver code): a VCF reference and a threat-space VCT reference (`RefVct`,
//! whose notion of "a win within N threats" is documented on the type).
//!
//! - VCF wins: the reference computes the full set of winning first moves
//!   (up to `REF_DEPTH` free fours); the solver must find a win and start it
//!   with one of those moves, its line must replay as legal forced play, and
//!   after every move of the set and every block the solver must still win.
//! - VCT wins (no short VCF): `RefVct` computes the full set of winning
//!   first moves within `REF_VCT_THREATS` threats. The solver, asked for a
//!   VCT within the same bound, must find one starting in that set; and for
//!   every move of the set, after every legal defender reply (full width),
//!   the solver must still find a VCT within the remaining bound.
//! - No win: `RefVct` proves there is no VCT within the bound and the VCF
//!   reference proves there is no VCF at any depth; the solver must claim
//!   neither.
//!
//! Figures (positions, solve rate, false claims, median and 90th-percentile
//! solver time, nodes/s, sets checked, no-win proofs) go to stderr:
//! `cargo test --release --test tactics -- --nocapture`.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use sente::game::rules::{is_forbidden, is_win};
use sente::game::zobrist::SplitMix64;
use sente::game::{Board, Pos};
use sente::search::threat::ThreatSolver;
use sente::types::{Color, Rule, RuleSet};

/// Free attacker fours the reference looks through for the winning set.
const REF_DEPTH: u32 = 2;
/// Reference node cap; positions that need more are skipped.
const REF_NODES: u64 = 20_000;
const VCT_NODES: u64 = 1_000_000;

fn forbidden(b: &Board, c: Color, p: Pos) -> bool {
    c == Color::Black && is_forbidden(b, p)
}

/// Every five point of `c` (`may_four` only skips cells that cannot be one).
fn win_points(b: &Board, c: Color) -> Vec<Pos> {
    b.empty_cells()
        .filter(|&e| may_four(b, c, e) && is_win(b, e, c))
        .collect()
}

/// Five points of `c` on the lines through `q` (within four cells), where
/// `q` holds a stone of `c`.
fn local_wins(b: &Board, c: Color, q: Pos) -> Vec<Pos> {
    let mut out = Vec::new();
    for off in b.dirs() {
        // A five through `q` on this line needs three more stones on it.
        if stones_along(b, c, q, off) < 3 {
            continue;
        }
        for dist in (-4isize..=-1).chain(1..=4) {
            let e = q.offset(dist * off);
            if b.in_board(e)
                && b.is_empty(e)
                && may_four(b, c, e)
                && is_win(b, e, c)
                && !out.contains(&e)
            {
                out.push(e);
            }
        }
    }
    out
}

struct Reference {
    nodes: u64,
}

impl Reference {
    /// Does attacker `a` (to move) win by continuous fours within `depth`
    /// free fours? None when the node cap was hit.
    fn vcf(&mut self, b: &mut Board, a: Color, depth: u32) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > REF_NODES {
            return None;
        }
        if !win_points(b, a).is_empty() {
            return Some(true);
        }
        for q in self.candidates(b, a, depth)? {
            if self.wins_with(b, a, q, depth)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// The attacker's moves worth trying: the forced blocks when the
    /// defender has a five point, otherwise every four.
    fn candidates(&mut self, b: &mut Board, a: Color, depth: u32) -> Option<Vec<Pos>> {
        let dfive = win_points(b, a.opposite());
        if !dfive.is_empty() {
            return Some(dfive);
        }
        if depth == 0 {
            return Some(vec![]);
        }
        let mut out = vec![];
        for q in b.empty_cells().collect::<Vec<_>>() {
            if b.near_count(q) == 0 || !may_four(b, a, q) {
                continue;
            }
            b.make(q, a);
            if !local_wins(b, a, q).is_empty() {
                out.push(q);
            }
            b.unmake();
        }
        Some(out)
    }

    /// Does the four (or forced block) `q` win?
    fn wins_with(&mut self, b: &mut Board, a: Color, q: Pos, depth: u32) -> Option<bool> {
        let d = a.opposite();
        if forbidden(b, a, q) {
            return Some(false);
        }
        let free = win_points(b, d).is_empty();
        if is_win(b, q, a) {
            return Some(true);
        }
        b.make(q, a);
        let res = (|| {
            if !win_points(b, d).is_empty() {
                return Some(false);
            }
            let af = win_points(b, a);
            if af.is_empty() {
                return Some(false);
            }
            for w in af {
                if forbidden(b, d, w) {
                    continue;
                }
                b.make(w, d);
                let r = self.vcf(b, a, depth - free as u32);
                b.unmake();
                if !r? {
                    return Some(false);
                }
            }
            Some(true)
        })();
        b.unmake();
        res
    }

    /// Every winning first move within `depth` free fours.
    fn winning_moves(&mut self, b: &mut Board, a: Color, depth: u32) -> Option<Vec<Pos>> {
        if let Some(&p) = win_points(b, a).first() {
            return Some(vec![p]);
        }
        let mut out = vec![];
        for q in self.candidates(b, a, depth)? {
            if self.wins_with(b, a, q, depth)? {
                out.push(q);
            }
        }
        Some(out)
    }
}

/// Attacker threats (free moves; the final five is not counted) the
/// reference VCT looks through.
const REF_VCT_THREATS: u32 = 3;
/// Reference VCT node cap per position; positions that need more are
/// skipped, counted and bounded (`MAX_REF_CAPPED`).
const REF_VCT_NODES: u64 = 60_000;
/// At most this many generated positions may be skipped at the cap.
const MAX_REF_CAPPED: usize = 6;

/// Attacker stones of `c` within four cells of `p` along direction `off`,
/// on both sides (a cheap necessary condition for a three or a four).
fn stones_along(b: &Board, c: Color, p: Pos, off: isize) -> usize {
    (-4isize..=-1)
        .chain(1..=4)
        .filter(|&d| b.cell(p.offset(d * off)) == c.cell())
        .count()
}

/// Could `c` on `p` make a four (a five point)? Needs three other stones
/// of `c` within four cells on one line (a five point needs four).
fn may_four(b: &Board, c: Color, p: Pos) -> bool {
    // Three stones in a window of five around `p`: one is within two cells.
    b.near_count(p) > 0 && b.dirs().iter().any(|&off| stones_along(b, c, p, off) >= 3)
}

/// Independent threat-space reference VCT, built on the rules primitives
/// `is_win` / `is_forbidden` (and the board's Zobrist hash for its table);
/// it shares no code with the solver and reads no pattern table.
///
/// What "attacker `a` wins within N threats" means here — a game in which
/// the attacker's moves are restricted and the defender's are not:
/// - attacker to move (`or_node`, budget t): a five wins. If the defender
///   has a five point, the attacker must block it (any block; free). Else,
///   with t > 0, it may play a *threat* for one unit of budget:
///   - a *four*: a legal move after which it has a five point;
///   - a *three* (t ≥ 2): a legal non-four move `m` after which some empty
///     cell within four of `m`, on a line of `m` holding at least two
///     other attacker stones within four, is a *killer* with two five
///     points on that line (an open four, or `X.XXX.X`: so an open three,
///     split or not, or `X.X.X.X`; a move that only prepares a double four
///     across two lines is not a threat here, as in the solver).
///
///   A *killer* is a legal attacker move after which the attacker has a
///   five point and every legal defender block of one of them still leaves
///   it a five point (an open four, a double four, a renju four whose block
///   is forbidden to Black, a caro four not spoilt by one stone), the
///   defender having no five point of its own.
/// - defender to move (`and_node`, budget t): a defender five point loses
///   the attack. If the attacker has five points, the defender must block
///   one (every legal block is tried; none legal: the attack wins).
///   Otherwise the attack must still hold a killer (and t > 0 to play it),
///   or it fails; and then EVERY legal defender move is a reply: one that
///   makes a defender four, or destroys every killer, is searched on; one
///   after which a killer survives loses at once (the attacker plays it:
///   the defender has no five point and cannot stop both fives).
///
/// So a claimed win is a real one (a sound lower bound): the defender's
/// options are never restricted, counter-fours (and whole counter-VCFs:
/// the defender four is searched on, the attacker must block, the defender
/// may four again) are searched, a three is only a threat while its killer
/// stands, and every legality question goes to `is_forbidden`. Replies
/// skipped without a search are those that provably leave a killer. Apart
/// from legality, a killer's status depends only on the cells within five
/// of it on its four lines (five points, overlines, caro ends all lie
/// there). Under renju the legality of the killer (Black attacking) or of
/// its blocks (White attacking) also counts: a reply within five of one of
/// those points on its lines is re-checked by replaying the killer; a
/// reply further away can change legality only through the recursive
/// three rule, so only when such a point could be a double three (two of
/// its lines with two Black stones near it), and then the legality alone
/// is re-checked for every reply. A "no win" answer is exact for this game: every
/// threat, every reply, no node cap hit (else the position is skipped).
/// The solver's own moves (fours, open threes threatening an open or
/// double four on their line) are threats here too, so a solver win within
/// N threats must start in the reference's winning set and a solver claim
/// where the reference proves none is a false claim.
struct RefVct {
    nodes: u64,
    /// Proven results: key -> (least budget known to win, most budget
    /// known to lose); more budget never hurts the attacker.
    tt: HashMap<u64, (u32, u32)>,
    renju: bool,
}

const OR_SALT: u64 = 0x5EED_0F0F_1234_8765;
const AND_SALT: u64 = 0x0DD5_A1A7_9ABC_4321;

impl RefVct {
    fn new(b: &Board) -> Self {
        RefVct {
            nodes: 0,
            tt: HashMap::new(),
            renju: b.rules().rule == Rule::Renju,
        }
    }

    fn tick(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= REF_VCT_NODES).then_some(())
    }

    fn probe(&self, key: u64, t: u32) -> Option<bool> {
        let &(win, lose) = self.tt.get(&key)?;
        if t >= win {
            Some(true)
        } else if t <= lose && lose != u32::MAX {
            Some(false)
        } else {
            None
        }
    }

    fn store(&mut self, key: u64, t: u32, r: bool) {
        let e = self.tt.entry(key).or_insert((u32::MAX, u32::MAX));
        if r {
            e.0 = e.0.min(t);
        } else if e.1 == u32::MAX || t > e.1 {
            e.1 = t;
        }
    }

    /// Is `k` a killer for `a` (see the type's documentation)? The
    /// defender must have no five point.
    fn is_killer(b: &mut Board, a: Color, k: Pos) -> bool {
        Self::killer_fives(b, a, k).is_some()
    }

    /// The five points of the killer `k`, or None if `k` is no killer.
    fn killer_fives(b: &mut Board, a: Color, k: Pos) -> Option<Vec<Pos>> {
        if !b.is_empty(k) || forbidden(b, a, k) || !may_four(b, a, k) {
            return None;
        }
        let d = a.opposite();
        b.make(k, a);
        let f = local_wins(b, a, k);
        let mut ok = !f.is_empty();
        for &w in &f {
            if !ok {
                break;
            }
            if forbidden(b, d, w) {
                continue;
            }
            b.make(w, d);
            ok = f.iter().any(|&x| x != w && is_win(b, x, a));
            b.unmake();
        }
        b.unmake();
        ok.then_some(f)
    }

    /// For the killer `k`: each of its five points, and whether a defender
    /// block there still leaves the attacker a five.
    fn block_table(b: &mut Board, a: Color, k: Pos) -> Vec<(Pos, bool)> {
        b.make(k, a);
        let f = local_wins(b, a, k);
        let out = f
            .iter()
            .map(|&w| {
                b.make(w, a.opposite());
                let s = f.iter().any(|&x| x != w && is_win(b, x, a));
                b.unmake();
                (w, s)
            })
            .collect();
        b.unmake();
        out
    }

    /// Is `k` still a killer after a stone off all its lines, given its
    /// `block_table` (only legality can have changed)?
    fn still_killer(b: &mut Board, a: Color, k: Pos, blocks: &[(Pos, bool)]) -> bool {
        if forbidden(b, a, k) {
            return false;
        }
        b.make(k, a);
        let ok = blocks
            .iter()
            .all(|&(w, s)| s || forbidden(b, a.opposite(), w));
        b.unmake();
        ok
    }

    /// Every killer of `a` on the board.
    fn killers(b: &mut Board, a: Color) -> Vec<Pos> {
        let cells: Vec<Pos> = b.empty_cells().collect();
        cells
            .into_iter()
            .filter(|&k| Self::is_killer(b, a, k))
            .collect()
    }

    /// After `a`'s non-four move `m`: is it a three, i.e. is there a
    /// killer `k` within four of `m` on a line of `m` holding at least two
    /// other attacker stones, with two or more of its five points on that
    /// same line (a straight four)? Moves that only set up a double four
    /// are not threes here, as in the solver.
    fn makes_killer(b: &mut Board, a: Color, m: Pos) -> bool {
        for off in b.dirs() {
            if stones_along(b, a, m, off) < 2 {
                continue;
            }
            for dist in (-4isize..=-1).chain(1..=4) {
                let k = m.offset(dist * off);
                // A straight four on this line needs three stones beside k.
                if !b.in_board(k) || stones_along(b, a, k, off) < 3 {
                    continue;
                }
                if let Some(f) = Self::killer_fives(b, a, k) {
                    let on_line = f
                        .iter()
                        .filter(|&&x| (-4isize..=4).any(|j| k.offset(j * off) == x))
                        .count();
                    if on_line >= 2 {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The attacker's threats with budget `t`: fours, then (t ≥ 2) threes.
    fn threats(b: &mut Board, a: Color, t: u32) -> Vec<Pos> {
        let mut fours = vec![];
        let mut threes = vec![];
        let cells: Vec<Pos> = b.empty_cells().collect();
        for m in cells {
            let most = b
                .dirs()
                .iter()
                .map(|&o| stones_along(b, a, m, o))
                .max()
                .unwrap_or(0);
            if b.near_count(m) == 0 || most < 2 || forbidden(b, a, m) {
                continue;
            }
            b.make(m, a);
            if most >= 3 && !local_wins(b, a, m).is_empty() {
                fours.push(m);
            } else if t >= 2 && Self::makes_killer(b, a, m) {
                threes.push(m);
            }
            b.unmake();
        }
        fours.extend(threes);
        fours
    }

    /// Attacker to move with budget `t`. None: node cap.
    fn or_node(&mut self, b: &mut Board, a: Color, t: u32) -> Option<bool> {
        self.tick()?;
        if !win_points(b, a).is_empty() {
            return Some(true);
        }
        let d = a.opposite();
        let dfive = win_points(b, d);
        if !dfive.is_empty() {
            for w in dfive {
                if forbidden(b, a, w) {
                    continue;
                }
                b.make(w, a);
                let r = self.and_node(b, a, t);
                b.unmake();
                if r? {
                    return Some(true);
                }
            }
            return Some(false);
        }
        if t == 0 {
            return Some(false);
        }
        let key = b.hash() ^ OR_SALT ^ a.index() as u64;
        if let Some(r) = self.probe(key, t) {
            return Some(r);
        }
        let mut res = false;
        for m in Self::threats(b, a, t) {
            b.make(m, a);
            let r = self.and_node(b, a, t - 1);
            b.unmake();
            if r? {
                res = true;
                break;
            }
        }
        self.store(key, t, res);
        Some(res)
    }

    /// Defender to move, attacker budget `t`. None: node cap.
    fn and_node(&mut self, b: &mut Board, a: Color, t: u32) -> Option<bool> {
        self.tick()?;
        let d = a.opposite();
        if !win_points(b, d).is_empty() {
            return Some(false);
        }
        let af = win_points(b, a);
        if !af.is_empty() {
            for w in af {
                if forbidden(b, d, w) {
                    continue;
                }
                b.make(w, d);
                let r = self.or_node(b, a, t);
                b.unmake();
                if !r? {
                    return Some(false);
                }
            }
            return Some(true);
        }
        if t == 0 {
            return Some(false);
        }
        let key = b.hash() ^ AND_SALT ^ a.index() as u64;
        if let Some(r) = self.probe(key, t) {
            return Some(r);
        }
        let killers = Self::killers(b, a);
        if killers.is_empty() {
            self.store(key, t, false);
            return Some(false);
        }
        // Outside renju: the cells that can change a killer.
        let mut zone = vec![false; b.cell_count()];
        for &k in &killers {
            zone[k.idx()] = true;
            for off in b.dirs() {
                for dist in (-5isize..=-1).chain(1..=5) {
                    let e = k.offset(dist * off);
                    if b.in_board(e) {
                        zone[e.idx()] = true;
                    }
                }
            }
        }
        // Under renju, a reply outside that zone can still change what is
        // forbidden (the recursive three rule reaches further): there only
        // the legality of each killer and of its blocks is re-checked, the
        // rest (which blocks leave a five) cannot change.
        // Whose legality matters: the killers (Black attacking) or their
        // blocks (White attacking). A point with fewer than two lines
        // holding two Black stones near it can have no double three, so
        // its legality depends on its own lines only: add them to the zone;
        // only otherwise must every reply be re-checked.
        let blocks: Vec<Vec<(Pos, bool)>> = if self.renju {
            killers
                .iter()
                .map(|&k| Self::block_table(b, a, k))
                .collect()
        } else {
            Vec::new()
        };
        let sensitive: Vec<Pos> = if a == Color::Black {
            killers.clone()
        } else {
            blocks.iter().flatten().map(|&(w, _)| w).collect()
        };
        let mut far_reach = false;
        if self.renju {
            for &s in &sensitive {
                let dirs = b.dirs();
                far_reach |= dirs
                    .iter()
                    .filter(|&&off| stones_along(b, Color::Black, s, off) >= 2)
                    .count()
                    >= 2;
                zone[s.idx()] = true;
                for off in dirs {
                    for dist in (-5isize..=-1).chain(1..=5) {
                        let e = s.offset(dist * off);
                        if b.in_board(e) {
                            zone[e.idx()] = true;
                        }
                    }
                }
            }
        }
        let cells: Vec<Pos> = b.empty_cells().collect();
        let mut res = true;
        for r in cells {
            if (!self.renju || !far_reach) && !zone[r.idx()] && !may_four(b, d, r) {
                continue; // every killer stands
            }
            if forbidden(b, d, r) {
                continue;
            }
            let four = may_four(b, d, r) && {
                b.make(r, d);
                let f = !local_wins(b, d, r).is_empty();
                b.unmake();
                f
            };
            if !four && !zone[r.idx()] {
                if !self.renju {
                    continue; // every killer stands
                }
                b.make(r, d);
                let stands = killers
                    .iter()
                    .zip(&blocks)
                    .any(|(&k, bl)| Self::still_killer(b, a, k, bl));
                b.unmake();
                if stands {
                    continue;
                }
            }
            b.make(r, d);
            let r = if !four && killers.iter().any(|&k| Self::is_killer(b, a, k)) {
                Some(true)
            } else {
                self.or_node(b, a, t)
            };
            b.unmake();
            if !r? {
                res = false;
                break;
            }
        }
        self.store(key, t, res);
        Some(res)
    }

    /// Every winning first move of `a` within `t` threats (the position has
    /// no five point for either side), or None at the node cap.
    fn winning_moves(&mut self, b: &mut Board, a: Color, t: u32) -> Option<Vec<Pos>> {
        let mut out = vec![];
        for m in Self::threats(b, a, t) {
            b.make(m, a);
            let r = self.and_node(b, a, t - 1);
            b.unmake();
            if r? {
                out.push(m);
            }
        }
        Some(out)
    }
}

/// Replay a solver line: attacker moves legal, defender moves forced
/// blocks, ends in a five (or a renju four Black cannot block).
fn replay(b: &Board, a: Color, line: &[Pos], vcf: bool) -> Result<(), String> {
    let mut b = b.clone();
    let d = a.opposite();
    for (i, &m) in line.iter().enumerate() {
        if !b.in_board(m) || !b.is_empty(m) {
            return Err(format!("move {i} not on an empty cell"));
        }
        let last = i + 1 == line.len();
        if i % 2 == 0 {
            if forbidden(&b, a, m) {
                return Err(format!("move {i} forbidden"));
            }
            if is_win(&b, m, a) {
                return if last {
                    Ok(())
                } else {
                    Err("play after a five".into())
                };
            }
            b.make(m, a);
            let w = win_points(&b, a);
            if vcf && w.is_empty() {
                return Err(format!("move {i} is no four"));
            }
            if last {
                let ok = b.rules().rule == Rule::Renju
                    && d == Color::Black
                    && !w.is_empty()
                    && w.iter().all(|&p| forbidden(&b, d, p));
                return if ok {
                    Ok(())
                } else {
                    Err("line ends without a win".into())
                };
            }
        } else {
            if !win_points(&b, d).is_empty() {
                return Err(format!("defender had a five before move {i}"));
            }
            let w = win_points(&b, a);
            if !w.is_empty() && !w.contains(&m) {
                return Err(format!("defender move {i} is not a block"));
            }
            b.make(m, d);
        }
    }
    Err("empty line".into())
}

/// A game-like position: `n` moves, each within two cells of earlier stones,
/// legal for the rule and with nobody having won.
fn random_position(rng: &mut SplitMix64, size: usize, rule: Rule, corner: bool) -> Option<Board> {
    let rules = RuleSet {
        rule,
        continuous: false,
    };
    let mut b = Board::square(size, rules).ok()?;
    let (cx, cy) = if corner {
        (2 + rng.below(3) as i64, 2 + rng.below(3) as i64)
    } else {
        let c = size as i64 / 2;
        (c - 2 + rng.below(5) as i64, c - 2 + rng.below(5) as i64)
    };
    let n = 12 + rng.below(16) as usize;
    let first = b.pos(cx, cy)?;
    b.play(first);
    let mut tries = 0;
    while b.move_count() < n {
        tries += 1;
        if tries > 2000 {
            return None;
        }
        let empties: Vec<Pos> = b.empty_cells().filter(|&p| b.near_count(p) > 0).collect();
        let p = empties[rng.below(empties.len() as u64) as usize];
        let c = b.to_move();
        if forbidden(&b, c, p) || is_win(&b, p, c) {
            continue;
        }
        b.play(p);
    }
    Some(b)
}

#[derive(Default)]
struct Tally {
    vcf_expected: usize,
    vcf_solved: usize,
    vct_expected: usize,
    vct_solved: usize,
    none: usize,
    false_claims: usize,
    /// Positions skipped because a reference hit its node cap.
    ref_capped: usize,
    /// VCT wins whose full reference winning set was checked both ways.
    vct_sets: usize,
    /// Moves in those sets (each one checked against every reply).
    vct_set_moves: usize,
    /// Defender replies checked with the solver over all sets.
    replies_checked: usize,
    times_ms: Vec<f64>,
    renju_forbidden_lines: usize,
    counter_four_lines: usize,
    /// Wins by attacker colour (Black, White).
    wins_by_color: [usize; 2],
    /// Win positions per category (rule, size, colour and kind, edge,
    /// counter-four, renju forbidden points).
    cats: BTreeMap<String, usize>,
    /// Solver nodes and seconds over the timed calls.
    nodes: u64,
    secs: f64,
    /// Seconds in the references and in the full-width set checks.
    ref_secs: f64,
    check_secs: f64,
}

impl Tally {
    fn count(&mut self, cat: String) {
        *self.cats.entry(cat).or_default() += 1;
    }

    /// Record a solved win in every category it belongs to.
    fn win(&mut self, b: &Board, a: Color, kind: &str, corner: bool, line: &[Pos]) {
        self.wins_by_color[a.index()] += 1;
        let (rule, size) = (b.rules().rule, b.width());
        self.count(format!("rule {rule:?}"));
        self.count(format!("size {size}"));
        self.count(format!("{a:?} {kind}"));
        self.count(format!("{rule:?} {size} {kind}"));
        if corner {
            self.count("near an edge".into());
        }
        if has_counter_four(b, a, line) {
            self.counter_four_lines += 1;
            self.count("counter-four".into());
        }
        if line_uses_forbidden(b, a, line) {
            self.renju_forbidden_lines += 1;
            self.count("renju forbidden".into());
        }
    }
}

/// Run one solver call, recording its time and nodes.
fn timed<T>(
    tally: &mut Tally,
    solver: &mut ThreatSolver,
    f: impl FnOnce(&mut ThreatSolver) -> T,
) -> T {
    let t0 = Instant::now();
    let r = f(solver);
    let dt = t0.elapsed().as_secs_f64();
    tally.times_ms.push(dt * 1000.0);
    tally.secs += dt;
    tally.nodes += solver.nodes();
    r
}

/// Does `a`'s move `q` keep the win, as the solver sees it from the
/// defender's side? After `q`, every legal defender reply (only the blocks
/// when `q` is a four; none legal: won) must leave the solver a VCT of at
/// most `threats` threats. Returns the number of replies checked.
fn survives_all_replies(
    solver: &mut ThreatSolver,
    b: &mut Board,
    a: Color,
    q: Pos,
    threats: u32,
    stop: &AtomicBool,
) -> Result<usize, String> {
    let d = a.opposite();
    if forbidden(b, a, q) {
        return Err(format!("{:?} is forbidden", b.xy(q)));
    }
    if is_win(b, q, a) {
        return Ok(0);
    }
    b.make(q, a);
    let res = (|| {
        if !win_points(b, d).is_empty() {
            return Err(format!("{:?} leaves the defender a five", b.xy(q)));
        }
        let blocks = win_points(b, a);
        let replies: Vec<Pos> = if blocks.is_empty() {
            b.empty_cells().collect()
        } else {
            blocks
        };
        let mut n = 0;
        for m in replies {
            if forbidden(b, d, m) {
                continue;
            }
            n += 1;
            b.make(m, d);
            let r = solver.vct(b, a, threats, VCT_NODES, stop);
            b.unmake();
            if r.is_none() {
                return Err(format!(
                    "after {:?}, reply {:?} refutes it for the solver",
                    b.xy(q),
                    b.xy(m)
                ));
            }
        }
        Ok(n)
    })();
    b.unmake();
    res
}

/// Does the line contain a defender move that was itself a four?
fn has_counter_four(b: &Board, a: Color, line: &[Pos]) -> bool {
    let mut b = b.clone();
    for (i, &m) in line.iter().enumerate() {
        let c = if i % 2 == 0 { a } else { a.opposite() };
        if is_win(&b, m, c) {
            break;
        }
        b.make(m, c);
        if i % 2 == 1 && !local_wins(&b, c, m).is_empty() {
            return true;
        }
    }
    false
}

fn line_uses_forbidden(b: &Board, a: Color, line: &[Pos]) -> bool {
    if b.rules().rule != Rule::Renju {
        return false;
    }
    let mut b = b.clone();
    let mut any = false;
    for (i, &m) in line.iter().enumerate() {
        let c = if i % 2 == 0 { a } else { a.opposite() };
        if is_win(&b, m, c) {
            break;
        }
        b.make(m, c);
        // A White four whose block is forbidden, or Black avoiding one.
        any |= win_points(&b, a)
            .iter()
            .any(|&p| forbidden(&b, Color::Black, p))
            || (c == Color::Black
                && b.empty_cells()
                    .any(|p| b.near_count(p) > 0 && is_forbidden(&b, p)));
    }
    any
}

#[test]
fn tactics_suite() {
    let stop = AtomicBool::new(false);
    let mut rng = SplitMix64::new(0x07AC_71C5);
    let mut tally = Tally::default();
    let mut solver = ThreatSolver::new();
    let xy = |b: &Board, s: &[Pos]| s.iter().map(|&p| b.xy(p)).collect::<Vec<_>>();
    for rule in Rule::ALL {
        for size in [15usize, 20] {
            let (mut vcf, mut vct, mut none) = (0, 0, 0);
            let mut attempts = 0;
            while (vcf < 12 || vct < 8 || none < 7) && attempts < 3000 {
                attempts += 1;
                let corner = attempts % 4 == 0;
                let Some(mut b) = random_position(&mut rng, size, rule, corner) else {
                    continue;
                };
                let a = b.to_move();
                // Only real puzzles: no five on the board for either side.
                if !win_points(&b, a).is_empty() || !win_points(&b, a.opposite()).is_empty() {
                    continue;
                }
                let t_ref = Instant::now();
                let mut reference = Reference { nodes: 0 };
                let set = reference.winning_moves(&mut b, a, REF_DEPTH);
                tally.ref_secs += t_ref.elapsed().as_secs_f64();
                let Some(set) = set else {
                    tally.ref_capped += 1;
                    continue;
                };
                if !set.is_empty() {
                    if vcf >= 12 {
                        continue;
                    }
                    vcf += 1;
                    tally.vcf_expected += 1;
                    solver.clear();
                    let line = timed(&mut tally, &mut solver, |s| {
                        s.vcf(&mut b, a, 1_000_000, &stop)
                    });
                    let line = line.unwrap_or_else(|| panic!("missed VCF {set:?}\n{b:?}"));
                    replay(&b, a, &line, true).unwrap_or_else(|e| panic!("{e}: {line:?}\n{b:?}"));
                    // The solver may find a longer win than the reference
                    // looks for; a short one must start in the winning set.
                    if line.len() <= 2 * REF_DEPTH as usize + 1 {
                        assert!(
                            set.contains(&line[0]),
                            "{:?} not in {set:?}\n{b:?}",
                            line[0]
                        );
                    }
                    // Every move of the full winning set must win for the
                    // solver too, when played first.
                    for &q in &set {
                        if is_win(&b, q, a) {
                            continue;
                        }
                        b.make(q, a);
                        let blocks = win_points(&b, a);
                        for &w in &blocks {
                            if forbidden(&b, a.opposite(), w) {
                                continue;
                            }
                            b.make(w, a.opposite());
                            let r = solver.vcf(&mut b, a, 1_000_000, &stop);
                            b.unmake();
                            assert!(r.is_some(), "winning move {:?} missed\n{b:?}", b.xy(q));
                        }
                        b.unmake();
                    }
                    tally.vcf_solved += 1;
                    tally.win(&b, a, "VCF", corner, &line);
                    continue;
                }
                if vct >= 8 && none >= 7 {
                    continue;
                }
                // No short VCF: the reference VCT's full winning set.
                let t_ref = Instant::now();
                let mut rv = RefVct::new(&b);
                let vct_set = rv.winning_moves(&mut b, a, REF_VCT_THREATS);
                tally.ref_secs += t_ref.elapsed().as_secs_f64();
                let Some(vct_set) = vct_set else {
                    tally.ref_capped += 1;
                    continue;
                };
                if vct_set.is_empty() {
                    if none >= 7 {
                        continue;
                    }
                    // No win: no VCT within the bound (just proven) and no
                    // VCF at any depth.
                    let t_ref = Instant::now();
                    let mut deep = Reference { nodes: 0 };
                    let no_vcf = deep.vcf(&mut b, a, 60);
                    tally.ref_secs += t_ref.elapsed().as_secs_f64();
                    match no_vcf {
                        None => {
                            tally.ref_capped += 1;
                            continue;
                        }
                        Some(true) => continue, // a long VCF: not a no-win position
                        Some(false) => {}
                    }
                    solver.clear();
                    let t0 = Instant::now();
                    let line = solver.vcf(&mut b, a, 1_000_000, &stop);
                    let mut nodes = solver.nodes();
                    solver.clear();
                    let vline = solver.vct(&mut b, a, REF_VCT_THREATS, VCT_NODES, &stop);
                    nodes += solver.nodes();
                    let dt = t0.elapsed().as_secs_f64();
                    tally.times_ms.push(dt * 1000.0);
                    tally.secs += dt;
                    tally.nodes += nodes;
                    if let Some(l) = line.or(vline) {
                        tally.false_claims += 1;
                        eprintln!(
                            "tactics: FALSE CLAIM {:?} (reference: no VCF, no VCT within \
                             {REF_VCT_THREATS})\n{b:?}",
                            xy(&b, &l)
                        );
                        continue;
                    }
                    none += 1;
                    tally.none += 1;
                    tally.count(format!("none {rule:?} {size}"));
                    continue;
                }
                if vct >= 8 {
                    continue;
                }
                vct += 1;
                tally.vct_expected += 1;
                solver.clear();
                let line = timed(&mut tally, &mut solver, |s| {
                    s.vct(&mut b, a, REF_VCT_THREATS, VCT_NODES, &stop)
                });
                let Some(line) = line else {
                    eprintln!(
                        "tactics: MISSED VCT, reference set {:?}\n{b:?}",
                        xy(&b, &vct_set)
                    );
                    continue;
                };
                replay(&b, a, &line, false).unwrap_or_else(|e| panic!("{e}: {line:?}\n{b:?}"));
                // Both ways: the solver's first move is in the reference's
                // full winning set (its win is within the same bound), and
                // every move of that set wins for the solver too, against
                // every defender reply.
                assert!(
                    vct_set.contains(&line[0]),
                    "{:?} not in {:?}: {:?}\n{b:?}",
                    b.xy(line[0]),
                    xy(&b, &vct_set),
                    xy(&b, &line)
                );
                let t_check = Instant::now();
                for &q in &vct_set {
                    let n =
                        survives_all_replies(&mut solver, &mut b, a, q, REF_VCT_THREATS - 1, &stop)
                            .unwrap_or_else(|e| panic!("set {:?}: {e}\n{b:?}", xy(&b, &vct_set)));
                    tally.replies_checked += n;
                }
                tally.check_secs += t_check.elapsed().as_secs_f64();
                tally.vct_sets += 1;
                tally.vct_set_moves += vct_set.len();
                tally.vct_solved += 1;
                tally.win(&b, a, "VCT", corner, &line);
            }
            assert!(
                vcf >= 12 && vct >= 8 && none >= 7,
                "{rule:?} {size}: {vcf} {vct} {none}"
            );
        }
    }
    let mut t = tally.times_ms.clone();
    t.sort_by(|x, y| x.partial_cmp(y).unwrap());
    let pct = |q: f64| t[((t.len() - 1) as f64 * q) as usize];
    let wins = tally.vcf_expected + tally.vct_expected;
    let solved = tally.vcf_solved + tally.vct_solved;
    eprintln!(
        "tactics: {} positions ({} VCF, {} VCT, {} without a win); solve rate {}/{} \
         ({:.1}%); false claims {}; median {:.2} ms, p90 {:.2} ms per position",
        wins + tally.none,
        tally.vcf_expected,
        tally.vct_expected,
        tally.none,
        solved,
        wins,
        100.0 * solved as f64 / wins.max(1) as f64,
        tally.false_claims,
        pct(0.5),
        pct(0.9),
    );
    eprintln!(
        "tactics: wins for Black {}, for White {}; {} lines with counter-fours, {} renju \
         lines near forbidden points",
        tally.wins_by_color[0],
        tally.wins_by_color[1],
        tally.counter_four_lines,
        tally.renju_forbidden_lines,
    );
    eprintln!(
        "tactics: reference VCT (within {} threats): {} VCT wins checked against their full \
         winning sets (average {:.2} moves, {} defender replies re-solved); {} no-win \
         positions proven (no VCT within {}, no VCF at all); {} positions skipped at a \
         reference node cap (at most {})",
        REF_VCT_THREATS,
        tally.vct_sets,
        tally.vct_set_moves as f64 / tally.vct_sets.max(1) as f64,
        tally.replies_checked,
        tally.none,
        REF_VCT_THREATS,
        tally.ref_capped,
        MAX_REF_CAPPED,
    );
    eprintln!(
        "tactics: solver {} nodes in {:.3} s = {:.0} nodes/s",
        tally.nodes,
        tally.secs,
        tally.nodes as f64 / tally.secs.max(1e-9)
    );
    eprintln!(
        "tactics: time in the references {:.1} s, in the full-width set checks {:.1} s",
        tally.ref_secs, tally.check_secs
    );
    for (cat, n) in &tally.cats {
        eprintln!("tactics: category {cat}: {n}");
    }
    assert_eq!(tally.false_claims, 0);
    assert_eq!(solved, wins, "unsolved win positions");
    assert_eq!(tally.vct_sets, tally.vct_expected);
    assert!(
        tally.ref_capped <= MAX_REF_CAPPED,
        "{} capped",
        tally.ref_capped
    );
    // Every listed category is covered explicitly.
    let cat = |k: &str| tally.cats.get(k).copied().unwrap_or(0);
    for rule in Rule::ALL {
        assert!(cat(&format!("rule {rule:?}")) >= 40, "{rule:?}");
        for size in [15, 20] {
            assert!(
                cat(&format!("{rule:?} {size} VCF")) >= 12,
                "{rule:?} {size}"
            );
            assert!(cat(&format!("{rule:?} {size} VCT")) >= 8, "{rule:?} {size}");
            assert!(
                cat(&format!("none {rule:?} {size}")) >= 7,
                "{rule:?} {size}"
            );
        }
    }
    for k in ["Black VCF", "White VCF", "Black VCT", "White VCT"] {
        assert!(cat(k) >= 20, "{k}: {}", cat(k));
    }
    assert!(cat("size 15") >= 75 && cat("size 20") >= 75);
    assert!(cat("near an edge") >= 20, "edge {}", cat("near an edge"));
    assert!(
        cat("counter-four") >= 3,
        "counter-four {}",
        cat("counter-four")
    );
    assert!(
        cat("renju forbidden") >= 5,
        "forbidden {}",
        cat("renju forbidden")
    );
    assert!(wins >= 150);
    assert!(tally.none >= 50);
    assert!(tally.wins_by_color.iter().all(|&n| n >= 40));
}
