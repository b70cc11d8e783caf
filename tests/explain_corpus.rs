//! The real-error corpus: error texts from public issue threads (tests/explain_corpus/*.toml, each
//! with its thread URL, the fix the thread confirmed and the root-cause category of that fix).
//! With `--no-check` semantics (no machine facts), the first explained error's top cause must be
//! the thread's category for at least 90% of the corpus; misses are listed.

use cudoctor::explain::{self, Category};
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
struct Case {
    url: String,
    category: String,
    fix: String,
    text: String,
}

fn load() -> Vec<(String, Case)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explain_corpus");
    let mut cases: Vec<(String, Case)> = fs_err::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            let case: Case = toml::from_str(&fs_err::read_to_string(&p).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_stem().unwrap().to_string_lossy().into_owned(), case)
        })
        .collect();
    cases.sort_by(|a, b| a.0.cmp(&b.0));
    cases
}

#[test]
fn the_corpus_is_real_and_well_formed() {
    let cases = load();
    assert!(cases.len() >= 40, "only {} corpus cases", cases.len());
    for (name, c) in &cases {
        assert!(c.url.starts_with("https://github.com/"), "{name}: {}", c.url);
        assert!(Category::from_name(&c.category).is_some(), "{name}: unknown category {}", c.category);
        assert!(!c.fix.trim().is_empty() && !c.text.trim().is_empty(), "{name}");
    }
}

#[test]
fn the_right_category_comes_first_for_at_least_90_percent() {
    let cases = load();
    let mut misses = Vec::new();
    // Per expected category: (right, total), to see which kinds of report are weak.
    let mut by_category: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for (name, c) in &cases {
        by_category.entry(c.category.as_str()).or_default().1 += 1;
        let result = explain::scan::scan_bytes(c.text.as_bytes(), explain::table());
        let explained = explain::explain(&result, None);
        let got = explained.first().and_then(|e| e.causes.first().map(|k| (e.signature.clone(), k.category)));
        match got {
            Some((_, cat)) if cat.name() == c.category => {
                by_category.entry(c.category.as_str()).or_default().0 += 1;
            }
            Some((sig, cat)) => {
                misses.push(format!("{name}: expected {}, got {cat} (signature {sig})", c.category))
            }
            None => misses.push(format!("{name}: expected {}, nothing matched", c.category)),
        }
    }
    let hit = cases.len() - misses.len();
    let rate = hit as f64 / cases.len() as f64;
    eprintln!("corpus: {hit}/{} right ({:.0}%)", cases.len(), rate * 100.0);
    for (category, (right, total)) in &by_category {
        eprintln!("  {category}: {right}/{total}");
    }
    for m in &misses {
        eprintln!("  miss: {m}");
    }
    assert!(rate >= 0.9, "only {hit}/{} right; misses:\n{}", cases.len(), misses.join("\n"));
}
