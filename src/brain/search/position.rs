//! The searched position: a board and its incremental evaluation, moved
//! together (`make`, `unmake`), and the questions the search and the move
//! generator ask of it that need no search: legality under renju, near
//! cells, four and five points, an unanswerable open four, the static mate.

use std::sync::Arc;

use crate::brain::eval::net::QuantNet;
use crate::brain::eval::weights::Class;
use crate::brain::eval::Evaluator;
use crate::brain::game::board::{Board, Pos};
use crate::brain::game::pattern::Pattern;
use crate::brain::game::rules;
use crate::brain::types::{Color, Rule};

/// A board with its incremental evaluation, moved together.
pub struct Position<'a> {
    pub board: &'a mut Board,
    pub ev: Evaluator,
}

impl<'a> Position<'a> {
    pub fn new(board: &'a mut Board) -> Position<'a> {
        Position::with_net(board, None)
    }

    /// A position whose evaluator scores with the net `net`, or
    /// classically (`None`).
    pub fn with_net(board: &'a mut Board, net: Option<Arc<QuantNet>>) -> Position<'a> {
        let ev = Evaluator::with_optional_net(board, net);
        Position { board, ev }
    }

    #[inline]
    pub fn make(&mut self, p: Pos) {
        self.make_with(p, |_| {});
    }

    /// `make`, calling `between` with the new position's key after the
    /// stone is placed and before the evaluation is updated (the search
    /// prefetches its table entry there, so the load overlaps that work).
    #[inline]
    pub fn make_with(&mut self, p: Pos, between: impl FnOnce(u64)) {
        self.board.play(p);
        between(self.board.hash());
        self.ev.push(self.board, p);
    }

    /// Take back the last move made through `make`.
    #[inline]
    pub fn unmake(&mut self) {
        if let Some(m) = self.board.unmake() {
            if !self.ev.pop() {
                self.ev.update(self.board, m.pos);
            }
        }
    }

    #[inline]
    pub fn stm(&self) -> Color {
        self.board.to_move()
    }

    /// Could the side `color` legally play the empty cell `p`?
    /// (Only renju restricts Black; a five is always allowed.)
    #[inline]
    pub fn legal_for(&self, p: Pos, color: Color) -> bool {
        if color != Color::Black || self.board.rules().rule != Rule::Renju {
            return true;
        }
        match self.ev.class(p, Color::Black) {
            Class::Five => true,
            Class::Forbidden => false,
            _ => {
                let threes = (0..4)
                    .filter(|&d| self.ev.pattern(p, Color::Black, d) == Pattern::Flex3)
                    .count();
                threes < 2 || !rules::is_forbidden(self.board, p)
            }
        }
    }

    /// Renju: is every empty cell forbidden to Black (`color`)? Then any
    /// move Black makes is forbidden and loses. Scans the whole board by the
    /// rules' own check; only asked when no near cell is legal.
    pub fn every_cell_forbidden(&self, color: Color) -> bool {
        color == Color::Black
            && self.board.rules().rule == Rule::Renju
            && self
                .board
                .empty_cells()
                .all(|p| !rules::is_legal(self.board, p))
    }

    /// Empty cells near stones (the first cell searched on an empty board is
    /// its centre).
    pub fn near_cells(&self, out: &mut Vec<Pos>) {
        // The board lists them in board order (Pos order is row-major), so
        // ties never depend on history.
        out.clear();
        out.extend(self.board.candidates());
        if out.is_empty() {
            let (w, h) = (self.board.width() as i64, self.board.height() as i64);
            if let Some(c) = self.board.pos(w / 2, h / 2) {
                if self.board.is_empty(c) {
                    out.push(c);
                }
            }
            if out.is_empty() {
                out.extend(self.board.empty_cells());
            }
        }
    }

    /// The first near cell of class `class` for `color` (board order).
    pub fn find_class(&self, color: Color, class: Class) -> Option<Pos> {
        self.first_near(|p| self.ev.class(p, color) == class)
    }

    /// The first (in board order) near cell that satisfies `pred`. Every
    /// four, open-four or five point is near: it shares a five-cell window
    /// with three stones of its colour, one of them within distance 2.
    #[inline]
    pub fn first_near(&self, pred: impl Fn(Pos) -> bool) -> Option<Pos> {
        // The board lists them in board order: the first is the least.
        self.board.candidates().find(|&p| pred(p))
    }

    /// Append the near cells where `color` may play and makes a four or
    /// more (in board order).
    pub fn push_fours(&self, color: Color, out: &mut Vec<Pos>) {
        out.extend(
            self.board
                .candidates()
                .filter(|&p| self.ev.class(p, color).is_four_or_more() && self.legal_for(p, color)),
        );
    }

    /// A cell where `color` makes a five.
    pub fn find_five(&self, color: Color) -> Option<Pos> {
        if self.ev.fives(color) == 0 {
            return None;
        }
        self.find_class(color, Class::Five)
    }

    /// Can the side to move make an open four that the opponent cannot
    /// answer with a four of its own? Then it wins in 3 plies.
    pub fn open_four_win(&self) -> Option<Pos> {
        let stm = self.stm();
        let opp = stm.opposite();
        if self.ev.open_fours(stm) == 0 || self.ev.fours(opp) > 0 || self.ev.fives(opp) > 0 {
            return None;
        }
        self.first_near(|p| self.ev.class(p, stm) == Class::Flex4 && self.legal_for(p, stm))
    }

    /// The static mate check (`params::STATIC_MATE`): a move of the side to
    /// move that wins by force, and in how many plies, read from the
    /// evaluation's point classes without a search. Only when the opponent
    /// has no five to make (the caller's test). An open four or a double
    /// four wins in 3: the opponent can stop at most one of its two five
    /// points, and has no five of its own to make first. A four-three wins
    /// in 5 when the opponent cannot make a four at all: the block of the
    /// four lies on the four's line, not on the three's (two lines through
    /// the move meet only there), it makes no five or four threat of the
    /// opponent's, and the three then becomes an open four. Not for Black
    /// under renju, whose open-four point may be forbidden.
    pub fn static_mate(&self) -> Option<(Pos, usize)> {
        let stm = self.stm();
        let opp = stm.opposite();
        debug_assert_eq!(self.ev.fives(opp), 0);
        if self.ev.fours_from(stm, Class::DoubleFour) > 0 {
            let p = self.first_near(|p| {
                let c = self.ev.class(p, stm);
                (c == Class::DoubleFour || c == Class::Flex4) && self.legal_for(p, stm)
            });
            if let Some(p) = p {
                return Some((p, 3));
            }
        }
        if self.ev.count(stm, Class::FourThree) > 0
            && self.ev.fours(opp) == 0
            && !(stm == Color::Black && self.board.rules().rule == Rule::Renju)
        {
            return self.find_class(stm, Class::FourThree).map(|p| (p, 5));
        }
        None
    }
}
