//! The Gomocup protocol: commands in, answers out, session state.
