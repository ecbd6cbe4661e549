//! The root probe: what a search settles before any tree. A five to make,
//! a lost position, no near move, a single move; then the threat solver's
//! VCF and VCT for the side to move (a win is played at once) and the
//! opponent's VCF, after which only the root moves that defuse it stay.
//! Root moves the caller leaves out (YXBLOCK) are dropped here, and no
//! early answer plays one. Also the node budgets the solver gets for one
//! search.

use std::sync::atomic::AtomicBool;

use super::alphabeta::Tree;
use super::movegen::Gen;
use super::params;
use super::threat;
use super::time;
use crate::brain::game::rules::{fallback_move, is_legal};
use crate::brain::game::Pos;
use crate::brain::types::{mate_in, mated_in, Score};

/// Node budgets of the threat solver for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatBudget {
    /// Our VCF at the root.
    pub vcf: u64,
    /// Our VCT at the root (0: skipped).
    pub vct: u64,
    /// The opponent's VCF at the root, and all the re-checks after each of
    /// our moves together (0: skipped).
    pub defend: u64,
}

/// Threats searched at the root before the main search get at most about a
/// fifth of the move's time (the solver visits some 300k nodes a second).
pub fn threat_budget(plan: &time::TimePlan, max_nodes: u64) -> ThreatBudget {
    let b = threat_budget_for_time(plan);
    // Under a node limit the solver takes at most an eighth of it per call.
    let cap = |n: u64| n.min(max_nodes / params::THREAT_NODE_SHARE());
    ThreatBudget {
        vcf: cap(b.vcf),
        vct: cap(b.vct),
        defend: cap(b.defend),
    }
}

fn threat_budget_for_time(plan: &time::TimePlan) -> ThreatBudget {
    if plan.instant {
        return ThreatBudget {
            vcf: params::INSTANT_VCF_NODES(),
            vct: 0,
            defend: 0,
        };
    }
    if plan.unlimited {
        // Depth- or node-limited (bench, analysis): fixed, deterministic.
        return ThreatBudget {
            vcf: params::UNLIMITED_VCF_NODES(),
            vct: params::UNLIMITED_VCT_NODES(),
            defend: params::UNLIMITED_DEFEND_NODES(),
        };
    }
    // About a tenth of the hard limit each at ~300k solver nodes a second,
    // less when the machine is busy.
    let ms = plan.hard_ms;
    ThreatBudget {
        vcf: (ms * params::VCF_NODES_PER_MS())
            .clamp(params::VCF_MIN_NODES(), params::VCF_MAX_NODES()),
        vct: if ms >= params::VCT_MIN_MS() {
            (ms * params::VCT_NODES_PER_MS()).min(params::VCT_MAX_NODES())
        } else {
            0
        },
        defend: (ms * params::DEFEND_NODES_PER_MS())
            .clamp(params::DEFEND_MIN_NODES(), params::DEFEND_MAX_NODES()),
    }
}

/// The root probe: what needs no tree. Generates the root moves into
/// `moves` and returns the move to play at once (with its score and PV)
/// when the position decides it: a five to make, a lost position (block
/// one five if we may; the game's fallback otherwise), no near move (renju:
/// every near point forbidden), a single move, or a win of the threat
/// solver. Otherwise the opponent's VCF, if any, leaves only the moves that
/// defuse it, and iterative deepening takes over. The `excluded` moves are
/// left out of the list (unless that would empty it) and are never the
/// early answer, except in a lost position.
pub(super) fn root_probe(
    tree: &mut Tree,
    moves: &mut Vec<Pos>,
    multipv: usize,
    budget: ThreatBudget,
    stop: &AtomicBool,
    excluded: &[Pos],
) -> Option<(Pos, Score, Vec<Pos>)> {
    let mut gen = tree.generate(moves);
    let stm = tree.pos.stm();
    if !excluded.is_empty() {
        if let Gen::Win(p) = gen {
            if excluded.contains(&p) {
                // The five is left out: every other legal cell is a candidate.
                moves.clear();
                moves.extend(
                    tree.pos
                        .board
                        .empty_cells()
                        .filter(|&q| tree.pos.legal_for(q, stm)),
                );
                gen = Gen::Moves { forced: false };
            }
        }
        let kept: Vec<Pos> = moves
            .iter()
            .copied()
            .filter(|p| !excluded.contains(p))
            .collect();
        if !kept.is_empty() {
            *moves = kept;
        }
    }
    match gen {
        Gen::Win(p) => Some((p, mate_in(1), vec![p])),
        Gen::Lost => {
            // Lost whatever we do: block one five if we may, else any move.
            let p = tree
                .pos
                .find_five(stm.opposite())
                .filter(|&p| tree.pos.legal_for(p, stm))
                .or_else(|| fallback_move(tree.pos.board));
            p.map(|p| (p, mated_in(2), vec![p]))
        }
        Gen::Moves { .. } if moves.is_empty() => {
            // Renju: every near point forbidden; any legal cell will do.
            // The fallback finds one if there is any: if it is not legal,
            // none is, and Black has lost.
            let board = &*tree.pos.board;
            fallback_move(board).map(|p| {
                let score = if is_legal(board, p) { 0 } else { mated_in(1) };
                (p, score, vec![p])
            })
        }
        Gen::Moves { .. } if moves.len() == 1 && multipv == 1 => {
            let s = tree.static_eval(stm);
            Some((moves[0], s, vec![moves[0]]))
        }
        Gen::Moves { .. } => root_threats(tree, moves, budget, stop, excluded),
    }
}

