//! The two references of the tactics suite, written from the rules module
//! alone (`is_win`, `is_forbidden`; no pattern tables, no solver code): an
//! exhaustive VCF reference (`Reference`) and a threat-space VCT reference
//! (`RefVct`, whose notion of "a win within N threats" is documented on the
//! type). `tactics.rs` checks the solver against them.

use std::collections::HashMap;

use sente::brain::game::rules::{is_forbidden, is_win};
use sente::brain::game::{Board, Pos};
use sente::brain::types::{Color, Rule};
/// Free attacker fours the reference looks through for the winning set.
pub const REF_DEPTH: u32 = 2;
/// Reference node cap; positions that need more are skipped.
pub const REF_NODES: u64 = 20_000;

pub fn forbidden(b: &Board, c: Color, p: Pos) -> bool {
    c == Color::Black && is_forbidden(b, p)
}

/// Every five point of `c` (`may_four` only skips cells that cannot be one).
pub fn win_points(b: &Board, c: Color) -> Vec<Pos> {
    b.empty_cells()
        .filter(|&e| may_four(b, c, e) && is_win(b, e, c))
        .collect()
}

/// Five points of `c` on the lines through `q` (within four cells), where
/// `q` holds a stone of `c`.
pub fn local_wins(b: &Board, c: Color, q: Pos) -> Vec<Pos> {
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

pub struct Reference {
    pub nodes: u64,
}

impl Reference {
    /// Does attacker `a` (to move) win by continuous fours within `depth`
    /// free fours? None when the node cap was hit.
    pub fn vcf(&mut self, b: &mut Board, a: Color, depth: u32) -> Option<bool> {
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
    pub fn candidates(&mut self, b: &mut Board, a: Color, depth: u32) -> Option<Vec<Pos>> {
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
    pub fn wins_with(&mut self, b: &mut Board, a: Color, q: Pos, depth: u32) -> Option<bool> {
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
    pub fn winning_moves(&mut self, b: &mut Board, a: Color, depth: u32) -> Option<Vec<Pos>> {
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
pub const REF_VCT_THREATS: u32 = 3;
/// Reference VCT node cap per position; positions that need more are
/// skipped, counted and bounded (`MAX_REF_CAPPED`).
pub const REF_VCT_NODES: u64 = 60_000;
/// At most this many generated positions may be skipped at the cap.
pub const MAX_REF_CAPPED: usize = 6;

/// Attacker stones of `c` within four cells of `p` along direction `off`,
/// on both sides (a cheap necessary condition for a three or a four).
pub fn stones_along(b: &Board, c: Color, p: Pos, off: isize) -> usize {
    (-4isize..=-1)
        .chain(1..=4)
        .filter(|&d| b.cell(p.offset(d * off)) == c.cell())
        .count()
}

/// Could `c` on `p` make a four (a five point)? Needs three other stones
/// of `c` within four cells on one line (a five point needs four).
pub fn may_four(b: &Board, c: Color, p: Pos) -> bool {
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
pub struct RefVct {
    pub nodes: u64,
    /// Proven results: key -> (least budget known to win, most budget
    /// known to lose); more budget never hurts the attacker.
    tt: HashMap<u64, (u32, u32)>,
    renju: bool,
}

pub const OR_SALT: u64 = 0x5EED_0F0F_1234_8765;
pub const AND_SALT: u64 = 0x0DD5_A1A7_9ABC_4321;

impl RefVct {
    pub fn new(b: &Board) -> Self {
        RefVct {
            nodes: 0,
            tt: HashMap::new(),
            renju: b.rules().rule == Rule::Renju,
        }
    }

    pub fn tick(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= REF_VCT_NODES).then_some(())
    }

    pub fn probe(&self, key: u64, t: u32) -> Option<bool> {
        let &(win, lose) = self.tt.get(&key)?;
        if t >= win {
            Some(true)
        } else if t <= lose && lose != u32::MAX {
            Some(false)
        } else {
            None
        }
    }

    pub fn store(&mut self, key: u64, t: u32, r: bool) {
        let e = self.tt.entry(key).or_insert((u32::MAX, u32::MAX));
        if r {
            e.0 = e.0.min(t);
        } else if e.1 == u32::MAX || t > e.1 {
            e.1 = t;
        }
    }

    /// Is `k` a killer for `a` (see the type's documentation)? The
    /// defender must have no five point.
    pub fn is_killer(b: &mut Board, a: Color, k: Pos) -> bool {
        Self::killer_fives(b, a, k).is_some()
    }

    /// The five points of the killer `k`, or None if `k` is no killer.
    pub fn killer_fives(b: &mut Board, a: Color, k: Pos) -> Option<Vec<Pos>> {
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
    pub fn block_table(b: &mut Board, a: Color, k: Pos) -> Vec<(Pos, bool)> {
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
    pub fn still_killer(b: &mut Board, a: Color, k: Pos, blocks: &[(Pos, bool)]) -> bool {
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
    pub fn killers(b: &mut Board, a: Color) -> Vec<Pos> {
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
    pub fn makes_killer(b: &mut Board, a: Color, m: Pos) -> bool {
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
    pub fn threats(b: &mut Board, a: Color, t: u32) -> Vec<Pos> {
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
    pub fn or_node(&mut self, b: &mut Board, a: Color, t: u32) -> Option<bool> {
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
    pub fn and_node(&mut self, b: &mut Board, a: Color, t: u32) -> Option<bool> {
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
    pub fn winning_moves(&mut self, b: &mut Board, a: Color, t: u32) -> Option<Vec<Pos>> {
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
