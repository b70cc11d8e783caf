//! Version types shared by every layer: dotted numeric versions, CUDA versions, driver versions
//! and compute capabilities. Strings are parsed here, once, at the boundary; nothing past a parser
//! compares versions as text.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// Why a version string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a version like `{expected}`, found `{found}`")]
pub struct VersionError {
    /// The example of the expected form.
    pub expected: &'static str,
    /// The text that did not parse (cut to 64 bytes).
    pub found: String,
}

fn version_error(expected: &'static str, found: &str) -> VersionError {
    let mut found = found.to_string();
    if found.len() > 64 {
        let mut cut = 64;
        while !found.is_char_boundary(cut) {
            cut -= 1;
        }
        found.truncate(cut);
    }
    VersionError { expected, found }
}

/// A dotted numeric version such as `9.19.0.56` or `580.159.04`, with an optional local or
/// pre-release suffix kept verbatim (`2.11.0+cu130` has components `[2, 11, 0]` and local
/// `cu130`). Ordering compares the numeric components (missing ones count as zero), then the
/// suffix; the original text is kept for display because driver versions keep leading zeros.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Version {
    parts: Vec<u64>,
    suffix: String,
    text: String,
}

impl Version {
    /// Builds a version from numeric components.
    pub fn from_parts(parts: &[u64]) -> Version {
        let text = parts.iter().map(u64::to_string).collect::<Vec<_>>().join(".");
        Version { parts: parts.to_vec(), suffix: String::new(), text }
    }

    /// The numeric components.
    pub fn parts(&self) -> &[u64] {
        &self.parts
    }

    /// Component `i`, zero where absent.
    pub fn part(&self, i: usize) -> u64 {
        self.parts.get(i).copied().unwrap_or(0)
    }

    /// The major component.
    pub fn major(&self) -> u64 {
        self.part(0)
    }

    /// The minor component.
    pub fn minor(&self) -> u64 {
        self.part(1)
    }

    /// The suffix after the numeric part (`+cu130` gives `cu130`; `rc1` stays `rc1`).
    pub fn suffix(&self) -> &str {
        &self.suffix
    }

    /// The version as it was written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The first `n` components as a new version (`9.19.0.56` → `9.19` for n = 2).
    pub fn truncated(&self, n: usize) -> Version {
        let parts: Vec<u64> = (0..n).map(|i| self.part(i)).collect();
        Version::from_parts(&parts)
    }

    /// True when `self` starts with all components of `prefix` (`9.19.0` matches `9.19`).
    pub fn matches_prefix(&self, prefix: &Version) -> bool {
        prefix.parts.iter().enumerate().all(|(i, p)| self.part(i) == *p)
    }
}

impl FromStr for Version {
    type Err = VersionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const EXPECTED: &str = "9.19.0";
        let text = s.trim();
        let text = text.strip_prefix('v').unwrap_or(text);
        if text.is_empty() || text.len() > 128 {
            return Err(version_error(EXPECTED, s));
        }
        let numeric_end = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
        let numeric = text[..numeric_end].trim_end_matches('.');
        if numeric.is_empty() {
            return Err(version_error(EXPECTED, s));
        }
        let mut parts = Vec::new();
        for piece in numeric.split('.') {
            if piece.is_empty() || piece.len() > 12 {
                return Err(version_error(EXPECTED, s));
            }
            parts.push(piece.parse::<u64>().map_err(|_| version_error(EXPECTED, s))?);
        }
        let rest = &text[numeric_end..];
        let suffix = rest.trim_start_matches(['+', '-', '.', '_']);
        if suffix.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(version_error(EXPECTED, s));
        }
        Ok(Version { parts, suffix: suffix.to_string(), text: text.to_string() })
    }
}

impl TryFrom<String> for Version {
    type Error = VersionError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Version> for String {
    fn from(v: Version) -> String {
        v.text
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Version {}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        let n = self.parts.len().max(other.parts.len());
        for i in 0..n {
            match self.part(i).cmp(&other.part(i)) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        // A pre-release such as `rc1` sorts before the release; a local tag (`+cu130`) after.
        let rank = |v: &Version| -> i8 {
            if v.suffix.is_empty() {
                0
            } else if v.text.contains('+') {
                1
            } else {
                -1
            }
        };
        rank(self).cmp(&rank(other)).then_with(|| self.suffix.cmp(&other.suffix))
    }
}

impl std::hash::Hash for Version {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let mut parts = self.parts.clone();
        while parts.last() == Some(&0) {
            parts.pop();
        }
        parts.hash(state);
        self.suffix.hash(state);
    }
}

/// A CUDA version `major.minor` (an update number, if any, is dropped: CUDA compatibility is
/// decided by major and minor). Parses `13.0`, `13.0.2`, `12080` (the integer form of
/// `cudaRuntimeGetVersion`/`CUDA_VERSION`: 1000 × major + 10 × minor) and `cu128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CudaVersion {
    /// Major version (13 for CUDA 13.0).
    pub major: u32,
    /// Minor version (0 for CUDA 13.0).
    pub minor: u32,
}

