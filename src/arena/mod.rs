//! Referee and match runner: plays engines against each other as Gomocup managers do.
