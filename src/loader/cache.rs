//! `/etc/ld.so.cache`, the index `ldconfig` writes and the dynamic loader consults after
//! `LD_LIBRARY_PATH` and `DT_RUNPATH`.
//!
//! Both formats are read: the old `ld.so-1.7.0` (12-byte entries, strings after the entries) and
//! the new `glibc-ld.so.cache1.1` (24-byte entries with hwcaps, strings relative to its header),
//! alone or the new one appended to the old ("compat"). Layouts from glibc's
//! `sysdeps/generic/dl-cache.h`. Every offset is checked; nothing is allocated from a count in
//! the file beyond what the file can hold.

use serde::Serialize;
use std::fmt::Write as _;

const OLD_MAGIC: &[u8] = b"ld.so-1.7.0";
const NEW_MAGIC: &[u8] = b"glibc-ld.so.cache1.1";
const OLD_HEADER: usize = 16;
const OLD_ENTRY: usize = 12;
const NEW_HEADER: usize = 48;
const NEW_ENTRY: usize = 24;
const EXTENSION_MAGIC: u32 = 0xEAA4_2174;
const EXTENSION_TAG_GENERATOR: u32 = 0;
const EXTENSION_TAG_HWCAPS: u32 = 1;
const HWCAP_EXTENSION_BIT: u64 = 1 << 62;

/// Which on-disk format a cache was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheFormat {
    /// `ld.so-1.7.0` only.
    Old,
    /// `glibc-ld.so.cache1.1` only (what glibc 2.32 and later write).
    New,
    /// Old entries followed by the new format (the loader uses the new part).
    Compat,
}

/// One cache entry: a library name and the file it leads to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CacheEntry {
    /// The name looked up (the SONAME, or the file name: `libcudnn.so.9`).
    pub name: String,
    /// The machine path it resolves to.
    pub path: String,
    /// The entry flags (type in the low byte, ABI in the next: 0x0303 is libc6, x86-64).
    pub flags: i32,
    /// The hwcap bits (new format only).
    pub hwcap: u64,
    /// The `glibc-hwcaps` subdirectory this entry belongs to (`x86-64-v3`), if any.
    pub hwcaps_subdir: Option<String>,
}

impl CacheEntry {
    /// The line `ldconfig -p` prints for this entry.
    pub fn ldconfig_line(&self) -> String {
        let mut s = format!("\t{} (", self.name);
        s.push_str(match self.flags & 0xff {
            0 => "libc4",
            1 => "ELF",
            2 => "libc5",
            3 => "libc6",
            _ => "unknown",
        });
        let required = self.flags & 0xff00;
        let abi = match required {
            0 => "",
            0x0100 | 0x0400 | 0x0500 | 0x0700 => ",64bit",
            0x0200 => ",IA-64",
            0x0300 => ",x86-64",
            0x0600 => ",N32",
            0x0800 => ",x32",
            0x0900 => ",hard-float",
            0x0a00 => ",AArch64",
            0x0b00 | 0x0f00 | 0x1100 => ",soft-float",
            0x0c00 => ",nan2008",
            0x0d00 => ",N32,nan2008",
            0x0e00 => ",64bit,nan2008",
            0x1000 | 0x1200 => ",double-float",
            other => {
                let _ = write!(s, ",{other}");
                ""
            }
        };
        s.push_str(abi);
        if let Some(sub) = &self.hwcaps_subdir {
            let _ = write!(s, ", hwcap: \"{sub}\"");
        } else if self.hwcap != 0 {
            let _ = write!(s, ", hwcap: {:#018x}", self.hwcap);
        }
        let _ = write!(s, ") => {}", self.path);
        s
    }

    /// True when the entry is for objects of this class and machine (what glibc's
    /// `_dl_cache_check_flags` accepts).
    pub fn matches(&self, class64: bool, machine: u16) -> bool {
        let kind = self.flags & 0xff;
        if kind != 1 && kind != 3 {
            return false;
        }
        self.flags & 0xff00 == expected_abi_flag(class64, machine)
    }
}

