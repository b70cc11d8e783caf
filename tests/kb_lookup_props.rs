//! Property tests: the knowledge-base lookups take any text a user or a log gives them and never
//! panic; answers always satisfy the query.

use cudoctor::kb::codes::{tables, MatchedBy};
use cudoctor::kb::gpus::catalog;
use proptest::prelude::*;

proptest! {
    #[test]
    fn code_lookup_and_scan_accept_any_text(text in prop_oneof![".{0,200}", "(xid|Xid |cudnn9 |CUDA: |nccl)?-?[0-9]{1,6}"]) {
        for m in tables().lookup(&text) {
            if m.matched_by == MatchedBy::Number {
                // `4000`, `-1`, `Xid 79` or `cudnn9 4000`: the number the query ends with.
                let digits = text.trim().rsplit(|c: char| !c.is_ascii_digit() && c != '-').next().unwrap_or("");
                prop_assert_eq!(digits.parse::<i64>().ok(), Some(m.entry.number));
            }
        }
        for m in tables().scan(&text) {
            let lower = text.to_ascii_lowercase();
            let named = std::iter::once(&m.entry.name).chain(&m.entry.aliases).any(|n| lower.contains(&n.to_ascii_lowercase()));
            let quoted = m.entry.message.as_ref().is_some_and(|msg| lower.contains(&msg.to_ascii_lowercase()));
            prop_assert!(named || quoted, "{:?} not in {:?}", m.entry.name, text);
        }
    }

    #[test]
    fn gpu_lookup_accepts_any_text(text in ".{0,100}") {
        let _ = catalog().lookup(&text);
    }

    #[test]
    fn every_device_id_resolves_to_a_product_that_lists_it(id in any::<u16>()) {
        if let Some(gpu) = catalog().by_device_id(id) {
            prop_assert!(gpu.device_ids.contains(&id));
            let hex = format!("{id:04x}");
            prop_assert_eq!(catalog().lookup(&hex).first().map(|g| g.name.as_str()), Some(gpu.name.as_str()));
        }
    }
}
