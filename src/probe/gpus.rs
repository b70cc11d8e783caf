//! Probe: the GPUs — live through NVML (name, UUID, PCI ids, compute capability, memory,
//! processes, MIG, persistence, ECC, temperature, power, throttle reasons); without NVML, from
//! sysfs PCI devices of vendor 0x10de by device id. Then `CUDA_VISIBLE_DEVICES` and
//! `NVIDIA_VISIBLE_DEVICES` are applied: each GPU says whether a CUDA process will see it.
//!
//! Sources, in order: NVML (`libnvidia-ml.so.1`, live only), then `/sys/bus/pci/devices`.

use super::problem;
use crate::report::{Evidence, Fact, Gpu, GpuProcess, GpuSource, Report};
use crate::system::System;
use crate::version::{ComputeCapability, CudaVersion, DriverVersion};
use std::path::Path;

/// The PCI vendor id of NVIDIA.
pub const NVIDIA_PCI_VENDOR: u16 = 0x10de;

/// Adds the GPU facts of `sys` to `report` (see [`collect`] and [`apply`]).
pub fn probe(sys: &System, report: &mut Report) {
    let found = collect(sys);
    apply(sys, found, report);
}

/// What the GPU probe found, before it is put into a report: gathered apart from the report so
/// that the slow live part (NVML) can run beside the file probes.
#[derive(Debug, Default)]
pub struct Collected {
    source: GpuSource,
    devices: Vec<Gpu>,
    nvml_driver: Option<Fact<DriverVersion>>,
    nvml_cuda: Option<Fact<CudaVersion>>,
    problems: Vec<(String, String)>,
}

/// Finds the GPUs: NVML when live, else sysfs.
pub fn collect(sys: &System) -> Collected {
    let mut found = Collected::default();
    if sys.is_live() {
        match nvml_gpus(sys, &mut found) {
            Ok(devices) => {
                found.devices = devices;
                found.source = GpuSource::Nvml;
                return found;
            }
            Err(NvmlUnavailable::LibraryMissing) => {}
            Err(NvmlUnavailable::Failed(message)) => found.problems.push(("NVML".into(), message)),
        }
    }
    let sysfs = collect_sysfs(sys);
    found.devices = sysfs.devices;
    found.source = sysfs.source;
    found
}

/// Finds the GPUs from sysfs alone (when NVML is absent, failed, or hangs).
pub fn collect_sysfs(sys: &System) -> Collected {
    let devices = sysfs_gpus(sys);
    let source = if devices.is_empty() { GpuSource::None } else { GpuSource::Sysfs };
    Collected { source, devices, ..Collected::default() }
}

/// Puts what [`collect`] found into the report and applies the visibility variables.
pub fn apply(sys: &System, found: Collected, report: &mut Report) {
    report.gpus.source = found.source;
    report.gpus.devices = found.devices;
    if found.nvml_driver.is_some() {
        report.driver.nvml_version = found.nvml_driver;
    }
    if report.driver.cuda_supported.is_none() {
        report.driver.cuda_supported = found.nvml_cuda;
    }
    for (subject, message) in found.problems {
        problem(report, "gpus", Some(&subject), message);
    }
    apply_visibility(sys, report);
}

enum NvmlUnavailable {
    LibraryMissing,
    Failed(String),
}

