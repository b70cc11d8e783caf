//! The GPU catalog: NVIDIA products with their PCI device ids, compute capability, architecture,
//! market segment and (where the name states it) memory size.
//!
//! The data is `data/gpus.toml`, embedded at build time and parsed once. Every row names its
//! sources: the product name and device ids come from NVIDIA's open-gpu-kernel-modules README
//! (the names the driver reports) or from the PCI ID repository; the compute capability from
//! NVIDIA's compute-capability tables. The architecture is derived from the capability by
//! [`architecture_of`], never stored twice.
//!
//! To add a product: take its device id and name from the driver README's "Compatible GPUs"
//! table (or pci.ids for GPUs older than Turing), its capability from NVIDIA's table (it follows
//! the chip that pci.ids names for the id), and add a `[[gpu]]` row naming those sources; the
//! tests reject a duplicate id or name and a capability without an architecture, and
//! `tests/kb_sources.rs` re-checks rows against excerpts of the sources.

use super::codes::Source;
use crate::version::ComputeCapability;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::OnceLock;

/// The embedded catalog text.
const GPUS_TOML: &str = include_str!("../../data/gpus.toml");

/// A GPU architecture generation, ordered oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Architecture {
    /// Compute capability 3.x (Tesla K20/K40/K80).
    Kepler,
    /// Compute capability 5.x (GeForce 900, Quadro M, Tesla M, Jetson TX1/Nano).
    Maxwell,
    /// Compute capability 6.x (GeForce 10, Quadro P, Tesla P, Jetson TX2).
    Pascal,
    /// Compute capability 7.0 and 7.2 (V100, TITAN V, Jetson Xavier).
    Volta,
    /// Compute capability 7.5 (GeForce 16/20, Quadro RTX, T4).
    Turing,
    /// Compute capability 8.0, 8.6 and 8.7 (A100, GeForce 30, RTX A, Jetson Orin).
    Ampere,
    /// Compute capability 8.9 (GeForce 40, RTX Ada, L4/L40).
    Ada,
    /// Compute capability 9.0 (H100, H200, GH200).
    Hopper,
    /// Compute capability 10.x, 11.x and 12.x (B200, B300, Jetson Thor, GeForce 50, RTX PRO).
    Blackwell,
}

impl Architecture {
    /// The architecture's name as NVIDIA writes it (`Ada` is "Ada Lovelace").
    pub fn name(&self) -> &'static str {
        match self {
            Architecture::Kepler => "Kepler",
            Architecture::Maxwell => "Maxwell",
            Architecture::Pascal => "Pascal",
            Architecture::Volta => "Volta",
            Architecture::Turing => "Turing",
            Architecture::Ampere => "Ampere",
            Architecture::Ada => "Ada Lovelace",
            Architecture::Hopper => "Hopper",
            Architecture::Blackwell => "Blackwell",
        }
    }
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The architecture of a compute capability, `None` for capabilities outside Kepler…Blackwell
/// (Fermi's 2.x, or one newer than this table).
///
/// Source: the compute-capability tables of <https://developer.nvidia.com/cuda-gpus> and the
/// CUDA C++ Programming Guide ("Compute Capabilities").
pub fn architecture_of(cc: ComputeCapability) -> Option<Architecture> {
    let arch = match (cc.major, cc.minor) {
        (3, _) => Architecture::Kepler,
        (5, _) => Architecture::Maxwell,
        (6, _) => Architecture::Pascal,
        (7, 0) | (7, 2) => Architecture::Volta,
        (7, 5) => Architecture::Turing,
        (8, 0) | (8, 6) | (8, 7) | (8, 8) => Architecture::Ampere,
        (8, 9) => Architecture::Ada,
        (9, 0) => Architecture::Hopper,
        (10, _) | (11, _) | (12, _) => Architecture::Blackwell,
        _ => return None,
    };
    Some(arch)
}

/// Which market a product is sold in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Segment {
    /// Data-center boards and modules (Tesla, A100, H100, B200, L4, …).
    Datacenter,
    /// Professional workstation cards and laptop GPUs (Quadro, RTX A, RTX Ada, RTX PRO, T-series).
    Workstation,
    /// Consumer GeForce and TITAN cards and laptop GPUs.
    Geforce,
    /// Jetson embedded modules (integrated GPU).
    Jetson,
}

