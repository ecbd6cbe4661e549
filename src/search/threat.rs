//! Threat-space "kill" search: VCF (victory by continuous fours) and VCT
//! (victory by continuous threats: fours and open threes), for one attacker,
//! under every rule, with its own small Zobrist-keyed table.
//!
//! Two node kinds alternate:
//! - attacker to move (`attack`): take a five if there is one; if the
//!   defender has a five point, block it (the only move; it must keep the
//!   attack going); otherwise try every four (and under VCT every open
//!   three). Each free attacker move costs one unit of depth.
//! - defender to move (`defend`): lose if the defender has a five; block the
//!   attacker's single five point, lose to two. Otherwise the attacker's last
//!   move must have left a winning four move (open four or double four); the
//!   defender then tries every move that can matter: those winning-four
//!   points, every empty cell within five of them on their line, and every
//!   four of its own (a counter-four the attacker must answer). The attack
//!   succeeds only if it wins against all of them.
//!
//! Renju: Black never plays a forbidden point (attacking, blocking or
//! defending); when Black must block on a forbidden point, White wins there.
//! Caro and continuous games come for free from the pattern tables (walls,
//! fives blocked at both ends).
//!
//! Iterative deepening on the number of attacker threats finds short wins
//! first; the table remembers positions proved lost at a given depth.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::board::{Board, Pos, EMPTY};
use crate::game::pattern::{table, Pattern, PatternTable, Threat};
use crate::game::{pattern, rules};
use crate::types::{Color, Rule};

/// Longest attack (in attacker moves) iterative deepening will try.
pub const MAX_THREATS: u32 = 40;

const TT_BITS: u32 = 16;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Vcf,
    Vct,
}

/// Reusable solver: owns the table so repeated calls (e.g. from the main
/// search) do not allocate.
pub struct ThreatSolver {
    tt_keys: Vec<u64>,
    tt_depth: Vec<u8>,
    nodes: u64,
    max_nodes: u64,
    aborted: bool,
    /// Number of depth cut-offs met so far: a failure whose subtree met none
    /// is final at every depth.
    cutoffs: u64,
}

impl Default for ThreatSolver {
    fn default() -> Self {
        Self::new()
    }
}

/// Marks a table entry as "lost whatever the depth".
const EXACT: u8 = u8::MAX;

struct Ctx<'a> {
    t: &'static PatternTable,
    renju: bool,
    caro: bool,
    attacker: Color,
    defender: Color,
    mode: Mode,
    stop: &'a AtomicBool,
    salt: u64,
}

impl ThreatSolver {
    pub fn new() -> Self {
        ThreatSolver {
            tt_keys: vec![0; 1 << TT_BITS],
            tt_depth: vec![0; 1 << TT_BITS],
            nodes: 0,
            max_nodes: 0,
            aborted: false,
            cutoffs: 0,
        }
    }

    /// Nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forget every stored result.
    pub fn clear(&mut self) {
        self.tt_keys.fill(0);
        self.tt_depth.fill(0);
    }

    /// A VCF for `attacker`, as a sequence of moves starting with the
    /// attacker's first move (see `find_vcf`).
    pub fn vcf(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_nodes: u64,
        stop: &AtomicBool,
    ) -> Option<Vec<Pos>> {
        self.solve(board, attacker, Mode::Vcf, MAX_THREATS, max_nodes, stop)
    }

    /// A VCT of at most `max_threats` attacker moves (see `find_vct`).
    pub fn vct(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_threats: u32,
        max_nodes: u64,
        stop: &AtomicBool,
    ) -> Option<Vec<Pos>> {
        self.solve(board, attacker, Mode::Vct, max_threats, max_nodes, stop)
    }

