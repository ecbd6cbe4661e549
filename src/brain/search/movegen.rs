//! Threat-aware move generation for the main search.
//!
//! - a five for the side to move ends the node (`Gen::Win`);
//! - facing a five threat (the opponent's four): only the block, or a loss
//!   when there are two or the block is forbidden to Black;
//! - facing an open-four threat (the opponent's open three or split three):
//!   only our own fours and the moves after which the opponent has no
//!   open-four point left (verified by playing them);
//! - facing a four-three or double-four point of the opponent's (switched
//!   on by `params::FOUR_THREE_DEFENCE` = 1, off by default): the same, for
//!   those points (at 2 the search reduces the other moves instead:
//!   `four_three_defences`);
//! - otherwise every empty cell within distance 2 of a stone.
//!
//! Under renju, Black's forbidden points are never generated.

use crate::brain::eval::weights::{classify, Class};
use crate::brain::game::board::{Board, Pos, EMPTY};
use crate::brain::game::pattern::{table, Pattern};
use crate::brain::types::{Color, Rule};

use super::params;
use super::position::Position;

/// What the generator found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gen {
    /// The side to move makes a five here.
    Win(Pos),
    /// The side to move cannot stop a five next move.
    Lost,
    /// Moves are in the buffer; `forced` when they answer a threat.
    Moves { forced: bool },
}

/// Does nothing force the side to move (the opponent has no five point and
/// no open-four point)? Then `generate` returns every legal near cell,
/// unforced, unless the side to move has a five itself.
#[inline]
pub fn unforced(pos: &Position) -> bool {
    let opp = pos.stm().opposite();
    pos.ev.fives(opp) == 0 && pos.ev.open_fours(opp) == 0
}

/// Generate the moves of the side to move into `out` (see the module doc).
/// `scratch` is a work buffer.
pub fn generate(pos: &mut Position, out: &mut Vec<Pos>, scratch: &mut Vec<Pos>) -> Gen {
    out.clear();
    let stm = pos.stm();
    let opp = stm.opposite();
    if let Some(p) = pos.find_five(stm) {
        return Gen::Win(p);
    }
    let opp_fives = pos.ev.fives(opp);
    if opp_fives >= 2 {
        return Gen::Lost;
    }
    if opp_fives == 1 {
        match pos.find_five(opp) {
            Some(p) if pos.legal_for(p, stm) => {
                out.push(p);
                return Gen::Moves { forced: true };
            }
            _ => return Gen::Lost,
        }
    }
    if pos.ev.open_fours(opp) > 0 && defend_open_three(pos, out, scratch) {
        return Gen::Moves { forced: true };
    }
    if params::FOUR_THREE_DEFENCE() == 1 && four_three_defences(pos, out, scratch) {
        return Gen::Moves { forced: true };
    }
    out.clear();
    // In board order; every caller reorders them by score with the cell as
    // the tie-break, so this order never shows.
    pos.near_cells(scratch);
    for &p in scratch.iter() {
        if pos.legal_for(p, stm) {
            out.push(p);
        }
    }
    Gen::Moves { forced: false }
}

