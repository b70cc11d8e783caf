//! What the dynamic loader reads from a shared library, read without loading it: class and
//! machine, `DT_NEEDED`, `DT_SONAME`, `DT_RPATH`, `DT_RUNPATH`, `DF_1_NODEFLIB`, the symbol
//! versions it needs (`.gnu.version_r`) and defines (`.gnu.version_d`), and where its
//! `.nv_fatbin` section lies.
//!
//! Files are memory-mapped and only headers, the dynamic section and the version sections are
//! touched, so a 456 MB `libtorch_cuda.so` costs a few pages. Every length comes from the file
//! and is checked against the mapping by `object`; nothing is allocated from an untrusted size.

use object::elf;
use object::read::elf::{Dyn as _, FileHeader, SectionHeader as _};
use object::read::StringTable;
use object::Endianness;
use serde::Serialize;
use std::path::Path;

/// ELF class (word size).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ElfClass {
    /// 32-bit.
    Elf32,
    /// 64-bit.
    Elf64,
}

/// What kind of object the file is (`e_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    /// `ET_DYN`: a shared library or a position-independent executable.
    Shared,
    /// `ET_EXEC`: a fixed-address executable.
    Executable,
    /// `ET_REL`: an object file.
    Relocatable,
    /// `ET_CORE` or anything else.
    Other,
}

/// The versions a library needs from one of its dependencies (`GLIBCXX_3.4.30` from
/// `libstdc++.so.6`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VersionNeed {
    /// The dependency's file name as recorded (`libstdc++.so.6`).
    pub file: String,
    /// Version names needed from it.
    pub versions: Vec<String>,
}

/// The loader-relevant facts of one ELF file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ElfInfo {
    /// 32 or 64-bit.
    pub class: ElfClass,
    /// Little endian.
    pub little_endian: bool,
    /// `e_machine` (62 x86-64, 183 AArch64).
    pub machine: u16,
    /// `e_type`.
    pub kind: ObjectKind,
    /// `DT_SONAME`.
    pub soname: Option<String>,
    /// `DT_NEEDED`, in order.
    pub needed: Vec<String>,
    /// `DT_RPATH` as written (`$ORIGIN/../lib:…`).
    pub rpath: Option<String>,
    /// `DT_RUNPATH` as written.
    pub runpath: Option<String>,
    /// `DF_1_NODEFLIB`: the cache and the default directories are not searched for its needs.
    pub nodeflib: bool,
    /// Versions needed from dependencies (`.gnu.version_r`).
    pub version_needs: Vec<VersionNeed>,
    /// Versions defined (`.gnu.version_d`), e.g. every `GLIBCXX_3.4.x` of a libstdc++.
    pub version_defs: Vec<String>,
    /// File offset and size of the `.nv_fatbin` section, if any.
    pub fatbin: Option<(u64, u64)>,
}

impl ElfInfo {
    /// The machine's name as people and loaders say it.
    pub fn machine_name(&self) -> &'static str {
        machine_name(self.machine)
    }
}

/// The name of an `e_machine` value.
pub fn machine_name(machine: u16) -> &'static str {
    match machine {
        elf::EM_X86_64 => "x86-64",
        elf::EM_386 => "i386",
        elf::EM_AARCH64 => "AArch64",
        elf::EM_ARM => "ARM",
        elf::EM_PPC64 => "PowerPC64",
        elf::EM_RISCV => "RISC-V",
        elf::EM_S390 => "s390",
        _ => "another machine",
    }
}

/// Why a file could not be read as ELF.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ElfError {
    /// Not an ELF file at all (a zero-byte placeholder, a linker script, junk).
    #[error("not an ELF file ({0})")]
    NotElf(String),
    /// ELF, but its headers are truncated or inconsistent.
    #[error("corrupt ELF file: {0}")]
    Corrupt(String),
    /// The file could not be opened or mapped.
    #[error("unreadable: {0}")]
    Io(String),
}

/// The ELF identification of the first bytes of a file: what the loader checks before
/// anything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ident {
    /// Class.
    pub class: ElfClass,
    /// Little endian.
    pub little_endian: bool,
    /// `e_machine`.
    pub machine: u16,
}

