//! Rules: what wins under each rule (five, exactly five, renju, caro) and
//! which points are forbidden to Black under renju.
//!
//! Renju forbidden points (Black only): a move that makes an exactly-five is
//! always allowed; otherwise an overline, two or more fours (also two fours on
//! one line), or two or more real threes are forbidden. A three is real when
//! one of its points that would turn it into a straight four is itself not
//! forbidden (after the move): the recursive rule, bounded to
//! `MAX_FORBID_DEPTH` levels (deeper, a three counts as real). The shapes come
//! from the pattern tables' look-ups (`game::pattern`); only the recursive
//! check of each three plays stones. A test checks the result against a
//! scan-based reference.
//!
//! The search never lets Black consider a forbidden point, the threat solver
//! respects them on both sides, `YXSHOWFORBID` lists them, and every move the
//! engine prints is checked against them first.

use super::board::{Board, Pos, EMPTY};
use super::pattern::{combine, table, Pattern, Threat};
use crate::brain::types::{Color, Rule};

/// How many levels of "is that four-point itself forbidden?" are followed.
pub const MAX_FORBID_DEPTH: u32 = 6;

/// Would a stone of `color` on `p` (empty, or already holding that colour)
/// complete a winning line under the board's rule?
pub fn is_win(board: &Board, p: Pos, color: Color) -> bool {
    let rule = board.rules().rule;
    let code = color.cell();
    let dirs = board.dirs();
    (0..4).any(|d| {
        let n = board.run_length(p, d, code);
        if n < 5 {
            return false;
        }
        if n > 5 {
            return rule.overline_wins(color);
        }
        if rule != Rule::Caro {
            return true;
        }
        // Caro: exactly five wins unless both ends hold opponent stones.
        let opp = color.opposite().cell();
        let off = dirs[d];
        let mut a = p;
        while board.cell(a.offset(off)) == code {
            a = a.offset(off);
        }
        let mut b = p;
        while board.cell(b.offset(-off)) == code {
            b = b.offset(-off);
        }
        !(board.cell(a.offset(off)) == opp && board.cell(b.offset(-off)) == opp)
    })
}

/// What the table says of Black on `p`, before any recursion.
enum Quick {
    Allowed,
    Forbidden,
    /// Two or more open threes: which are real needs a deeper look.
    Threes,
}

fn quick(board: &Board, p: Pos) -> Quick {
    let t = table(Rule::Renju);
    let keys = board.line_keys(p);
    let mut fours = 0;
    let mut threes = 0;
    let mut overline = false;
    for &k in &keys {
        match t.get(k, Color::Black) {
            Pattern::Five => return Quick::Allowed,
            Pattern::Overline => overline = true,
            Pattern::Flex4 | Pattern::Block4 => {
                fours += if t.double_four(k, Color::Black) { 2 } else { 1 }
            }
            Pattern::Flex3 => threes += 1,
            _ => {}
        }
    }
    if overline || fours >= 2 {
        Quick::Forbidden
    } else if threes >= 2 {
        Quick::Threes
    } else {
        Quick::Allowed
    }
}

/// Is `p` a move the side to move may play: on the board, empty and, for
/// Black under renju, not forbidden?
pub fn is_legal(board: &Board, p: Pos) -> bool {
    board.in_board(p)
        && board.cell(p) == EMPTY
        && !(board.rules().rule == Rule::Renju
            && board.to_move() == Color::Black
            && is_forbidden(board, p))
}

/// Is the empty point `p` forbidden to Black (renju only)? Under any other
/// rule, or for an occupied point, the answer is false.
pub fn is_forbidden(board: &Board, p: Pos) -> bool {
    if board.rules().rule != Rule::Renju || !board.in_board(p) || board.cell(p) != EMPTY {
        return false;
    }
    match quick(board, p) {
        Quick::Allowed => false,
        Quick::Forbidden => true,
        Quick::Threes => {
            let mut b = board.clone();
            forbidden_rec(&mut b, p, MAX_FORBID_DEPTH)
        }
    }
}