impl CudaVersion {
    /// A CUDA version from its parts.
    pub const fn new(major: u32, minor: u32) -> Self {
        CudaVersion { major, minor }
    }

    /// From the integer encoding used by `CUDA_VERSION` and `cuDriverGetVersion` (13000 → 13.0).
    /// Rejects implausible values (zero, negative, beyond CUDA 99).
    pub fn from_int(v: i64) -> Option<Self> {
        if !(1000..100_000).contains(&v) {
            return None;
        }
        Some(CudaVersion::new((v / 1000) as u32, ((v % 1000) / 10) as u32))
    }

    /// From a PyTorch-style build tag: `cu118` → 11.8, `cu130` → 13.0, `cu92` → 9.2.
    pub fn from_tag(tag: &str) -> Option<Self> {
        let digits = tag.strip_prefix("cu")?;
        if digits.len() < 2 || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let (major, minor) = digits.split_at(digits.len() - 1);
        Some(CudaVersion::new(major.parse().ok()?, minor.parse().ok()?))
    }

    /// The PyTorch build tag of this version (`13.0` → `cu130`).
    pub fn tag(&self) -> String {
        format!("cu{}{}", self.major, self.minor)
    }
}

impl FromStr for CudaVersion {
    type Err = VersionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const EXPECTED: &str = "12.8";
        let t = s.trim();
        if let Some(v) = CudaVersion::from_tag(t) {
            return Ok(v);
        }
        if !t.contains('.') {
            if let Ok(n) = t.parse::<i64>() {
                if let Some(v) = CudaVersion::from_int(n) {
                    return Ok(v);
                }
            }
            if let Ok(major) = t.parse::<u32>() {
                if (1..100).contains(&major) {
                    return Ok(CudaVersion::new(major, 0));
                }
            }
            return Err(version_error(EXPECTED, s));
        }
        let v: Version = t.parse().map_err(|_| version_error(EXPECTED, s))?;
        if !v.suffix().is_empty() || v.major() == 0 || v.major() > 99 || v.minor() > 99 {
            return Err(version_error(EXPECTED, s));
        }
        Ok(CudaVersion::new(v.major() as u32, v.minor() as u32))
    }
}

impl TryFrom<String> for CudaVersion {
    type Error = VersionError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<CudaVersion> for String {
    fn from(v: CudaVersion) -> String {
        v.to_string()
    }
}

impl fmt::Display for CudaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// An NVIDIA driver version such as `580.159.04` or `418.39`. Kept as text for display (leading
/// zeros matter to people who copy it) and compared numerically. Implausible versions (a branch
/// below 100 or above 9999) are rejected at the boundary.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DriverVersion(Version);

impl DriverVersion {
    /// The branch (the first component: 580 for 580.159.04).
    pub fn branch(&self) -> u64 {
        self.0.major()
    }

    /// The underlying dotted version.
    pub fn version(&self) -> &Version {
        &self.0
    }
}

impl FromStr for DriverVersion {
    type Err = VersionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const EXPECTED: &str = "580.95.05";
        let v: Version = s.parse().map_err(|_| version_error(EXPECTED, s))?;
        if !v.suffix().is_empty() || !(100..10_000).contains(&v.major()) || v.parts().len() > 3 {
            return Err(version_error(EXPECTED, s));
        }
        Ok(DriverVersion(v))
    }
}

impl TryFrom<String> for DriverVersion {
    type Error = VersionError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<DriverVersion> for String {
    fn from(v: DriverVersion) -> String {
        v.0.text
    }
}

impl fmt::Display for DriverVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A GPU compute capability (`9.0` for H100/H200, `12.0` for RTX 50-series), also parsed from
/// `sm_90`, `sm_90a`, `compute_120` and `90` (the suffix letter, if any, is dropped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ComputeCapability {
    /// Major (the architecture generation).
    pub major: u32,
    /// Minor.
    pub minor: u32,
}

