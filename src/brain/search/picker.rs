//! The staged move picker of a tree node: it hands the move loop the
//! table's move first, before anything is generated (a cutoff there saves
//! the generation and the ordering), then generates the node's moves
//! (`movegen::generate`), says whether generation alone decides the node,
//! and hands out the rest best first, sorting the list's tail only when the
//! loop gets that far. It owns the node's move buffers while the node is
//! searched (`MoveBuffers`, lent by the ply's frame).

use crate::brain::game::board::Pos;

use super::movegen::{four_three_defences, generate, Gen};
use super::ordering::{sort_tail, MoveOrder};
use super::params;
use super::position::Position;

/// A node's reusable move lists, kept by its ply between visits so the
/// search allocates nothing once warm.
#[derive(Default)]
pub struct MoveBuffers {
    /// The generated moves, in generation order.
    pub moves: Vec<Pos>,
    /// The moves with their ordering scores (the first `SORTED_HEAD`
    /// sorted, the tail once it is reached).
    pub scored: Vec<(Pos, i32)>,
    /// The moves that take the opponent's four-three points away (the soft
    /// four-three stage, `params::FOUR_THREE_DEFENCE` = 2).
    pub defences: Vec<Pos>,
    /// Quiet moves searched so far (their history is lowered on a cutoff).
    pub quiets: Vec<Pos>,
}

/// Where the picker stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The table's move, not yet handed out.
    Table,
    /// Nothing generated yet.
    Generate,
    /// Handing out `scored[next..]`.
    Rest,
}

/// How generation alone ends a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move makes a five.
    Five,
    /// The opponent has two fives to make (or one the side may not block).
    Lost,
    /// No move: a draw, or (renju) Black's every cell is forbidden.
    NoMove,
    /// An open four the opponent cannot answer with a four: a win in three.
    OpenFour(Pos),
}

/// What the move loop gets next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// A move and its index in the ordered list (the table's move searched
    /// first is index 0, and the list's copy of it is skipped).
    Move(Pos, usize),
    /// The moves were generated and ordered (the loop reads `forced`,
    /// `generated` and `defends` from here on).
    Generated,
    /// Generation decided the node.
    End(Ending),
    /// No move left.
    Done,
}

/// The staged picker of one node.
pub struct MovePicker {
    stage: Stage,
    /// The table's move (NONE: none, or it may not go first).
    table: Pos,
    /// A move left out (the singular test's); NONE otherwise.
    excluded: Pos,
    /// The table's move was handed out before generation.
    table_done: bool,
    forced: bool,
    next: usize,
    pub bufs: MoveBuffers,
}

impl MovePicker {
    /// A picker over the node's buffers. `hash_move` gets the ordering's
    /// first place; with `table_first` it is handed out before anything is
    /// generated (the caller has checked it is a legal near move of an
    /// unforced node, so the generator would have listed it first).
    pub fn new(bufs: MoveBuffers, hash_move: Pos, table_first: bool, excluded: Pos) -> Self {
        MovePicker {
            stage: if table_first && !hash_move.is_none() {
                Stage::Table
            } else {
                Stage::Generate
            },
            table: hash_move,
            excluded,
            table_done: false,
            forced: false,
            next: 0,
            bufs,
        }
    }

    /// Whether the table's move was searched before generation.
    pub fn table_done(&self) -> bool {
        self.table_done
    }

    /// Whether the node must answer a threat (valid after `Generated`).
    pub fn forced(&self) -> bool {
        self.forced
    }

    /// How many moves were generated.
    pub fn generated(&self) -> usize {
        self.bufs.scored.len()
    }

    /// Whether `m` takes one of the opponent's four-three points away
    /// (the soft four-three stage; false when it is off).
    pub fn defends(&self, m: Pos) -> bool {
        self.bufs.defences.contains(&m)
    }

    /// The next step (see `Pick`).
    pub fn next(
        &mut self,
        pos: &mut Position,
        ord: &mut MoveOrder,
        scratch: &mut Vec<Pos>,
        ply: usize,
    ) -> Pick {
        match self.stage {
            Stage::Table => {
                self.stage = Stage::Generate;
                self.table_done = true;
                Pick::Move(self.table, 0)
            }
            Stage::Generate => {
                self.stage = Stage::Rest;
                self.generate(pos, ord, scratch, ply)
            }
            Stage::Rest => self.rest(),
        }
    }

    fn generate(
        &mut self,
        pos: &mut Position,
        ord: &mut MoveOrder,
        scratch: &mut Vec<Pos>,
        ply: usize,
    ) -> Pick {
        let b = &mut self.bufs;
        b.quiets.clear();
        b.defences.clear();
        b.scored.clear();
        self.forced = match generate(pos, &mut b.moves, scratch) {
            Gen::Win(_) => return Pick::End(Ending::Five),
            Gen::Lost => return Pick::End(Ending::Lost),
            Gen::Moves { forced } => forced,
        };
        if b.moves.is_empty() {
            return Pick::End(Ending::NoMove);
        }
        if !self.forced {
            if let Some(p) = pos.open_four_win() {
                return Pick::End(Ending::OpenFour(p));
            }
            if params::FOUR_THREE_DEFENCE() == 2 {
                four_three_defences(pos, &mut b.defences, scratch);
            }
        }
        ord.score_head(pos, ply, self.table, &b.moves, &mut b.scored);
        Pick::Generated
    }

    fn rest(&mut self) -> Pick {
        while self.next < self.bufs.scored.len() {
            let i = self.next;
            self.next += 1;
            if i == params::SORTED_HEAD() {
                sort_tail(&mut self.bufs.scored);
            }
            let m = self.bufs.scored[i].0;
            if (self.table_done && m == self.table) || m == self.excluded {
                continue;
            }
            return Pick::Move(m, i);
        }
        Pick::Done
    }
}