/// Key slot (0..10) of the cell at signed distance `dist` (±1..±5).
#[inline]
fn slot_of(dist: isize) -> usize {
    if dist < 0 {
        (dist + 5) as usize
    } else {
        (dist + 4) as usize
    }
}

fn forbidden_rec(b: &mut Board, p: Pos, depth: u32) -> bool {
    match quick(b, p) {
        Quick::Allowed => return false,
        Quick::Forbidden => return true,
        Quick::Threes => {}
    }
    if depth == 0 {
        return true;
    }
    let t = table(Rule::Renju);
    let dirs = b.dirs();
    let keys = b.line_keys(p);
    b.make(p, Color::Black);
    let mut real = 0;
    for d in 0..4 {
        if t.get(keys[d], Color::Black) != Pattern::Flex3 {
            continue;
        }
        let key = b.line_key(p, d);
        let mut is_real = false;
        for dist in (-4isize..=-1).chain(1..=4) {
            let e = p.offset(dist * dirs[d]);
            if b.cell(e) != EMPTY {
                continue;
            }
            let k2 = key | (1 << (2 * slot_of(dist)));
            if t.get(k2, Color::Black) == Pattern::Flex4
                && !t.double_four(k2, Color::Black)
                && !forbidden_rec(b, e, depth - 1)
            {
                is_real = true;
                break;
            }
        }
        if is_real {
            real += 1;
            if real >= 2 {
                break;
            }
        }
    }
    b.unmake();
    real >= 2
}

/// Every point forbidden to Black, in board order (empty unless renju).
pub fn forbidden_points(board: &Board) -> Vec<Pos> {
    if board.rules().rule != Rule::Renju {
        return Vec::new();
    }
    board
        .empty_cells()
        .filter(|&p| is_forbidden(board, p))
        .collect()
}

/// The winner, if the stone just placed on `p` completed a winning line.
pub fn winner_at(board: &Board, p: Pos) -> Option<Color> {
    let color = match board.cell(p) {
        1 => Color::Black,
        2 => Color::White,
        _ => return None,
    };
    is_win(board, p, color).then_some(color)
}

/// Combine the four line patterns of `color` on the empty point `p`.
/// Under renju, Black's overline, double-four and real double-three are
/// `Forbidden`; a five is never forbidden.
pub fn threat_at(board: &Board, p: Pos, color: Color) -> Threat {
    let rule = board.rules().rule;
    let t = table(rule);
    let keys = board.line_keys(p);
    let pats = keys.map(|k| t.get(k, color));
    let renju_black = rule == Rule::Renju && color == Color::Black;
    let threat = combine(pats, keys.map(|k| t.double_four(k, color)), renju_black);
    // A real double-three is forbidden even next to a four.
    let threes = pats.iter().filter(|&&x| x == Pattern::Flex3).count();
    if renju_black && threat != Threat::Five && threes >= 2 && is_forbidden(board, p) {
        return Threat::Forbidden;
    }
    threat
}

/// A five on the board that ends the game (never in a continuous game).
pub fn finished(board: &Board) -> Option<(Color, Pos)> {
    if board.rules().continuous {
        return None;
    }
    board
        .cells()
        .iter()
        .find_map(|&p| winner_at(board, p).map(|c| (c, p)))
}

