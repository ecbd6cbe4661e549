//! Protocol output: `Response`, whose `Display` writes exactly one Piskvork
//! line (without the line ending; the writer adds it). Free text is made
//! single-line here, so nothing a message contains can break a manager.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `OK`
    Ok,
    /// `x,y`: our move.
    Move(usize, usize),
    /// `x,y x,y …`: several moves on one line (SWAP2BOARD).
    Moves(Vec<(usize, usize)>),
    /// `SWAP` (SWAP2BOARD: we take the other colour).
    Swap,
    /// The ABOUT line: `name="…", version="…", …` (given without quotes).
    About {
        name: String,
        version: String,
        author: String,
        country: String,
    },
    /// `MESSAGE text`
    Message(String),
    /// `DEBUG text`
    Debug(String),
    /// `ERROR text`
    Error(String),
    /// `UNKNOWN text`
    Unknown(String),
    /// `SUGGEST x,y`
    Suggest(usize, usize),
    /// `FORBID xxyyxxyy….`: Black's forbidden points (YXSHOWFORBID), each as
    /// two two-digit numbers, the list closed by a dot.
    Forbid(Vec<(usize, usize)>),
}

/// Free text made safe for one protocol line: line breaks and other control
/// characters become spaces.
pub fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// A quoted ABOUT value: no quotes or line breaks inside.
fn quoted(s: &str) -> String {
    one_line(s).replace('"', "'")
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Ok => f.write_str("OK"),
            Response::Move(x, y) => write!(f, "{x},{y}"),
            Response::Moves(ms) => {
                for (i, (x, y)) in ms.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{x},{y}")?;
                }
                Ok(())
            }
            Response::Swap => f.write_str("SWAP"),
            Response::About {
                name,
                version,
                author,
                country,
            } => write!(
                f,
                "name=\"{}\", version=\"{}\", author=\"{}\", country=\"{}\"",
                quoted(name),
                quoted(version),
                quoted(author),
                quoted(country)
            ),
            Response::Message(s) => write!(f, "MESSAGE {}", one_line(s)),
            Response::Debug(s) => write!(f, "DEBUG {}", one_line(s)),
            Response::Error(s) => write!(f, "ERROR {}", one_line(s)),
            Response::Unknown(s) => write!(f, "UNKNOWN {}", one_line(s)),
            Response::Suggest(x, y) => write!(f, "SUGGEST {x},{y}"),
            Response::Forbid(ps) => {
                f.write_str("FORBID ")?;
                for (x, y) in ps {
                    write!(f, "{x:02}{y:02}")?;
                }
                f.write_str(".")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_lines() {
        assert_eq!(Response::Ok.to_string(), "OK");
        assert_eq!(Response::Move(7, 12).to_string(), "7,12");
        assert_eq!(
            Response::Moves(vec![(1, 2), (3, 4), (5, 6)]).to_string(),
            "1,2 3,4 5,6"
        );
        assert_eq!(Response::Swap.to_string(), "SWAP");
        assert_eq!(Response::Suggest(0, 19).to_string(), "SUGGEST 0,19");
        assert_eq!(
            Response::Forbid(vec![(7, 8), (10, 3)]).to_string(),
            "FORBID 07081003."
        );
        assert_eq!(Response::Forbid(vec![]).to_string(), "FORBID .");
        assert_eq!(
            Response::About {
                name: "Sente".into(),
                version: "0.1.0".into(),
                author: "A \"B\"".into(),
                country: "X".into()
            }
            .to_string(),
            "name=\"Sente\", version=\"0.1.0\", author=\"A 'B'\", country=\"X\""
        );
    }

    #[test]
    fn free_text_stays_on_one_line() {
        let r = Response::Error("bad\r\nthing\rhere\n".into());
        assert_eq!(r.to_string(), "ERROR bad  thing here");
        assert!(!Response::Message("a\nb".into()).to_string().contains('\n'));
        assert_eq!(Response::Unknown("x".into()).to_string(), "UNKNOWN x");
        assert_eq!(Response::Debug("x".into()).to_string(), "DEBUG x");
    }
}
