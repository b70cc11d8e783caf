//! What the corpus tests share: the word model measured as on reports it has not seen. The
//! corpus (tests/explain_corpus, in file name order) is cut into ten folds by position, and a
//! report is ranked by the model trained on the other nine ([`words::cross_validation`]).

use cudoctor::explain::words::{self, WordModel};
use cudoctor::explain::Category;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

/// How many folds the corpus is cut into.
pub const FOLDS: usize = 10;

#[derive(Deserialize)]
struct Case {
    url: String,
    category: String,
    text: String,
}

/// The fold models, and each report's fold by its thread URL.
fn folds() -> &'static (Vec<WordModel>, BTreeMap<String, usize>) {
    static FOLDED: OnceLock<(Vec<WordModel>, BTreeMap<String, usize>)> = OnceLock::new();
    FOLDED.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explain_corpus");
        let mut paths: Vec<_> = fs_err::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        paths.sort();
        let cases: Vec<Case> =
            paths.iter().map(|p| toml::from_str(&fs_err::read_to_string(p).unwrap()).unwrap()).collect();
        let labelled: Vec<(&str, Category)> = cases
            .iter()
            .map(|c| {
                (c.text.as_str(), Category::from_name(&c.category).expect("corpus categories are checked"))
            })
            .collect();
        let fold = cases.iter().enumerate().map(|(j, c)| (c.url.clone(), j % FOLDS)).collect();
        (words::cross_validation(&labelled, FOLDS), fold)
    })
}

/// The word model that never saw the corpus report of thread `url`.
pub fn model_without(url: &str) -> &'static WordModel {
    let (models, fold) = folds();
    &models[fold[url]]
}