    fn solve(
        &mut self,
        board: &mut Board,
        attacker: Color,
        mode: Mode,
        max_depth: u32,
        max_nodes: u64,
        stop: &AtomicBool,
    ) -> Option<Vec<Pos>> {
        let rule = board.rules().rule;
        let ctx = Ctx {
            t: table(rule),
            renju: rule == Rule::Renju,
            caro: rule == Rule::Caro,
            attacker,
            defender: attacker.opposite(),
            mode,
            stop,
            salt: match (mode, attacker) {
                (Mode::Vcf, Color::Black) => 0x3A1F_5C7E_9B2D_4861,
                (Mode::Vcf, Color::White) => 0x7E44_C2A9_15D3_B08F,
                (Mode::Vct, Color::Black) => 0xC5B1_0E6F_A372_94D7,
                (Mode::Vct, Color::White) => 0x18D6_F39A_6C04_E25B,
            },
        };
        self.nodes = 0;
        self.max_nodes = max_nodes;
        self.aborted = false;
        // A finished game or a defender already holding a five: nothing to prove here.
        let start_len = board.move_count();
        for depth in 1..=max_depth {
            let before = self.cutoffs;
            if let Some(mut line) = self.attack(board, &ctx, depth) {
                debug_assert_eq!(board.move_count(), start_len);
                line.reverse();
                return Some(line);
            }
            if self.aborted || self.cutoffs == before {
                break;
            }
        }
        None
    }

