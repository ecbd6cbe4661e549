//! The tournament report (`--html FILE`): one self-contained HTML page,
//! inline CSS, SVG and script, nothing fetched, so it opens from a file on
//! any machine. It shows the settings, the crosstable, the ratings with
//! their 95 % intervals drawn as a plot, each engine's terminations and
//! time/memory use, and a board on which every game replays.
//!
//! The viewer is driven by the URL fragment as well as by its buttons and
//! keys: `report.html#game=3&ply=10` opens game 3 (its number in the
//! schedule) after 10 stones, opening stones included. For tests, `click=`
//! (button ids: first, prev, next, last, prevgame, nextgame) and `keys=`
//! (key names: ArrowLeft, ArrowRight, Home, End, ArrowUp, ArrowDown) replay
//! clicks and key presses through the page's own handlers after loading.
//! The stones on the board carry `data-x`, `data-y` (0-based, as in the
//! protocol and the records), `data-n` (move number) and a `black`/`white`
//! class, and `#status` carries `data-game` and `data-ply`.

use std::fmt::Write as _;

use super::clock::{ClockUse, BUCKETS};
use super::json::{self, quote};
use super::ratings::FitConfig;
use super::referee::Termination;
use super::schedule::Shard;
use super::tourreport::{Settings, Table};