impl ComputeCapability {
    /// A capability from its parts.
    pub const fn new(major: u32, minor: u32) -> Self {
        ComputeCapability { major, minor }
    }

    /// The `sm_XY` name of the capability.
    pub fn sm(&self) -> String {
        format!("sm_{}{}", self.major, self.minor)
    }

    /// Parses the numeric part of `sm_90`, `compute_120a`, `90`, `120f`.
    pub fn from_sm_number(s: &str) -> Option<Self> {
        let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
        if digits.len() < 2 || digits.len() > 3 {
            return None;
        }
        let (major, minor) = digits.split_at(digits.len() - 1);
        Some(ComputeCapability::new(major.parse().ok()?, minor.parse().ok()?))
    }
}

impl FromStr for ComputeCapability {
    type Err = VersionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const EXPECTED: &str = "8.6";
        let t = s.trim();
        let t = t.strip_prefix("sm_").or_else(|| t.strip_prefix("compute_")).unwrap_or(t);
        if let Some((a, b)) = t.split_once('.') {
            let major = a.parse().map_err(|_| version_error(EXPECTED, s))?;
            let minor = b.parse().map_err(|_| version_error(EXPECTED, s))?;
            if major == 0 || major > 99 || minor > 9 {
                return Err(version_error(EXPECTED, s));
            }
            return Ok(ComputeCapability::new(major, minor));
        }
        ComputeCapability::from_sm_number(t).ok_or_else(|| version_error(EXPECTED, s))
    }
}

impl TryFrom<String> for ComputeCapability {
    type Error = VersionError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<ComputeCapability> for String {
    fn from(v: ComputeCapability) -> String {
        v.to_string()
    }
}

impl fmt::Display for ComputeCapability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_numerically_not_as_text() {
        let a: Version = "9.19.0.56".parse().unwrap();
        let b: Version = "9.9.0".parse().unwrap();
        assert!(a > b);
        assert_eq!("9.19".parse::<Version>().unwrap(), "9.19.0".parse::<Version>().unwrap());
        assert!("2.11.0+cu130".parse::<Version>().unwrap() > "2.11.0".parse::<Version>().unwrap());
        assert!("2.11.0rc1".parse::<Version>().unwrap() < "2.11.0".parse::<Version>().unwrap());
        assert_eq!("2.11.0+cu130".parse::<Version>().unwrap().suffix(), "cu130");
    }

    #[test]
    fn junk_versions_are_rejected() {
        for junk in ["", "abc", "1..2", ".5", "1.2 3", "99999999999999.1"] {
            assert!(junk.parse::<Version>().is_err(), "{junk:?} parsed");
        }
    }

    #[test]
    fn cuda_versions_parse_every_form() {
        assert_eq!("13.0.2".parse::<CudaVersion>().unwrap(), CudaVersion::new(13, 0));
        assert_eq!("cu118".parse::<CudaVersion>().unwrap(), CudaVersion::new(11, 8));
        assert_eq!("12080".parse::<CudaVersion>().unwrap(), CudaVersion::new(12, 8));
        assert_eq!(CudaVersion::from_int(13000), Some(CudaVersion::new(13, 0)));
        assert_eq!(CudaVersion::from_int(0), None);
        assert_eq!(CudaVersion::from_int(-1), None);
        assert_eq!(CudaVersion::from_int(i64::from(i32::MAX)), None);
        assert_eq!(CudaVersion::new(12, 6).tag(), "cu126");
        assert!("cuda".parse::<CudaVersion>().is_err());
    }

    #[test]
    fn driver_versions_keep_their_text_and_reject_implausible_values() {
        let d: DriverVersion = "580.95.05".parse().unwrap();
        assert_eq!(d.to_string(), "580.95.05");
        assert_eq!(d.branch(), 580);
        assert!(d < "580.159.04".parse().unwrap());
        assert!("0.1".parse::<DriverVersion>().is_err());
        assert!("13.0".parse::<DriverVersion>().is_err());
    }

    #[test]
    fn compute_capabilities_parse_sm_names() {
        assert_eq!("sm_90a".parse::<ComputeCapability>().unwrap(), ComputeCapability::new(9, 0));
        assert_eq!("compute_120".parse::<ComputeCapability>().unwrap(), ComputeCapability::new(12, 0));
        assert_eq!("8.6".parse::<ComputeCapability>().unwrap(), ComputeCapability::new(8, 6));
        assert_eq!(ComputeCapability::new(10, 0).sm(), "sm_100");
        assert!("sm_x".parse::<ComputeCapability>().is_err());
    }
}