    #[inline]
    fn tick(&mut self, ctx: &Ctx) -> bool {
        self.nodes += 1;
        if self.nodes >= self.max_nodes
            || (self.nodes & 1023 == 0 && ctx.stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Attacker to move. On success returns the winning line, last move first.
    fn attack(&mut self, b: &mut Board, ctx: &Ctx, depth: u32) -> Option<Vec<Pos>> {
        if self.tick(ctx) {
            return None;
        }
        let (a, d) = (ctx.attacker, ctx.defender);
        if let Some(&p) = five_points(b, ctx.t, a).first() {
            return Some(vec![p]);
        }
        let threats = five_points(b, ctx.t, d);
        if !threats.is_empty() {
            // Forced: block on one of the defender's five points (usually the
            // only one); it costs no depth but must keep the initiative.
            for w in threats {
                if ctx.renju && a == Color::Black && rules::is_forbidden(b, w) {
                    continue;
                }
                b.make(w, a);
                let r = self.defend(b, ctx, depth);
                b.unmake();
                if let Some(mut l) = r {
                    l.push(w);
                    return Some(l);
                }
                if self.aborted {
                    break;
                }
            }
            return None;
        }
        if depth == 0 {
            self.cutoffs += 1;
            return None;
        }
        let key = b.hash() ^ ctx.salt;
        let slot = (key >> (64 - TT_BITS)) as usize;
        if self.tt_keys[slot] == key && self.tt_depth[slot] as u32 >= depth {
            if self.tt_depth[slot] != EXACT {
                // A depth-bounded failure: whoever relies on it is bounded too.
                self.cutoffs += 1;
            }
            return None;
        }
        let cut_before = self.cutoffs;
        let moves = self.attacker_moves(b, ctx);
        for q in moves {
            b.make(q, a);
            let r = self.defend(b, ctx, depth - 1);
            b.unmake();
            if let Some(mut l) = r {
                l.push(q);
                return Some(l);
            }
            if self.aborted {
                return None;
            }
        }
        let stored = if self.cutoffs == cut_before {
            EXACT
        } else {
            depth.min(EXACT as u32 - 1) as u8
        };
        self.tt_keys[slot] = key;
        self.tt_depth[slot] = stored;
        None
    }

    /// Defender to move after an attacker move.
    fn defend(&mut self, b: &mut Board, ctx: &Ctx, depth: u32) -> Option<Vec<Pos>> {
        if self.tick(ctx) {
            return None;
        }
        let (a, d) = (ctx.attacker, ctx.defender);
        if !five_points(b, ctx.t, d).is_empty() {
            return None;
        }
        let fives = five_points(b, ctx.t, a);
        if !fives.is_empty() {
            // The defender must block one of the five points (two of them
            // normally lose at once; under caro one stone may spoil both).
            let mut line = None;
            for w in fives {
                if ctx.renju && d == Color::Black && rules::is_forbidden(b, w) {
                    continue;
                }
                b.make(w, d);
                let r = self.attack(b, ctx, depth);
                b.unmake();
                match r {
                    None => return None,
                    Some(mut l) => {
                        if line.is_none() {
                            l.push(w);
                            line = Some(l);
                        }
                    }
                }
            }
            // No legal block at all (renju): the four wins as it stands.
            return Some(line.unwrap_or_default());
        }
        if ctx.mode == Mode::Vcf {
            return None;
        }
        // The attacker's last move was a three: it must threaten a winning four.
        let wins = winning_four_points(b, ctx);
        if wins.is_empty() {
            return None;
        }
        let defences = self.defences(b, ctx, &wins);
        let mut line = None;
        for m in defences {
            b.make(m, d);
            let r = self.attack(b, ctx, depth);
            b.unmake();
            match r {
                None => return None,
                Some(mut l) => {
                    if line.is_none() {
                        l.push(m);
                        line = Some(l);
                    }
                }
            }
        }
        line
    }

    /// Attacker candidates: fours first (winning ones before the rest), then
    /// under VCT the open threes; ties broken by position.
    fn attacker_moves(&self, b: &Board, ctx: &Ctx) -> Vec<Pos> {
        let a = ctx.attacker;
        let mut scored: Vec<(u8, Pos)> = Vec::new();
        for &p in b.cells() {
            if b.cell(p) != EMPTY || b.near_count(p) == 0 {
                continue;
            }
            let keys = b.line_keys(p);
            let mut best = Pattern::None;
            let mut fours = 0;
            let mut threes = 0;
            for k in keys {
                let pat = ctx.t.get(k, a);
                if pat.is_four() {
                    fours += 1 + ctx.t.double_four(k, a) as u8;
                } else if pat == Pattern::Flex3 {
                    threes += 1;
                }
                best = best.max(pat);
            }
            let score = if best == Pattern::Flex4 || fours >= 2 {
                4
            } else if fours == 1 && threes > 0 {
                3
            } else if fours == 1 {
                2
            } else if ctx.mode == Mode::Vct && threes > 0 {
                1
            } else {
                continue;
            };
            if ctx.renju && a == Color::Black && rules::is_forbidden(b, p) {
                continue;
            }
            let bonus = if threes >= 2 { 1 } else { 0 };
            scored.push((score * 2 + bonus, p));
        }
        scored.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        scored.into_iter().map(|(_, p)| p).collect()
    }

    /// Every defender move that might stop the attacker's winning fours
    /// `wins`: the points themselves, the empty cells within five of them on
    /// their line, and every defender four.
    fn defences(&self, b: &Board, ctx: &Ctx, wins: &[(Pos, usize)]) -> Vec<Pos> {
        let d = ctx.defender;
        let dirs = b.dirs();
        let mut out: Vec<Pos> = Vec::new();
        let mut seen = vec![false; b.cell_count()];
        let mut push = |p: Pos, out: &mut Vec<Pos>| {
            if !seen[p.idx()] {
                seen[p.idx()] = true;
                out.push(p);
            }
        };
        for &(f, _) in wins {
            push(f, &mut out);
        }
        for &(f, dir) in wins {
            for dist in (-5isize..=-1).chain(1..=5) {
                let e = f.offset(dist * dirs[dir]);
                if b.in_board(e) && b.cell(e) == EMPTY {
                    push(e, &mut out);
                }
            }
        }
        for &p in b.cells() {
            if b.cell(p) == EMPTY
                && b.near_count(p) > 0
                && b.line_keys(p).iter().any(|&k| ctx.t.get(k, d).is_four())
            {
                push(p, &mut out);
            }
        }
        if ctx.renju && d == Color::Black {
            out.retain(|&p| !rules::is_forbidden(b, p));
        }
        out
    }
}

/// Every point where `color` makes a five, in board order.
fn five_points(b: &Board, t: &PatternTable, color: Color) -> Vec<Pos> {
    let mut out = Vec::new();
    for &p in b.cells() {
        if b.cell(p) == EMPTY
            && b.near_count(p) > 0
            && b.line_keys(p)
                .iter()
                .any(|&k| t.get(k, color) == Pattern::Five)
        {
            out.push(p);
        }
    }
    out
}

/// Points where the attacker would make an unstoppable four (open four or,
/// where allowed, a double four), with the direction of one of its fours.
fn winning_four_points(b: &mut Board, ctx: &Ctx) -> Vec<(Pos, usize)> {
    let a = ctx.attacker;
    let mut out = Vec::new();
    let cells: Vec<Pos> = b.cells().to_vec();
    for p in cells {
        if b.cell(p) != EMPTY || b.near_count(p) == 0 {
            continue;
        }
        let keys = b.line_keys(p);
        if !keys.iter().any(|&k| ctx.t.get(k, a).is_four()) {
            continue;
        }
        let th = pattern::threat_at(b, p, a);
        if (th == Threat::Flex4 || th == Threat::DoubleFour)
            && (!ctx.caro || unstoppable(b, ctx, p))
        {
            for (dir, &k) in keys.iter().enumerate() {
                if ctx.t.get(k, a).is_four() {
                    out.push((p, dir));
                }
            }
        }
    }
    out
}

/// Caro: two five points can both be spoiled by one stone (a five blocked at
/// both ends does not win). Does the attacker's four on `p` survive every
/// block?
fn unstoppable(b: &mut Board, ctx: &Ctx, p: Pos) -> bool {
    b.make(p, ctx.attacker);
    let fives = five_points(b, ctx.t, ctx.attacker);
    let mut ok = !fives.is_empty();
    for &w in &fives {
        b.make(w, ctx.defender);
        ok = !five_points(b, ctx.t, ctx.attacker).is_empty();
        b.unmake();
        if !ok {
            break;
        }
    }
    b.unmake();
    ok
}

/// Search a VCF for `attacker` on `board` (restored on return). The result
/// lists the moves of the winning line, attacker's first move first, then
/// alternately the defender's forced reply and the attacker's next move. The
/// line ends with the attacker's five, or (renju) with a White four whose
/// only blocking point is forbidden to Black. None: no VCF found within
/// `max_nodes` (or `stop` was raised).
pub fn find_vcf(
    board: &mut Board,
    attacker: Color,
    max_nodes: u64,
    stop: &AtomicBool,
) -> Option<Vec<Pos>> {
    ThreatSolver::new().vcf(board, attacker, max_nodes, stop)
}

/// Search a VCT (fours and open threes) for `attacker`, at most
/// `MAX_THREATS` attacker moves; the line follows one defence at each step
/// (format as in `find_vcf`).
pub fn find_vct(
    board: &mut Board,
    attacker: Color,
    max_nodes: u64,
    stop: &AtomicBool,
) -> Option<Vec<Pos>> {
    ThreatSolver::new().vct(board, attacker, MAX_THREATS, max_nodes, stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::is_win;
    use crate::game::zobrist::SplitMix64;
    use crate::types::RuleSet;

    fn rs(rule: Rule) -> RuleSet {
        RuleSet {
            rule,
            continuous: false,
        }
    }

    fn board(text: &str, rule: Rule) -> Board {
        Board::from_ascii(text, rs(rule)).unwrap()
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
        r.set_rules(rs(Rule::Renju));
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
        b.set_rules(rs(Rule::Freestyle));
        assert!(find_vcf(&mut b, Color::White, 100_000, &no_stop()).is_none());
    }

    #[test]
    fn counter_four_must_be_answered() {
        // Black's four at (4,1) is blocked by White at (5,1), which makes a
        // White four; Black must answer it.
        let mut b = board(
            "
            . . . . . . . . . . .
            . X X X . . . . . . .
            . . . . . O . . . . .
            . . . . . O . . . . .
            . . . . . O . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .",
            Rule::Freestyle,
        );
        let line = find_vcf(&mut b, Color::Black, 100_000, &no_stop());
        let mut c = b.clone();
        assert_eq!(line.is_some(), slow_vcf(&mut c, Color::Black, 3));
        if let Some(l) = line {
            validate(&b, Color::Black, &l, true);
        }
    }

    #[test]
    fn matches_slow_reference_on_random_positions() {
        let mut rng = SplitMix64::new(31337);
        let mut wins = 0;
        let mut total = 0;
        for rule in Rule::ALL {
            for game in 0..40 {
                let size = 9 + (game % 3) as usize;
                let mut b = Board::square(size, rs(rule)).unwrap();
                let n = 10 + rng.below(14) as usize;
                let mut placed = 0;
                while placed < n {
                    let x = 1 + rng.below(size as u64 - 2) as i64;
                    let y = 1 + rng.below(size as u64 - 2) as i64;
                    let p = b.pos(x, y).unwrap();
                    if !b.is_empty(p) {
                        continue;
                    }
                    let c = if placed % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    b.make(p, c);
                    placed += 1;
                }
                // Skip finished games.
                if b.history()
                    .iter()
                    .any(|m| rules::winner_at(&b, m.pos).is_some())
                {
                    continue;
                }
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
                let mut b = Board::square(size, rs(rule)).unwrap();
                let n = 8 + rng.below(10) as usize;
                let mut placed = 0;
                while placed < n {
                    let x = 2 + rng.below(size as u64 - 4) as i64;
                    let y = 2 + rng.below(size as u64 - 4) as i64;
                    let p = b.pos(x, y).unwrap();
                    if b.is_empty(p) {
                        b.make(
                            p,
                            if placed % 2 == 0 {
                                Color::Black
                            } else {
                                Color::White
                            },
                        );
                        placed += 1;
                    }
                }
                if b.history()
                    .iter()
                    .any(|m| rules::winner_at(&b, m.pos).is_some())
                {
                    continue;
                }
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
        r.set_rules(rs(Rule::Renju));
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
}

#[cfg(test)]
mod speed {
    //! `cargo test --release --lib threat::speed -- --ignored --nocapture`
    use super::*;
    use crate::game::zobrist::SplitMix64;
    use crate::types::RuleSet;
    use std::time::Instant;

    #[test]
    #[ignore]
    fn vcf_and_vct_speed() {
        let mut rng = SplitMix64::new(4242);
        for rule in Rule::ALL {
            let _ = table(rule);
            let rs = RuleSet {
                rule,
                continuous: false,
            };
            let mut solver = ThreatSolver::new();
            let (mut nodes, mut found, mut vnodes, mut vfound) = (0u64, 0, 0u64, 0);
            let (mut t_vcf, mut t_vct) = (0.0, 0.0);
            let mut longest = 0;
            for _ in 0..200 {
                let mut b = Board::square(15, rs).unwrap();
                let n = 20 + rng.below(30) as usize;
                for i in 0..n {
                    let x = 3 + rng.below(9) as i64;
                    let y = 3 + rng.below(9) as i64;
                    let p = b.pos(x, y).unwrap();
                    if b.is_empty(p) {
                        b.make(
                            p,
                            if i % 2 == 0 {
                                Color::Black
                            } else {
                                Color::White
                            },
                        );
                    }
                }
                if b.history()
                    .iter()
                    .any(|m| rules::winner_at(&b, m.pos).is_some())
                {
                    continue;
                }
                let stop = AtomicBool::new(false);
                let t0 = Instant::now();
                let r = solver.vcf(&mut b, Color::Black, 1_000_000, &stop);
                t_vcf += t0.elapsed().as_secs_f64();
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
                "{}: VCF {found} found, longest {longest} plies, {nodes} nodes, {:.0} nodes/s; VCT(6) {vfound} found, {vnodes} nodes, {:.0} nodes/s, {:.2}s",
                rule.name(),
                nodes as f64 / t_vcf,
                vnodes as f64 / t_vct,
                t_vct
            );
        }
    }
}
