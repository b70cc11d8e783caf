//! Property tests for the binary parsers: arbitrary, truncated and mutated inputs (starting from
//! the real fixtures) give values or errors, never a panic, and never more entries than the
//! input could hold.

use cudoctor::binary::{elf, fatbin};
use cudoctor::loader::cache;
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

fn fixture(rel: &str) -> &'static [u8] {
    static FILES: OnceLock<std::collections::BTreeMap<String, Vec<u8>>> = OnceLock::new();
    let files = FILES.get_or_init(|| {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        [
            "binaries/libkernels_cu118.so",
            "binaries/libkernels_cu135.so",
            "binaries/cu135.fatbin",
            "h200-cuda13-torch211/root/etc/ld.so.cache",
        ]
        .iter()
        .map(|p| (p.to_string(), fs_err::read(base.join(p)).unwrap()))
        .collect()
    });
    &files[rel]
}

/// A copy of `data` cut at `cut` (as a fraction) with `flips` bytes overwritten.
fn mutate(data: &[u8], cut: f64, flips: &[(f64, u8)]) -> Vec<u8> {
    let len = ((data.len() as f64) * cut) as usize;
    let mut out = data[..len.min(data.len())].to_vec();
    if !out.is_empty() {
        for (at, byte) in flips {
            let i = ((out.len() as f64) * at) as usize % out.len();
            out[i] = *byte;
        }
    }
    out
}

fn check_elf(bytes: &[u8]) {
    if let Ok(info) = elf::parse(bytes) {
        if let Some((offset, size)) = info.fatbin {
            assert!(offset + size <= bytes.len() as u64);
            let fb = fatbin::parse(&bytes[offset as usize..(offset + size) as usize]);
            assert!(fb.entries.len() <= size as usize / 64 + 1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn fatbin_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let fb = fatbin::parse(&bytes);
        prop_assert!(fb.entries.len() <= bytes.len() / 64 + 1);
    }

    #[test]
    fn fatbin_never_panics_on_a_valid_header_followed_by_junk(
        size in any::<u64>(),
        junk in proptest::collection::vec(any::<u8>(), 0..2048),
    ) {
        let mut bytes = fatbin::CONTAINER_MAGIC.to_le_bytes().to_vec();
        bytes.extend_from_slice(&1u16.to_le_bytes());
        bytes.extend_from_slice(&16u16.to_le_bytes());
        bytes.extend_from_slice(&size.to_le_bytes());
        bytes.extend_from_slice(&junk);
        let fb = fatbin::parse(&bytes);
        prop_assert!(fb.entries.len() <= bytes.len() / 64 + 1);
    }

    #[test]
    fn elf_never_panics_on_a_real_header_followed_by_junk(
        keep in 16usize..1024,
        junk in proptest::collection::vec(any::<u8>(), 0..4096),
    ) {
        let real = fixture("binaries/libkernels_cu135.so");
        let mut bytes = real[..keep.min(real.len())].to_vec();
        bytes.extend_from_slice(&junk);
        check_elf(&bytes);
    }

    #[test]
    fn fatbin_never_panics_on_a_mutated_real_fatbin(
        cut in 0.0f64..=1.0,
        flips in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 0..16),
    ) {
        let data = mutate(fixture("binaries/cu135.fatbin"), cut, &flips);
        let fb = fatbin::parse(&data);
        prop_assert!(fb.entries.len() <= data.len() / 64 + 1);
    }

    #[test]
    fn elf_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        check_elf(&bytes);
        let _ = elf::ident(&bytes);
    }

    #[test]
    fn elf_never_panics_on_a_mutated_real_library(
        which in 0usize..2,
        cut in 0.0f64..=1.0,
        flips in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 0..32),
    ) {
        let name = ["binaries/libkernels_cu118.so", "binaries/libkernels_cu135.so"][which];
        check_elf(&mutate(fixture(name), cut, &flips));
    }

    #[test]
    fn ld_so_cache_never_panics(
        cut in 0.0f64..=1.0,
        flips in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 0..32),
        junk in proptest::collection::vec(any::<u8>(), 0..512),
    ) {
        let data = mutate(fixture("h200-cuda13-torch211/root/etc/ld.so.cache"), cut, &flips);
        if let Ok(c) = cache::parse(&data) {
            prop_assert!(c.entries.len() <= data.len() / 12);
        }
        let mut with_magic = b"glibc-ld.so.cache1.1".to_vec();
        with_magic.extend_from_slice(&junk);
        let _ = cache::parse(&with_magic);
        let mut old = b"ld.so-1.7.0\0".to_vec();
        old.extend_from_slice(&junk);
        let _ = cache::parse(&old);
    }
}

#[test]
fn unmutated_fixtures_parse_cleanly() {
    check_elf(fixture("binaries/libkernels_cu118.so"));
    assert_eq!(fatbin::parse(fixture("binaries/cu135.fatbin")).entries.len(), 7);
    assert_eq!(
        cache::parse(fixture("h200-cuda13-torch211/root/etc/ld.so.cache")).unwrap().entries.len(),
        520
    );
}
