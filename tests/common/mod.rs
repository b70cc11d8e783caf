//! What the corpus tests share: reading the corpus, and the word model measured as on reports it
//! has not seen. The corpus (tests/explain_corpus) is cut into ten folds by a hash of each
//! report's thread URL ([`fold_of`]), and a report is ranked by the model trained on the other
//! nine ([`words::cross_validation`]).

// Each test binary includes this module and uses part of it.
#![allow(dead_code)]

use cudoctor::explain::words::{self, WordModel};
use cudoctor::explain::Category;
use serde::Deserialize;
use std::path::Path;
use std::sync::OnceLock;

/// How many folds the corpus is cut into.
pub const FOLDS: usize = 10;

/// One corpus report: its thread, the category and fix the thread confirmed, its text.
#[derive(Deserialize)]
pub struct Case {
    pub url: String,
    pub category: String,
    pub fix: String,
    pub text: String,
}

/// The corpus reports, each with its file name without `.toml`, in file name order.
pub fn load() -> Vec<(String, Case)> {
    load_from("tests/explain_corpus")
}

/// The reports of a folder of the repository (the corpus, the held-out set), in file name order.
pub fn load_from(folder: &str) -> Vec<(String, Case)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut paths: Vec<_> = fs_err::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let case: Case = toml::from_str(&fs_err::read_to_string(p).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_stem().unwrap().to_string_lossy().into_owned(), case)
        })
        .collect()
}

/// The fold of the report of thread `url`: a hash of the URL (64-bit FNV-1a), so that a report
/// stays in its fold when others join the corpus. By position in file name order, as until the
/// sixteenth session, eight new files moved every report after them to another fold, and the
/// word model's answers for 120 texts with it (55 more right, 65 fewer): noise the size of what
/// a change is measured by.
pub fn fold_of(url: &str) -> usize {
    let hash = url
        .trim_end_matches('/')
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
    (hash % FOLDS as u64) as usize
}

/// The fold models, the `i`-th trained on every corpus report not of fold `i`.
fn folds() -> &'static Vec<WordModel> {
    static FOLDED: OnceLock<Vec<WordModel>> = OnceLock::new();
    FOLDED.get_or_init(|| {
        let cases = load();
        let labelled: Vec<(&str, Category)> = cases
            .iter()
            .map(|(_, c)| {
                (c.text.as_str(), Category::from_name(&c.category).expect("corpus categories are checked"))
            })
            .collect();
        let fold: Vec<usize> = cases.iter().map(|(_, c)| fold_of(&c.url)).collect();
        words::cross_validation(&labelled, &fold, FOLDS)
    })
}

/// The word model that never saw the corpus report of thread `url`.
pub fn model_without(url: &str) -> &'static WordModel {
    &folds()[fold_of(url)]
}
