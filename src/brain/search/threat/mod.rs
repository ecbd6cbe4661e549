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
//! White's defences include the moves that make Black's winning point
//! forbidden from off its lines (the recursive three rule).
//! Caro and continuous games come for free from the pattern tables (walls,
//! fives blocked at both ends).
//!
//! Iterative deepening on the number of attacker threats finds short wins
//! first; the table remembers positions proved lost at a given depth.
//!
//! Use in the engine: at the root the searcher asks for our own VCF/VCT
//! (played at once when found) and for the opponent's VCF (when it has one,
//! only root moves that defuse it are kept); `--no-threats` turns this off for
//! A/B matches. `protocol-tests/tactics.rs` checks the solver against
//! independent references, and `bash scripts/tactics.sh` prints the tactics
//! suite's solve rate, median and 90th-percentile times and the solver's
//! speed (`pbrain-sente bench threats`).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::brain::game::board::{Board, Pos, EMPTY};
use crate::brain::game::pattern::{table, Pattern, PatternTable, Threat};
use crate::brain::game::rules;
use crate::brain::types::{Color, Rule};

use super::params;

/// Longest attack iterative deepening tries (see `params::MAX_THREATS`;
/// named here too for the root's VCT call).
pub use super::params::MAX_THREATS;

const TT_BITS: u32 = 16;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Vcf,
    Vct,
}

/// Reusable solver: owns the table so repeated calls (e.g. from the main
/// search at its leaves) neither allocate nor forget what they proved; the
/// free functions `find_vcf`/`find_vct` build a fresh one (about 0.6 MB)
/// per call. Stored entries are "no win for this attacker here within N
/// threats", keyed by position, attacker, mode, rule and board shape.
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

impl<'a> Ctx<'a> {
    /// The context of one solve for `attacker` on `board` in `mode`; the
    /// table salt keeps entries of different modes, sides and contexts apart.
    fn new(board: &Board, attacker: Color, mode: Mode, stop: &'a AtomicBool) -> Self {
        let rule = board.rules().rule;
        Ctx {
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
            } ^ context_salt(board),
        }
    }
}

impl ThreatSolver {
    /// Start a solve: node count and budget, no abort yet.
    fn reset(&mut self, max_nodes: u64) {
        self.nodes = 0;
        self.max_nodes = max_nodes;
        self.aborted = false;
    }

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
        self.solve(
            board,
            attacker,
            Mode::Vcf,
            params::MAX_THREATS,
            max_nodes,
            stop,
        )
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

