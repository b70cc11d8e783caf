//! The CUDA fat binary in a host library's `.nv_fatbin` section: which GPU code it carries.
//!
//! Only headers are read. The section holds one or more containers, one after the other (with
//! padding between them); each container is a 16-byte header followed by entries, each entry a
//! header and its payload. Payloads (the cubins and PTX, often compressed) are skipped by their
//! sizes and never decompressed, so a 300 MB section costs a few thousand header reads.
//!
//! Layout (little-endian), as observed with CUDA 11.8 and 13.5 `fatbinary` and `cuobjdump`
//! (see tests/fixtures/binaries/README.md for the ground truth used by the tests):
//!
//! ```text
//! container: u32 magic 0xBA55ED50 | u16 version 1 | u16 header size (16) | u64 entries size
//! entry:     u16 kind (1 PTX, 2 cubin) | u16 version | u32 header size (64, 80, 120…)
//!            u64 padded payload size | u32 compressed size | u32 options offset
//!            u16 minor | u16 major (code / PTX ISA version) | u32 arch (75, 90, 100, 120…)
//!            u32 name offset | u32 name size | u64 flags | u64 zero | u64 uncompressed size
//! flags:     0x1 64-bit, 0x10 Linux host, 0x2000 LZ4-compressed payload,
//!            0x8000 zstd-compressed payload, 0x100000 arch-specific (`sm_90a`),
//!            0x200000 family-specific (`sm_100f`)
//! ```

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// The magic number of a fat binary container.
pub const CONTAINER_MAGIC: u32 = 0xBA55_ED50;
const CONTAINER_HEADER_SIZE: usize = 16;
/// The fixed part of an entry header; larger headers carry extra fields after it.
const ENTRY_HEADER_MIN: usize = 64;
/// Entry headers seen so far are at most 120 bytes; anything past this is junk.
const ENTRY_HEADER_MAX: usize = 4096;

const FLAG_LZ4: u64 = 0x2000;
const FLAG_ZSTD: u64 = 0x8000;
const FLAG_ARCH_SPECIFIC: u64 = 0x10_0000;
const FLAG_FAMILY_SPECIFIC: u64 = 0x20_0000;

/// What an entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// Machine code for one GPU architecture (an ELF "cubin").
    Cubin,
    /// PTX, compiled by the driver (JIT) for the GPU at load time.
    Ptx,
}

/// The feature-set variant of an architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArchVariant {
    /// `sm_90`: runs on the same major and any later minor.
    Plain,
    /// `sm_90a`: architecture-specific features; runs only on exactly this capability.
    ArchSpecific,
    /// `sm_100f`: family-specific features; runs on the same family (same major, later minor).
    FamilySpecific,
}

/// A GPU target: `sm_90a` for a cubin, `compute_80` for PTX.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Target {
    /// Cubin or PTX.
    pub kind: EntryKind,
    /// The architecture number (`90` for sm_90, `120` for sm_120).
    pub arch: u32,
    /// Plain, `a` or `f`.
    pub variant: ArchVariant,
}

impl Target {
    /// Major and minor of the architecture (`sm_120` → 12, 0).
    pub fn capability(&self) -> (u32, u32) {
        (self.arch / 10, self.arch % 10)
    }

    /// The name `cuobjdump --list-elf` prints: it shows family-specific cubins without their `f`.
    pub fn cuobjdump_name(&self) -> String {
        let plain = Target { variant: ArchVariant::Plain, ..*self };
        if self.variant == ArchVariant::FamilySpecific {
            plain.to_string()
        } else {
            self.to_string()
        }
    }

