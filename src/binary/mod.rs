//! Binary truth: what a shared library says about itself, read from its bytes without loading
//! it. [`elf`] reads what the dynamic loader reads (needed libraries, search paths, symbol
//! versions); [`fatbin`] reads which GPU architectures its CUDA kernels were built for.

pub mod elf;
pub mod fatbin;

use elf::VersionNeed;

/// The versions a library needs from `provider` (matched by file name, `libstdc++.so.6`) that
/// the provider does not define: each one is a
/// "version `GLIBCXX_3.4.30' not found (required by …)" waiting to happen.
pub fn missing_versions(needs: &[VersionNeed], provider: &str, provider_defs: &[String]) -> Vec<String> {
    needs
        .iter()
        .filter(|n| n.file == provider)
        .flat_map(|n| n.versions.iter())
        .filter(|v| !provider_defs.iter().any(|d| d == *v))
        .cloned()
        .collect()
}

/// The newest version of a family (`GLIBCXX_`) among version names, compared numerically
/// (`GLIBCXX_3.4.30` > `GLIBCXX_3.4.9`).
pub fn newest_version<'a>(names: impl IntoIterator<Item = &'a String>, prefix: &str) -> Option<&'a String> {
    names
        .into_iter()
        .filter_map(|n| {
            let v: crate::version::Version = n.strip_prefix(prefix)?.parse().ok()?;
            Some((v, n))
        })
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, n)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glibcxx_version_the_host_lacks_is_predicted() {
        let needs = vec![VersionNeed {
            file: "libstdc++.so.6".into(),
            versions: vec!["GLIBCXX_3.4.30".into(), "CXXABI_1.3".into()],
        }];
        let host = vec!["GLIBCXX_3.4".into(), "GLIBCXX_3.4.29".into(), "CXXABI_1.3".into()];
        assert_eq!(missing_versions(&needs, "libstdc++.so.6", &host), ["GLIBCXX_3.4.30"]);
        assert_eq!(newest_version(&host, "GLIBCXX_").unwrap(), "GLIBCXX_3.4.29");
        let more = vec!["GLIBCXX_3.4.9".to_string(), "GLIBCXX_3.4.30".to_string()];
        assert_eq!(newest_version(&more, "GLIBCXX_").unwrap(), "GLIBCXX_3.4.30");
    }
}