/// Threats at the root: our VCF, then our VCT, win at once; if the opponent
/// has a VCF, keep only the moves after which it has none (all of them when
/// none does). Returns the move to play when a win was found and its first
/// move is not `excluded`.
pub(super) fn root_threats(
    tree: &mut Tree,
    moves: &mut Vec<Pos>,
    budget: ThreatBudget,
    stop: &std::sync::atomic::AtomicBool,
    excluded: &[Pos],
) -> Option<(Pos, Score, Vec<Pos>)> {
    let stm = tree.pos.stm();
    let opp = stm.opposite();
    let win = |tree: &Tree, line: Vec<Pos>| {
        // Trust the solver only with a move we may play.
        let first = line[0];
        (tree.pos.board.in_board(first)
            && tree.pos.board.is_empty(first)
            && tree.pos.legal_for(first, stm)
            && !excluded.contains(&first))
        .then(|| (first, mate_in(line.len()), line))
    };
    if budget.vcf > 0 {
        let line = tree.threat.vcf(tree.pos.board, stm, budget.vcf, stop);
        tree.vcf_nodes += tree.threat.nodes();
        if let Some(w) = line.filter(|l| !l.is_empty()).and_then(|l| win(tree, l)) {
            return Some(w);
        }
    }
    // The solver only sees node budgets; keep its share of the clock small.
    let late = |tree: &Tree| {
        !tree.limits.plan.unlimited
            && tree.elapsed_ms() * params::ROOT_THREAT_TIME_SHARE() >= tree.limits.plan.hard_ms
    };
    if budget.vct > 0 && !late(tree) {
        let line = tree
            .threat
            .vct(tree.pos.board, stm, threat::MAX_THREATS, budget.vct, stop);
        tree.vcf_nodes += tree.threat.nodes();
        if let Some(w) = line.filter(|l| !l.is_empty()).and_then(|l| win(tree, l)) {
            return Some(w);
        }
    }
    if budget.defend > 0 && moves.len() > 1 && !late(tree) {
        let theirs = tree.threat.vcf(tree.pos.board, opp, budget.defend, stop);
        tree.vcf_nodes += tree.threat.nodes();
        if theirs.is_some() {
            let mut safe = Vec::new();
            let each =
                (budget.defend / moves.len() as u64).max(params::DEFEND_MIN_NODES_PER_MOVE());
            for &m in moves.iter() {
                if late(tree) {
                    // Out of time for this: unchecked moves count as safe.
                    safe.push(m);
                    continue;
                }
                tree.pos.make(m);
                let r = tree.threat.vcf(tree.pos.board, opp, each, stop);
                tree.vcf_nodes += tree.threat.nodes();
                tree.pos.unmake();
                if r.is_none() {
                    safe.push(m);
                }
            }
            log::debug!(
                "opponent VCF: {} of {} moves defuse it",
                safe.len(),
                moves.len()
            );
            if !safe.is_empty() {
                *moves = safe;
            }
        }
    }
    None
}