    /// True when code for this target runs on a GPU of capability `major.minor`: a cubin on the
    /// same major with an equal or later minor (exactly equal for `a`), PTX on any equal or later
    /// capability (exactly equal for `a`, same major for `f`).
    pub fn runs_on(&self, major: u32, minor: u32) -> bool {
        let (m, n) = self.capability();
        match (self.kind, self.variant) {
            (_, ArchVariant::ArchSpecific) => (m, n) == (major, minor),
            (EntryKind::Cubin, _) | (EntryKind::Ptx, ArchVariant::FamilySpecific) => m == major && n <= minor,
            (EntryKind::Ptx, ArchVariant::Plain) => (m, n) <= (major, minor),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = match self.kind {
            EntryKind::Cubin => "sm",
            EntryKind::Ptx => "compute",
        };
        let suffix = match self.variant {
            ArchVariant::Plain => "",
            ArchVariant::ArchSpecific => "a",
            ArchVariant::FamilySpecific => "f",
        };
        write!(f, "{prefix}_{}{suffix}", self.arch)
    }
}

/// How an entry's payload is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Compression {
    /// Stored as is.
    None,
    /// LZ4 (`-Xfatbin -compress-all` before CUDA 12.8).
    Lz4,
    /// Zstandard (CUDA 12.8 and later).
    Zstd,
}

/// One entry of a fat binary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Its target.
    pub target: Target,
    /// Compression of the payload.
    pub compression: Compression,
    /// The payload size as stored (compressed size when compressed).
    pub stored_size: u64,
    /// Offset of the entry header inside the parsed bytes.
    pub offset: u64,
}

/// Everything read from a `.nv_fatbin` section.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Fatbin {
    /// How many containers were walked.
    pub containers: usize,
    /// Every entry, in file order.
    pub entries: Vec<Entry>,
    /// What could not be read (a truncated container, an entry of unknown kind), in words.
    pub problems: Vec<String>,
}

impl Fatbin {
    /// Entries per target, sorted: cubins first by architecture, then PTX.
    pub fn counts(&self) -> BTreeMap<Target, usize> {
        let mut out = BTreeMap::new();
        for e in &self.entries {
            *out.entry(e.target).or_insert(0) += 1;
        }
        out
    }

    /// How many entries are compressed.
    pub fn compressed(&self) -> usize {
        self.entries.iter().filter(|e| e.compression != Compression::None).count()
    }

    /// What this fat binary offers a GPU of capability `major.minor`.
    pub fn support_for(&self, major: u32, minor: u32) -> GpuSupport {
        let counts = self.counts();
        let native: Vec<Target> = counts
            .keys()
            .filter(|t| t.kind == EntryKind::Cubin && t.runs_on(major, minor))
            .copied()
            .collect();
        if !native.is_empty() {
            return GpuSupport::Native(native);
        }
        let ptx: Vec<Target> =
            counts.keys().filter(|t| t.kind == EntryKind::Ptx && t.runs_on(major, minor)).copied().collect();
        if !ptx.is_empty() {
            return GpuSupport::PtxJit(ptx);
        }
        GpuSupport::None
    }
}

/// What a fat binary offers one GPU.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "targets")]
pub enum GpuSupport {
    /// Cubins that run on it as they are.
    Native(Vec<Target>),
    /// No cubin fits, but PTX can be JIT-compiled by the driver (slow first start; needs a
    /// driver that knows the PTX version).
    PtxJit(Vec<Target>),
    /// Nothing runs on it: "no kernel image is available for execution on the device".
    None,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at.checked_add(2)?)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at.checked_add(8)?)?.try_into().ok()?))
}

/// Walks every container and entry header in `section` (the bytes of `.nv_fatbin`, or a
/// `.fatbin` file). Never fails: what cannot be read is listed in [`Fatbin::problems`].
pub fn parse(section: &[u8]) -> Fatbin {
    let mut out = Fatbin::default();
    let magic = CONTAINER_MAGIC.to_le_bytes();
    let mut pos = 0usize;
    while pos < section.len() {
        // Containers are padded to an alignment; find the next magic (usually right here).
        let Some(found) = memchr::memmem::find(&section[pos..], &magic) else { break };
        let start = pos + found;
        match parse_container(section, start, &mut out) {
            Some(end) => pos = end.max(start + 1),
            None => pos = start + 1,
        }
    }
    out
}

