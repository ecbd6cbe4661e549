//! The Gomocup protocol: commands in (`command`), answers out (`response`),
//! each command turned into calls on the engine (`session`), threads and
//! pipes (`io`). Everything that thinks is behind `crate::brain::engine`.

pub mod command;
pub mod io;
pub mod realtime;
pub mod response;
pub mod session;

pub use command::{parse, Command, ParseError, Parser};
pub use response::Response;
pub use session::Session;