/// The ABI part of the flags ldconfig records for a library of this class and machine.
pub fn expected_abi_flag(class64: bool, machine: u16) -> i32 {
    use object::elf;
    match (class64, machine) {
        (true, elf::EM_X86_64) => 0x0300,
        (false, elf::EM_X86_64) => 0x0800,
        (true, elf::EM_AARCH64) => 0x0a00,
        (true, elf::EM_PPC64) | (true, elf::EM_S390) | (true, elf::EM_SPARCV9) => 0x0500,
        (true, elf::EM_RISCV) => 0x1000,
        _ => 0,
    }
}

/// A parsed cache.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LdCache {
    /// The format it was read from.
    pub format: CacheFormat,
    /// Entries in file order (the order the loader prefers).
    pub entries: Vec<CacheEntry>,
    /// The program that wrote it (`ldconfig (Debian GLIBC 2.36-9+deb12u14) …`), when recorded.
    pub generator: Option<String>,
}

impl LdCache {
    /// The first entry for `name` usable by an object of this class and machine (hwcaps
    /// subdirectory entries, which depend on the CPU, are passed over).
    pub fn lookup(&self, name: &str, class64: bool, machine: u16) -> Option<&CacheEntry> {
        self.entries
            .iter()
            .filter(|e| e.hwcaps_subdir.is_none() && e.hwcap == 0)
            .find(|e| e.name == name && e.matches(class64, machine))
    }

    /// What `ldconfig -p -C FILE` prints.
    pub fn ldconfig_listing(&self, file: &str) -> String {
        let mut s = format!("{} libs found in cache `{file}'\n", self.entries.len());
        for e in &self.entries {
            s.push_str(&e.ldconfig_line());
            s.push('\n');
        }
        if let Some(g) = &self.generator {
            s.push_str(&format!("Cache generated by: {g}\n"));
        }
        s
    }
}

/// Why a cache could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CacheError {
    /// Neither magic string at the start.
    #[error("not an ld.so.cache (expected `glibc-ld.so.cache1.1` or `ld.so-1.7.0` at the start)")]
    BadMagic,
    /// A count or offset points outside the file.
    #[error("truncated or corrupt ld.so.cache: {0}")]
    Corrupt(String),
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at.checked_add(8)?)?.try_into().ok()?))
}

fn c_string(b: &[u8], at: usize) -> Option<String> {
    let tail = b.get(at..)?;
    let end = memchr::memchr(0, tail)?;
    Some(String::from_utf8_lossy(&tail[..end]).into_owned())
}

fn corrupt(what: impl Into<String>) -> CacheError {
    CacheError::Corrupt(what.into())
}

/// Parses the bytes of an ld.so.cache file.
pub fn parse(b: &[u8]) -> Result<LdCache, CacheError> {
    if b.starts_with(NEW_MAGIC) {
        let (entries, generator) = parse_new(b, 0)?;
        return Ok(LdCache { format: CacheFormat::New, entries, generator });
    }
    if !b.starts_with(OLD_MAGIC) {
        return Err(CacheError::BadMagic);
    }
    let nlibs = u32_at(b, 12).ok_or_else(|| corrupt("header cut short"))? as usize;
    let strings = nlibs
        .checked_mul(OLD_ENTRY)
        .and_then(|n| n.checked_add(OLD_HEADER))
        .filter(|&end| end <= b.len())
        .ok_or_else(|| corrupt(format!("{nlibs} entries do not fit in {} bytes", b.len())))?;
    // A new-format cache may follow the old entries, aligned to 8 bytes.
    let new_at = strings.div_ceil(8) * 8;
    if b.get(new_at..).is_some_and(|rest| rest.starts_with(NEW_MAGIC)) {
        let (entries, generator) = parse_new(b, new_at)?;
        return Ok(LdCache { format: CacheFormat::Compat, entries, generator });
    }
    let mut entries = Vec::new();
    for i in 0..nlibs {
        let at = OLD_HEADER + i * OLD_ENTRY;
        let flags = u32_at(b, at).ok_or_else(|| corrupt("entry cut short"))? as i32;
        let key = u32_at(b, at + 4).ok_or_else(|| corrupt("entry cut short"))? as usize;
        let value = u32_at(b, at + 8).ok_or_else(|| corrupt("entry cut short"))? as usize;
        let name = strings
            .checked_add(key)
            .and_then(|k| c_string(b, k))
            .ok_or_else(|| corrupt(format!("entry {i}: name offset {key} outside the file")))?;
        let path = strings
            .checked_add(value)
            .and_then(|v| c_string(b, v))
            .ok_or_else(|| corrupt(format!("entry {i}: path offset {value} outside the file")))?;
        entries.push(CacheEntry { name, path, flags, hwcap: 0, hwcaps_subdir: None });
    }
    Ok(LdCache { format: CacheFormat::Old, entries, generator: None })
}

