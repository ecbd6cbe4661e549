//! Position evaluation from line patterns.
