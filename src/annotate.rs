//! Annotation: facts the machine does not state but the knowledge base knows from a fact it
//! does — a GPU found only by its PCI device id gets its product name, compute capability and
//! architecture. Each annotation carries `knowledge_base` evidence, so a reader can tell it from
//! what was read on the machine. No I/O.

use crate::report::{Evidence, Report};

/// Adds what the knowledge base knows to the report's facts.
pub fn annotate(report: &mut Report) {
    // The catalog is parsed on first use: most checks (NVML names every GPU) never need it.
    let wanted = report.gpus.devices.iter().any(|g| g.name.is_none() || g.compute_capability.is_none());
    if !wanted {
        return;
    }
    let catalog = crate::kb::gpus::catalog();
    for gpu in &mut report.gpus.devices {
        let Some(id) = gpu.pci_device_id else { continue };
        let Some(entry) = catalog.by_device_id(id) else { continue };
        let lookup = format!("GPU catalog, PCI device id 0x{id:04x}");
        let mut used = false;
        if gpu.name.is_none() {
            gpu.name = Some(entry.name.clone());
            used = true;
        }
        if gpu.compute_capability.is_none() {
            gpu.compute_capability = Some(entry.compute_capability);
            used = true;
        }
        if used {
            gpu.evidence.push(Evidence::KnowledgeBase { lookup });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Gpu;
    use crate::version::ComputeCapability;

    #[test]
    fn a_sysfs_gpu_is_named_from_its_device_id_and_nvml_facts_are_kept() {
        let mut r = Report::new("/", false);
        r.gpus.devices.push(Gpu { pci_device_id: Some(0x2335), ..Gpu::default() });
        r.gpus.devices.push(Gpu {
            pci_device_id: Some(0x2684),
            name: Some("NVIDIA GeForce RTX 4090".into()),
            compute_capability: Some(ComputeCapability::new(8, 9)),
            ..Gpu::default()
        });
        r.gpus.devices.push(Gpu { pci_device_id: Some(0xffff), ..Gpu::default() });
        annotate(&mut r);
        let h200 = &r.gpus.devices[0];
        assert_eq!(h200.name.as_deref(), Some("NVIDIA H200"));
        assert_eq!(h200.compute_capability, Some(ComputeCapability::new(9, 0)));
        assert!(matches!(h200.evidence.last(), Some(Evidence::KnowledgeBase { .. })));
        assert!(r.gpus.devices[1].evidence.is_empty(), "nothing added where NVML already said it");
        assert_eq!(r.gpus.devices[2].name, None, "an unknown id stays unnamed");
    }
}
