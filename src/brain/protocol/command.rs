//! Protocol input: one manager line → a typed `Command` (or a typed
//! `ParseError`), and the small state machine (`Parser`) that assembles the
//! multi-line commands `BOARD`/`YXBOARD … DONE`, `SWAP2BOARD … DONE` and
//! `YXBLOCK`/`YXBLOCKUNDO … DONE`: one machine for all of them, each list's
//! own rules (name, line limit, line reader, command at DONE) in `List`.
//!
//! Nothing here touches a board: coordinates stay as the manager sent them
//! (signed, possibly out of range); the session checks them against the board.

use std::fmt;

/// The most stone lines a BOARD may carry (a 32×32 board plus slack); more
/// means a broken manager, and collecting stops with an error.
pub const MAX_BOARD_LINES: usize = 32 * 32 + 16;

/// BOARD field 3 and friends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// 1: the brain's own stone.
    Own,
    /// 2: the opponent's stone.
    Opponent,
    /// 3: a neutral stone (finished line in a continuous game).
    Neutral,
}

/// One stone line of a BOARD: `x,y,field`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardStone {
    pub x: i64,
    pub y: i64,
    pub field: Field,
}

/// `INFO key value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    TimeoutTurn(i64),
    TimeoutMatch(i64),
    TimeLeft(i64),
    MaxMemory(i64),
    GameType(i64),
    Rule(i64),
    Evaluate(i64, i64),
    Folder(String),
    ThreadNum(i64),
    MaxDepth(i64),
    MaxNode(i64),
    Pondering(i64),
    CautionFactor(i64),
    Strength(i64),
    /// Yixin-Board's live view: 0 none, 1 realtime, 2 detail, 3 both.
    ShowDetail(i64),
    /// The game ends after this many stones (0 or less: no limit).
    MaxMoves(i64),
    /// How a game at the move limit ends: 0 draw, 1 Black wins, 2 White wins.
    DrawResult(i64),
    /// Fischer increment in ms.
    TimeIncrement(i64),
    /// The first search depth.
    StartDepth(i64),
    /// A key we do not know: ignored, as the protocol asks.
    Unknown(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Start(i64),
    RectStart(i64, i64),
    Restart,
    Begin,
    Turn(i64, i64),
    /// `BOARD` (answer with a move) or `YXBOARD` (`analysis`: just set it).
    Board {
        analysis: bool,
        stones: Vec<BoardStone>,
    },
    Info(Info),
    End,
    About,
    Takeback(i64, i64),
    Play(i64, i64),
    /// SWAP2BOARD with its 0, 3 or 5 stones (Black first, alternating).
    Swap2Board(Vec<(i64, i64)>),
    /// `YXSTOP` or `STOP`.
    Stop,
    NBest(i64),
    /// `YXBALANCEONE s` (`two` false) / `YXBALANCETWO s`.
    Balance {
        two: bool,
        bias: i64,
    },
    ShowForbid,
    HashClear,
    ShowInfo,
    /// `YXBLOCK … DONE` (`undo`: `YXBLOCKUNDO … DONE`): root moves to leave
    /// out of every search, or to take back into it.
    Block {
        undo: bool,
        moves: Vec<(i64, i64)>,
    },
    /// `YXBLOCKRESET`: leave no move out.
    BlockReset,
    /// `YXSEARCHDEFEND`: the moves that keep the opponent from a forced win.
    SearchDefend,
    /// `YXSHOWHASHUSAGE`.
    ShowHashUsage,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not a command we know (answer `UNKNOWN`).
    UnknownCommand(String),
    /// A known command without a needed argument.
    Missing(&'static str, &'static str),
    /// A known command whose argument is not a number.
    BadNumber(&'static str, String),
    /// A coordinate that is not `x,y`.
    BadCoord(&'static str, String),
    /// Extra arguments after a complete command.
    Trailing(&'static str, String),
    /// A line inside BOARD, SWAP2BOARD or YXBLOCK that cannot be read.
    BadStone(&'static str, String),
    /// BOARD/SWAP2BOARD/YXBLOCK interrupted by another command before DONE.
    CutShort(&'static str),
    /// Too many lines before DONE.
    TooManyStones(&'static str),
    /// SWAP2BOARD with a stone count other than 0, 3 or 5.
    Swap2Count(usize),
    /// DONE without a BOARD, SWAP2BOARD or YXBLOCK.
    StrayDone,
    /// A line longer than the reader accepts.
    TooLong(usize),
    /// A line that is not UTF-8.
    NotUtf8,
}

impl ParseError {
    /// Does this error get an `UNKNOWN` answer (rather than `ERROR`)?
    pub fn is_unknown(&self) -> bool {
        matches!(self, ParseError::UnknownCommand(_))
    }
}

/// Shorten what we echo back, so an answer stays one readable line.
fn clip(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(MAX).collect();
        t.push('…');
        t
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand(w) => write!(f, "unknown command '{}'", clip(w)),
            ParseError::Missing(cmd, what) => write!(f, "{cmd}: missing {what}"),
            ParseError::BadNumber(cmd, s) => write!(f, "{cmd}: '{}' is not a number", clip(s)),
            ParseError::BadCoord(cmd, s) => {
                write!(f, "{cmd}: '{}' is not a coordinate x,y", clip(s))
            }
            ParseError::Trailing(cmd, s) => write!(f, "{cmd}: unexpected '{}'", clip(s)),
            ParseError::BadStone(cmd, s) => write!(f, "{cmd}: bad stone line '{}'", clip(s)),
            ParseError::CutShort(cmd) => write!(f, "{cmd} cut short before DONE; ignored"),
            ParseError::TooManyStones(cmd) => write!(f, "{cmd}: too many stone lines"),
            ParseError::Swap2Count(n) => {
                write!(f, "SWAP2BOARD: {n} stones given, expected 0, 3 or 5")
            }
            ParseError::StrayDone => f.write_str("DONE without BOARD or YXBLOCK"),
            ParseError::TooLong(n) => write!(f, "line too long ({n} bytes); ignored"),
            ParseError::NotUtf8 => f.write_str("line is not valid UTF-8; ignored"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parse an integer the way managers write them (optional sign, digits).
fn number(cmd: &'static str, s: &str) -> Result<i64, ParseError> {
    let s = s.trim();
    s.parse::<i64>()
        .map_err(|_| ParseError::BadNumber(cmd, s.to_string()))
}

/// Split `s` into comma-separated numbers, spaces around them allowed.
fn numbers(s: &str) -> Option<Vec<i64>> {
    s.split(',')
        .map(|t| t.trim().parse::<i64>().ok())
        .collect::<Option<Vec<i64>>>()
}

/// `x,y` (spaces allowed around the numbers and the comma).
fn coord(cmd: &'static str, s: &str) -> Result<(i64, i64), ParseError> {
    if s.trim().is_empty() {
        return Err(ParseError::Missing(cmd, "coordinate x,y"));
    }
    match numbers(s).as_deref() {
        Some([x, y]) => Ok((*x, *y)),
        _ => Err(ParseError::BadCoord(cmd, s.trim().to_string())),
    }
}

/// `x,y,field` inside BOARD.
fn board_stone(s: &str) -> Result<BoardStone, ParseError> {
    let bad = || ParseError::BadStone("BOARD", s.trim().to_string());
    match numbers(s).as_deref() {
        Some([x, y, f]) => {
            let field = match f {
                1 => Field::Own,
                2 => Field::Opponent,
                3 => Field::Neutral,
                _ => return Err(bad()),
            };
            Ok(BoardStone {
                x: *x,
                y: *y,
                field,
            })
        }
        _ => Err(bad()),
    }
}

fn no_args(cmd: &'static str, rest: &str, c: Command) -> Result<Command, ParseError> {
    if rest.is_empty() {
        Ok(c)
    } else {
        Err(ParseError::Trailing(cmd, rest.to_string()))
    }
}

fn parse_info(rest: &str) -> Result<Command, ParseError> {
    const C: &str = "INFO";
    let (key, value) = match rest.split_once(char::is_whitespace) {
        Some((k, v)) => (k, v.trim()),
        None => (rest, ""),
    };
    if key.is_empty() {
        return Err(ParseError::Missing(C, "key"));
    }
    let key_lc = key.to_ascii_lowercase();
    let num = |v: &str| -> Result<i64, ParseError> {
        if v.is_empty() {
            Err(ParseError::Missing(C, "value"))
        } else {
            number(C, v)
        }
    };
    let info = match key_lc.as_str() {
        "timeout_turn" => Info::TimeoutTurn(num(value)?),
        "timeout_match" => Info::TimeoutMatch(num(value)?),
        "time_left" => Info::TimeLeft(num(value)?),
        "max_memory" => Info::MaxMemory(num(value)?),
        "game_type" => Info::GameType(num(value)?),
        "rule" => Info::Rule(num(value)?),
        "evaluate" => {
            let (x, y) = coord(C, value)?;
            Info::Evaluate(x, y)
        }
        "folder" => Info::Folder(value.to_string()),
        "thread_num" => Info::ThreadNum(num(value)?),
        "max_depth" => Info::MaxDepth(num(value)?),
        "max_node" => Info::MaxNode(num(value)?),
        "pondering" => Info::Pondering(num(value)?),
        "caution_factor" => Info::CautionFactor(num(value)?),
        "strength" => Info::Strength(num(value)?),
        "show_detail" => Info::ShowDetail(num(value)?),
        "max_moves" => Info::MaxMoves(num(value)?),
        "draw_result" => Info::DrawResult(num(value)?),
        "time_increment" => Info::TimeIncrement(num(value)?),
        "start_depth" => Info::StartDepth(num(value)?),
        _ => Info::Unknown(key.to_string()),
    };
    Ok(Command::Info(info))
}

/// Parse one single-line command. `BOARD`, `YXBOARD`, `SWAP2BOARD`,
/// `YXBLOCK` and `YXBLOCKUNDO` come back with no stones: the `Parser`
/// collects their lines.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let upper = word.to_ascii_uppercase();
    match upper.as_str() {
        "START" => {
            if rest.is_empty() {
                return Err(ParseError::Missing("START", "board size"));
            }
            Ok(Command::Start(number("START", rest)?))
        }
        "RECTSTART" => {
            const C: &str = "RECTSTART";
            if rest.is_empty() {
                return Err(ParseError::Missing(C, "width,height"));
            }
            let (w, h) = coord(C, rest)?;
            Ok(Command::RectStart(w, h))
        }
        "RESTART" => no_args("RESTART", rest, Command::Restart),
        "BEGIN" => no_args("BEGIN", rest, Command::Begin),
        "TURN" => {
            let (x, y) = coord("TURN", rest)?;
            Ok(Command::Turn(x, y))
        }
        "BOARD" => no_args(
            "BOARD",
            rest,
            Command::Board {
                analysis: false,
                stones: Vec::new(),
            },
        ),
        "YXBOARD" => no_args(
            "YXBOARD",
            rest,
            Command::Board {
                analysis: true,
                stones: Vec::new(),
            },
        ),
        "SWAP2BOARD" => no_args("SWAP2BOARD", rest, Command::Swap2Board(Vec::new())),
        "DONE" => Err(ParseError::StrayDone),
        "INFO" => parse_info(rest),
        "END" => Ok(Command::End),
        "ABOUT" => Ok(Command::About),
        "TAKEBACK" => {
            let (x, y) = coord("TAKEBACK", rest)?;
            Ok(Command::Takeback(x, y))
        }
        "PLAY" => {
            let (x, y) = coord("PLAY", rest)?;
            Ok(Command::Play(x, y))
        }
        "YXSTOP" | "STOP" => Ok(Command::Stop),
        "YXNBEST" => {
            if rest.is_empty() {
                return Err(ParseError::Missing("YXNBEST", "count"));
            }
            Ok(Command::NBest(number("YXNBEST", rest)?))
        }
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let cmd = if upper == "YXBALANCEONE" {
                "YXBALANCEONE"
            } else {
                "YXBALANCETWO"
            };
            if rest.is_empty() {
                return Err(ParseError::Missing(cmd, "bias"));
            }
            Ok(Command::Balance {
                two: cmd == "YXBALANCETWO",
                bias: number(cmd, rest)?,
            })
        }
        "YXSHOWFORBID" => Ok(Command::ShowForbid),
        "YXHASHCLEAR" => Ok(Command::HashClear),
        "YXSHOWINFO" => Ok(Command::ShowInfo),
        "YXBLOCK" | "YXBLOCKUNDO" => {
            let undo = upper == "YXBLOCKUNDO";
            let name = if undo { "YXBLOCKUNDO" } else { "YXBLOCK" };
            no_args(
                name,
                rest,
                Command::Block {
                    undo,
                    moves: Vec::new(),
                },
            )
        }
        "YXBLOCKRESET" => no_args("YXBLOCKRESET", rest, Command::BlockReset),
        "YXSEARCHDEFEND" => no_args("YXSEARCHDEFEND", rest, Command::SearchDefend),
        "YXSHOWHASHUSAGE" => no_args("YXSHOWHASHUSAGE", rest, Command::ShowHashUsage),
        _ => Err(ParseError::UnknownCommand(word.to_string())),
    }
}

/// A multi-line list being collected, with the lines read so far. Each kind
/// names itself in errors, caps its lines, reads a line its own way and
/// makes its command at DONE; the `Parser` runs the one state machine for all.
#[derive(Debug)]
enum List {
    Board {
        analysis: bool,
        stones: Vec<BoardStone>,
    },
    Swap2(Vec<(i64, i64)>),
    Block {
        undo: bool,
        moves: Vec<(i64, i64)>,
    },
}

impl List {
    /// The empty list that `cmd` (as `parse` returns it) opens, if any.
    fn opened_by(cmd: &Command) -> Option<List> {
        match *cmd {
            Command::Board { analysis, .. } => Some(List::Board {
                analysis,
                stones: Vec::new(),
            }),
            Command::Swap2Board(_) => Some(List::Swap2(Vec::new())),
            Command::Block { undo, .. } => Some(List::Block {
                undo,
                moves: Vec::new(),
            }),
            _ => None,
        }
    }

    /// The command name its errors carry.
    fn name(&self) -> &'static str {
        match self {
            List::Board {
                analysis: false, ..
            } => "BOARD",
            List::Board { analysis: true, .. } => "YXBOARD",
            List::Swap2(_) => "SWAP2BOARD",
            List::Block { undo: false, .. } => "YXBLOCK",
            List::Block { undo: true, .. } => "YXBLOCKUNDO",
        }
    }

    /// Read one more line into the list: `TooManyStones` once it holds its
    /// most, `BadStone` for a line that is not one of its items.
    fn push(&mut self, line: &str) -> Result<(), ParseError> {
        let name = self.name();
        let (len, limit) = match self {
            List::Board { stones, .. } => (stones.len(), MAX_BOARD_LINES),
            List::Swap2(points) => (points.len(), 5),
            List::Block { moves, .. } => (moves.len(), MAX_BOARD_LINES),
        };
        if len >= limit {
            return Err(ParseError::TooManyStones(name));
        }
        let bad = |_| ParseError::BadStone(name, line.to_string());
        match self {
            List::Board { stones, .. } => stones.push(board_stone(line)?),
            List::Swap2(points) | List::Block { moves: points, .. } => {
                points.push(coord(name, line).map_err(bad)?)
            }
        }
        Ok(())
    }

    /// The command the complete list makes (SWAP2BOARD: 0, 3 or 5 stones).
    fn finish(self) -> Result<Command, ParseError> {
        match self {
            List::Board { analysis, stones } => Ok(Command::Board { analysis, stones }),
            List::Swap2(stones) if ![0, 3, 5].contains(&stones.len()) => {
                Err(ParseError::Swap2Count(stones.len()))
            }
            List::Swap2(stones) => Ok(Command::Swap2Board(stones)),
            List::Block { undo, moves } => Ok(Command::Block { undo, moves }),
        }
    }
}

/// What the parser is in the middle of.
#[derive(Debug)]
enum State {
    Idle,
    /// A list until DONE; `error` is its first bad line (or overflow), after
    /// which its lines are no longer read.
    Collecting {
        list: List,
        error: Option<ParseError>,
    },
}

/// Line-by-line assembler: feed it every non-empty input line; it answers
/// with the complete commands (or errors) that line finished.
///
/// Inside BOARD/SWAP2BOARD/YXBLOCK a line that begins with a letter (other than
/// DONE) means the manager gave up on the list: the collection is dropped
/// with a `CutShort` error and the line is parsed as a command of its own. A
/// malformed stone line poisons the collection, which then ends at DONE with
/// that error (and changes nothing).
#[derive(Debug)]
pub struct Parser {
    state: State,
}

impl Default for Parser {
    fn default() -> Self {
        Parser::new()
    }
}

impl Parser {
    pub fn new() -> Self {
        Parser { state: State::Idle }
    }

    /// True while a BOARD, SWAP2BOARD or YXBLOCK list is being collected.
    pub fn collecting(&self) -> bool {
        !matches!(self.state, State::Idle)
    }

    pub fn feed(&mut self, line: &str) -> Vec<Result<Command, ParseError>> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        let starts_word = line.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
        let is_done = line.eq_ignore_ascii_case("DONE");
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Idle => {
                let parsed = parse(line);
                match parsed.as_ref().ok().and_then(List::opened_by) {
                    Some(list) => {
                        self.state = State::Collecting { list, error: None };
                        Vec::new()
                    }
                    None => vec![parsed],
                }
            }
            State::Collecting { list, error } if is_done => {
                vec![match error {
                    Some(e) => Err(e),
                    None => list.finish(),
                }]
            }
            State::Collecting { list, .. } if starts_word => {
                let mut out = vec![Err(ParseError::CutShort(list.name()))];
                out.extend(self.feed(line));
                out
            }
            State::Collecting {
                mut list,
                mut error,
            } => {
                if error.is_none() {
                    error = list.push(line).err();
                }
                self.state = State::Collecting { list, error };
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(parse("START 15"), Ok(Command::Start(15)));
        assert_eq!(parse("start   20 "), Ok(Command::Start(20)));
        assert_eq!(parse("RECTSTART 20, 15"), Ok(Command::RectStart(20, 15)));
        assert_eq!(parse("TURN 7,8"), Ok(Command::Turn(7, 8)));
        assert_eq!(parse("turn 7 , 8"), Ok(Command::Turn(7, 8)));
        assert_eq!(parse("TURN -1,8"), Ok(Command::Turn(-1, 8)));
        assert_eq!(parse("Begin"), Ok(Command::Begin));
        assert_eq!(parse("yxstop"), Ok(Command::Stop));
        assert_eq!(parse("STOP"), Ok(Command::Stop));
        assert_eq!(parse("YXNBEST 3"), Ok(Command::NBest(3)));
        assert_eq!(
            parse("YXBALANCEONE -40"),
            Ok(Command::Balance {
                two: false,
                bias: -40
            })
        );
        assert_eq!(
            parse("yxbalancetwo 0"),
            Ok(Command::Balance { two: true, bias: 0 })
        );
        assert!(parse("YXBALANCEONE").is_err());
        assert!(parse("YXBALANCETWO x").is_err());
        assert_eq!(parse("TAKEBACK 1,2"), Ok(Command::Takeback(1, 2)));
        assert_eq!(parse("PLAY 1,2"), Ok(Command::Play(1, 2)));
        assert_eq!(parse("END"), Ok(Command::End));
    }

    #[test]
    fn info_keys() {
        assert_eq!(
            parse("INFO time_left -250"),
            Ok(Command::Info(Info::TimeLeft(-250)))
        );
        assert_eq!(
            parse("INFO TIMEOUT_TURN 5000"),
            Ok(Command::Info(Info::TimeoutTurn(5000)))
        );
        assert_eq!(
            parse("INFO folder C:\\tmp dir"),
            Ok(Command::Info(Info::Folder("C:\\tmp dir".into())))
        );
        assert_eq!(
            parse("INFO evaluate 3,4"),
            Ok(Command::Info(Info::Evaluate(3, 4)))
        );
        assert_eq!(
            parse("INFO usedatabase 1"),
            Ok(Command::Info(Info::Unknown("usedatabase".into())))
        );
        assert!(matches!(
            parse("INFO rule x"),
            Err(ParseError::BadNumber(..))
        ));
        assert!(matches!(parse("INFO rule"), Err(ParseError::Missing(..))));
        assert!(matches!(parse("INFO"), Err(ParseError::Missing(..))));
    }

    #[test]
    fn errors_are_typed() {
        assert!(parse("FOO 1").unwrap_err().is_unknown());
        assert!(matches!(parse("TURN"), Err(ParseError::Missing(..))));
        assert!(matches!(parse("TURN 1"), Err(ParseError::BadCoord(..))));
        assert!(matches!(parse("TURN 1,2,3"), Err(ParseError::BadCoord(..))));
        assert!(matches!(parse("TURN a,b"), Err(ParseError::BadCoord(..))));
        assert!(matches!(
            parse("TURN 99999999999999999999,1"),
            Err(ParseError::BadCoord(..))
        ));
        assert!(matches!(parse("START x"), Err(ParseError::BadNumber(..))));
        assert!(matches!(parse("BEGIN 3"), Err(ParseError::Trailing(..))));
        assert!(!parse("START").unwrap_err().to_string().is_empty());
    }

    #[test]
    fn board_assembly() {
        let mut p = Parser::new();
        assert!(p.feed("BOARD").is_empty());
        assert!(p.collecting());
        assert!(p.feed("7,7,1").is_empty());
        assert!(p.feed(" 8 , 8 , 2 ").is_empty());
        let out = p.feed("done");
        assert!(!p.collecting());
        assert_eq!(
            out,
            vec![Ok(Command::Board {
                analysis: false,
                stones: vec![
                    BoardStone {
                        x: 7,
                        y: 7,
                        field: Field::Own
                    },
                    BoardStone {
                        x: 8,
                        y: 8,
                        field: Field::Opponent
                    }
                ]
            })]
        );
    }

    #[test]
    fn board_cut_short_and_poisoned() {
        let mut p = Parser::new();
        p.feed("BOARD");
        p.feed("7,7,1");
        let out = p.feed("ABOUT");
        assert_eq!(
            out,
            vec![Err(ParseError::CutShort("BOARD")), Ok(Command::About)]
        );
        p.feed("YXBOARD");
        p.feed("7,7,9");
        p.feed("8,8,1");
        let out = p.feed("DONE");
        assert!(matches!(out[..], [Err(ParseError::BadStone(..))]));
        assert_eq!(p.feed("DONE"), vec![Err(ParseError::StrayDone)]);
    }

    #[test]
    fn block_lists_are_collected_until_done() {
        let mut p = Parser::new();
        assert!(p.feed("YXBLOCK").is_empty());
        assert!(p.collecting());
        p.feed("3,4");
        p.feed(" 5 , 6 ");
        assert_eq!(
            p.feed("DONE"),
            vec![Ok(Command::Block {
                undo: false,
                moves: vec![(3, 4), (5, 6)]
            })]
        );
        p.feed("yxblockundo");
        p.feed("3,4");
        assert_eq!(
            p.feed("done"),
            vec![Ok(Command::Block {
                undo: true,
                moves: vec![(3, 4)]
            })]
        );
        // A bad line poisons the list; a command cuts it short.
        p.feed("YXBLOCK");
        p.feed("3,x");
        p.feed("4,4");
        assert!(matches!(
            p.feed("DONE")[..],
            [Err(ParseError::BadStone(..))]
        ));
        p.feed("YXBLOCK");
        p.feed("1,1");
        assert_eq!(
            p.feed("YXBLOCKRESET"),
            vec![
                Err(ParseError::CutShort("YXBLOCK")),
                Ok(Command::BlockReset)
            ]
        );
        assert!(matches!(
            parse("YXBLOCK 3,4"),
            Err(ParseError::Trailing(..))
        ));
        assert_eq!(parse("YXSEARCHDEFEND"), Ok(Command::SearchDefend));
        assert_eq!(parse("yxshowhashusage"), Ok(Command::ShowHashUsage));
        assert_eq!(
            parse("INFO show_detail 3"),
            Ok(Command::Info(Info::ShowDetail(3)))
        );
        assert_eq!(
            parse("INFO time_increment 500"),
            Ok(Command::Info(Info::TimeIncrement(500)))
        );
    }

    #[test]
    fn swap2_assembly() {
        let mut p = Parser::new();
        p.feed("SWAP2BOARD");
        assert_eq!(p.feed("DONE"), vec![Ok(Command::Swap2Board(vec![]))]);
        p.feed("SWAP2BOARD");
        p.feed("7,7");
        p.feed("7,8");
        assert_eq!(p.feed("DONE"), vec![Err(ParseError::Swap2Count(2))]);
        p.feed("SWAP2BOARD");
        for s in ["7,7", "7,8", "8,8"] {
            p.feed(s);
        }
        assert_eq!(
            p.feed("DONE"),
            vec![Ok(Command::Swap2Board(vec![(7, 7), (7, 8), (8, 8)]))]
        );
    }

    /// One of the five list openers, for the tests every list must pass.
    struct ListCase {
        open: &'static str,
        /// The name its errors carry.
        name: &'static str,
        limit: usize,
        good: &'static str,
        /// The name a bad line's `BadStone` carries: BOARD's stone reader
        /// says BOARD for YXBOARD too.
        bad_name: &'static str,
        /// The command `n` good lines make.
        made: fn(usize) -> Command,
    }

    const STONE: BoardStone = BoardStone {
        x: 7,
        y: 7,
        field: Field::Own,
    };

    fn list_cases() -> [ListCase; 5] {
        [
            ListCase {
                open: "BOARD",
                name: "BOARD",
                limit: MAX_BOARD_LINES,
                good: "7,7,1",
                bad_name: "BOARD",
                made: |n| Command::Board {
                    analysis: false,
                    stones: vec![STONE; n],
                },
            },
            ListCase {
                open: "yxboard",
                name: "YXBOARD",
                limit: MAX_BOARD_LINES,
                good: "7,7,1",
                bad_name: "BOARD",
                made: |n| Command::Board {
                    analysis: true,
                    stones: vec![STONE; n],
                },
            },
            ListCase {
                open: "SWAP2BOARD",
                name: "SWAP2BOARD",
                limit: 5,
                good: "7,7",
                bad_name: "SWAP2BOARD",
                made: |n| Command::Swap2Board(vec![(7, 7); n]),
            },
            ListCase {
                open: "YXBLOCK",
                name: "YXBLOCK",
                limit: MAX_BOARD_LINES,
                good: "7,7",
                bad_name: "YXBLOCK",
                made: |n| Command::Block {
                    undo: false,
                    moves: vec![(7, 7); n],
                },
            },
            ListCase {
                open: "YxBlockUndo",
                name: "YXBLOCKUNDO",
                limit: MAX_BOARD_LINES,
                good: "7,7",
                bad_name: "YXBLOCKUNDO",
                made: |n| Command::Block {
                    undo: true,
                    moves: vec![(7, 7); n],
                },
            },
        ]
    }

    /// Open `c` and feed it `n` good lines, none of which answers.
    fn fill(p: &mut Parser, c: &ListCase, n: usize) {
        assert!(p.feed(c.open).is_empty(), "{}", c.open);
        for _ in 0..n {
            assert!(p.feed(c.good).is_empty(), "{}", c.open);
        }
        assert!(p.collecting(), "{}", c.open);
    }

    #[test]
    fn every_list_holds_at_most_its_limit() {
        for c in list_cases() {
            let mut p = Parser::new();
            fill(&mut p, &c, c.limit);
            assert_eq!(p.feed("DONE"), vec![Ok((c.made)(c.limit))], "{}", c.open);
            assert!(!p.collecting());
            fill(&mut p, &c, c.limit + 1);
            assert_eq!(
                p.feed("done"),
                vec![Err(ParseError::TooManyStones(c.name))],
                "{}",
                c.open
            );
            // The first error stays: a bad line after the overflow does not
            // replace it, and an overflow after a bad line does not either.
            fill(&mut p, &c, c.limit + 1);
            assert!(p.feed("1,x").is_empty());
            assert_eq!(
                p.feed("Done"),
                vec![Err(ParseError::TooManyStones(c.name))],
                "{}",
                c.open
            );
            fill(&mut p, &c, 0);
            assert!(p.feed("1,x").is_empty());
            for _ in 0..=c.limit {
                assert!(p.feed(c.good).is_empty());
            }
            assert_eq!(
                p.feed("DONE"),
                vec![Err(ParseError::BadStone(c.bad_name, "1,x".into()))],
                "{}",
                c.open
            );
            assert_eq!(p.feed("DONE"), vec![Err(ParseError::StrayDone)]);
        }
    }

    #[test]
    fn every_list_is_cut_short_by_a_command_line_then_parses_it() {
        let cases = list_cases();
        for (i, c) in cases.iter().enumerate() {
            let mut p = Parser::new();
            fill(&mut p, c, 1);
            assert_eq!(
                p.feed("about"),
                vec![Err(ParseError::CutShort(c.name)), Ok(Command::About)],
                "{}",
                c.open
            );
            assert!(!p.collecting());
            // A poisoned list is cut short alike, its error dropped.
            fill(&mut p, c, 0);
            assert!(p.feed(" 1 , x ").is_empty());
            assert_eq!(
                p.feed("TURN 1,2"),
                vec![Err(ParseError::CutShort(c.name)), Ok(Command::Turn(1, 2))],
                "{}",
                c.open
            );
            // The line is parsed as it stands: an unknown word, or the
            // opener of another list (which is then collected).
            fill(&mut p, c, 2);
            assert_eq!(
                p.feed("FOO"),
                vec![
                    Err(ParseError::CutShort(c.name)),
                    Err(ParseError::UnknownCommand("FOO".into()))
                ],
                "{}",
                c.open
            );
            let next = &cases[(i + 1) % cases.len()];
            fill(&mut p, c, 1);
            assert_eq!(
                p.feed(next.open),
                vec![Err(ParseError::CutShort(c.name))],
                "{}",
                c.open
            );
            assert!(p.collecting());
            assert_eq!(p.feed("dOnE"), vec![Ok((next.made)(0))], "{}", next.open);
            // A bad line poisons the list until DONE (trimmed in the error).
            fill(&mut p, c, 1);
            assert!(p.feed(" 1 , x ").is_empty());
            assert!(p.feed(c.good).is_empty());
            assert!(p.collecting());
            assert_eq!(
                p.feed("DONE"),
                vec![Err(ParseError::BadStone(c.bad_name, "1 , x".into()))],
                "{}",
                c.open
            );
            assert!(!p.collecting());
        }
    }
}