/// Reads the ELF identification (class, data, machine) from the first bytes of a file.
pub fn ident(head: &[u8]) -> Result<Ident, ElfError> {
    if head.is_empty() {
        return Err(ElfError::NotElf("empty file".into()));
    }
    if head.len() < 4 || head[..4] != elf::ELFMAG {
        let shown: String = head.iter().take(4).map(|b| format!("{b:02x}")).collect();
        return Err(ElfError::NotElf(format!("starts with {shown}, not 7f454c46")));
    }
    if head.len() < 20 {
        return Err(ElfError::Corrupt(format!("file too short ({} bytes)", head.len())));
    }
    let class = match head[4] {
        elf::ELFCLASS32 => ElfClass::Elf32,
        elf::ELFCLASS64 => ElfClass::Elf64,
        other => return Err(ElfError::Corrupt(format!("unknown ELF class {other}"))),
    };
    let little_endian = match head[5] {
        elf::ELFDATA2LSB => true,
        elf::ELFDATA2MSB => false,
        other => return Err(ElfError::Corrupt(format!("unknown ELF data encoding {other}"))),
    };
    let raw = [head[18], head[19]];
    let machine = if little_endian { u16::from_le_bytes(raw) } else { u16::from_be_bytes(raw) };
    Ok(Ident { class, little_endian, machine })
}

/// Reads an ELF image held in memory.
pub fn parse(data: &[u8]) -> Result<ElfInfo, ElfError> {
    let id = ident(data)?;
    match id.class {
        ElfClass::Elf32 => parse_as::<elf::FileHeader32<Endianness>>(data, id),
        ElfClass::Elf64 => parse_as::<elf::FileHeader64<Endianness>>(data, id),
    }
}

fn corrupt(e: object::Error) -> ElfError {
    ElfError::Corrupt(e.to_string())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn parse_as<Elf: FileHeader<Endian = Endianness>>(data: &[u8], id: Ident) -> Result<ElfInfo, ElfError> {
    let header = Elf::parse(data).map_err(corrupt)?;
    let endian = header.endian().map_err(corrupt)?;
    let sections = header.sections(endian, data).map_err(corrupt)?;
    let kind = match header.e_type(endian) {
        elf::ET_DYN => ObjectKind::Shared,
        elf::ET_EXEC => ObjectKind::Executable,
        elf::ET_REL => ObjectKind::Relocatable,
        _ => ObjectKind::Other,
    };
    let mut info = ElfInfo {
        class: id.class,
        little_endian: id.little_endian,
        machine: header.e_machine(endian),
        kind,
        soname: None,
        needed: Vec::new(),
        rpath: None,
        runpath: None,
        nodeflib: false,
        version_needs: Vec::new(),
        version_defs: Vec::new(),
        fatbin: None,
    };

    if let Some((entries, strtab_index)) = sections.dynamic(endian, data).map_err(corrupt)? {
        let strings = sections.strings(endian, data, strtab_index).map_err(corrupt)?;
        for d in entries {
            let Some(tag) = d.tag32(endian) else { continue };
            if tag == elf::DT_NULL {
                break;
            }
            let string =
                || -> Result<String, ElfError> { Ok(text(d.string(endian, strings).map_err(corrupt)?)) };
            match tag {
                elf::DT_NEEDED => info.needed.push(string()?),
                elf::DT_SONAME => info.soname = Some(string()?),
                elf::DT_RPATH => info.rpath = Some(string()?),
                elf::DT_RUNPATH => info.runpath = Some(string()?),
                elf::DT_FLAGS_1 => {
                    info.nodeflib = d.val32(endian).is_some_and(|v| v & elf::DF_1_NODEFLIB != 0);
                }
                _ => {}
            }
        }
    }

    if let Some((mut needs, link)) = sections.gnu_verneed(endian, data).map_err(corrupt)? {
        let strings = sections.strings(endian, data, link).map_err(corrupt)?;
        while let Some((need, mut aux)) = needs.next().map_err(corrupt)? {
            let file = text(need.file(endian, strings).map_err(corrupt)?);
            let mut versions = Vec::new();
            while let Some(a) = aux.next().map_err(corrupt)? {
                versions.push(text(a.name(endian, strings).map_err(corrupt)?));
            }
            info.version_needs.push(VersionNeed { file, versions });
        }
    }

    if let Some((mut defs, link)) = sections.gnu_verdef(endian, data).map_err(corrupt)? {
        let strings: StringTable<'_, &[u8]> = sections.strings(endian, data, link).map_err(corrupt)?;
        while let Some((_def, mut aux)) = defs.next().map_err(corrupt)? {
            // The first auxiliary entry names the version; later ones name its parents.
            if let Some(a) = aux.next().map_err(corrupt)? {
                info.version_defs.push(text(a.name(endian, strings).map_err(corrupt)?));
            }
        }
    }

    for section in sections.iter() {
        let Ok(name) = sections.section_name(endian, section) else { continue };
        if name == b".nv_fatbin" && section.sh_type(endian) != elf::SHT_NOBITS {
            let offset: u64 = section.sh_offset(endian).into();
            let size: u64 = section.sh_size(endian).into();
            let fits = offset.checked_add(size).is_some_and(|end| end <= data.len() as u64);
            if !fits {
                return Err(ElfError::Corrupt(format!(
                    ".nv_fatbin at 0x{offset:x} + 0x{size:x} runs past the end of the file ({} bytes)",
                    data.len()
                )));
            }
            info.fatbin = Some((offset, size));
        }
    }
    info.needed.shrink_to_fit();
    Ok(info)
}

/// A file mapped into memory (an empty file is held as an empty slice: it cannot be mapped).
pub struct Mapped {
    map: Option<memmap2::Mmap>,
}

impl Mapped {
    /// Maps the file at `host_path` (a path on the host running cudoctor).
    pub fn open(host_path: &Path) -> Result<Mapped, ElfError> {
        let file = fs_err::File::open(host_path).map_err(|e| ElfError::Io(e.to_string()))?;
        let len = file.metadata().map_err(|e| ElfError::Io(e.to_string()))?.len();
        if len == 0 {
            return Ok(Mapped { map: None });
        }
        // SAFETY: the mapping is read-only and private to this process. A file truncated by
        // another process while mapped would fault; cudoctor only reads installed libraries.
        let map = unsafe { memmap2::Mmap::map(file.file()) }.map_err(|e| ElfError::Io(e.to_string()))?;
        // Headers are read here and there across hundreds of MB: no read-ahead around them.
        let _ = map.advise(memmap2::Advice::Random);
        Ok(Mapped { map: Some(map) })
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }
}

/// Everything read from one library file: its ELF facts and its fat binary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BinaryFacts {
    /// The ELF facts.
    pub elf: ElfInfo,
    /// The fat binary, when the file has a `.nv_fatbin` section.
    pub fatbin: Option<super::fatbin::Fatbin>,
}

