//! The Gomocup protocol: commands in (`command`), answers out (`response`),
//! the legality guard (`legal`), game state (`session`), thinking on the
//! opponent's time (`ponder`), SWAP2 decisions (`swap2`), threads and pipes (`io`).

pub mod command;
pub mod io;
pub mod legal;
pub mod ponder;
pub mod response;
pub mod session;
pub mod swap2;

pub use command::{parse, Command, ParseError, Parser};
pub use response::Response;
pub use session::Session;