/// Parses one container at `start`; returns the offset just past it, or `None` when the magic
/// was a false hit.
fn parse_container(b: &[u8], start: usize, out: &mut Fatbin) -> Option<usize> {
    let version = u16_at(b, start + 4)?;
    let header_size = usize::from(u16_at(b, start + 6)?);
    let size = u64_at(b, start + 8)?;
    if version != 1 || !(CONTAINER_HEADER_SIZE..=ENTRY_HEADER_MAX).contains(&header_size) {
        return None;
    }
    out.containers += 1;
    let first = start + header_size;
    let declared_end = usize::try_from(size).ok().and_then(|s| first.checked_add(s));
    let end = match declared_end {
        Some(e) if e <= b.len() => e,
        _ => {
            out.problems.push(format!(
                "container at 0x{start:x}: declares {size} bytes of entries, only {} left (truncated)",
                b.len().saturating_sub(first)
            ));
            b.len()
        }
    };
    let mut at = first;
    while at < end {
        if end - at < ENTRY_HEADER_MIN {
            out.problems.push(format!("entry at 0x{at:x}: truncated header ({} bytes)", end - at));
            break;
        }
        let kind = u16_at(b, at)?;
        let entry_header = u32_at(b, at + 4)? as usize;
        let padded = u64_at(b, at + 8)?;
        let compressed_size = u32_at(b, at + 16)?;
        let arch = u32_at(b, at + 28)?;
        let flags = u64_at(b, at + 40)?;
        if !(ENTRY_HEADER_MIN..=ENTRY_HEADER_MAX).contains(&entry_header) {
            out.problems.push(format!("entry at 0x{at:x}: implausible header size {entry_header}"));
            break;
        }
        let next = usize::try_from(padded).ok().and_then(|p| at.checked_add(entry_header)?.checked_add(p));
        let Some(next) = next.filter(|&n| n <= end) else {
            out.problems
                .push(format!("entry at 0x{at:x}: payload of {padded} bytes runs past the container"));
            break;
        };
        let kind = match kind {
            1 => Some(EntryKind::Ptx),
            2 => Some(EntryKind::Cubin),
            other => {
                out.problems.push(format!("entry at 0x{at:x}: unknown kind {other}, skipped"));
                None
            }
        };
        if let Some(kind) = kind {
            let variant = if flags & FLAG_ARCH_SPECIFIC != 0 {
                ArchVariant::ArchSpecific
            } else if flags & FLAG_FAMILY_SPECIFIC != 0 {
                ArchVariant::FamilySpecific
            } else {
                ArchVariant::Plain
            };
            let compression = if flags & FLAG_ZSTD != 0 {
                Compression::Zstd
            } else if flags & FLAG_LZ4 != 0 {
                Compression::Lz4
            } else {
                Compression::None
            };
            let stored_size =
                if compression == Compression::None { padded } else { u64::from(compressed_size) };
            out.entries.push(Entry {
                target: Target { kind, arch, variant },
                compression,
                stored_size,
                offset: at as u64,
            });
        }
        at = next;
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kind: u16, arch: u32, flags: u64, payload: &[u8]) -> Vec<u8> {
        let mut e = Vec::new();
        e.extend_from_slice(&kind.to_le_bytes());
        e.extend_from_slice(&0x0101u16.to_le_bytes());
        e.extend_from_slice(&64u32.to_le_bytes());
        let padded = payload.len().div_ceil(8) * 8;
        e.extend_from_slice(&(padded as u64).to_le_bytes());
        e.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        e.extend_from_slice(&0u32.to_le_bytes());
        e.extend_from_slice(&8u16.to_le_bytes());
        e.extend_from_slice(&1u16.to_le_bytes());
        e.extend_from_slice(&arch.to_le_bytes());
        e.extend_from_slice(&[0; 8]);
        e.extend_from_slice(&flags.to_le_bytes());
        e.extend_from_slice(&[0; 16]);
        e.extend_from_slice(payload);
        e.resize(64 + padded, 0);
        e
    }

    fn container(entries: &[Vec<u8>]) -> Vec<u8> {
        let body: Vec<u8> = entries.concat();
        let mut c = Vec::new();
        c.extend_from_slice(&CONTAINER_MAGIC.to_le_bytes());
        c.extend_from_slice(&1u16.to_le_bytes());
        c.extend_from_slice(&16u16.to_le_bytes());
        c.extend_from_slice(&(body.len() as u64).to_le_bytes());
        c.extend_from_slice(&body);
        c
    }

    #[test]
    fn entries_of_several_padded_containers_are_all_counted() {
        let mut section = container(&[entry(2, 80, 0x11, b"cubin"), entry(1, 80, 0x8011, b"ptx!!")]);
        section.extend_from_slice(&[0; 8]);
        section.extend(container(&[entry(2, 90, 0x10_0011, b"x"), entry(2, 80, 0x2011, b"yy")]));
        let fb = parse(&section);
        assert_eq!(fb.containers, 2);
        assert!(fb.problems.is_empty(), "{:?}", fb.problems);
        let names: Vec<String> = fb.counts().iter().map(|(t, n)| format!("{t}:{n}")).collect();
        assert_eq!(names, ["sm_80:2", "sm_90a:1", "compute_80:1"]);
        assert_eq!(fb.compressed(), 2);
        assert_eq!(fb.entries[1].compression, Compression::Zstd);
        assert_eq!(fb.entries[3].compression, Compression::Lz4);
    }

    #[test]
    fn truncated_containers_are_reported_not_fatal() {
        let full = container(&[entry(2, 75, 0x11, b"abcdefgh"), entry(2, 86, 0x11, b"abcdefgh")]);
        let cut = &full[..full.len() - 20];
        let fb = parse(cut);
        assert_eq!(fb.entries.len(), 1);
        assert!(fb.problems.iter().any(|p| p.contains("truncated")), "{:?}", fb.problems);
    }

    #[test]
    fn capability_rules_match_the_cuda_compatibility_guide() {
        let sm80 = Target { kind: EntryKind::Cubin, arch: 80, variant: ArchVariant::Plain };
        assert!(sm80.runs_on(8, 6));
        assert!(!sm80.runs_on(9, 0));
        let sm90a = Target { kind: EntryKind::Cubin, arch: 90, variant: ArchVariant::ArchSpecific };
        assert!(sm90a.runs_on(9, 0));
        let sm100a = Target { arch: 100, ..sm90a };
        assert!(!sm100a.runs_on(10, 3));
        let sm100f = Target { variant: ArchVariant::FamilySpecific, ..sm100a };
        assert!(sm100f.runs_on(10, 3));
        assert!(!sm100f.runs_on(12, 0));
        let ptx80 = Target { kind: EntryKind::Ptx, arch: 80, variant: ArchVariant::Plain };
        assert!(ptx80.runs_on(12, 0));
        assert!(!ptx80.runs_on(7, 5));
        assert_eq!(sm100f.cuobjdump_name(), "sm_100");
        assert_eq!(ptx80.to_string(), "compute_80");
    }

    #[test]
    fn support_prefers_cubins_then_ptx() {
        let fb = parse(&container(&[entry(2, 80, 0x11, b"c"), entry(1, 80, 0x11, b"p")]));
        assert!(matches!(fb.support_for(8, 6), GpuSupport::Native(_)));
        assert!(matches!(fb.support_for(9, 0), GpuSupport::PtxJit(_)));
        assert_eq!(fb.support_for(7, 5), GpuSupport::None);
    }
}