/// Facing open-four points of the opponent: our fours plus the verified
/// defences. False when the threat is not real (only forbidden points).
fn defend_open_three(pos: &mut Position, out: &mut Vec<Pos>, cand: &mut Vec<Pos>) -> bool {
    let stm = pos.stm();
    let opp = stm.opposite();
    let dirs = pos.board.dirs();
    cand.clear();
    let mut real = false;
    // Open-four and four points are near cells (see `first_near`).
    for q in pos.board.candidates() {
        if pos.ev.class(q, opp) != Class::Flex4 {
            continue;
        }
        if !pos.legal_for(q, opp) {
            continue;
        }
        real = true;
        if !cand.contains(&q) {
            cand.push(q);
        }
        for (d, &off) in dirs.iter().enumerate() {
            if pos.ev.pattern(q, opp, d) != Pattern::Flex4 {
                continue;
            }
            for k in 1..=5isize {
                for r in [q.offset(k * off), q.offset(-k * off)] {
                    if pos.board.cell(r) == EMPTY && !cand.contains(&r) {
                        cand.push(r);
                    }
                }
            }
        }
    }
    if !real {
        return false;
    }
    // Our own fours are always worth a look: the opponent must answer them.
    // (`out` is still empty here: `generate` cleared it.)
    pos.push_fours(stm, out);
    let fours = out.len();
    // The opponent's open-four points (the first entries of `cand` that
    // hold that class); our stone can only weaken its lines, so a move
    // defends when none of them still makes an open four.
    let threats: Vec<Pos> = cand
        .iter()
        .copied()
        .filter(|&q| pos.ev.class(q, opp) == Class::Flex4)
        .collect();
    let board_xy = |b: &Board, q: Pos| {
        let (x, y) = b.xy(q);
        (x as i32, y as i32)
    };
    for &p in cand.iter() {
        if out[..fours].contains(&p) {
            continue;
        }
        // A threat point off every line through p within 5 keeps its shape.
        let (px, py) = board_xy(pos.board, p);
        let aligned = threats.iter().all(|&q| {
            let (qx, qy) = board_xy(pos.board, q);
            let (dx, dy) = (px - qx, py - qy);
            dx.abs() <= 5 && dy.abs() <= 5 && (dx == 0 || dy == 0 || dx.abs() == dy.abs())
        });
        if !aligned || !pos.legal_for(p, stm) {
            continue;
        }
        if takes_away(pos, p, &threats, |c| c == Class::Flex4) {
            out.push(p);
        }
    }
    if out.is_empty() {
        // No defence exists: any candidate loses, search them all anyway.
        for &p in cand.iter() {
            if pos.legal_for(p, stm) {
                out.push(p);
            }
        }
    }
    !out.is_empty()
}

/// Does our stone on `p` (the side to move's) leave none of the
/// opponent's `threats` points still making a class `still` picks? Each
/// point is re-classified from its lines with the stone on the board (a
/// stone on the point itself takes it away). The board is as it was after.
fn takes_away(pos: &mut Position, p: Pos, threats: &[Pos], still: impl Fn(Class) -> bool) -> bool {
    let stm = pos.stm();
    let opp = stm.opposite();
    let rule = pos.board.rules().rule;
    let t = table(rule);
    let renju_black = rule == Rule::Renju && opp == Color::Black;
    pos.board.make(p, stm);
    let gone = threats.iter().all(|&q| {
        if q == p {
            return true;
        }
        let keys = pos.board.line_keys(q);
        let pats = keys.map(|k| t.get(k, opp));
        let dfs = keys.map(|k| t.double_four(k, opp));
        !still(classify(pats, dfs, renju_black))
    });
    pos.board.unmake();
    gone
}

/// Facing a four-three or double-four point of the opponent's (and no
/// five or open-four point: the caller has seen to those): our fours and
/// the moves that take every such point away, into `out` (see
/// `defend_four_three`). False, `out` empty, when the opponent has no such
/// point or no move takes them all away.
pub fn four_three_defences(pos: &mut Position, out: &mut Vec<Pos>, scratch: &mut Vec<Pos>) -> bool {
    out.clear();
    let opp = pos.stm().opposite();
    pos.ev.count(opp, Class::FourThree) + pos.ev.count(opp, Class::DoubleFour) > 0
        && defend_four_three(pos, out, scratch)
}

