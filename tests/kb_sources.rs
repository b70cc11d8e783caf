//! Spot-checks of the knowledge base against excerpts of its sources, kept verbatim (with their
//! URL and version) in `tests/kb_sources/`: header enumerators, pci.ids lines, the driver's GPU
//! table, NVIDIA's compute-capability table and the Xid catalog. A row of `data/` that drifts
//! from its source fails here.

use cudoctor::kb::codes::{tables, CodeTable};
use cudoctor::kb::gpus::{architecture_of, catalog};
use cudoctor::version::ComputeCapability;
use regex::Regex;

/// `NAME = 123` enumerators of a C header excerpt (comment lines skipped).
fn enumerators(text: &str) -> Vec<(String, i64)> {
    let re =
        Regex::new(r"^\s*(?:typedef enum \{\s*)?(\w+)\s*(?:CUDNN_DEPRECATED_ENUM\s*)?=\s*(\d+)\b").unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| re.captures(l))
        .map(|c| (c[1].to_string(), c[2].parse().unwrap()))
        .collect()
}

/// Every enumerator of the excerpt is in `table` with the same number, and the table has no
/// more codes than the header (when `complete`).
fn assert_table_matches(table: CodeTable, excerpt: &str, skip: &[&str], complete: bool) {
    let expected: Vec<(String, i64)> =
        enumerators(excerpt).into_iter().filter(|(n, _)| !skip.contains(&n.as_str())).collect();
    assert!(expected.len() >= 9, "{table:?}: excerpt parsed to {expected:?}");
    for (name, number) in &expected {
        let entry = tables().get(table, *number).unwrap_or_else(|| panic!("{table:?} lacks {number}"));
        assert_eq!(&entry.name, name, "{table:?} {number}");
        assert!(!entry.description.is_empty(), "{table:?} {name} has no description");
        assert!(entry.source.url.starts_with("https://"), "{table:?} {name}: {:?}", entry.source);
    }
    if complete {
        assert_eq!(
            tables().entries(table).len(),
            expected.len(),
            "{table:?}: row count differs from the header"
        );
    }
}

#[test]
fn cuda_runtime_codes_match_driver_types_h() {
    assert_table_matches(CodeTable::CudaRuntime, include_str!("kb_sources/driver_types.h.txt"), &[], true);
}

#[test]
fn cuda_driver_codes_match_cuda_h() {
    assert_table_matches(CodeTable::CudaDriver, include_str!("kb_sources/cuda.h.txt"), &[], true);
}

#[test]
fn cudnn_9_codes_match_cudnn_graph_h_and_keep_deprecated_names_as_aliases() {
    let excerpt = include_str!("kb_sources/cudnn_graph.h.txt");
    assert_table_matches(CodeTable::Cudnn9, excerpt, &[], true);
    // `CUDNN_STATUS_ALLOC_FAILED CUDNN_DEPRECATED_ENUM = CUDNN_STATUS_INTERNAL_ERROR_HOST_…`
    let alias = Regex::new(r"(CUDNN_STATUS_\w+) CUDNN_DEPRECATED_ENUM =\s*(CUDNN_STATUS_\w+)").unwrap();
    let mut seen = 0;
    for c in alias.captures_iter(excerpt) {
        seen += 1;
        let target = tables().lookup(&c[2]);
        let target = target.iter().find(|m| m.table == CodeTable::Cudnn9).expect("alias target in cuDNN 9");
        assert!(target.entry.aliases.iter().any(|a| a == &c[1]), "{} is no alias of {}", &c[1], &c[2]);
    }
    assert!(seen >= 4, "aliases parsed: {seen}");
}

#[test]
fn cudnn_8_codes_match_cudnn_ops_infer_h() {
    assert_table_matches(CodeTable::Cudnn8, include_str!("kb_sources/cudnn_ops_infer.h.txt"), &[], true);
}

#[test]
fn cublas_nccl_and_nvml_codes_match_their_headers() {
    assert_table_matches(CodeTable::Cublas, include_str!("kb_sources/cublas_api.h.txt"), &[], true);
    assert_table_matches(
        CodeTable::Nccl,
        include_str!("kb_sources/nccl.h.in.txt"),
        &["ncclNumResults"],
        true,
    );
    assert_table_matches(CodeTable::Nvml, include_str!("kb_sources/nvml.h.txt"), &[], true);
}

#[test]
fn xid_rows_match_the_catalog() {
    let mut checked = 0;
    for line in include_str!("kb_sources/xid-catalog.txt").lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split(" | ").collect();
        let number: i64 = cols[0].parse().unwrap();
        let mnemonic = cols[1].split(" / ").next().unwrap();
        let entry = tables().get(CodeTable::Xid, number).unwrap_or_else(|| panic!("Xid {number}"));
        assert_eq!(entry.name, mnemonic);
        assert!(entry.description.starts_with(cols[2]), "Xid {number}: {}", entry.description);
        assert_eq!(entry.action.as_deref(), Some(cols[3]), "Xid {number}");
        assert_eq!(tables().lookup(&format!("Xid {number}"))[0].entry.number, number);
        checked += 1;
    }
    assert!(checked >= 10);
}

/// `\t2684  AD102 [GeForce RTX 4090]` → (0x2684, "GeForce RTX 4090").
fn pci_ids_devices(text: &str) -> Vec<(u16, String)> {
    let re = Regex::new(r"^\t([0-9a-f]{4})  \S+(?: / \S+)? \[(.+)\]$").unwrap();
    text.lines()
        .filter_map(|l| re.captures(l))
        .map(|c| (u16::from_str_radix(&c[1], 16).unwrap(), c[2].to_string()))
        .collect()
}