/// Text for HTML element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const CSS: &str = r#"
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1d232a; background: #f6f7f9; }
main { max-width: 1180px; margin: 0 auto; padding: 18px 22px 40px; }
h1 { font-size: 1.55em; margin: 0.2em 0 0.1em; }
h2 { font-size: 1.15em; margin: 1.6em 0 0.5em; border-bottom: 1px solid #d5d9df; padding-bottom: 3px; }
.sub { color: #56606b; margin: 0 0 0.6em; }
table { border-collapse: collapse; background: #fff; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #d5d9df; padding: 3px 8px; text-align: right; white-space: nowrap; }
th { background: #eef1f4; font-weight: 600; }
td.name, th.name { text-align: left; }
td.self { background: #e3e6ea; }
td.zero { color: #b7bec6; }
.scroll { overflow-x: auto; }
.settings td { text-align: left; }
.settings td:first-child { color: #56606b; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.92em; }
#viewer { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
#boardbox { background: #fff; border: 1px solid #d5d9df; padding: 8px; }
#controls { margin: 6px 0; display: flex; gap: 4px; align-items: center; flex-wrap: wrap; }
#controls button { font-size: 15px; min-width: 2.4em; padding: 3px 8px; cursor: pointer; }
#side { flex: 1; min-width: 280px; }
#moves { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; max-height: 430px; overflow-y: auto; background: #fff; border: 1px solid #d5d9df; padding: 6px; columns: 3 10em; margin: 6px 0; }
#moves span { display: block; cursor: pointer; padding: 0 3px; white-space: nowrap; }
#moves span.opening { color: #8a6d1c; }
#moves span.cur { background: #ffe58a; }
#gameinfo { margin: 4px 0; }
#games tbody tr { cursor: pointer; }
#games tbody tr:hover { background: #fff6d6; }
#games tbody tr.cur { background: #ffe58a; }
.stone.black { fill: #15181c; }
.stone.white { fill: #fbfbfb; stroke: #333; stroke-width: 1; }
.num { font: 10px ui-monospace, Menlo, Consolas, monospace; text-anchor: middle; dominant-baseline: central; pointer-events: none; }
.num.onblack { fill: #fff; } .num.onwhite { fill: #111; }
.open { stroke: #c9a227; stroke-width: 2; }
.last { fill: none; stroke: #e0342b; stroke-width: 2.5; }
.help { color: #56606b; font-size: 0.9em; }
"#;

const SCRIPT: &str = r#"
(function () {
  var D = DATA, games = D.games, W = D.width, H = D.height;
  var S = 30, M = 26, NS = 'http://www.w3.org/2000/svg';
  var cur = 0, ply = 0;
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  var svg = document.getElementById('board');
  svg.setAttribute('width', 2 * M + (W - 1) * S);
  svg.setAttribute('height', 2 * M + (H - 1) * S);
  el('rect', {x: 0, y: 0, width: 2 * M + (W - 1) * S, height: 2 * M + (H - 1) * S, fill: '#e8c27a'}, svg);
  for (var i = 0; i < W; i++) {
    el('line', {x1: M + i * S, y1: M, x2: M + i * S, y2: M + (H - 1) * S, stroke: '#5a4320'}, svg);
    var t = el('text', {x: M + i * S, y: M - 14, 'class': 'num'}, svg); t.textContent = i;
  }
  for (var j = 0; j < H; j++) {
    el('line', {x1: M, y1: M + j * S, x2: M + (W - 1) * S, y2: M + j * S, stroke: '#5a4320'}, svg);
    var u = el('text', {x: M - 15, y: M + j * S, 'class': 'num'}, svg); u.textContent = j;
  }
  var layer = el('g', {id: 'stones'}, svg);
  var select = document.getElementById('game');
  games.forEach(function (g, k) {
    var o = document.createElement('option');
    o.value = k; o.textContent = '#' + g.n + ' ' + g.b + ' - ' + g.w + ' ' + g.r;
    select.appendChild(o);
  });
  function index(number) {
    for (var k = 0; k < games.length; k++) if (games[k].n === number) return k;
    return -1;
  }
  function show(k, p) {
    if (!games.length) return;
    cur = Math.max(0, Math.min(games.length - 1, k));
    var g = games[cur];
    ply = Math.max(0, Math.min(g.m.length, p));
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    for (var i = 0; i < ply; i++) {
      var x = g.m[i][0], y = g.m[i][1], black = i % 2 === 0;
      var c = el('circle', {cx: M + x * S, cy: M + y * S, r: S * 0.45,
        'class': 'stone ' + (black ? 'black' : 'white') + (i < g.o ? ' open' : ''),
        'data-x': x, 'data-y': y, 'data-n': i + 1}, layer);
      var t = el('text', {x: M + x * S, y: M + y * S, 'class': 'num ' + (black ? 'onblack' : 'onwhite')}, layer);
      t.textContent = i + 1;
    }
    if (ply > 0) {
      var l = g.m[ply - 1];
      el('circle', {cx: M + l[0] * S, cy: M + l[1] * S, r: S * 0.5, 'class': 'last'}, layer);
    }
    select.value = cur;
    var status = document.getElementById('status');
    status.setAttribute('data-game', g.n);
    status.setAttribute('data-ply', ply);
    status.textContent = 'move ' + ply + ' of ' + g.m.length + (ply <= g.o ? ' (opening)' : '');
    var info = document.getElementById('gameinfo');
    info.textContent = 'Game ' + g.n + ': ' + g.b + ' (black) - ' + g.w + ' (white), ' + g.r +
      ' by ' + g.t + (g.d ? ' (' + g.d + ')' : '') + '; opening of ' + g.o + ' stones';
    var list = document.getElementById('moves');
    list.innerHTML = '';
    g.m.forEach(function (mv, i) {
      var s = document.createElement('span');
      s.textContent = (i + 1) + '. ' + (i % 2 === 0 ? 'B ' : 'W ') + mv[0] + ',' + mv[1] +
        (i >= g.o && g.ms[i] !== undefined ? '  ' + g.ms[i] + ' ms' : '');
      if (i < g.o) s.className = 'opening';
      if (i === ply - 1) s.className += ' cur';
      s.onclick = function () { show(cur, i + 1); };
      list.appendChild(s);
    });
    var rows = document.querySelectorAll('#games tbody tr');
    for (var r = 0; r < rows.length; r++)
      rows[r].className = rows[r].getAttribute('data-game') == g.n ? 'cur' : '';
    if (history.replaceState) history.replaceState(null, '', '#game=' + g.n + '&ply=' + ply);
  }
  var actions = {
    first: function () { show(cur, 0); },
    prev: function () { show(cur, ply - 1); },
    next: function () { show(cur, ply + 1); },
    last: function () { show(cur, Infinity); },
    prevgame: function () { show(cur - 1, Infinity); },
    nextgame: function () { show(cur + 1, Infinity); }
  };
  Object.keys(actions).forEach(function (id) {
    document.getElementById(id).onclick = actions[id];
  });
  select.onchange = function () { show(+select.value, Infinity); };
  var keymap = {ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last',
    ArrowUp: 'prevgame', ArrowDown: 'nextgame'};
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'SELECT') return;
    var a = keymap[e.key];
    if (a) { actions[a](); e.preventDefault(); }
  });
  var rows = document.querySelectorAll('#games tbody tr');
  for (var r = 0; r < rows.length; r++) rows[r].onclick = function () {
    show(index(+this.getAttribute('data-game')), Infinity);
    document.getElementById('viewer').scrollIntoView();
  };
  function fromHash() {
    var q = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var p = kv.split('='); if (p[0]) q[p[0]] = decodeURIComponent(p[1] || '');
    });
    var k = q.game ? index(+q.game) : 0;
    show(k < 0 ? 0 : k, q.ply !== undefined ? +q.ply : Infinity);
    return q;
  }
  window.addEventListener('hashchange', fromHash);
  var q = fromHash();
  (q.click ? q.click.split(',') : []).forEach(function (id) {
    var b = document.getElementById(id); if (b) b.click();
  });
  (q.keys ? q.keys.split(',') : []).forEach(function (key) {
    document.dispatchEvent(new KeyboardEvent('keydown', {key: key, bubbles: true}));
  });
})();
"#;

fn rule_name(bits: u32) -> String {
    let mut s = match bits & !2 {
        0 => "freestyle".to_string(),
        1 => "standard (exactly five)".to_string(),
        4 => "renju".to_string(),
        8 => "caro".to_string(),
        b => format!("rule {b}"),
    };
    if bits & 2 != 0 {
        s.push_str(", continuous");
    }
    s
}

fn ms_text(ms: u64) -> String {
    if ms == 0 {
        "none".into()
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

fn half(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// The rating plot: one row per engine in rank order, the 95 % interval as
/// a bar with caps and the estimate as a dot, on an Elo axis with ticks.
fn ratings_svg(names: &[String], elo: &[f64], e95: &[f64], order: &[usize]) -> String {
    let label_w = 14.0 + 7.5 * names.iter().map(|n| n.chars().count()).max().unwrap_or(4) as f64;
    let (plot_w, row_h, top) = (560.0, 30.0, 16.0);
    let width = label_w + plot_w + 150.0;
    let height = top + row_h * order.len() as f64 + 40.0;
    let finite: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| elo[i].is_finite())
        .collect();
    let mut lo = finite
        .iter()
        .map(|&i| elo[i] - e95[i].max(0.0))
        .fold(f64::INFINITY, f64::min);
    let mut hi = finite
        .iter()
        .map(|&i| elo[i] + e95[i].max(0.0))
        .fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        (lo, hi) = (-100.0, 100.0);
    }
    if hi - lo < 20.0 {
        let mid = (hi + lo) / 2.0;
        (lo, hi) = (mid - 10.0, mid + 10.0);
    }
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (lo - pad, hi + pad);
    let x = |e: f64| label_w + (e - lo) / (hi - lo) * plot_w;
    let mut s = format!(
        "<svg id=\"ratingplot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" role=\"img\" aria-label=\"ratings with 95% intervals\" style=\"background:#fff;border:1px solid #d5d9df\">"
    );
    // Ticks at a round step, about 8 of them.
    let raw = (hi - lo) / 8.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|&st| st >= raw)
        .unwrap_or(10.0 * mag);
    let axis_y = top + row_h * order.len() as f64 + 6.0;
    let mut t = (lo / step).ceil() * step;
    while t <= hi {
        let _ = write!(
            s,
            "<line x1=\"{0:.1}\" y1=\"{1}\" x2=\"{0:.1}\" y2=\"{2}\" stroke=\"{3}\"/><text x=\"{0:.1}\" y=\"{4}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#56606b\">{5}</text>",
            x(t),
            top - 6.0,
            axis_y,
            if t == 0.0 { "#9aa3ad" } else { "#e6e9ed" },
            axis_y + 15.0,
            t
        );
        t += step;
    }
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#56606b\">Elo (95 % intervals)</text>",
        label_w + plot_w / 2.0,
        axis_y + 31.0
    );
    for (row, &i) in order.iter().enumerate() {
        let y = top + row_h * row as f64 + row_h / 2.0;
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{y}\" font-size=\"13\" text-anchor=\"end\" dominant-baseline=\"central\">{}</text>",
            label_w - 8.0,
            esc(&names[i])
        );
        if !elo[i].is_finite() {
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{y}\" font-size=\"12\" dominant-baseline=\"central\" fill=\"#b00\">no finite rating</text>",
                label_w + 4.0
            );
            continue;
        }
        let (a, b, c) = (x(elo[i] - e95[i]), x(elo[i]), x(elo[i] + e95[i]));
        let _ = write!(
            s,
            "<g class=\"interval\" data-name=\"{name}\"><line x1=\"{a:.1}\" y1=\"{y}\" x2=\"{c:.1}\" y2=\"{y}\" stroke=\"#3b6fb6\" stroke-width=\"3\"/><line x1=\"{a:.1}\" y1=\"{y0}\" x2=\"{a:.1}\" y2=\"{y1}\" stroke=\"#3b6fb6\" stroke-width=\"2\"/><line x1=\"{c:.1}\" y1=\"{y0}\" x2=\"{c:.1}\" y2=\"{y1}\" stroke=\"#3b6fb6\" stroke-width=\"2\"/><circle cx=\"{b:.1}\" cy=\"{y}\" r=\"5\" fill=\"#1d3f73\"/></g>",
            name = esc(&names[i]),
            y0 = y - 6.0,
            y1 = y + 6.0,
        );
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{y}\" font-size=\"12\" dominant-baseline=\"central\">{:+.0} ± {:.0}</text>",
            label_w + plot_w + 12.0,
            elo[i],
            e95[i]
        );
    }
    s.push_str("</svg>");
    s
}

/// Where each engine's time went under the game clock: the clock left at
/// the games' ends (minimum, quartiles, maximum) and the mean time a move
/// by its own move number.
fn clock_table(h: &mut String, table: &Table, match_ms: u64, order: &[usize]) {
    let _ = write!(
        h,
        "<h2>Clock</h2><div class=\"scroll\"><table><thead><tr><th>engine</th>\
         <th colspan=\"5\">clock left at the end, s (of {:.1}): min, quartiles, max</th>",
        match_ms as f64 / 1000.0
    );
    for b in 0..BUCKETS {
        let _ = write!(h, "<th>ms a move, moves {}</th>", ClockUse::bucket_label(b));
    }
    h.push_str("</tr></thead><tbody>");
    for &i in order {
        let c = table.engine_clock(i, match_ms);
        let _ = write!(h, "<tr><td class=\"name\">{}</td>", esc(&table.names[i]));
        match c.left_quartiles() {
            Some(q) => {
                for v in q {
                    let _ = write!(h, "<td>{:.1}</td>", v as f64 / 1000.0);
                }
            }
            None => h.push_str("<td colspan=\"5\">–</td>"),
        }
        for m in c.mean_by_move() {
            match m {
                Some(m) => {
                    let _ = write!(h, "<td>{m:.0}</td>");
                }
                None => h.push_str("<td>–</td>"),
            }
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table></div>\n");
}

/// The whole page.
pub fn report(table: &Table, settings: &Settings, shard: Option<Shard>, fit: &FitConfig) -> String {
    let names = &table.names;
    let n = names.len();
    let r = table.ratings(fit);
    let order = r.order();
    let mut h = String::new();
    let title = format!(
        "{} of {n} engines: {}",
        settings.format.name(),
        order
            .iter()
            .map(|&i| names[i].as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Sente arena: {}</title><style>{CSS}</style></head><body><main>\n",
        esc(&title)
    );
    let shard_text = shard
        .map(|s| format!(" (shard {})", s.text()))
        .unwrap_or_default();
    let _ = writeln!(
        h,
        "<h1>Tournament report</h1><p class=\"sub\">{}: {} of {} games played{}</p>",
        esc(&title),
        table.games.len(),
        settings.scheduled,
        esc(&shard_text)
    );

    // Settings.
    h.push_str("<table class=\"settings\">");
    let mut row = |k: &str, v: String| {
        let _ = write!(h, "<tr><td>{}</td><td>{v}</td></tr>", esc(k));
    };
    row(
        "format",
        format!(
            "{}, {} games per pairing, every opening twice with colours swapped",
            settings.format.name(),
            settings.games_per_pair
        ),
    );
    row(
        "board and rule",
        format!(
            "{}×{}, {}",
            settings.width,
            settings.height,
            esc(&rule_name(settings.rule))
        ),
    );
    row(
        "time",
        format!(
            "{} per move, {} per game, {} tolerance",
            ms_text(settings.turn_ms),
            ms_text(settings.match_ms),
            ms_text(settings.tolerance_ms)
        ),
    );
    row(
        "memory limit",
        if settings.memory == 0 {
            "none".into()
        } else {
            format!("{:.0} MB", settings.memory as f64 / 1048576.0)
        },
    );
    row(
        "openings",
        format!(
            "{}; seed {}",
            if settings.openings == 0 {
                "empty board".to_string()
            } else {
                format!("{} in the suite", settings.openings)
            },
            settings
                .seed
                .map(|s| s.to_string())
                .unwrap_or("none (file order)".into())
        ),
    );
    for e in &settings.engines {
        let opts: Vec<String> = e.options.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let extra = if opts.is_empty() {
            String::new()
        } else {
            format!(" — INFO {}", esc(&opts.join(", ")))
        };
        row(
            &format!("engine {}", e.name),
            format!("<code>{}</code>{extra}", esc(&e.command)),
        );
    }
    h.push_str("</table>\n");

    // Crosstable.
    h.push_str("<h2>Crosstable</h2><p class=\"help\">Points of the row's engine against the column's, out of the games they played (hover: wins-draws-losses).</p><div class=\"scroll\"><table id=\"crosstable\"><thead><tr><th>#</th><th class=\"name\">engine</th>");
    for k in 0..n {
        let _ = write!(h, "<th title=\"{}\">{}</th>", esc(&names[order[k]]), k + 1);
    }
    h.push_str("<th>points</th><th>games</th><th>score</th></tr></thead><tbody>");
    for (rank, &i) in order.iter().enumerate() {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"name\">{}</td>",
            rank + 1,
            esc(&names[i])
        );
        for &j in &order {
            let met = table
                .pairings
                .iter()
                .any(|&(a, b)| (a, b) == (i, j) || (a, b) == (j, i));
            if i == j {
                h.push_str("<td class=\"self\"></td>");
            } else if !met {
                h.push_str("<td></td>");
            } else {
                let (w, d, l) = table.wdl(i, j);
                let g = w + d + l;
                let sc = w as f64 + 0.5 * d as f64;
                let frac = if g > 0 { sc / g as f64 } else { 0.5 };
                // Green above 50 %, red below.
                let (rr, gg, bb) = if frac >= 0.5 {
                    let t = (frac - 0.5) * 2.0;
                    (255.0 - 90.0 * t, 255.0 - 20.0 * t, 255.0 - 90.0 * t)
                } else {
                    let t = (0.5 - frac) * 2.0;
                    (255.0 - 10.0 * t, 255.0 - 80.0 * t, 255.0 - 80.0 * t)
                };
                let _ = write!(
                    h,
                    "<td style=\"background:rgb({rr:.0},{gg:.0},{bb:.0})\" title=\"{} vs {}: {w}-{d}-{l}\" data-row=\"{}\" data-col=\"{}\">{}/{g}</td>",
                    esc(&names[i]),
                    esc(&names[j]),
                    esc(&names[i]),
                    esc(&names[j]),
                    half(sc)
                );
            }
        }
        let (p, g) = table.points(i);
        let _ = write!(
            h,
            "<td>{}</td><td>{g}</td><td>{:.1} %</td></tr>",
            half(p),
            100.0 * p / g.max(1) as f64
        );
    }
    h.push_str("</tbody></table></div>\n");

    // Ratings.
    let prior = if fit.prior > 0.0 {
        format!(
            "; {} virtual draw(s) per pairing keep 100 % scores finite",
            fit.prior
        )
    } else {
        String::new()
    };
    let _ = write!(
        h,
        "<h2>Ratings</h2><p class=\"help\">Bradley–Terry (logistic Elo) fit of all games at once, draws as half points, {} anchored at {}{prior}. Intervals: 95 % from the observed Fisher information, relative to the anchor. LOS: likelihood that the engine is stronger than the next one down.</p>",
        esc(&names[fit.anchor]),
        fit.anchor_elo
    );
    h.push_str("<table id=\"ratings\"><thead><tr><th>rank</th><th class=\"name\">engine</th><th>Elo</th><th>±95 %</th><th>points</th><th>games</th><th>LOS next</th></tr></thead><tbody>");
    for (rank, &i) in order.iter().enumerate() {
        let (p, g) = table.points(i);
        let los = order
            .get(rank + 1)
            .map(|&j| r.los(i, j))
            .filter(|x| x.is_finite())
            .map(|x| format!("{:.1} %", 100.0 * x))
            .unwrap_or_default();
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{g}</td><td>{los}</td></tr>",
            rank + 1,
            esc(&names[i]),
            json::number(r.elo[i], 1),
            json::number(r.elo_95[i], 1),
            half(p)
        );
    }
    h.push_str("</tbody></table><p></p><div class=\"scroll\">");
    h.push_str(&ratings_svg(names, &r.elo, &r.elo_95, &order));
    h.push_str("</div>\n");

    // Terminations and engine use.
    h.push_str("<h2>Terminations and resources</h2><p class=\"help\">How each engine's games ended: won or lost by a five, or by the loser's timeout, crash, illegal move, forbidden move (renju) or memory overrun; drawn when the board filled.</p><div class=\"scroll\"><table id=\"terminations\"><thead><tr><th rowspan=\"2\" class=\"name\">engine</th>");
    // The kinds that occur (a five always has a column).
    let totals = table.terminations();
    let kinds: Vec<(usize, Termination)> = Termination::ALL
        .iter()
        .copied()
        .enumerate()
        .filter(|&(_, t)| t == Termination::Five || (t != Termination::Draw && totals.get(t) > 0))
        .collect();
    let _ = write!(
        h,
        "<th colspan=\"{0}\">won by</th><th colspan=\"{0}\">lost by</th><th rowspan=\"2\">drawn</th><th rowspan=\"2\">moves</th><th rowspan=\"2\">ms / move</th><th rowspan=\"2\">longest ms</th><th rowspan=\"2\">peak MB</th></tr><tr>",
        kinds.len()
    );
    for _ in 0..2 {
        for (_, t) in &kinds {
            let _ = write!(h, "<th>{}</th>", t.name());
        }
    }
    h.push_str("</tr></thead><tbody>");
    for &i in &order {
        let et = table.engine_terms(i);
        let u = table.engine_use(i);
        let _ = write!(h, "<tr><td class=\"name\">{}</td>", esc(&names[i]));
        for counts in [&et.won, &et.lost] {
            for &(k, _) in &kinds {
                let c = counts[k];
                let cls = if c == 0 { " class=\"zero\"" } else { "" };
                let _ = write!(h, "<td{cls}>{c}</td>");
            }
        }
        let _ = write!(
            h,
            "<td>{}</td><td>{}</td><td>{:.1}</td><td>{}</td><td>{:.1}</td></tr>",
            et.drawn,
            u.moves,
            u.time_ms as f64 / u.moves.max(1) as f64,
            u.longest_ms,
            u.peak_memory as f64 / 1048576.0
        );
    }
    h.push_str("</tbody></table></div>\n");
    if settings.match_ms > 0 {
        clock_table(&mut h, table, settings.match_ms, &order);
    }

    // Viewer.
    h.push_str(
        "<h2>Games</h2><div id=\"viewer\"><div id=\"boardbox\"><svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\"></svg>\
         <div id=\"controls\"><button id=\"prevgame\" title=\"previous game (↑)\">« game</button>\
         <button id=\"first\" title=\"start (Home)\">|◀</button><button id=\"prev\" title=\"back (←)\">◀</button>\
         <button id=\"next\" title=\"forward (→)\">▶</button><button id=\"last\" title=\"end (End)\">▶|</button>\
         <button id=\"nextgame\" title=\"next game (↓)\">game »</button> <span id=\"status\"></span></div></div>\
         <div id=\"side\"><select id=\"game\" aria-label=\"game\"></select><div id=\"gameinfo\"></div>\
         <div class=\"help\">Keys: ← → one move, Home/End, ↑ ↓ previous/next game; click a move to jump. \
         Coordinates are the protocol's (0-based x, y); opening stones have a gold ring. \
         Link to a position: <code>#game=N&amp;ply=P</code>.</div><div id=\"moves\"></div></div></div>\n",
    );
    h.push_str("<div class=\"scroll\"><table id=\"games\"><thead><tr><th>game</th><th class=\"name\">black</th><th class=\"name\">white</th><th>result</th><th class=\"name\">termination</th><th>opening</th><th>moves</th></tr></thead><tbody>");
    for p in &table.games {
        let (b, w) = p.colours();
        let o = &p.report.outcome;
        let _ = write!(
            h,
            "<tr data-game=\"{0}\"><td>{0}</td><td class=\"name\">{1}</td><td class=\"name\">{2}</td><td>{3}</td><td class=\"name\" title=\"{4}\">{5}</td><td>{6}</td><td>{7}</td></tr>",
            p.report.game + 1,
            esc(&names[b]),
            esc(&names[w]),
            p.report.result_text(),
            esc(&o.detail),
            o.termination.name(),
            p.report.opening_line,
            o.moves.len().saturating_sub(o.opening_len)
        );
    }
    h.push_str("</tbody></table></div>\n");

    // Data for the viewer.
    let games: Vec<String> = table
        .games
        .iter()
        .map(|p| {
            let (b, w) = p.colours();
            let o = &p.report.outcome;
            let m: Vec<String> = o.moves.iter().map(|(x, y)| format!("[{x},{y}]")).collect();
            let ms: Vec<String> = o.move_ms.iter().map(|v| v.to_string()).collect();
            format!(
                "{{\"n\":{},\"b\":{},\"w\":{},\"r\":{},\"t\":{},\"d\":{},\"o\":{},\"m\":[{}],\"ms\":[{}]}}",
                p.report.game + 1,
                quote(&names[b]),
                quote(&names[w]),
                quote(p.report.result_text()),
                quote(o.termination.name()),
                quote(&o.detail),
                o.opening_len,
                m.join(","),
                ms.join(",")
            )
        })
        .collect();
    let _ = write!(
        h,
        "<script>var DATA = {{\"width\":{},\"height\":{},\"games\":[\n{}\n]}};</script>\n<script>{SCRIPT}</script>\n",
        settings.width,
        settings.height,
        games.join(",\n")
    );
    h.push_str("<p class=\"help\">Written by sente-arena.</p></main></body></html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn plot_draws_one_interval_per_finite_rating() {
        let names = vec!["a".to_string(), "b<".to_string(), "c".to_string()];
        let svg = ratings_svg(
            &names,
            &[0.0, -50.0, f64::NAN],
            &[0.0, 30.0, f64::NAN],
            &[0, 1, 2],
        );
        assert_eq!(svg.matches("class=\"interval\"").count(), 2);
        assert!(svg.contains("b&lt;"));
        assert!(svg.contains("no finite rating"));
        assert!(svg.contains("-50 ± 30"));
    }
}
