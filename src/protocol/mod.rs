//! The Gomocup protocol: commands in (`command`), answers out (`response`),
//! game state and decisions (`session`), threads and pipes (`io`).

pub mod command;
pub mod io;
pub mod response;
pub mod session;

pub use command::{parse, Command, ParseError, Parser};
pub use response::Response;
pub use session::Session;
