//! What the corpus tests share: reading the corpus, and the word model measured as on reports it
//! has not seen. The corpus (tests/explain_corpus, in file name order) is cut into ten folds by
//! position, and a report is ranked by the model trained on the other nine
//! ([`words::cross_validation`]).

// Each test binary includes this module and uses part of it.
#![allow(dead_code)]

use cudoctor::explain::words::{self, WordModel};
use cudoctor::explain::Category;
use serde::Deserialize;
use std::collections::BTreeMap;
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

/// The fold models, and each report's fold by its thread URL.
fn folds() -> &'static (Vec<WordModel>, BTreeMap<String, usize>) {
    static FOLDED: OnceLock<(Vec<WordModel>, BTreeMap<String, usize>)> = OnceLock::new();
    FOLDED.get_or_init(|| {
        let cases = load();
        let labelled: Vec<(&str, Category)> = cases
            .iter()
            .map(|(_, c)| {
                (c.text.as_str(), Category::from_name(&c.category).expect("corpus categories are checked"))
            })
            .collect();
        let fold = cases.iter().enumerate().map(|(j, (_, c))| (c.url.clone(), j % FOLDS)).collect();
        (words::cross_validation(&labelled, FOLDS), fold)
    })
}

/// The word model that never saw the corpus report of thread `url`.
pub fn model_without(url: &str) -> &'static WordModel {
    let (models, fold) = folds();
    &models[fold[url]]
}
