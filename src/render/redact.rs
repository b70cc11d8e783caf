//! `--redact`: hides user names, host names, home directories, serial numbers and GPU UUIDs in
//! a report, so that it can be pasted into a public issue. It works on the serialised form, so
//! every string field — including ones added later — is covered.

use crate::report::Report;
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

/// What stands in for a hidden value.
pub const HIDDEN: &str = "<redacted>";

fn patterns() -> &'static [(Regex, &'static str)] {
    static PATTERNS: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        [
            (r"/home/[^/\s:;,]+", "/home/<user>"),
            (r"/Users/[^/\s:;,]+", "/Users/<user>"),
            (r"(?i)\b(GPU|MIG)-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}\b", "$1-<redacted>"),
        ]
        .into_iter()
        .map(|(p, r)| (Regex::new(p).expect("redaction pattern is valid"), r))
        .collect()
    })
}

/// Returns a copy of the report with private values hidden. `user` is the user name to hide
/// wherever it appears as a path component (taken from `$USER` by the caller).
pub fn redact(report: &Report, user: Option<&str>) -> Report {
    let mut value = serde_json::to_value(report).expect("a report always serialises");
    let hostname = report.host.hostname.clone();
    walk(&mut value, &|s: &str| scrub(s, hostname.as_deref(), user));
    if let Some(gpus) = value.pointer_mut("/gpus/devices").and_then(Value::as_array_mut) {
        for gpu in gpus {
            for key in ["uuid", "serial"] {
                if let Some(v) = gpu.get_mut(key) {
                    if !v.is_null() {
                        *v = Value::String(HIDDEN.into());
                    }
                }
            }
        }
    }
    if let Some(h) = value.pointer_mut("/host/hostname") {
        if !h.is_null() {
            *h = Value::String(HIDDEN.into());
        }
    }
    serde_json::from_value(value).expect("redaction keeps the report's shape")
}

fn scrub(s: &str, hostname: Option<&str>, user: Option<&str>) -> String {
    let mut out = s.to_string();
    for (re, with) in patterns() {
        if re.is_match(&out) {
            out = re.replace_all(&out, *with).into_owned();
        }
    }
    if let Some(h) = hostname.filter(|h| h.len() >= 3) {
        out = out.replace(h, "<host>");
    }
    if let Some(u) = user.filter(|u| u.len() >= 3 && *u != "root") {
        out = out.replace(&format!("/{u}/"), "/<user>/");
        if out.ends_with(&format!("/{u}")) {
            let cut = out.len() - u.len();
            out.replace_range(cut.., "<user>");
        }
    }
    out
}

fn walk(value: &mut Value, f: &dyn Fn(&str) -> String) {
    match value {
        Value::String(s) => {
            let new = f(s);
            if new != *s {
                *s = new;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| walk(v, f)),
        Value::Object(map) => map.values_mut().for_each(|v| walk(v, f)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{EnvVar, Gpu};

    #[test]
    fn homes_hosts_uuids_and_serials_are_hidden() {
        let mut r = Report::new("/", true);
        r.host.hostname = Some("gpu-box-17".into());
        r.environment.push(EnvVar { name: "PATH".into(), value: "/home/alice/.venv/bin:/usr/bin".into() });
        r.environment.push(EnvVar { name: "X".into(), value: "/data/alice/run on gpu-box-17".into() });
        r.gpus.devices.push(Gpu {
            uuid: Some("GPU-8f6a1c2e-1234-5678-9abc-def012345678".into()),
            serial: Some("1652022012345".into()),
            ..Gpu::default()
        });
        r.gpus.visibility_note = Some("CUDA_VISIBLE_DEVICES=GPU-8f6a1c2e-1234-5678-9abc-def012345678".into());
        let red = redact(&r, Some("alice"));
        let text = serde_json::to_string(&red).unwrap();
        for secret in ["alice", "gpu-box-17", "8f6a1c2e", "1652022012345"] {
            assert!(!text.contains(secret), "{secret} leaked: {text}");
        }
        assert_eq!(red.environment[0].value, "/home/<user>/.venv/bin:/usr/bin");
        assert_eq!(red.environment[1].value, "/data/<user>/run on <host>");
    }
}
