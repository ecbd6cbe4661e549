//! The net's evaluation cache: static scores the search already computed,
//! by position. A net score costs the sync of every move pushed since the
//! last score (`eval::net`, a few dozen cells a move); a position reached
//! again by another move order (two quiet moves swapped near the horizon)
//! takes its score from here, and a node that then stops (a stand-pat, a
//! reverse futility cut) never syncs its move at all. In middle games at
//! 500 ms about an eighth of the scores asked for are found here
//! (RESULTS.md, "The net's evaluation cache").
//!
//! A score is a pure function of the position, the rules, the board's size
//! and the net, so the cache changes no search's result or node count: it
//! only saves time. What it was filled under is its `Tag`; a search under
//! another (`prepare`) empties it first. The tag holds the net itself (an
//! `Arc`), so a net replaced by another cannot reuse its address while the
//! cache still speaks for it.
//!
//! Direct-mapped, one `u64` a slot: the key's high 48 bits and the score's
//! 16 (scores are within `weights::EVAL_LIMIT`, below 2^15); the slot is
//! the key's low bits, so the whole key is matched. The classical score is
//! a sum kept up to date by every move and costs less than a probe: the
//! search asks the cache only when the net evaluates.

use std::sync::Arc;

use crate::brain::eval::net::QuantNet;
use crate::brain::game::board::Board;
use crate::brain::types::{RuleSet, Score};

use super::params;

/// What a cache's scores were computed under: the net, the rules and the
/// board's size.
#[derive(Clone)]
pub struct Tag {
    net: Arc<QuantNet>,
    rules: RuleSet,
    size: (usize, usize),
}

impl Tag {
    /// The tag of scores by `net` on boards like `board`.
    pub fn of(net: &Arc<QuantNet>, board: &Board) -> Tag {
        Tag {
            net: net.clone(),
            rules: board.rules(),
            size: (board.width(), board.height()),
        }
    }

    fn same(&self, o: &Tag) -> bool {
        Arc::ptr_eq(&self.net, &o.net) && self.rules == o.rules && self.size == o.size
    }
}

/// The cache (see the module doc). `Default` is a disabled one (no
/// slots: `probe` finds nothing and `store` keeps nothing).
#[derive(Default)]
pub struct EvalCache {
    slots: Vec<u64>,
    /// The slots it takes once in use (`prepare` allocates them).
    size: usize,
    tag: Option<Tag>,
}

/// The key bits a slot keeps (the high 48).
const KEY_MASK: u64 = !0xffff;

impl EvalCache {
    /// A cache of `2^bits` slots (`8 · 2^bits` bytes), empty, allocated
    /// now.
    pub fn with_bits(bits: u32) -> EvalCache {
        EvalCache {
            slots: vec![0; 1 << bits],
            size: 1 << bits,
            tag: None,
        }
    }

    /// A searcher's cache of `2^params::EVAL_CACHE_BITS` slots, allocated
    /// by its first `prepare` (a searcher that never evaluates with the
    /// net never holds them).
    pub fn new() -> EvalCache {
        EvalCache {
            slots: Vec::new(),
            size: 1 << params::EVAL_CACHE_BITS,
            tag: None,
        }
    }

    /// Bytes it holds.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<u64>()
    }

    /// Make the cache speak for `tag`: emptied unless it already does
    /// (allocated if it was not yet).
    pub fn prepare(&mut self, tag: Tag) {
        if self.slots.len() != self.size {
            self.slots = vec![0; self.size];
        } else if !self.tag.as_ref().is_some_and(|t| t.same(&tag)) {
            self.slots.fill(0);
            self.tag = Some(tag);
        }
    }

    /// Has it slots (is it in use)?
    #[inline]
    pub fn enabled(&self) -> bool {
        !self.slots.is_empty()
    }

    /// The score stored for `key`, if its slot holds it.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Score> {
        let e = *self.slots.get(self.index(key))?;
        (e != 0 && (e ^ key) & KEY_MASK == 0).then_some(e as u16 as i16 as Score)
    }

    /// Remember `score` for `key` (replacing what its slot held).
    #[inline]
    pub fn store(&mut self, key: u64, score: Score) {
        debug_assert!(i16::try_from(score).is_ok(), "score {score} fits 16 bits");
        let i = self.index(key);
        if let Some(slot) = self.slots.get_mut(i) {
            *slot = (key & KEY_MASK) | (score as i16 as u16 as u64);
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // The slot count is a power of two (or zero: no slot matches).
        (key as usize) & self.slots.len().wrapping_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::eval::net::embedded_net_for;
    use crate::brain::types::Rule;

    #[test]
    fn finds_what_it_stored_and_nothing_else() {
        let mut c = EvalCache::with_bits(4);
        assert_eq!(c.bytes(), 128);
        let k = 0x1234_5678_9abc_0003u64;
        assert_eq!(c.probe(k), None);
        for s in [-20_000, -1, 0, 1, 7, 20_000] {
            c.store(k, s);
            assert_eq!(c.probe(k), Some(s));
        }
        // Same slot, another key: a miss, until it replaces the first.
        let other = k ^ (1 << 40);
        assert_eq!(c.probe(other), None);
        c.store(other, 5);
        assert_eq!(c.probe(other), Some(5));
        assert_eq!(c.probe(k), None);
        // A searcher's cache holds nothing until prepared.
        let mut lazy = EvalCache::new();
        assert!(!lazy.enabled() && lazy.bytes() == 0);
        lazy.store(k, 3);
        assert_eq!(lazy.probe(k), None);
        let fs = Board::square(15, Rule::Freestyle.into()).unwrap();
        lazy.prepare(Tag::of(&embedded_net_for(Rule::Freestyle), &fs));
        assert_eq!(lazy.bytes(), 8 << params::EVAL_CACHE_BITS);
        lazy.store(k, 3);
        assert_eq!(lazy.probe(k), Some(3));
        // The disabled cache keeps nothing.
        let mut d = EvalCache::default();
        assert!(!d.enabled());
        d.store(k, 3);
        assert_eq!(d.probe(k), None);
    }

    #[test]
    fn another_tag_empties_it_the_same_keeps_it() {
        let fs = Board::square(15, Rule::Freestyle.into()).unwrap();
        let renju = Board::square(15, Rule::Renju.into()).unwrap();
        let big = Board::square(20, Rule::Freestyle.into()).unwrap();
        let net = embedded_net_for(Rule::Freestyle);
        let other = net.clone();
        let mut c = EvalCache::with_bits(4);
        let k = 0xdead_beef_0000_0001u64;
        c.prepare(Tag::of(&net, &fs));
        c.store(k, 42);
        c.prepare(Tag::of(&net, &fs));
        assert_eq!(c.probe(k), Some(42), "the same tag keeps the scores");
        for tag in [
            Tag::of(&net, &renju),
            Tag::of(&net, &big),
            Tag::of(&Arc::new(QuantNet::new(&other.weights).unwrap()), &fs),
        ] {
            c.prepare(Tag::of(&net, &fs));
            c.store(k, 42);
            c.prepare(tag);
            assert_eq!(c.probe(k), None, "another tag empties it");
        }
    }
}
