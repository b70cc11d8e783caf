//! Probes: gather the facts of a machine into a [`Report`], never judging them.
//!
//! Each probe is a thin I/O shell (reading through [`System`]) around pure `parse_*` functions
//! that are unit-tested on verbatim captured text. A probe that cannot read something records a
//! [`crate::report::ProbeProblem`] and the check goes on. Order matters only where a probe uses
//! another's facts: Python environments and package databases come first, because toolkits,
//! libraries, cuDNN and frameworks are attributed to them.

pub mod cudnn;
pub mod driver;
pub mod environment;
pub mod frameworks;
pub mod gpus;
pub mod host;
pub mod libraries;
pub mod linkage;
pub mod packages;
pub mod python;
pub mod toolkits;

use crate::report::{Fact, ProbeProblem, Report};
use crate::system::System;
use crate::version::CudaVersion;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the live probes (NVML, libcuda) may take before the check goes on without them: a
/// wedged driver can make `nvmlInit` hang forever.
pub const LIVE_TIMEOUT: Duration = Duration::from_secs(3);

/// What the live probes found: the CUDA version from libcuda, and the GPUs.
pub type LiveFacts = (Result<Option<Fact<CudaVersion>>, String>, gpus::Collected);

/// The live probes as cudoctor runs them.
pub fn live_probes(sys: System) -> LiveFacts {
    (driver::live_cuda(&sys), gpus::collect(&sys))
}

/// Runs every probe on `sys` and returns the report.
pub fn check(sys: &System) -> Report {
    check_with(sys, live_probes, LIVE_TIMEOUT)
}

/// [`check`] with the live probes and their time limit given: the live probes (tens of
/// milliseconds, mostly spent loading the driver's libraries) run on a thread of their own beside
/// the file probes; if they have not answered after `timeout`, the report says so, the GPUs are
/// taken from sysfs, and the thread is left behind.
pub fn check_with(
    sys: &System,
    live: impl FnOnce(System) -> LiveFacts + Send + 'static,
    timeout: Duration,
) -> Report {
    let started = Instant::now();
    let mut report = Report::new(&sys.root().display().to_string(), sys.is_live());
    let (send, receive) = mpsc::channel();
    let live_sys = sys.clone();
    let spawned = std::thread::Builder::new().name("live-probes".into()).spawn(move || {
        let _ = send.send(live(live_sys));
    });
    environment::probe(sys, &mut report);
    host::probe(sys, &mut report);
    // Python environments first: the pip and conda package databases live in them.
    python::probe(sys, &mut report);
    let index = packages::probe(sys, &mut report);
    host::glibc_from_packages(&index, &mut report);
    driver::probe(sys, &index, &mut report);
    toolkits::probe(sys, &index, &mut report);
    libraries::probe(sys, &index, &mut report);
    cudnn::probe(sys, &index, &mut report);
    frameworks::probe(sys, &index, &mut report);
    linkage::probe(sys, &mut report);
    let answer = match spawned {
        Ok(_) => receive.recv_timeout(timeout.saturating_sub(started.elapsed())).map_err(|e| match e {
            mpsc::RecvTimeoutError::Timeout => {
                format!("NVML/libcuda did not answer: timed out after {} s", timeout.as_secs_f32())
            }
            mpsc::RecvTimeoutError::Disconnected => "the live probes failed unexpectedly".to_string(),
        }),
        Err(e) => Err(format!("could not start the live probes: {e}")),
    };
    match answer {
        Ok((cuda, found)) => {
            driver::apply_live_cuda(cuda, &mut report);
            gpus::apply(sys, found, &mut report);
        }
        Err(message) => {
            problem(&mut report, "gpus", Some("NVML"), message);
            gpus::apply(sys, gpus::collect_sysfs(sys), &mut report);
        }
    }
    report.problems.sort();
    report.problems.dedup();
    report
}

/// Records a problem met by a probe.
pub fn problem(report: &mut Report, probe: &str, subject: Option<&str>, message: impl Into<String>) {
    report.problems.push(ProbeProblem {
        probe: probe.to_string(),
        subject: subject.map(str::to_string),
        message: message.into(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn a_hanging_driver_becomes_a_problem_and_the_check_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let sys = System::at_root(dir.path(), BTreeMap::new());
        let started = Instant::now();
        let hanging = |_sys: System| -> LiveFacts {
            std::thread::sleep(Duration::from_secs(30));
            unreachable!("the check does not wait this long")
        };
        let report = check_with(&sys, hanging, Duration::from_millis(200));
        assert!(started.elapsed() < Duration::from_secs(5));
        let p = report.problems.iter().find(|p| p.probe == "gpus").expect("a problem is recorded");
        assert_eq!(p.message, "NVML/libcuda did not answer: timed out after 0.2 s");
    }
}
