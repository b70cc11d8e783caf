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
pub mod packages;
pub mod python;
pub mod toolkits;

use crate::report::{ProbeProblem, Report};
use crate::system::System;

/// Runs every probe on `sys` and returns the report.
///
/// The live probes (NVML, libcuda: tens of milliseconds, mostly spent loading the driver's
/// libraries) run on a second thread beside the file probes.
pub fn check(sys: &System) -> Report {
    let mut report = Report::new(&sys.root().display().to_string(), sys.is_live());
    std::thread::scope(|scope| {
        let live = scope.spawn(|| (driver::live_cuda(sys), gpus::collect(sys)));
        environment::probe(sys, &mut report);
        host::probe(sys, &mut report);
        packages::probe(sys, &mut report);
        python::probe(sys, &mut report);
        driver::probe(sys, &mut report);
        toolkits::probe(sys, &mut report);
        libraries::probe(sys, &mut report);
        cudnn::probe(sys, &mut report);
        frameworks::probe(sys, &mut report);
        match live.join() {
            Ok((cuda, found)) => {
                driver::apply_live_cuda(cuda, &mut report);
                gpus::apply(sys, found, &mut report);
            }
            Err(_) => problem(&mut report, "gpus", None, "the live GPU probe failed unexpectedly"),
        }
    });
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