#[test]
fn device_ids_of_pci_ids_resolve_to_the_same_product() {
    let devices = pci_ids_devices(include_str!("kb_sources/pci.ids.txt"));
    assert!(devices.len() >= 20, "{devices:?}");
    let model = Regex::new(r"\b([A-Z]{0,2}\d{1,4}[A-Z]?)\b").unwrap();
    for (id, pci_name) in devices {
        let entry = catalog().by_device_id(id).unwrap_or_else(|| panic!("{id:#06x} ({pci_name}) unknown"));
        // pci.ids and NVIDIA write names differently (`H200 SXM 141GB` / `NVIDIA H200`), but the
        // model number is the same.
        let number = model.captures(&pci_name).map(|c| c[1].to_string()).expect("model number");
        assert!(entry.name.contains(&number), "{id:#06x}: pci.ids `{pci_name}`, catalog `{}`", entry.name);
    }
}

#[test]
fn device_ids_of_the_driver_table_carry_its_names() {
    let row = Regex::new(r"^\| (.+?)\s+\| ([0-9A-F]{4})( [0-9A-F]{4} [0-9A-F]{4})?\s+\|$").unwrap();
    let mut checked = 0;
    for c in
        include_str!("kb_sources/open-gpu-kernel-modules-README.txt").lines().filter_map(|l| row.captures(l))
    {
        let id = u16::from_str_radix(&c[2], 16).unwrap();
        let entry = catalog().by_device_id(id).unwrap_or_else(|| panic!("{id:#06x} unknown"));
        if c.get(3).is_none() {
            // A row without subsystem ids names the product of the device id itself.
            assert_eq!(entry.name, &c[1], "{id:#06x}");
        } else {
            // Subsystem rows may name variants (`A100-PG509-200`); the family must agree.
            let family = c[1].split([' ', '-']).nth(1).unwrap().to_string();
            assert!(entry.name.contains(&family), "{id:#06x}: `{}` vs `{}`", entry.name, &c[1]);
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}

/// Products where NVIDIA's table and the chip disagree, with the value the catalog keeps and why:
/// a GPU reports the capability of its chip, and pci.ids names the chip of each device id.
const DISAGREEMENTS: &[(&str, &str, &str)] = &[
    ("Quadro M620", "5.0", "listed under 5.2; pci.ids: 0x13b4 is GM107GLM, like every 5.0 product"),
    ("Quadro M5000M", "5.2", "listed under 5.0; pci.ids: 0x13f8 is GM204GLM, like every 5.2 product"),
    ("Quadro M4000M", "5.2", "listed under 5.0; pci.ids: 0x13f9 is GM204GLM"),
    ("Quadro M3000M", "5.2", "listed under 5.0; pci.ids: 0x13fa is GM204GLM"),
];

#[test]
fn compute_capabilities_match_nvidias_table() {
    let mut found = 0;
    let mut missing = Vec::new();
    let mut wrong = Vec::new();
    for line in include_str!("kb_sources/cuda-gpus.txt").lines().filter(|l| !l.starts_with('#')) {
        let (cc, products) = line.split_once(" | ").unwrap();
        let cc: ComputeCapability = cc.parse().unwrap();
        assert!(architecture_of(cc).is_some(), "{cc}");
        for product in products.split("; ") {
            let name = product.split(" (").next().unwrap();
            let hits = catalog().lookup(name);
            if hits.is_empty() {
                missing.push(name);
                continue;
            }
            found += 1;
            // The best match is the product; a looser match may be another generation's product
            // of the same marketing name (`NVIDIA TITAN X` is Pascal, `GeForce GTX TITAN X`
            // Maxwell), so only the best one is held to the table.
            if let Some((_, expected, _why)) = DISAGREEMENTS.iter().find(|(n, _, _)| *n == name) {
                assert_eq!(hits[0].compute_capability.to_string(), *expected, "`{name}`");
                continue;
            }
            if hits[0].compute_capability != cc {
                wrong.push(format!(
                    "`{name}`: table {cc}, catalog `{}` {}",
                    hits[0].name, hits[0].compute_capability
                ));
            }
        }
    }
    // Products with no PCI device id in the sources (integrated or not yet listed) may be absent;
    // nearly all must be there.
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(found >= 120, "found {found}, missing {missing:?}");
    assert!(missing.len() <= 8, "missing {missing:?}");
}

/// `number<TAB>name<TAB>string` lines of a library's own error-string functions.
fn assert_messages(table: CodeTable, excerpt: &str) {
    let mut checked = 0;
    for line in excerpt.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let number: i64 = cols[0].parse().unwrap();
        let entry = tables().get(table, number).unwrap();
        assert_eq!(entry.name, cols[1]);
        assert_eq!(entry.message.as_deref(), Some(cols[2]), "{table:?} {number}");
        checked += 1;
    }
    assert!(checked >= 8);
}

#[test]
fn runtime_messages_match_cuda_get_error_string() {
    assert_messages(CodeTable::CudaRuntime, include_str!("kb_sources/cudaGetErrorString.txt"));
}

#[test]
fn driver_messages_match_cu_get_error_string() {
    assert_messages(CodeTable::CudaDriver, include_str!("kb_sources/cuGetErrorString.txt"));
}

#[test]
fn nvml_messages_match_nvml_error_string() {
    assert_messages(CodeTable::Nvml, include_str!("kb_sources/nvmlErrorString.txt"));
}
