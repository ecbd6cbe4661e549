//! The source tree's layering, checked on the sources themselves: no circle
//! of imports between files, none between rooms, and every import from one
//! room into another pointing down the layers below (engine wing, then the
//! command-line helpers, then the laboratory). A new room must be placed in
//! `LAYERS` before it can land.
//!
//! A file's imports are the paths it names with `crate::`, `super::`,
//! `self::` or `sente::` (in `use` lines and in code; comments are left
//! out). A file's inline `#[cfg(test)] mod tests { … }` counts as a node of
//! its own (it is a child module: its imports are not the file's). A folder
//! module's `mod.rs` declares and re-exports its children by their bare
//! names; declarations are not imports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The rooms, bottom first. An import from one room into another must go
/// to a strictly lower layer: the engine wing (`brain`) never reaches the
/// helpers or the laboratory, and no room imports one beside or above it.
const LAYERS: &[&[&str]] = &[
    &["brain/types", "brain/hugepages"],
    &["brain/game"],
    &["brain/eval"],
    &["brain/search"],
    &["brain/engine"],
    &["brain/protocol"],
    &["brain", "cli"],
    &["lab/arena"],
    &["lab/bench", "lab/datagen", "lab/spsa"],
    // The panel judges evaluations; the trainer reads it to keep the
    // panel's games out of a training (`tune net --exclude-panel`).
    &["lab/evalpanel"],
    &["lab/tune"],
    &["lab", "lib", "main", "bin"],
];

#[derive(Default)]
struct Graph {
    /// Node (a file, or `file#tests`) → the files it imports, with a path
    /// that shows why.
    edges: BTreeMap<String, BTreeMap<String, String>>,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read src")
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// `a/b.rs` → `[a, b]`, `a/mod.rs` → `[a]`, `lib.rs` → `[]`.
fn module_path(rel: &str) -> Vec<String> {
    let mut segs: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if segs.last().is_some_and(|s| s == "mod" || s == "lib") {
        segs.pop();
    }
    segs
}

/// The room of a file: `brain/x` or `lab/x` inside a wing, else the file
/// or folder at the top of `src/` (`cli`, `lib`, `main`, `bin`).
fn room(rel: &str) -> String {
    let parts: Vec<&str> = rel.split('/').collect();
    let top = parts[0].trim_end_matches(".rs");
    if (top == "brain" || top == "lab") && parts.len() > 1 && parts[1] != "mod.rs" {
        format!("{top}/{}", parts[1].trim_end_matches(".rs"))
    } else {
        top.to_string()
    }
}

fn layer_of(room: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&room))
}