/// Parses a new-format cache; `b` starts at its magic, and string offsets count from there.
fn parse_new(whole: &[u8], base: usize) -> Result<(Vec<CacheEntry>, Option<String>), CacheError> {
    let b = whole.get(base..).unwrap_or(&[]);
    let nlibs = u32_at(b, 20).ok_or_else(|| corrupt("header cut short"))? as usize;
    let extension_offset = u32_at(b, 32).ok_or_else(|| corrupt("header cut short"))? as usize;
    let table_end = nlibs
        .checked_mul(NEW_ENTRY)
        .and_then(|n| n.checked_add(NEW_HEADER))
        .filter(|&end| end <= b.len())
        .ok_or_else(|| corrupt(format!("{nlibs} entries do not fit in {} bytes", b.len())))?;
    let _ = table_end;
    // The extension offset counts from the start of the file (which differs from the start of
    // the new header in the compat format); its inner offsets too.
    let (hwcaps, generator) =
        if extension_offset != 0 { extensions(whole, extension_offset) } else { (Vec::new(), None) };
    let mut entries = Vec::new();
    for i in 0..nlibs {
        let at = NEW_HEADER + i * NEW_ENTRY;
        let flags = u32_at(b, at).ok_or_else(|| corrupt("entry cut short"))? as i32;
        let key = u32_at(b, at + 4).ok_or_else(|| corrupt("entry cut short"))? as usize;
        let value = u32_at(b, at + 8).ok_or_else(|| corrupt("entry cut short"))? as usize;
        let hwcap = u64_at(b, at + 16).ok_or_else(|| corrupt("entry cut short"))?;
        let name =
            c_string(b, key).ok_or_else(|| corrupt(format!("entry {i}: name offset {key} outside")))?;
        let path =
            c_string(b, value).ok_or_else(|| corrupt(format!("entry {i}: path offset {value} outside")))?;
        let hwcaps_subdir = if hwcap & HWCAP_EXTENSION_BIT != 0 {
            hwcaps.get((hwcap & 0xffff_ffff) as usize).cloned()
        } else {
            None
        };
        entries.push(CacheEntry { name, path, flags, hwcap, hwcaps_subdir });
    }
    Ok((entries, generator))
}

/// The `glibc-hwcaps` subdirectory names and the generator string of the cache extension
/// (empty when absent or bad).
fn extensions(b: &[u8], at: usize) -> (Vec<String>, Option<String>) {
    let mut out = Vec::new();
    let mut generator = None;
    if u32_at(b, at) != Some(EXTENSION_MAGIC) {
        return (out, generator);
    }
    let Some(count) = u32_at(b, at + 4) else { return (out, generator) };
    // Each section descriptor is 16 bytes: tag, flags, offset, size.
    for i in 0..count.min(64) as usize {
        let d = at + 8 + i * 16;
        let (Some(tag), Some(offset), Some(size)) = (u32_at(b, d), u32_at(b, d + 8), u32_at(b, d + 12))
        else {
            break;
        };
        if tag == EXTENSION_TAG_GENERATOR {
            let (start, len) = (offset as usize, size as usize);
            if let Some(bytes) = start.checked_add(len).and_then(|end| b.get(start..end)) {
                generator = Some(String::from_utf8_lossy(bytes).into_owned());
            }
            continue;
        }
        if tag != EXTENSION_TAG_HWCAPS {
            continue;
        }
        for j in 0..(size / 4).min(1024) as usize {
            match u32_at(b, offset as usize + j * 4).and_then(|s| c_string(b, s as usize)) {
                Some(name) => out.push(name),
                None => break,
            }
        }
    }
    (out, generator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junk_is_an_error_value() {
        assert_eq!(parse(b"hello"), Err(CacheError::BadMagic));
        assert!(matches!(parse(b"glibc-ld.so.cache1.1\xff\xff\xff\xff"), Err(CacheError::Corrupt(_))));
        assert!(matches!(parse(b"ld.so-1.7.0\0\xff\xff\xff\x7f"), Err(CacheError::Corrupt(_))));
    }
}