/// The one move chosen without search, for the side to move: win now, else
/// block the opponent's five, else the legal cell with most stones around
/// it, nearest the centre. When no empty cell is legal (under renju, every
/// one left forbidden to Black) any empty cell: a move that loses by the
/// rules at once is better than none (`is_legal` tells the two apart).
/// None only on a full board.
pub fn fallback_move(board: &Board) -> Option<Pos> {
    let me = board.to_move();
    let legal: Vec<Pos> = board
        .empty_cells()
        .filter(|&p| is_legal(board, p))
        .collect();
    if let Some(&p) = legal.iter().find(|&&p| is_win(board, p, me)) {
        return Some(p);
    }
    if let Some(&p) = legal.iter().find(|&&p| is_win(board, p, me.opposite())) {
        return Some(p);
    }
    let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
    legal
        .into_iter()
        .min_by_key(|&p| {
            let (x, y) = board.xy(p);
            let d = (x as i64 - cx).abs().max((y as i64 - cy).abs());
            (std::cmp::Reverse(board.near_count(p)), d, p)
        })
        .or_else(|| board.empty_cells().next())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::board::BLACK;
    use crate::brain::game::pattern::line_pattern;
    use crate::brain::game::testutil::{Area, Colours, Neutral, RandomBoard};
    use crate::brain::game::zobrist::SplitMix64;
    use crate::brain::types::RuleSet;

    const RENJU: RuleSet = RuleSet {
        rule: Rule::Renju,
        continuous: false,
    };

    /// A board drawn as text with one `*`: the point under test.
    fn marked(text: &str) -> (Board, Pos) {
        let b = Board::from_ascii(text, RENJU).unwrap();
        let rows: Vec<String> = text
            .lines()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
            .collect();
        for (y, row) in rows.iter().enumerate() {
            if let Some(x) = row.find('*') {
                return (b.clone(), b.pos(x as i64, y as i64).unwrap());
            }
        }
        panic!("no * in board");
    }

    fn forbidden(text: &str) -> bool {
        let (b, p) = marked(text);
        let fast = is_forbidden(&b, p);
        let mut c = b.clone();
        assert_eq!(fast, slow_forbidden(&mut c, p, MAX_FORBID_DEPTH), "{b:?}");
        fast
    }

    /// Black run through `p` along direction `d` when `p` holds black.
    fn run(b: &Board, p: Pos, d: usize) -> usize {
        b.run_length(p, d, BLACK)
    }

    /// Points e (distance 1..4 from p on line d) where black makes exactly
    /// five through p. Scan-based: no tables.
    fn five_points(b: &mut Board, p: Pos, d: usize) -> Vec<isize> {
        let off = b.dirs()[d];
        let mut out = vec![];
        for dist in -4isize..=4 {
            let e = p.offset(dist * off);
            if dist == 0 || b.cell(e) != EMPTY {
                continue;
            }
            b.make(e, Color::Black);
            // The run through e must contain p and be exactly five.
            let mut lo = 0;
            while b.cell(e.offset((lo - 1) * off)) == BLACK {
                lo -= 1;
            }
            let mut hi = 0;
            while b.cell(e.offset((hi + 1) * off)) == BLACK {
                hi += 1;
            }
            if hi - lo + 1 == 5 && (lo..=hi).contains(&-dist) {
                out.push(dist);
            }
            b.unmake();
        }
        out
    }

    fn fours_on(b: &mut Board, p: Pos, d: usize) -> usize {
        let f = five_points(b, p, d);
        if f.len() == 2 && f[1] - f[0] == 5 {
            1
        } else {
            f.len()
        }
    }

    /// Reference implementation written from the rule text, scanning the
    /// board instead of using the pattern tables.
    fn slow_forbidden(b: &mut Board, p: Pos, depth: u32) -> bool {
        b.make(p, Color::Black);
        let res = (|| {
            if (0..4).any(|d| run(b, p, d) == 5) {
                return false;
            }
            if (0..4).any(|d| run(b, p, d) > 5) {
                return true;
            }
            let fours: usize = (0..4).map(|d| fours_on(b, p, d)).sum();
            if fours >= 2 {
                return true;
            }
            let mut threes = 0;
            let mut candidates = 0;
            for d in 0..4 {
                if fours_on(b, p, d) > 0 {
                    continue; // already a four on this line, not a three
                }
                let off = b.dirs()[d];
                let mut open = false;
                let mut real = false;
                for dist in -4isize..=4 {
                    let e = p.offset(dist * off);
                    if dist == 0 || b.cell(e) != EMPTY {
                        continue;
                    }
                    b.make(e, Color::Black);
                    let f = five_points(b, p, d);
                    b.unmake();
                    if f.len() == 2 && f[1] - f[0] == 5 {
                        open = true;
                        let deeper = if depth == 0 {
                            false
                        } else {
                            slow_forbidden(b, e, depth - 1)
                        };
                        if !deeper {
                            real = true;
                        }
                    }
                }
                candidates += open as usize;
                threes += real as usize;
            }
            if depth == 0 {
                return candidates >= 2;
            }
            threes >= 2
        })();
        b.unmake();
        res
    }

    #[test]
    fn plain_double_three() {
        assert!(forbidden(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . X X * . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
        // Split threes count too.
        assert!(forbidden(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . X . * X . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
    }

    #[test]
    fn blocked_three_does_not_count() {
        assert!(!forbidden(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . O X X * . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
        // A white stone two cells away still leaves a real three.
        assert!(forbidden(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . X X * . . O . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
    }

    #[test]
    fn double_four_and_four_on_one_line() {
        // Two fours, one of them closed.
        assert!(forbidden(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . O X X X * . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
        // X _ X * X _ X: two fours on one line.
        assert!(forbidden(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . X . X * X . X . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
        // X X _ * X _ X X: two fours on one line.
        assert!(forbidden(
            "
            . . . . . . . . . . .
            X X . * X . X X . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
        // A single four plus a single three (4-3) is allowed.
        assert!(!forbidden(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . O X X X * . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
    }

    #[test]
    fn overline_and_five() {
        assert!(forbidden(
            "
            . . . . . . . . . . .
            . X X * X X X . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
        // X X X X _ X: the gap is an overline, not a five.
        assert!(forbidden(
            "
            . . . . . . . . . . .
            . X X X X * X . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
        // Five plus a double-three shape: the five wins, not forbidden.
        assert!(!forbidden(
            "
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . . . . . . . . .
            . X X X X * . . . . .
            . . . . . . X . . . .
            . . . . . . . X . . .
            . . . . . . . . . . ."
        ));
        // Five plus an overline in another direction: still a five.
        assert!(!forbidden(
            "
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . . . . . . . . .
            . X X X X * . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . . . . . . . . ."
        ));
    }

    #[test]
    fn false_three_whose_four_point_is_forbidden() {
        // Horizontal: X _ X * — its only straight-four point (4,6) would make
        // an overline in column 4, so that three is not real.
        let fake = "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . X . X . . . .
            . . . . X . X . . . .
            . . . X . X * . . . .
            . . . . X . . . . . .
            . . . . X . . . . . .
            . . . . X . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .";
        assert!(!forbidden(fake));
        // The same shape without the column: both threes are real.
        assert!(forbidden(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . X . . . .
            . . . . . . X . . . .
            . . . X . X * . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . ."
        ));
    }

    #[test]
    fn near_the_edge() {
        // Against the edge the horizontal three cannot become a straight four.
        assert!(!forbidden(
            "
            . . . . . . . . . .
            . . X . . . . . . .
            . . X . . . . . . .
            X X * . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . ."
        ));
        // One cell further in it can.
        assert!(forbidden(
            "
            . . . . . . . . . .
            . . . X . . . . . .
            . . . X . . . . . .
            . X X * . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . ."
        ));
        // Top edge, vertical three touching it.
        assert!(!forbidden(
            "
            . . . X . . . . . .
            . . . X . . . . . .
            . X X * . . . . . .
            . . . . . . . . . .
            . . . . . . . . . ."
        ));
    }

    #[test]
    fn only_black_under_renju() {
        let (mut b, p) = marked(
            "
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . X X * . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .",
        );
        assert!(is_forbidden(&b, p));
        assert_eq!(forbidden_points(&b), vec![p]);
        b.set_rules(RuleSet::FREESTYLE);
        assert!(!is_forbidden(&b, p));
        assert!(forbidden_points(&b).is_empty());
    }

    #[test]
    fn forbidden_matches_slow_reference_on_random_positions() {
        let mut rng = SplitMix64::new(77);
        let mut checked = 0;
        let mut found = 0;
        for game in 0..150 {
            let size = if game % 2 == 0 { 15 } else { 11 };
            // Black-heavy positions in a small area so that shapes occur.
            let b = RandomBoard::square(size, RENJU)
                .stones(14, 36)
                .area(Area::Centre(7))
                .colours(Colours::WhiteEvery(3))
                .board(&mut rng)
                .unwrap();
            for p in b.empty_cells().collect::<Vec<_>>() {
                let fast = is_forbidden(&b, p);
                let mut c = b.clone();
                let slow = slow_forbidden(&mut c, p, MAX_FORBID_DEPTH);
                assert_eq!(fast, slow, "at {:?}\n{:?}", b.xy(p), b);
                checked += 1;
                found += fast as usize;
            }
        }
        assert!(checked > 5000);
        assert!(found > 100, "only {found} forbidden points seen");
    }

    #[test]
    fn is_win_agrees_with_tables() {
        let mut rng = SplitMix64::new(5);
        for rule in Rule::ALL {
            let rules = RuleSet::from(rule);
            let gen = RandomBoard::square(9, rules)
                .exactly(45)
                .neutral(Neutral::OneIn(12));
            for _ in 0..40 {
                let b = gen.board(&mut rng).unwrap();
                for p in b.empty_cells().collect::<Vec<_>>() {
                    for color in [Color::Black, Color::White] {
                        let by_table = b
                            .line_keys(p)
                            .iter()
                            .any(|&k| line_pattern(rule, color, k) == Pattern::Five);
                        assert_eq!(is_win(&b, p, color), by_table, "{rule:?} {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn threat_forbidden_iff_rules_forbidden() {
        let mut rng = SplitMix64::new(313);
        let rules = RuleSet::from(Rule::Renju);
        let mut seen = 0;
        // Black-heavy positions in the middle, so that shapes occur.
        let gen = RandomBoard::square(13, rules)
            .exactly(30)
            .area(Area::Centre(7))
            .colours(Colours::WhiteEvery(3));
        for _ in 0..60 {
            let b = gen.board(&mut rng).unwrap();
            for p in b.empty_cells().collect::<Vec<_>>() {
                let f = is_forbidden(&b, p);
                assert_eq!(
                    threat_at(&b, p, Color::Black) == Threat::Forbidden,
                    f,
                    "{b:?}"
                );
                assert_ne!(threat_at(&b, p, Color::White), Threat::Forbidden);
                seen += f as usize;
            }
        }
        assert!(seen > 50, "{seen}");
    }

    #[test]
    fn threat_combinations() {
        let b = Board::from_ascii(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . . X . . . .
            . . X X . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            RuleSet::from(Rule::Freestyle),
        )
        .unwrap();
        let p = b.pos(4, 4).unwrap();
        assert_eq!(threat_at(&b, p, Color::Black), Threat::DoubleThree);
        let mut r = b.clone();
        r.set_rules(RuleSet::from(Rule::Renju));
        assert_eq!(threat_at(&r, p, Color::Black), Threat::Forbidden);
        assert_eq!(threat_at(&r, p, Color::White), Threat::None);
        let b = Board::from_ascii(
            "
            . . . . O . . . .
            . . . . X . . . .
            . . . . X . . . .
            . . . . X . . . .
            . . X X . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            RuleSet::from(Rule::Renju),
        )
        .unwrap();
        assert_eq!(threat_at(&b, p, Color::Black), Threat::FourThree);
        // Renju: an open four next to two open threes is still forbidden.
        let b = Board::from_ascii(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . X X * X . . . .
            . . . . . . X . . . .
            . . . . . . . X . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .",
            RuleSet::from(Rule::Renju),
        )
        .unwrap();
        let p = b.pos(5, 5).unwrap();
        assert_eq!(threat_at(&b, p, Color::Black), Threat::Forbidden);
        let mut f = b.clone();
        f.set_rules(RuleSet::from(Rule::Freestyle));
        assert_eq!(threat_at(&f, p, Color::Black), Threat::Flex4);
    }
}
