//! The GPU catalog against the ground truth of a real machine (tests/fixtures/h200-cuda13-torch211
//! /FACTS.md): the PCI device id nvidia-smi reported resolves to the name it printed and to the
//! compute capability PyTorch read from the device.

use cudoctor::kb::gpus::{catalog, Architecture};
use cudoctor::version::ComputeCapability;
use regex::Regex;

const FACTS: &str = include_str!("fixtures/h200-cuda13-torch211/FACTS.md");

#[test]
fn the_h200_machine_resolves_by_device_id_and_by_name() {
    let smi = Regex::new(r#"GPU 0 "([^"]+)", (\d+) MiB.*PCI device id 0x([0-9a-f]{4})"#).unwrap();
    let c = smi.captures(FACTS).expect("nvidia-smi line in FACTS.md");
    let (name, mib, id) = (&c[1], c[2].parse::<u64>().unwrap(), u16::from_str_radix(&c[3], 16).unwrap());
    let cap = Regex::new(r"device capability \((\d+), (\d+)\)").unwrap();
    let c = cap.captures(FACTS).expect("torch device capability in FACTS.md");
    let cc = ComputeCapability::new(c[1].parse().unwrap(), c[2].parse().unwrap());

    let gpu = catalog().by_device_id(id).expect("device id known");
    assert_eq!(gpu.name, name, "the driver's name");
    assert_eq!(gpu.compute_capability, cc);
    assert_eq!(gpu.architecture, Architecture::Hopper);
    assert_eq!(catalog().lookup(name).first().map(|g| g.name.as_str()), Some(name));
    // The nominal size is within a GiB or two of what nvidia-smi shows.
    let nominal = u64::from(gpu.memory_gib.expect("H200 memory size"));
    assert!(nominal.abs_diff(mib / 1024) <= 2, "{nominal} GiB vs {mib} MiB");
}