    /// A VCT of at most `max_threats` attacker moves whose first move is
    /// `first` (the line starts with it), or None. The defender's five
    /// points are looked for on the whole board, so a `first` that ignores
    /// one loses. Used by the reach benchmark (`bench::reach`) to list every
    /// winning first move of a position; the search never calls it.
    pub fn vct_starting_with(
        &mut self,
        board: &mut Board,
        attacker: Color,
        first: Pos,
        max_threats: u32,
        max_nodes: u64,
        stop: &AtomicBool,
    ) -> Option<Vec<Pos>> {
        let rule = board.rules().rule;
        if !board.in_board(first) || !board.is_empty(first) {
            return None;
        }
        if rule == Rule::Renju && attacker == Color::Black && rules::is_forbidden(board, first) {
            return None;
        }
        if rules::is_win(board, first, attacker) {
            return Some(vec![first]);
        }
        let ctx = Ctx::new(board, attacker, Mode::Vct, stop);
        self.reset(max_nodes);
        for depth in 1..=max_threats {
            let before = self.cutoffs;
            board.make(first, attacker);
            let r = self.defend(board, &ctx, depth - 1, first, Where::Board);
            board.unmake();
            if let Some(mut line) = r {
                line.push(first);
                line.reverse();
                return Some(line);
            }
            if self.aborted || self.cutoffs == before {
                break;
            }
        }
        None
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
        let ctx = Ctx::new(board, attacker, mode, stop);
        self.reset(max_nodes);
        let start_len = board.move_count();
        for depth in 1..=max_depth {
            let before = self.cutoffs;
            if let Some(mut line) = self.attack(board, &ctx, depth, Where::Board, Where::Board) {
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
            || (self.nodes & params::THREAT_POLL_MASK == 0 && ctx.stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Attacker to move. On success returns the winning line, last move
    /// first. `a_fives`/`d_fives` say where five points can be (what the
    /// caller knows from the moves just made).
    fn attack(
        &mut self,
        b: &mut Board,
        ctx: &Ctx,
        depth: u32,
        a_fives: Where,
        d_fives: Where,
    ) -> Option<Vec<Pos>> {
        if self.tick(ctx) {
            return None;
        }
        let (a, d) = (ctx.attacker, ctx.defender);
        if let Some(&p) = fives_at(b, ctx.t, a, a_fives).first() {
            return Some(vec![p]);
        }
        let threats = fives_at(b, ctx.t, d, d_fives);
        if !threats.is_empty() {
            // Forced: block on one of the defender's five points (usually the
            // only one); it costs no depth but must keep the initiative.
            for &w in &threats {
                if ctx.renju && a == Color::Black && rules::is_forbidden(b, w) {
                    continue;
                }
                b.make(w, a);
                let r = self.defend(b, ctx, depth, w, Where::Among(&threats));
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
            let r = self.defend(b, ctx, depth - 1, q, Where::Among(&[]));
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

    /// Defender to move after the attacker's move `q`; `d_fives` says where
    /// the defender's five points can be.
    fn defend(
        &mut self,
        b: &mut Board,
        ctx: &Ctx,
        depth: u32,
        q: Pos,
        d_fives: Where,
    ) -> Option<Vec<Pos>> {
        if self.tick(ctx) {
            return None;
        }
        let (a, d) = (ctx.attacker, ctx.defender);
        if !fives_at(b, ctx.t, d, d_fives).is_empty() {
            return None;
        }
        // The attacker had no five before `q`: new ones lie on its lines.
        let fives = fives_at(b, ctx.t, a, Where::Near(q));
        if !fives.is_empty() {
            // The defender must block one of the five points (two of them
            // normally lose at once; under caro one stone may spoil both).
            let mut line = None;
            for &w in &fives {
                if ctx.renju && d == Color::Black && rules::is_forbidden(b, w) {
                    continue;
                }
                b.make(w, d);
                let r = self.attack(b, ctx, depth, Where::Among(&fives), Where::Near(w));
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
            let r = self.attack(b, ctx, depth, Where::Among(&[]), Where::Near(m));
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
        for p in b.candidates() {
            let keys = b.line_keys(p);
            let mut best = Pattern::None;
            let mut fours = 0;
            let mut threes = 0;
            for (dir, k) in keys.into_iter().enumerate() {
                let pat = ctx.t.get(k, a);
                if pat.is_four() {
                    fours += 1 + ctx.t.double_four(k, a) as u8;
                } else if pat == Pattern::Flex3
                    || (pat == Pattern::Block3
                        && ctx.mode == Mode::Vct
                        && wide_three(b, ctx, p, dir))
                {
                    threes += 1;
                }
                best = best.max(pat);
            }
            let score = if best == Pattern::Flex4 || fours >= 2 {
                params::THREAT_RANK_WINNING_FOUR()
            } else if fours == 1 && threes > 0 {
                params::THREAT_RANK_FOUR_THREE()
            } else if fours == 1 {
                params::THREAT_RANK_FOUR()
            } else if ctx.mode == Mode::Vct && threes > 0 {
                params::THREAT_RANK_THREE()
            } else {
                continue;
            };
            if ctx.renju && a == Color::Black && rules::is_forbidden(b, p) {
                continue;
            }
            let bonus = if threes >= 2 {
                params::THREAT_MULTI_THREE_BONUS()
            } else {
                0
            };
            scored.push((score * 2 + bonus, p));
        }
        scored.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        scored.into_iter().map(|(_, p)| p).collect()
    }

    /// Every defender move that might stop the attacker's winning fours
    /// `wins`: the points themselves, the empty cells within five of them on
    /// their line, every defender four, and (renju) every White move that
    /// makes one of them forbidden to Black.
    fn defences(&self, b: &mut Board, ctx: &Ctx, wins: &[(Pos, usize)]) -> Vec<Pos> {
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
        for p in b.candidates() {
            if b.line_keys(p).iter().any(|&k| ctx.t.get(k, d).is_four()) {
                push(p, &mut out);
            }
        }
        // Renju: a White stone off every line of a Black winning point can
        // still make it forbidden through the recursive three rule (one of
        // its threes turns real once a four point of that three stops being
        // forbidden). Only a point with two open threes can change so.
        if ctx.renju && d == Color::White {
            let shaky: Vec<Pos> = wins
                .iter()
                .map(|&(f, _)| f)
                .filter(|&f| {
                    let keys = b.line_keys(f);
                    keys.iter()
                        .filter(|&&k| ctx.t.get(k, Color::Black) == Pattern::Flex3)
                        .count()
                        >= 2
                })
                .collect();
            if !shaky.is_empty() {
                let cells: Vec<Pos> = b.cells().to_vec();
                for p in cells {
                    if b.cell(p) != EMPTY {
                        continue;
                    }
                    b.make(p, d);
                    let hit = shaky.iter().any(|&f| rules::is_forbidden(b, f));
                    b.unmake();
                    if hit {
                        push(p, &mut out);
                    }
                }
            }
        }
        if ctx.renju && d == Color::Black {
            out.retain(|&p| !rules::is_forbidden(b, p));
        }
        out
    }
}

/// A `Block3` on `p`'s line `dir` that is really a three: the 11-cell
/// window centred on `p` cannot see a stone six cells away, yet a point
/// `k` within four of `p` may then make a four on both sides (`X.XXX.X`,
/// with `p` at one end). Looks from each such `k`, whose own window sees
/// it, at whether `p` gives `k` a `Flex4` (not a renju double-four).
fn wide_three(b: &Board, ctx: &Ctx, p: Pos, dir: usize) -> bool {
    let off = b.dirs()[dir];
    let code = ctx.attacker.cell() as u32;
    (-4isize..=-1).chain(1..=4).any(|dist| {
        let k = p.offset(dist * off);
        if b.cell(k) != EMPTY {
            return false;
        }
        // p lies at distance -dist from k: slot 0..4 for -5..-1, 5..9 for 1..5.
        let slot = if dist > 0 { 5 - dist } else { 4 - dist } as u32;
        let key = b.line_key(k, dir) | code << (2 * slot);
        ctx.t.get(key, ctx.attacker) == Pattern::Flex4
            && !(ctx.renju && ctx.attacker == Color::Black && ctx.t.double_four(key, ctx.attacker))
    })
}

/// Table entries stay valid from call to call; keep positions of different
/// rules or board shapes apart.
fn context_salt(b: &Board) -> u64 {
    let r = b.rules();
    let bits = (r.bits() as u64) << 16 | (b.width() as u64) << 8 | b.height() as u64;
    bits.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Where five points can be, from what the caller knows.
#[derive(Clone, Copy)]
enum Where<'a> {
    /// Anywhere: scan the board.
    Board,
    /// Only among these points (each re-checked).
    Among(&'a [Pos]),
    /// Only on the lines through this newly placed stone (the side had no
    /// five point before it).
    Near(Pos),
}

/// The five points of `color`, looked for only where `w` says they can be.
fn fives_at(b: &Board, t: &PatternTable, color: Color, w: Where) -> Vec<Pos> {
    match w {
        Where::Board => five_points(b, t, color),
        Where::Among(list) => list
            .iter()
            .copied()
            .filter(|&p| {
                b.cell(p) == EMPTY
                    && b.line_keys(p)
                        .iter()
                        .any(|&k| t.get(k, color) == Pattern::Five)
            })
            .collect(),
        Where::Near(q) => {
            let mut out = Vec::new();
            for (d, off) in b.dirs().into_iter().enumerate() {
                for dist in (-4isize..=-1).chain(1..=4) {
                    let e = q.offset(dist * off);
                    if b.cell(e) == EMPTY && t.get(b.line_key(e, d), color) == Pattern::Five {
                        out.push(e);
                    }
                }
            }
            out
        }
    }
}

/// Every point where `color` makes a five, in board order.
fn five_points(b: &Board, t: &PatternTable, color: Color) -> Vec<Pos> {
    let mut out = Vec::new();
    for p in b.candidates() {
        if b.line_keys(p)
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
    let cells: Vec<Pos> = b.candidates().collect();
    for p in cells {
        let keys = b.line_keys(p);
        if !keys.iter().any(|&k| ctx.t.get(k, a).is_four()) {
            continue;
        }
        let th = rules::threat_at(b, p, a);
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

/// Search a VCF for `attacker` on `board` (restored on return), with the
/// attacker moving first whatever `board.to_move()` says. The result
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
    ThreatSolver::new().vct(board, attacker, params::MAX_THREATS, max_nodes, stop)
}

#[cfg(test)]
mod tests;