/// The text without `//` comments (doc comments name paths too).
fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The file's own code and its inline test module, apart.
fn split_tests(text: &str) -> (String, Option<String>) {
    let mut search = 0;
    while let Some(i) = text[search..].find("#[cfg(test)]") {
        let at = search + i;
        let rest = text[at + "#[cfg(test)]".len()..].trim_start();
        if rest.starts_with("mod tests {") {
            return (text[..at].to_string(), Some(text[at..].to_string()));
        }
        search = at + 1;
    }
    (text.to_string(), None)
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e` (no spaces around
/// the separators).
fn expand_use(body: &str) -> Vec<String> {
    let Some(open) = body.find('{') else {
        return vec![body.to_string()];
    };
    let mut depth = 0;
    let mut close = body.len();
    for (j, ch) in body.char_indices().skip(open) {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = j;
                    break;
                }
            }
            _ => {}
        }
    }
    let (prefix, inner) = (&body[..open], &body[open + 1..close]);
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (j, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..j]);
                start = j + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand_use(&format!("{prefix}{p}")))
        .collect()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `a::b::c` → `[a, b, c]`.
fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// Every `crate::`/`super::`/`self::`/`sente::` path in `code`, as
/// segments; `use` statements expanded.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest_of_code = String::new();
    let mut i = 0;
    while i < code.len() {
        let line_start = code[..i].rfind('\n').map_or(0, |n| n + 1);
        let before = code[line_start..i].trim();
        let starts_use = code[i..].starts_with("use ")
            && (before.is_empty() || before.starts_with("pub"))
            && code[i..].contains(';');
        if starts_use {
            let end = i + code[i..].find(';').expect("checked");
            let body = code[i + 4..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let mut tight = body;
            for sep in ["{", "}", ",", "::"] {
                tight = tight
                    .replace(&format!(" {sep}"), sep)
                    .replace(&format!("{sep} "), sep);
            }
            for u in expand_use(&tight) {
                let u = u.split(" as ").next().unwrap_or("");
                out.push(segments(u));
            }
            i = end + 1;
        } else {
            let ch = code[i..].chars().next().expect("in range");
            rest_of_code.push(ch);
            i += ch.len_utf8();
        }
    }
    let r = rest_of_code.as_str();
    for prefix in ["crate::", "super::", "sente::", "self::"] {
        let mut from = 0;
        while let Some(k) = r[from..].find(prefix) {
            let at = from + k;
            from = at + prefix.len();
            if at > 0 && is_ident(r[..at].chars().next_back().expect("at > 0")) {
                continue;
            }
            let tail: String = r[at..]
                .chars()
                .take_while(|&c| is_ident(c) || c == ':')
                .collect();
            out.push(segments(&tail));
        }
    }
    out
}

/// The file a path names: the longest prefix that is a module.
fn resolve(
    me: &[String],
    segs: &[String],
    modules: &BTreeMap<Vec<String>, String>,
) -> Option<String> {
    let target: Vec<String> = match segs.first().map(String::as_str) {
        Some("crate" | "sente") => segs[1..].to_vec(),
        Some("self") => me.iter().chain(&segs[1..]).cloned().collect(),
        Some("super") => {
            let ups = segs.iter().take_while(|s| *s == "super").count();
            let base = &me[..me.len().saturating_sub(ups)];
            base.iter().chain(&segs[ups..]).cloned().collect()
        }
        _ => return None,
    };
    (1..=target.len())
        .rev()
        .find_map(|k| modules.get(&target[..k]).cloned())
}

fn graph() -> Graph {
    let src = src_dir();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let rel = |p: &Path| {
        p.strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/")
    };
    // Modules of the library (the binaries are crates of their own and
    // reach the library as `sente::`).
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|p| rel(p))
        .filter(|r| r != "main.rs" && !r.starts_with("bin/"))
        .map(|r| (module_path(&r), r))
        .collect();
    let mut g = Graph::default();
    for p in &files {
        let r = rel(p);
        let text = strip_comments(&std::fs::read_to_string(p).expect("read source"));
        let (code, tests) = split_tests(&text);
        let me = if r == "main.rs" || r.starts_with("bin/") {
            Vec::new()
        } else {
            module_path(&r)
        };
        let mut nodes = vec![(r.clone(), me.clone(), code)];
        if let Some(t) = tests {
            let mut tm = me.clone();
            tm.push("tests".into());
            nodes.push((format!("{r}#tests"), tm, t));
        }
        for (node, me, code) in nodes {
            let e = g.edges.entry(node).or_default();
            for segs in paths_in(&code) {
                if segs.first().is_some_and(|s| s == "crate")
                    && (r == "main.rs" || r.starts_with("bin/"))
                {
                    continue;
                }
                if let Some(to) = resolve(&me, &segs, &modules) {
                    if to != r {
                        e.entry(to).or_insert_with(|| segs.join("::"));
                    }
                }
            }
        }
    }
    g
}

/// Strongly connected components of more than one node (circles).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        let edges = t.edges;
        for w in edges.get(v).into_iter().flatten() {
            if !t.index.contains_key(w.as_str()) {
                visit(t, w);
                let lw = t.low[w.as_str()];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if t.on.contains(w.as_str()) {
                let iw = t.index[w.as_str()];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = t.stack.pop().expect("on the stack");
                t.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

fn file_of(node: &str) -> &str {
    node.split('#').next().unwrap_or(node)
}

#[test]
fn no_circle_between_files() {
    let g = graph();
    let edges: BTreeMap<String, BTreeSet<String>> = g
        .edges
        .iter()
        .map(|(a, bs)| (a.clone(), bs.keys().cloned().collect()))
        .collect();
    let found = circles(&edges);
    assert!(
        found.is_empty(),
        "circles of imports between files: {found:#?}"
    );
}

#[test]
fn rooms_import_only_rooms_below() {
    let g = graph();
    let mut wrong = Vec::new();
    let mut unplaced = BTreeSet::new();
    let mut rooms: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, bs) in &g.edges {
        let ra = room(file_of(a));
        for (b, why) in bs {
            let rb = room(b);
            if ra == rb {
                continue;
            }
            rooms.entry(ra.clone()).or_default().insert(rb.clone());
            match (layer_of(&ra), layer_of(&rb)) {
                (Some(la), Some(lb)) if lb < la => {}
                (Some(_), Some(_)) => {
                    wrong.push(format!("{a} → {b} ({why}): {ra} may not import {rb}"))
                }
                (la, lb) => {
                    if la.is_none() {
                        unplaced.insert(ra.clone());
                    }
                    if lb.is_none() {
                        unplaced.insert(rb.clone());
                    }
                }
            }
        }
    }
    assert!(
        unplaced.is_empty(),
        "rooms missing from LAYERS: {unplaced:?}"
    );
    assert!(
        wrong.is_empty(),
        "imports that do not go down the layers:\n{}",
        wrong.join("\n")
    );
    assert!(
        circles(&rooms).is_empty(),
        "circles between rooms: {:?}",
        circles(&rooms)
    );
}

/// The checker itself sees what it must: a planted circle, an import up
/// the layers, and the paths of `use` groups, `super::` and code.
#[test]
fn the_checker_finds_planted_faults() {
    let modules: BTreeMap<Vec<String>, String> = [
        ("brain/game/board.rs"),
        ("brain/game/mod.rs"),
        ("brain/search/tt.rs"),
        ("lab/arena/game.rs"),
        ("cli.rs"),
    ]
    .iter()
    .map(|r| (module_path(r), r.to_string()))
    .collect();
    let me = module_path("brain/search/tt.rs");
    let code = "use super::super::game::{\n    board::Board as B,\n    Pos,\n};\nfn f() { crate::lab::arena::game::play(); let x = sente_like::y; }";
    let targets: BTreeSet<String> = paths_in(code)
        .iter()
        .filter_map(|s| resolve(&me, s, &modules))
        .collect();
    assert_eq!(
        targets,
        [
            "brain/game/board.rs",
            "brain/game/mod.rs",
            "lab/arena/game.rs"
        ]
        .map(String::from)
        .into()
    );
    assert_eq!(room("brain/search/tt.rs"), "brain/search");
    assert_eq!(room("brain/mod.rs"), "brain");
    assert_eq!(room("cli.rs"), "cli");
    assert!(layer_of("lab/arena") > layer_of("brain/search"));
    let (code, tests) = split_tests("use a;\n#[cfg(test)]\nmod tests {\n use b;\n}\n");
    assert_eq!((code.as_str(), tests.is_some()), ("use a;\n", true));
    assert_eq!(strip_comments("a // crate::x\n//! crate::y"), "a \n");
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        edges.entry(a.into()).or_default().insert(b.into());
    }
    assert_eq!(circles(&edges), vec![vec!["a", "b", "c"]]);
    edges.get_mut("c").expect("c").remove("a");
    assert!(circles(&edges).is_empty());
}