fn nvml_gpus(sys: &System, found: &mut Collected) -> Result<Vec<Gpu>, NvmlUnavailable> {
    use nvml_wrapper::error::NvmlError;
    use nvml_wrapper::Nvml;
    let nvml = match Nvml::init() {
        Ok(n) => n,
        Err(NvmlError::LibloadingError(_)) => return Err(NvmlUnavailable::LibraryMissing),
        Err(e) => return Err(NvmlUnavailable::Failed(format!("nvmlInit failed: {e}"))),
    };
    if let Ok(v) = nvml.sys_driver_version() {
        if let Ok(v) = v.parse::<DriverVersion>() {
            found.nvml_driver = Some(Fact::new(v, Evidence::api("nvmlSystemGetDriverVersion")));
        }
    }
    if let Some(v) = nvml.sys_cuda_driver_version().ok().and_then(|v| CudaVersion::from_int(v.into())) {
        found.nvml_cuda = Some(Fact::new(v, Evidence::api("nvmlSystemGetCudaDriverVersion_v2")));
    }
    let count =
        nvml.device_count().map_err(|e| NvmlUnavailable::Failed(format!("nvmlDeviceGetCount: {e}")))?;
    let mut gpus = Vec::new();
    for index in 0..count {
        let device = match nvml.device_by_index(index) {
            Ok(d) => d,
            Err(e) => {
                found.problems.push((format!("GPU {index}"), format!("nvmlDeviceGetHandleByIndex: {e}")));
                continue;
            }
        };
        let mut gpu =
            Gpu { index, evidence: vec![Evidence::api("nvmlDeviceGetHandleByIndex_v2")], ..Gpu::default() };
        gpu.name = device.name().ok();
        gpu.uuid = device.uuid().ok();
        gpu.serial = device.serial().ok();
        if let Ok(pci) = device.pci_info() {
            gpu.pci_bus_id = Some(pci.bus_id.clone());
            // The high 16 bits are the device id, the low 16 the vendor.
            gpu.pci_device_id = Some((pci.pci_device_id >> 16) as u16);
            gpu.pci_subsystem_id = pci.pci_sub_system_id;
        }
        if let Ok(cc) = device.cuda_compute_capability() {
            if let (Ok(major), Ok(minor)) = (u32::try_from(cc.major), u32::try_from(cc.minor)) {
                gpu.compute_capability = Some(ComputeCapability::new(major, minor));
            }
        }
        if let Ok(mem) = device.memory_info() {
            gpu.memory_total_mib = Some(mem.total >> 20);
            gpu.memory_used_mib = Some(mem.used >> 20);
        }
        for (kind, list) in [
            ("compute", device.running_compute_processes()),
            ("graphics", device.running_graphics_processes()),
        ] {
            for p in list.unwrap_or_default() {
                let used_mib = match p.used_gpu_memory {
                    nvml_wrapper::enums::device::UsedGpuMemory::Used(bytes) => Some(bytes >> 20),
                    nvml_wrapper::enums::device::UsedGpuMemory::Unavailable => None,
                };
                let name = sys
                    .read_to_string(Path::new(&format!("/proc/{}/comm", p.pid)))
                    .ok()
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty());
                gpu.processes.push(GpuProcess { pid: p.pid, name, used_mib, kind: kind.to_string() });
            }
        }
        gpu.mig_enabled = device.mig_mode().ok().map(|m| m.current == 1);
        gpu.persistence = device.is_in_persistent_mode().ok();
        gpu.ecc_enabled = device.is_ecc_enabled().ok().map(|e| e.currently_enabled);
        gpu.temperature_c =
            device.temperature(nvml_wrapper::enum_wrappers::device::TemperatureSensor::Gpu).ok();
        gpu.power_w = device.power_usage().ok().map(|mw| f64::from(mw) / 1000.0);
        gpu.power_limit_w = device.enforced_power_limit().ok().map(|mw| f64::from(mw) / 1000.0);
        // NVML's encoder statistics. Its encoder capacity is not read: the H200 answers 100, so it
        // cannot tell a GPU without NVENC (that needs NVIDIA's encode/decode support matrix).
        gpu.encoder_sessions = device.encoder_stats().ok().map(|s| s.session_count);
        if let Ok(reasons) = device.current_throttle_reasons() {
            gpu.throttle_reasons = reasons.iter_names().map(|(name, _)| name.to_ascii_lowercase()).collect();
        }
        gpus.push(gpu);
    }
    Ok(gpus)
}

fn sysfs_gpus(sys: &System) -> Vec<Gpu> {
    const DEVICES: &str = "/sys/bus/pci/devices";
    let Ok(entries) = sys.read_dir(Path::new(DEVICES)) else { return Vec::new() };
    let mut gpus = Vec::new();
    for entry in entries {
        let read = |file: &str| sys.read_to_string(&entry.path.join(file)).ok().and_then(|t| parse_hex(&t));
        if read("vendor") != Some(u32::from(NVIDIA_PCI_VENDOR)) {
            continue;
        }
        // Display controllers only (class 0x03xxxx): not the HDMI audio function or NVSwitch.
        if read("class").map(|c| c >> 16) != Some(0x03) {
            continue;
        }
        let device_id = read("device").and_then(|d| u16::try_from(d).ok());
        gpus.push(Gpu {
            index: gpus.len() as u32,
            pci_bus_id: Some(entry.name.clone()),
            pci_device_id: device_id,
            pci_subsystem_id: read("subsystem_device"),
            evidence: vec![Evidence::file(entry.path.join("device").display().to_string())],
            ..Gpu::default()
        });
    }
    gpus
}

/// Parses `0x10de` (with or without the prefix and a newline).
pub fn parse_hex(text: &str) -> Option<u32> {
    let t = text.trim();
    u32::from_str_radix(t.strip_prefix("0x").unwrap_or(t), 16).ok()
}

/// How `CUDA_VISIBLE_DEVICES` maps onto the machine's GPUs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visibility {
    /// Machine GPU indices in the order a process will number them (`cuda:0` first).
    pub order: Vec<u32>,
    /// The entries that were ignored, with why (CUDA stops at the first invalid one).
    pub ignored: Vec<String>,
}

