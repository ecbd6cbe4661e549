//! Memory of an engine and its children, read from Linux `/proc`: the sum
//! of the unique set size (private pages, `smaps_rollup`) of every process
//! in the engine's process group or descended from it, falling back to
//! `VmRSS` where `smaps_rollup` cannot be read. Gomocup managers measure USS
//! the same way. Elsewhere than Linux the figures are simply absent.

use std::collections::{HashMap, HashSet};
use std::fs;

/// Parse a `/proc/<pid>/stat` line into (ppid, pgrp).
fn parse_stat(text: &str) -> Option<(i32, i32)> {
    // The command name is in parentheses and may hold spaces.
    let rest = &text[text.rfind(')')? + 1..];
    let mut it = rest.split_whitespace();
    let _state = it.next()?;
    let ppid = it.next()?.parse().ok()?;
    let pgrp = it.next()?.parse().ok()?;
    Some((ppid, pgrp))
}

/// Processes that belong to the engine started as `leader` (which leads its
/// own process group): the group, and every descendant of either.
pub fn family(leader: i32) -> Vec<i32> {
    let mut parent: HashMap<i32, i32> = HashMap::new();
    let mut set: HashSet<i32> = HashSet::new();
    set.insert(leader);
    let Ok(dir) = fs::read_dir("/proc") else {
        return vec![leader];
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if let Some((ppid, pgrp)) = parse_stat(&stat) {
            parent.insert(pid, ppid);
            if pgrp == leader {
                set.insert(pid);
            }
        }
    }
    loop {
        let before = set.len();
        for (&pid, ppid) in &parent {
            if set.contains(ppid) {
                set.insert(pid);
            }
        }
        if set.len() == before {
            break;
        }
    }
    let mut v: Vec<i32> = set.into_iter().collect();
    v.sort_unstable();
    v
}

/// Does any live process belong to process group `pgid`?
pub fn group_has_members(pgid: i32) -> bool {
    let Ok(dir) = fs::read_dir("/proc") else {
        return false;
    };
    dir.flatten().any(|entry| {
        entry
            .file_name()
            .to_str()
            .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|pid| fs::read_to_string(format!("/proc/{pid}/stat")).ok())
            .and_then(|stat| parse_stat(&stat))
            .is_some_and(|(_, pgrp)| pgrp == pgid)
    })
}

/// The value in kB of a `Key:   123 kB` line.
fn field_kb(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .find(|l| l.starts_with(key) && l[key.len()..].starts_with(':'))
        .and_then(|l| l[key.len() + 1..].split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// Unique set size of one process in bytes (VmRSS if smaps cannot be read).
pub fn process_bytes(pid: i32) -> Option<u64> {
    if let Ok(t) = fs::read_to_string(format!("/proc/{pid}/smaps_rollup")) {
        let private = ["Private_Clean", "Private_Dirty", "Private_Hugetlb"]
            .iter()
            .filter_map(|k| field_kb(&t, k))
            .sum::<u64>();
        if private > 0 {
            return Some(private * 1024);
        }
    }
    let t = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    field_kb(&t, "VmRSS").map(|kb| kb * 1024)
}

/// Memory in bytes of the engine led by `leader` and all its children.
pub fn family_bytes(leader: i32) -> Option<u64> {
    let mut any = false;
    let mut total = 0;
    for pid in family(leader) {
        if let Some(b) = process_bytes(pid) {
            any = true;
            total += b;
        }
    }
    any.then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat_with_spaces_in_the_name() {
        let s = "1234 (my engine) S 77 1234 1234 0 -1 4194560 100";
        assert_eq!(parse_stat(s), Some((77, 1234)));
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn reads_fields() {
        let t = "Rss:   100 kB\nPrivate_Clean:  12 kB\nPrivate_Dirty:   30 kB\n";
        assert_eq!(field_kb(t, "Private_Dirty"), Some(30));
        assert_eq!(field_kb(t, "Private"), None);
    }

    #[test]
    fn own_process_has_memory() {
        if !std::path::Path::new("/proc/self/status").exists() {
            return;
        }
        let me = std::process::id() as i32;
        let b = process_bytes(me).expect("own memory");
        assert!(b > 100_000, "{b}");
        assert!(family(me).contains(&me));
    }
}