/// One GPU product of the catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GpuEntry {
    /// The product name (as the driver reports it where the driver's table lists it).
    pub name: String,
    /// The PCI device ids (vendor 0x10de) this product uses; empty for integrated Jetson GPUs.
    pub device_ids: Vec<u16>,
    /// The compute capability.
    pub compute_capability: ComputeCapability,
    /// The architecture, derived from the compute capability.
    pub architecture: Architecture,
    /// The market segment.
    pub segment: Segment,
    /// The nominal memory size the product's name states (the driver's name, or pci.ids'); it
    /// is within a GiB or two of what nvidia-smi shows (H200: 141, nvidia-smi 143771 MiB).
    pub memory_gib: Option<u32>,
    /// Other names the driver gives the same device ids: products told apart only by their PCI
    /// subsystem id (0x25B6 is `NVIDIA A16` or `NVIDIA A2`), or the name the driver prints for a
    /// laptop variant that the catalog names after pci.ids.
    pub other_names: Vec<String>,
    /// Where the name and device ids come from.
    pub source: Source,
    /// Where the compute capability comes from.
    pub capability_source: Source,
}

/// Why the catalog data did not load.
#[derive(Debug, thiserror::Error)]
pub enum GpuDataError {
    /// The TOML did not parse or had the wrong shape.
    #[error("invalid GPU catalog TOML")]
    Toml(#[from] toml::de::Error),
    /// A row names a source key that `[sources]` does not define.
    #[error("GPU `{gpu}` names source `{key}`, which [sources] does not define")]
    UnknownSource {
        /// The product.
        gpu: String,
        /// The missing key.
        key: String,
    },
    /// A row's compute capability has no known architecture.
    #[error("GPU `{gpu}` has compute capability {cc}, which maps to no architecture")]
    UnknownArchitecture {
        /// The product.
        gpu: String,
        /// The capability.
        cc: ComputeCapability,
    },
    /// Two rows claim the same PCI device id.
    #[error("device id {id:#06x} is claimed by both `{first}` and `{second}`")]
    DuplicateDeviceId {
        /// The id.
        id: u16,
        /// The first product.
        first: String,
        /// The second product.
        second: String,
    },
    /// Two rows have the same name.
    #[error("GPU `{0}` is listed twice")]
    DuplicateName(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCatalog {
    sources: BTreeMap<String, Source>,
    gpu: Vec<RawGpu>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGpu {
    name: String,
    device_ids: Vec<u16>,
    compute_capability: ComputeCapability,
    segment: Segment,
    memory_gib: Option<u32>,
    #[serde(default)]
    other_names: Vec<String>,
    source: String,
    capability_source: String,
}

/// The GPU catalog: every product, indexed by PCI device id.
#[derive(Debug, Clone)]
pub struct GpuCatalog {
    entries: Vec<GpuEntry>,
    by_id: HashMap<u16, usize>,
}

impl GpuCatalog {
    /// Parses and checks catalog TOML (the format of `data/gpus.toml`): every source key must
    /// resolve, every capability must map to an architecture, and names and device ids must be
    /// unique.
    pub fn parse(text: &str) -> Result<GpuCatalog, GpuDataError> {
        let raw: RawCatalog = toml::from_str(text)?;
        let resolve = |gpu: &str, key: &str| {
            raw.sources
                .get(key)
                .cloned()
                .ok_or_else(|| GpuDataError::UnknownSource { gpu: gpu.to_string(), key: key.to_string() })
        };
        let mut entries = Vec::with_capacity(raw.gpu.len());
        let mut by_id: HashMap<u16, usize> = HashMap::new();
        let mut names: HashMap<String, usize> = HashMap::new();
        for row in &raw.gpu {
            let architecture = architecture_of(row.compute_capability).ok_or_else(|| {
                GpuDataError::UnknownArchitecture { gpu: row.name.clone(), cc: row.compute_capability }
            })?;
            let index = entries.len();
            if names.insert(row.name.clone(), index).is_some() {
                return Err(GpuDataError::DuplicateName(row.name.clone()));
            }
            for &id in &row.device_ids {
                if let Some(&other) = by_id.get(&id) {
                    let first: &GpuEntry = &entries[other];
                    return Err(GpuDataError::DuplicateDeviceId {
                        id,
                        first: first.name.clone(),
                        second: row.name.clone(),
                    });
                }
                by_id.insert(id, index);
            }
            entries.push(GpuEntry {
                name: row.name.clone(),
                device_ids: row.device_ids.clone(),
                compute_capability: row.compute_capability,
                architecture,
                segment: row.segment,
                memory_gib: row.memory_gib,
                other_names: row.other_names.clone(),
                source: resolve(&row.name, &row.source)?,
                capability_source: resolve(&row.name, &row.capability_source)?,
            });
        }
        Ok(GpuCatalog { entries, by_id })
    }

    /// Every product, in file order (oldest architecture first).
    pub fn entries(&self) -> &[GpuEntry] {
        &self.entries
    }

    /// The product with PCI device id `id` (vendor 0x10de).
    pub fn by_device_id(&self, id: u16) -> Option<&GpuEntry> {
        self.by_id.get(&id).map(|&i| &self.entries[i])
    }

    /// Products matching `query`, best first.
    ///
    /// The query is a PCI device id (`0x2684`, `2684`, `10de:2684`) or a name, matched without
    /// regard to case: every word of the query must appear in the product name in the same
    /// order (`RTX 4090` matches `NVIDIA GeForce RTX 4090` and `… RTX 4090 Laptop GPU`, `H200`
    /// matches `NVIDIA H200` and `NVIDIA H200 NVL` but not `GH200`). A name that equals the
    /// query (ignoring a leading `NVIDIA`, `GeForce` or `Tesla`) comes first, then the shortest
    /// names. When nothing matches, the brand words of the query are dropped (`NVIDIA V100` finds
    /// `Tesla V100 PCIe 16GB`).
    /// Words written together (`rtx4090`) match when nothing else does.
    pub fn lookup(&self, query: &str) -> Vec<&GpuEntry> {
        let query = query.trim();
        let mut found: Vec<&GpuEntry> = Vec::new();
        if let Some(id) = parse_device_id(query) {
            found.extend(self.by_device_id(id));
            let explicit = query.contains(':') || query.to_ascii_lowercase().starts_with("0x");
            if explicit {
                return found;
            }
        }
        let words = name_words(query);
        if words.is_empty() {
            return found;
        }
        let core_query = core_words(&words);
        let mut ranked = self.rank_by_words(&words, core_query);
        if ranked.is_empty() && core_query.len() < words.len() && !core_query.is_empty() {
            // `NVIDIA V100` names the product pci.ids calls `Tesla V100 …`: retry without brands.
            ranked = self.rank_by_words(core_query, core_query);
        }
        if ranked.is_empty() {
            let compact_query: String = words.concat();
            for (index, entry) in self.entries.iter().enumerate() {
                let name = name_words(&entry.name);
                if name.concat().contains(&compact_query) {
                    ranked.push((4, name.len(), index));
                }
            }
        }
        ranked.sort();
        for (_, _, index) in ranked {
            let entry = &self.entries[index];
            if !found.iter().any(|f| std::ptr::eq(*f, entry)) {
                found.push(entry);
            }
        }
        found
    }
}

impl GpuCatalog {
    /// (rank, name length, index) of every entry whose name holds `words` in order: rank 0 when
    /// the name, without brand words, equals `core_query`, 1 when it only contains the words, 2
    /// and 3 the same for one of its `other_names`.
    fn rank_by_words(&self, words: &[String], core_query: &[String]) -> Vec<(u8, usize, usize)> {
        let mut ranked = Vec::new();
        for (index, entry) in self.entries.iter().enumerate() {
            // The product's own name ranks before a name it shares with others.
            let names = std::iter::once((0, &entry.name)).chain(entry.other_names.iter().map(|n| (2, n)));
            let best = names
                .filter_map(|(base, name)| {
                    let name = name_words(name);
                    contains_in_order(&name, words).then(|| {
                        let exact = core_words(&name) == core_query;
                        (base + u8::from(!exact), name.len())
                    })
                })
                .min();
            if let Some((rank, len)) = best {
                ranked.push((rank, len, index));
            }
        }
        ranked
    }
}

/// A device id written as `0x2684`, `2684` or `10de:2684` (exactly four hex digits).
fn parse_device_id(query: &str) -> Option<u16> {
    let lower = query.to_ascii_lowercase();
    let hex = lower.strip_prefix("10de:").or_else(|| lower.strip_prefix("0x")).unwrap_or(&lower);
    if hex.len() != 4 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(hex, 16).ok()
}

/// Lower-cased alphanumeric words of a name (`A100-SXM4-80GB` → `a100`, `sxm4`, `80gb`).
fn name_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// The words without the leading brand words that names use inconsistently (`NVIDIA`,
/// `GeForce`, `Tesla`).
fn core_words(words: &[String]) -> &[String] {
    let mut rest = words;
    while let Some((first, tail)) = rest.split_first() {
        if first == "nvidia" || first == "geforce" || first == "tesla" {
            rest = tail;
        } else {
            break;
        }
    }
    rest
}

/// True when every word of `needle` appears in `haystack`, in order.
fn contains_in_order(haystack: &[String], needle: &[String]) -> bool {
    let mut rest = haystack.iter();
    needle.iter().all(|word| rest.any(|w| w == word))
}

/// The GPU catalog, parsed from the embedded `data/gpus.toml` on first use.
pub fn catalog() -> &'static GpuCatalog {
    static CATALOG: OnceLock<GpuCatalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        // The embedded file is checked by the tests below; a failure here is a build defect.
        GpuCatalog::parse(GPUS_TOML).unwrap_or_else(|e| panic!("embedded data/gpus.toml: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cc(major: u32, minor: u32) -> ComputeCapability {
        ComputeCapability::new(major, minor)
    }

    #[test]
    fn embedded_catalog_parses_with_every_invariant() {
        let catalog = GpuCatalog::parse(GPUS_TOML).expect("data/gpus.toml is valid");
        assert!(catalog.entries().len() >= 150, "only {} products", catalog.entries().len());
    }

    #[test]
    fn rtx_4090_is_ada_8_9() {
        let found = catalog().lookup("RTX 4090");
        let first = found.first().expect("RTX 4090 found");
        assert_eq!(first.name, "NVIDIA GeForce RTX 4090");
        assert_eq!(first.compute_capability, cc(8, 9));
        assert_eq!(first.architecture, Architecture::Ada);
        assert_eq!(first.segment, Segment::Geforce);
        assert!(found.iter().any(|g| g.name.contains("Laptop")), "laptop variant listed too");
        assert_eq!(catalog().lookup("4090").first().map(|g| g.name.as_str()), Some(first.name.as_str()));
        assert_eq!(catalog().lookup("rtx4090").first().map(|g| g.name.as_str()), Some(first.name.as_str()));
    }

    #[test]
    fn device_id_0x2335_is_h200_hopper() {
        let h200 = catalog().by_device_id(0x2335).expect("0x2335 known");
        assert_eq!(h200.name, "NVIDIA H200");
        assert_eq!(h200.compute_capability, cc(9, 0));
        assert_eq!(h200.architecture, Architecture::Hopper);
        assert_eq!(h200.segment, Segment::Datacenter);
        assert_eq!(h200.memory_gib, Some(141), "pci.ids: GH100 [H200 SXM 141GB]");
        for query in ["0x2335", "2335", "10de:2335", "0X2335"] {
            assert_eq!(catalog().lookup(query).first().map(|g| g.name.as_str()), Some("NVIDIA H200"));
        }
    }

    #[test]
    fn name_words_match_whole_words_only() {
        let names: Vec<&str> = catalog().lookup("H200").iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names.first(), Some(&"NVIDIA H200"));
        assert!(names.contains(&"NVIDIA H200 NVL"));
        assert!(!names.iter().any(|n| n.contains("GH200")), "{names:?}");
        assert!(catalog().lookup("no such gpu").is_empty());
        assert!(catalog().lookup("").is_empty());
    }

    #[test]
    fn names_shared_by_one_device_id_find_it_after_the_products_own_name() {
        let a2 = catalog().lookup("NVIDIA A2");
        assert_eq!(a2.first().map(|g| g.device_ids.as_slice()), Some(&[0x25b6][..]));
        let rtx8000: Vec<&str> =
            catalog().lookup("Quadro RTX 8000").iter().map(|g| g.name.as_str()).collect();
        assert_eq!(rtx8000.first(), Some(&"Quadro RTX 8000"));
        assert!(rtx8000.contains(&"Quadro RTX 6000"), "0x1E30 is also sold as RTX 8000: {rtx8000:?}");
        // The driver calls the laptop chip 0x1E90 `NVIDIA GeForce RTX 2080` too.
        let rtx2080: Vec<&str> =
            catalog().lookup("NVIDIA GeForce RTX 2080").iter().map(|g| g.name.as_str()).collect();
        assert_eq!(rtx2080.first(), Some(&"NVIDIA GeForce RTX 2080"));
        assert_eq!(catalog().by_device_id(0x1e90).map(|g| g.name.as_str()), Some("GeForce RTX 2080 Mobile"));
        assert!(rtx2080.contains(&"GeForce RTX 2080 Mobile"), "{rtx2080:?}");
    }

    #[test]
    fn names_as_nvidia_smi_prints_them_resolve_across_generations() {
        for (smi, (major, minor), arch) in [
            ("NVIDIA GeForce GTX 1080 Ti", (6, 1), Architecture::Pascal),
            ("Tesla V100-SXM2-16GB", (7, 0), Architecture::Volta),
            ("Tesla T4", (7, 5), Architecture::Turing),
            ("NVIDIA A100-SXM4-80GB", (8, 0), Architecture::Ampere),
            ("NVIDIA GeForce RTX 3060 Laptop GPU", (8, 6), Architecture::Ampere),
            ("NVIDIA H100 80GB HBM3", (9, 0), Architecture::Hopper),
            ("NVIDIA B200", (10, 0), Architecture::Blackwell),
            ("NVIDIA GeForce RTX 5090", (12, 0), Architecture::Blackwell),
            ("Tesla K80", (3, 7), Architecture::Kepler),
            ("NVIDIA GeForce GTX 980", (5, 2), Architecture::Maxwell),
        ] {
            let gpu = catalog().lookup(smi).into_iter().next().unwrap_or_else(|| panic!("{smi}"));
            assert_eq!(gpu.compute_capability, cc(major, minor), "{smi} → {}", gpu.name);
            assert_eq!(gpu.architecture, arch, "{smi}");
        }
    }

    #[test]
    fn capabilities_map_to_architectures() {
        assert_eq!(architecture_of(cc(3, 7)), Some(Architecture::Kepler));
        assert_eq!(architecture_of(cc(7, 2)), Some(Architecture::Volta));
        assert_eq!(architecture_of(cc(7, 5)), Some(Architecture::Turing));
        assert_eq!(architecture_of(cc(8, 7)), Some(Architecture::Ampere));
        assert_eq!(architecture_of(cc(12, 0)), Some(Architecture::Blackwell));
        assert_eq!(architecture_of(cc(2, 0)), None);
        assert_eq!(architecture_of(cc(99, 0)), None);
        assert!(Architecture::Hopper > Architecture::Ampere);
    }

    #[test]
    fn every_segment_and_architecture_is_covered() {
        for segment in [Segment::Datacenter, Segment::Workstation, Segment::Geforce, Segment::Jetson] {
            assert!(catalog().entries().iter().any(|g| g.segment == segment), "{segment:?}");
        }
        for arch in [
            Architecture::Kepler,
            Architecture::Maxwell,
            Architecture::Pascal,
            Architecture::Volta,
            Architecture::Turing,
            Architecture::Ampere,
            Architecture::Ada,
            Architecture::Hopper,
            Architecture::Blackwell,
        ] {
            assert!(catalog().entries().iter().any(|g| g.architecture == arch), "{arch:?}");
        }
    }

    #[test]
    fn duplicate_device_ids_are_rejected() {
        let text = r#"
            [sources.s]
            url = "https://example.invalid"
            document = "1"
            [[gpu]]
            name = "A"
            device_ids = [0x1234]
            compute_capability = "8.0"
            segment = "datacenter"
            source = "s"
            capability_source = "s"
            [[gpu]]
            name = "B"
            device_ids = [0x1234]
            compute_capability = "8.0"
            segment = "datacenter"
            source = "s"
            capability_source = "s"
        "#;
        assert!(matches!(GpuCatalog::parse(text), Err(GpuDataError::DuplicateDeviceId { id: 0x1234, .. })));
        let unknown = text.replace(
            "source = \"s\"\n            capability_source",
            "source = \"t\"\n            capability_source",
        );
        assert!(matches!(GpuCatalog::parse(&unknown), Err(GpuDataError::UnknownSource { .. })));
    }
}