/// Facing four-three or double-four points of the opponent's (and no open
/// three: `defend_open_three` comes first), which win by force unless taken
/// away (`params::FOUR_THREE_DEFENCE`): our fours plus the moves after which
/// no such point is left, verified by playing them. Candidates are the
/// threat points and the empty cells within 5 of them on their lines; our
/// stone can only weaken the opponent's lines, so no new point appears.
/// False (search every move) when there is no such point the opponent may
/// play, or when no move takes them all away.
fn defend_four_three(pos: &mut Position, out: &mut Vec<Pos>, cand: &mut Vec<Pos>) -> bool {
    let stm = pos.stm();
    let opp = stm.opposite();
    let dirs = pos.board.dirs();
    let winning = |c: Class| matches!(c, Class::FourThree | Class::DoubleFour | Class::Flex4);
    cand.clear();
    let mut threats: Vec<Pos> = Vec::new();
    for q in pos.board.candidates() {
        if !winning(pos.ev.class(q, opp)) || !pos.legal_for(q, opp) {
            continue;
        }
        threats.push(q);
        if !cand.contains(&q) {
            cand.push(q);
        }
        for &off in dirs.iter() {
            for k in 1..=5isize {
                for r in [q.offset(k * off), q.offset(-k * off)] {
                    if pos.board.cell(r) == EMPTY && !cand.contains(&r) {
                        cand.push(r);
                    }
                }
            }
        }
    }
    if threats.is_empty() {
        return false;
    }
    out.clear();
    pos.push_fours(stm, out);
    let fours = out.len();
    for &p in cand.iter() {
        if out[..fours].contains(&p) || !pos.legal_for(p, stm) {
            continue;
        }
        if takes_away(pos, p, &threats, winning) {
            out.push(p);
        }
    }
    if out.len() == fours {
        // Nothing takes every point away: search every move.
        out.clear();
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::rules;
    use crate::brain::types::RuleSet;

    fn gen_of(text: &str, rules: RuleSet) -> (Board, Gen, Vec<(usize, usize)>) {
        let mut b = Board::from_ascii(text, rules).unwrap();
        let mut copy = b.clone();
        let mut pos = Position::new(&mut copy);
        let (mut out, mut s) = (vec![], vec![]);
        let g = generate(&mut pos, &mut out, &mut s);
        let xy = out.iter().map(|&p| b.xy(p)).collect();
        b.set_to_move(b.to_move());
        (b, g, xy)
    }

    #[test]
    fn facing_a_four_only_blocks() {
        let (b, g, xy) = gen_of(
            "
            . . . . . . . . .
            . X X X X O . . .
            . . . . . . . . .
            . . O O . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            RuleSet::FREESTYLE,
        );
        assert_eq!(b.to_move(), Color::White);
        assert_eq!(g, Gen::Moves { forced: true });
        assert_eq!(xy, vec![(0, 1)]);
    }

    #[test]
    fn own_five_wins_first() {
        let (b, g, _) = gen_of(
            "
            . . . . . . . . .
            . X X X X . . . .
            . . . . . . . . .
            . O O O O . . . .
            . . . . . . . . X",
            RuleSet::FREESTYLE,
        );
        assert_eq!(b.to_move(), Color::White);
        match g {
            Gen::Win(p) => assert!(b.xy(p) == (0, 3) || b.xy(p) == (5, 3)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn open_four_is_lost() {
        let (_, g, _) = gen_of(
            "
            . . . . . . . . .
            . . X X X X . . .
            . . . . . . . . .
            . O O O . . . . .
            . . . . . . . . .",
            RuleSet::FREESTYLE,
        );
        assert_eq!(g, Gen::Lost);
    }

    #[test]
    fn open_three_gets_defences_and_fours_only() {
        let (b, g, xy) = gen_of(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . X X X . . . . .
            . . . . . . . . . . .
            . O O O . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . X",
            RuleSet::FREESTYLE,
        );
        assert_eq!(b.to_move(), Color::White);
        assert_eq!(g, Gen::Moves { forced: true });
        // White's fours: (0,4) and (4,4)
        assert!(xy.contains(&(0, 4)) && xy.contains(&(4, 4)), "{xy:?}");
        // Defences of . . X X X . . : the two adjacent points (and the far
        // points also stop an open four here: (1,2) leaves X X X . . only).
        assert!(xy.contains(&(2, 2)) && xy.contains(&(6, 2)), "{xy:?}");
        assert!(!xy.contains(&(5, 5)), "{xy:?}");
        for &(_, y) in &xy {
            assert!(y == 2 || y == 4, "{xy:?}");
        }
    }

    #[test]
    fn renju_black_never_gets_forbidden_points() {
        let rules = RuleSet::from(Rule::Renju);
        let mut b = Board::from_ascii(
            "
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
            . . . . . . . . . . .",
            rules,
        )
        .unwrap();
        assert_eq!(b.to_move(), Color::Black);
        let forb = b.pos(5, 4).unwrap();
        assert!(rules::is_forbidden(&b, forb));
        let mut pos = Position::new(&mut b);
        let (mut out, mut s) = (vec![], vec![]);
        let g = generate(&mut pos, &mut out, &mut s);
        assert_eq!(g, Gen::Moves { forced: false });
        assert!(!out.is_empty());
        assert!(!out.contains(&forb));
    }
    /// `legal_for`, the search's quick legality (point classes, the full
    /// rule only for double threes), against the rules' own check on
    /// game-like renju positions: the same answer for Black on every empty
    /// cell, forbidden points of every kind included.
    #[test]
    fn legal_for_agrees_with_the_rules() {
        use crate::brain::game::testutil::{Area, RandomBoard};
        use crate::brain::game::zobrist::SplitMix64;
        let mut rng = SplitMix64::new(5);
        let rules = RuleSet::from(Rule::Renju);
        let walk = RandomBoard::square(15, rules)
            .area(Area::Near(4))
            .stones(20, 70)
            .legal_only()
            .no_five();
        let mut forbidden = 0;
        for _ in 0..1500 {
            let Some(mut b) = walk.board(&mut rng) else {
                continue;
            };
            let copy = b.clone();
            let pos = Position::new(&mut b);
            for q in copy.empty_cells() {
                let legal = !rules::is_forbidden(&copy, q);
                forbidden += usize::from(!legal);
                assert_eq!(
                    pos.legal_for(q, Color::Black),
                    legal,
                    "{:?}\n{copy}",
                    copy.xy(q)
                );
            }
        }
        assert!(forbidden >= 100, "{forbidden}");
    }
    /// `first_near` and `defend_open_three` look for four and open-four
    /// points among the near cells only: every point where either colour
    /// makes a four or more must be one, under every rule, with neutral
    /// stones too. The same walks check `find_class` against a scan of the
    /// whole board.
    #[test]
    fn every_four_point_is_a_near_cell() {
        use crate::brain::game::testutil::{Neutral, RandomBoard};
        use crate::brain::game::zobrist::SplitMix64;
        let mut rng = SplitMix64::new(31);
        let mut fours = 0;
        for rule in Rule::ALL {
            for continuous in [false, true] {
                let rules = RuleSet { rule, continuous };
                let mut b = Board::square(15, rules).unwrap();
                let walk = RandomBoard::square(15, rules).neutral(if continuous {
                    Neutral::Every(7)
                } else {
                    Neutral::Never
                });
                for i in 0..150 {
                    walk.place(&mut rng, &mut b, i).unwrap();
                    let pos = Position::new(&mut b);
                    for color in [Color::Black, Color::White] {
                        for q in pos.board.empty_cells() {
                            if pos.ev.class(q, color).is_four_or_more() {
                                fours += 1;
                                assert!(pos.board.near_count(q) > 0);
                            }
                        }
                        for class in [Class::Five, Class::Flex4, Class::Block4] {
                            let scan = pos
                                .board
                                .empty_cells()
                                .find(|&q| pos.ev.class(q, color) == class);
                            assert_eq!(pos.find_class(color, class), scan);
                        }
                    }
                }
            }
        }
        assert!(fours > 1000, "{fours}");
    }
    /// `static_mate` against the threat solver: on game-like random
    /// positions of every rule, each win it reads off the point classes is
    /// a VCF the solver finds, no longer than it said; and both kinds (in
    /// three and in five) occur.
    #[test]
    fn every_static_mate_is_a_vcf() {
        use crate::brain::game::testutil::{Area, RandomBoard};
        use crate::brain::game::zobrist::SplitMix64;
        use crate::brain::search::threat::ThreatSolver;
        use std::sync::atomic::AtomicBool;
        let mut rng = SplitMix64::new(47);
        let mut solver = ThreatSolver::new();
        let stop = AtomicBool::new(false);
        let mut found = [0usize; 6];
        for rule in Rule::ALL {
            let rules = RuleSet::from(rule);
            let walk = RandomBoard::square(15, rules)
                .area(Area::Near(5))
                .stones(12, 45)
                .legal_only()
                .no_five();
            for _ in 0..600 {
                let Some(mut b) = walk.board(&mut rng) else {
                    continue;
                };
                let mut copy = b.clone();
                let pos = Position::new(&mut copy);
                let stm = pos.stm();
                if pos.ev.fives(stm.opposite()) > 0 || pos.ev.fives(stm) > 0 {
                    continue;
                }
                let Some((p, n)) = pos.static_mate() else {
                    continue;
                };
                assert!(pos.legal_for(p, stm));
                found[n] += 1;
                let line = solver.vcf(&mut b, stm, 1_000_000, &stop);
                let text = b.to_string();
                let line = line.unwrap_or_else(|| panic!("{rule:?}: no VCF for {n}\n{text}"));
                assert!(line.len() <= n, "{rule:?}: {} > {n}\n{text}", line.len());
            }
        }
        assert!(found[3] >= 10 && found[5] >= 10, "{found:?}");
    }
    /// The four-three defence stage (a tuning build switches it on): on
    /// random positions of every rule where the opponent has a four-three
    /// or double-four point and nothing stronger, the forced moves are
    /// exactly our fours plus every legal move after which the opponent has
    /// no such point left (checked against a full re-evaluation of each).
    #[cfg(feature = "tune")]
    #[test]
    fn tunable_four_three_defence_is_exact() {
        let _turn = crate::brain::search::tunable::test_lock();
        use crate::brain::game::testutil::{Area, RandomBoard};
        use crate::brain::game::zobrist::SplitMix64;
        let mut rng = SplitMix64::new(53);
        let mut checked = 0;
        params::set("FOUR_THREE_DEFENCE", 1.0).unwrap();
        for rule in Rule::ALL {
            let rules = RuleSet::from(rule);
            let walk = RandomBoard::square(15, rules)
                .area(Area::Near(5))
                .stones(12, 40)
                .legal_only()
                .no_five();
            for _ in 0..400 {
                let Some(mut b) = walk.board(&mut rng) else {
                    continue;
                };
                let mut pos = Position::new(&mut b);
                let stm = pos.stm();
                let opp = stm.opposite();
                let winning =
                    |c: Class| matches!(c, Class::FourThree | Class::DoubleFour | Class::Flex4);
                let threat = |pos: &Position| {
                    pos.board
                        .empty_cells()
                        .any(|q| winning(pos.ev.class(q, opp)) && pos.legal_for(q, opp))
                };
                if pos.ev.fives(stm) + pos.ev.fives(opp) + pos.ev.open_fours(opp) > 0
                    || !threat(&pos)
                {
                    continue;
                }
                let (mut out, mut s) = (vec![], vec![]);
                let g = generate(&mut pos, &mut out, &mut s);
                let mut want = vec![];
                for p in pos.board.empty_cells().collect::<Vec<_>>() {
                    if !pos.legal_for(p, stm) {
                        continue;
                    }
                    let four = pos.ev.class(p, stm).is_four_or_more();
                    pos.make(p);
                    let keeps = threat(&pos);
                    pos.unmake();
                    if four || !keeps {
                        want.push(p);
                    }
                }
                let fours = want
                    .iter()
                    .filter(|&&p| pos.ev.class(p, stm).is_four_or_more())
                    .count();
                if want.len() == fours {
                    assert_eq!(g, Gen::Moves { forced: false }, "{}", pos.board);
                } else {
                    assert_eq!(g, Gen::Moves { forced: true }, "{}", pos.board);
                    out.sort();
                    want.sort();
                    assert_eq!(
                        out,
                        want,
                        "{rule:?} {:?}\n{}",
                        out.iter().map(|&p| pos.board.xy(p)).collect::<Vec<_>>(),
                        pos.board
                    );
                    checked += 1;
                }
            }
        }
        params::set("FOUR_THREE_DEFENCE", 0.0).unwrap();
        assert!(checked >= 20, "{checked}");
    }
}
