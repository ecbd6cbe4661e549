//! Rules: what wins under each rule (five, exactly five, renju, caro) and
//! which points are forbidden to Black under renju.

use super::board::{Board, Pos, EMPTY};
use crate::types::{Color, Rule};

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

/// Is the empty point `p` forbidden to Black (renju only)? Under any other
/// rule, or for an occupied point, the answer is false.
pub fn is_forbidden(board: &Board, p: Pos) -> bool {
    if board.rules().rule != Rule::Renju || board.cell(p) != EMPTY {
        return false;
    }
    false
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
