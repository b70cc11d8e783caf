//! Probe: the host — OS (os-release), kernel, CPU architecture, glibc, host name, and the
//! containers or VMs the check runs in. Python environments and package databases are found by
//! [`super::python`] and [`super::packages`].

use crate::report::{Container, Evidence, Fact, Report};
use crate::system::System;
use crate::version::Version;
use std::path::Path;

/// Adds the host facts of `sys` to `report`.
pub fn probe(sys: &System, report: &mut Report) {
    for path in ["/etc/os-release", "/usr/lib/os-release"] {
        if let Ok(text) = sys.read_to_string(Path::new(path)) {
            let os = parse_os_release(&text);
            if let Some(pretty) = os.pretty_name() {
                report.host.os = Some(Fact::new(pretty, Evidence::file(path)));
            }
            report.host.os_id = os.id;
            report.host.os_version = os.version_id;
            break;
        }
    }
    let osrelease = Path::new("/proc/sys/kernel/osrelease");
    if let Ok(text) = sys.read_to_string(osrelease) {
        let kernel = text.trim().to_string();
        if !kernel.is_empty() {
            report.host.kernel = Some(Fact::new(kernel, Evidence::file("/proc/sys/kernel/osrelease")));
        }
    }
    report.host.arch = detect_arch(sys);
    report.host.glibc = detect_glibc(sys);
    for path in ["/etc/hostname", "/proc/sys/kernel/hostname"] {
        if let Ok(text) = sys.read_to_string(Path::new(path)) {
            let name = text.trim();
            if !name.is_empty() {
                report.host.hostname = Some(name.to_string());
                break;
            }
        }
    }
    report.host.containers = detect_containers(sys, report);
}

/// Where no file said glibc's version, the package database may: dpkg `libc6`, rpm `glibc`.
pub fn glibc_from_packages(index: &super::packages::PackageIndex, report: &mut Report) {
    if report.host.glibc.is_some() {
        return;
    }
    let package = index.system_matching(|n| n == "libc6" || n.starts_with("libc6:") || n == "glibc").next();
    if let Some(p) = package {
        if let Some(v) = p.upstream_version() {
            report.host.glibc = Some(Fact::new(v.truncated(2), p.evidence()));
        }
    }
}

/// The fields of os-release that matter.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct OsRelease {
    /// `NAME`.
    pub name: Option<String>,
    /// `ID`.
    pub id: Option<String>,
    /// `VERSION_ID`.
    pub version_id: Option<String>,
    /// `PRETTY_NAME`.
    pub pretty: Option<String>,
}

impl OsRelease {
    /// `PRETTY_NAME`, else `NAME VERSION_ID`.
    pub fn pretty_name(&self) -> Option<String> {
        self.pretty.clone().or_else(|| match (&self.name, &self.version_id) {
            (Some(n), Some(v)) => Some(format!("{n} {v}")),
            (Some(n), None) => Some(n.clone()),
            _ => None,
        })
    }
}

/// Parses os-release (`KEY=value`, values optionally quoted).
pub fn parse_os_release(text: &str) -> OsRelease {
    let mut os = OsRelease::default();
    for line in text.lines() {
        let Some((key, value)) = line.trim().split_once('=') else { continue };
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'').to_string();
        if value.is_empty() {
            continue;
        }
        match key {
            "NAME" => os.name = Some(value),
            "ID" => os.id = Some(value),
            "VERSION_ID" => os.version_id = Some(value),
            "PRETTY_NAME" => os.pretty = Some(value),
            _ => {}
        }
    }
    os
}

/// The multiarch triplets cudoctor recognises, with their architecture.
const MULTIARCH: &[(&str, &str)] =
    &[("x86_64-linux-gnu", "x86_64"), ("aarch64-linux-gnu", "aarch64"), ("powerpc64le-linux-gnu", "ppc64le")];

fn detect_arch(sys: &System) -> Option<Fact<String>> {
    if sys.is_host_root() {
        return Some(Fact::new(std::env::consts::ARCH.to_string(), Evidence::api("uname")));
    }
    // A copied root: the multiarch library directory names the architecture.
    for (triplet, arch) in MULTIARCH {
        let dir = format!("/usr/lib/{triplet}");
        if sys.is_dir(Path::new(&dir)) {
            return Some(Fact::new(arch.to_string(), Evidence::file_name(dir)));
        }
    }
    for (triplet, arch) in MULTIARCH {
        let conf = format!("/etc/ld.so.conf.d/{triplet}.conf");
        if sys.exists(Path::new(&conf)) {
            return Some(Fact::new(arch.to_string(), Evidence::file_name(conf)));
        }
    }
    None
}