/// Applies `CUDA_VISIBLE_DEVICES` to GPUs given as (index, UUID). The CUDA runtime takes
/// comma-separated indices or UUID prefixes (`GPU-8f…`, `MIG-…`), keeps them in the order given,
/// and stops at the first entry that matches no GPU; an empty value hides every GPU.
pub fn apply_cuda_visible_devices(value: &str, gpus: &[(u32, Option<&str>)]) -> Visibility {
    let mut order = Vec::new();
    let mut ignored = Vec::new();
    let entries: Vec<&str> = value.split(',').map(str::trim).collect();
    for (at, entry) in entries.iter().enumerate() {
        if entry.is_empty() && entries.len() == 1 {
            break;
        }
        let found = if let Ok(i) = entry.parse::<i64>() {
            gpus.iter().find(|(index, _)| i64::from(*index) == i).map(|(index, _)| *index)
        } else if entry.starts_with("GPU-") || entry.starts_with("MIG-") {
            let matching: Vec<u32> = gpus
                .iter()
                .filter(|(_, uuid)| uuid.is_some_and(|u| u.starts_with(entry)))
                .map(|(i, _)| *i)
                .collect();
            if matching.len() == 1 {
                Some(matching[0])
            } else {
                None
            }
        } else {
            None
        };
        match found {
            Some(i) if !order.contains(&i) => order.push(i),
            _ => {
                ignored.extend(entries[at..].iter().map(|e| e.to_string()));
                break;
            }
        }
    }
    Visibility { order, ignored }
}

fn apply_visibility(sys: &System, report: &mut Report) {
    let cvd = sys.env("CUDA_VISIBLE_DEVICES").map(str::to_string);
    let nvd = sys.env("NVIDIA_VISIBLE_DEVICES").map(str::to_string);
    report.gpus.cuda_visible_devices = cvd.clone();
    report.gpus.nvidia_visible_devices = nvd.clone();
    let mut notes = Vec::new();
    match &cvd {
        None => {
            for gpu in &mut report.gpus.devices {
                gpu.visible = true;
            }
        }
        Some(value) => {
            let ids: Vec<(u32, Option<&str>)> =
                report.gpus.devices.iter().map(|g| (g.index, g.uuid.as_deref())).collect();
            let vis = apply_cuda_visible_devices(value, &ids);
            let total = report.gpus.devices.len();
            for gpu in &mut report.gpus.devices {
                gpu.visible = vis.order.contains(&gpu.index);
            }
            let mapping: Vec<String> =
                vis.order.iter().enumerate().map(|(n, i)| format!("cuda:{n} = GPU {i}")).collect();
            if total == 0 && !value.trim().is_empty() {
                notes.push(format!("CUDA_VISIBLE_DEVICES={value:?}, but no GPU was found to apply it to"));
            } else if vis.order.is_empty() {
                notes.push(format!(
                    "CUDA_VISIBLE_DEVICES={value:?} hides every GPU: CUDA will report no device"
                ));
            } else {
                notes.push(format!(
                    "CUDA_VISIBLE_DEVICES={value:?}: a process sees {} of {total} GPU(s) ({})",
                    vis.order.len(),
                    mapping.join(", ")
                ));
            }
            if !vis.ignored.is_empty() && total > 0 {
                notes.push(format!(
                    "entries ignored from {:?} on: CUDA stops at the first entry that names no GPU",
                    vis.ignored[0]
                ));
            }
        }
    }
    if let Some(value) = &nvd {
        let v = value.trim();
        if v == "void" || v == "none" || v.is_empty() {
            notes.push(format!(
                "NVIDIA_VISIBLE_DEVICES={v:?}: the NVIDIA container runtime mounts no GPU into this container"
            ));
        } else {
            notes.push(format!(
                "NVIDIA_VISIBLE_DEVICES={v:?} chose the GPUs the NVIDIA container runtime mounted into this container"
            ));
        }
    }
    if !notes.is_empty() {
        report.gpus.visibility_note = Some(notes.join("; "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GPUS: &[(u32, Option<&str>)] =
        &[(0, Some("GPU-8f6a1c2e-0000")), (1, Some("GPU-1b2c3d4e-1111")), (2, Some("GPU-1b2c9999-2222"))];

    #[test]
    fn indices_keep_their_order() {
        let v = apply_cuda_visible_devices("2,0", GPUS);
        assert_eq!(v.order, vec![2, 0]);
        assert!(v.ignored.is_empty());
    }

    #[test]
    fn an_invalid_entry_ends_the_list() {
        let v = apply_cuda_visible_devices("1,7,0", GPUS);
        assert_eq!(v.order, vec![1]);
        assert_eq!(v.ignored, vec!["7", "0"]);
        assert_eq!(apply_cuda_visible_devices("-1", GPUS).order, Vec::<u32>::new());
    }

    #[test]
    fn empty_hides_everything_and_uuids_match_by_unique_prefix() {
        assert!(apply_cuda_visible_devices("", GPUS).order.is_empty());
        assert_eq!(apply_cuda_visible_devices("GPU-8f6a", GPUS).order, vec![0]);
        // Ambiguous prefix: matches two GPUs, so it names none.
        assert!(apply_cuda_visible_devices("GPU-1b2c", GPUS).order.is_empty());
    }

    #[test]
    fn hex_files_from_sysfs() {
        assert_eq!(parse_hex("0x10de\n"), Some(0x10de));
        assert_eq!(parse_hex("0x030200"), Some(0x030200));
        assert_eq!(parse_hex("junk"), None);
    }
}