/// Maps and reads a file at a host path: ELF facts and fat binary headers.
pub fn read_file(host_path: &Path) -> Result<BinaryFacts, ElfError> {
    let mapped = Mapped::open(host_path)?;
    let data = mapped.bytes();
    let elf = parse(data)?;
    let fatbin = elf.fatbin.map(|(offset, size)| {
        // Both bounds were checked against the mapping in `parse`.
        let start = offset as usize;
        super::fatbin::parse(&data[start..start + size as usize])
    });
    Ok(BinaryFacts { elf, fatbin })
}

/// Reads only the ELF facts of a file at a host path.
pub fn read_elf(host_path: &Path) -> Result<ElfInfo, ElfError> {
    let mapped = Mapped::open(host_path)?;
    parse(mapped.bytes())
}

/// Reads the ELF identification of a file at a host path (64 bytes are read, nothing mapped).
pub fn read_ident(host_path: &Path) -> Result<Ident, ElfError> {
    use std::io::Read;
    let file = fs_err::File::open(host_path).map_err(|e| ElfError::Io(e.to_string()))?;
    let mut head = Vec::with_capacity(64);
    file.take(64).read_to_end(&mut head).map_err(|e| ElfError::Io(e.to_string()))?;
    ident(&head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_elf_inputs_say_so() {
        assert_eq!(parse(b""), Err(ElfError::NotElf("empty file".into())));
        assert!(matches!(parse(b"/* GNU ld script */"), Err(ElfError::NotElf(_))));
        assert!(matches!(parse(b"\x7fELF\x02\x01"), Err(ElfError::Corrupt(_))));
    }

    #[test]
    fn this_test_binary_reads_as_a_64_bit_elf() {
        let exe = std::env::current_exe().unwrap();
        let info = read_elf(&exe).unwrap();
        assert_eq!(info.class, ElfClass::Elf64);
        assert!(info.needed.iter().any(|n| n.starts_with("libc.so")), "{:?}", info.needed);
        assert!(info.version_needs.iter().any(|v| v.versions.iter().any(|x| x.starts_with("GLIBC_"))));
    }
}