fn detect_glibc(sys: &System) -> Option<Fact<Version>> {
    let mut dirs: Vec<String> = MULTIARCH.iter().map(|(t, _)| format!("/lib/{t}")).collect();
    dirs.extend(MULTIARCH.iter().map(|(t, _)| format!("/usr/lib/{t}")));
    dirs.extend(["/lib64", "/usr/lib64"].map(String::from));
    for dir in &dirs {
        let Ok(entries) = sys.read_dir(Path::new(dir)) else { continue };
        // glibc before 2.34 shipped libc-2.31.so: the name says the version.
        for e in &entries {
            if let Some(v) = e.name.strip_prefix("libc-").and_then(|r| r.strip_suffix(".so")) {
                if let Ok(v) = v.parse::<Version>() {
                    return Some(Fact::new(v, Evidence::file_name(e.path.display().to_string())));
                }
            }
        }
        let libc = Path::new(dir).join("libc.so.6");
        if let Ok(bytes) = sys.read_head(&libc, 8 << 20) {
            if let Some(v) = parse_glibc_banner(&bytes) {
                let evidence = Evidence::file_detail(libc.display().to_string(), "release banner");
                return Some(Fact::new(v, evidence));
            }
        }
    }
    None
}

/// Finds glibc's version in the banner compiled into libc.so.6
/// (`GNU C Library (Debian GLIBC 2.36-9+deb12u4) stable release version 2.36.`).
pub fn parse_glibc_banner(bytes: &[u8]) -> Option<Version> {
    const NEEDLE: &[u8] = b"release version ";
    let at = memchr::memmem::find(bytes, NEEDLE)? + NEEDLE.len();
    let tail = &bytes[at..bytes.len().min(at + 16)];
    let end = tail.iter().position(|b| !(b.is_ascii_digit() || *b == b'.')).unwrap_or(tail.len());
    std::str::from_utf8(&tail[..end]).ok()?.trim_end_matches('.').parse().ok()
}

fn detect_containers(sys: &System, report: &Report) -> Vec<Fact<Container>> {
    let mut found: Vec<Fact<Container>> = Vec::new();
    let mut add = |c: Container, e: Evidence| {
        if !found.iter().any(|f| f.value == c) {
            found.push(Fact::new(c, e));
        }
    };
    if sys.exists(Path::new("/.dockerenv")) {
        add(Container::Docker, Evidence::file("/.dockerenv"));
    }
    if sys.exists(Path::new("/run/.containerenv")) {
        add(Container::Podman, Evidence::file("/run/.containerenv"));
    }
    if sys.is_host_root() {
        if let Ok(cgroup) = sys.read_to_string(Path::new("/proc/1/cgroup")) {
            if let Some(c) = parse_cgroup(&cgroup) {
                add(c, Evidence::file("/proc/1/cgroup"));
            }
        }
    }
    if sys.env("KUBERNETES_SERVICE_HOST").is_some() {
        add(Container::Kubernetes, Evidence::env("KUBERNETES_SERVICE_HOST"));
    }
    let kernel_says_wsl =
        report.host.kernel.as_ref().is_some_and(|k| k.value.to_ascii_lowercase().contains("microsoft"));
    if kernel_says_wsl {
        add(Container::Wsl2, Evidence::file("/proc/sys/kernel/osrelease"));
    } else if sys.is_dir(Path::new("/usr/lib/wsl/lib")) {
        add(Container::Wsl2, Evidence::file_name("/usr/lib/wsl/lib"));
    }
    found
}

/// Recognises a container runtime in the content of `/proc/1/cgroup`.
pub fn parse_cgroup(text: &str) -> Option<Container> {
    let text = text.to_ascii_lowercase();
    if text.contains("kubepods") {
        Some(Container::Kubernetes)
    } else if text.contains("docker") {
        Some(Container::Docker)
    } else if text.contains("libpod") {
        Some(Container::Podman)
    } else if text.contains("containerd") || text.contains("/lxc/") {
        Some(Container::Other)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_release_is_read_with_quotes() {
        let os = parse_os_release(
            "PRETTY_NAME=\"Ubuntu 24.04.3 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\nID=ubuntu\n",
        );
        assert_eq!(os.pretty_name().unwrap(), "Ubuntu 24.04.3 LTS");
        assert_eq!(os.id.as_deref(), Some("ubuntu"));
        let bare = parse_os_release("NAME=Debian\nVERSION_ID=12\n");
        assert_eq!(bare.pretty_name().unwrap(), "Debian 12");
        assert_eq!(parse_os_release("junk\n=\n").pretty_name(), None);
    }

    #[test]
    fn glibc_banner_gives_the_version() {
        let bytes = b"\0\0GNU C Library (Ubuntu GLIBC 2.39-0ubuntu8.4) stable release version 2.39.\n\0";
        assert_eq!(parse_glibc_banner(bytes).unwrap().to_string(), "2.39");
        assert_eq!(parse_glibc_banner(b"release version "), None);
    }

    #[test]
    fn cgroups_name_the_runtime() {
        assert_eq!(parse_cgroup("0::/kubepods/burstable/pod1/abc"), Some(Container::Kubernetes));
        assert_eq!(parse_cgroup("12:cpu:/docker/0123"), Some(Container::Docker));
        assert_eq!(parse_cgroup("0::/init.scope"), None);
    }
}
