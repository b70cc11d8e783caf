//! Probe: which CUDA libraries each framework's main binary really gets from the dynamic loader
//! here, and which GPU architectures it has kernels for — read from the binaries through the
//! loader model of [`crate::loader`] (the same as `cudoctor inspect`), never by importing.

use crate::loader::frameworks::{framework_cuda, CudaLinkage};
use crate::loader::Request;
use crate::report::{ArchCount, FrameworkKind, GpuCode, Linkage, LoadedLibrary, Report};
use crate::system::System;
use std::path::Path;

/// The frameworks whose packages hold a CUDA binary worth following.
const WITH_CUDA_BINARY: &[FrameworkKind] = &[
    FrameworkKind::Torch,
    FrameworkKind::Tensorflow,
    FrameworkKind::JaxCudaPlugin,
    FrameworkKind::Cupy,
    FrameworkKind::Onnxruntime,
    FrameworkKind::Paddle,
];

/// Adds each framework's [`Linkage`].
pub fn probe(sys: &System, report: &mut Report) {
    for framework in &mut report.frameworks {
        if !WITH_CUDA_BINARY.contains(&framework.kind) {
            continue;
        }
        if let Some(linkage) = framework_cuda(sys, Path::new(&framework.location)) {
            framework.linkage = Some(convert(linkage));
        }
    }
}

fn convert(l: CudaLinkage) -> Linkage {
    Linkage {
        binary: l.binary,
        binary_error: l.binary_error,
        cuda_runtime: l.cuda_runtime,
        libraries: l
            .libraries
            .into_iter()
            .map(|r| LoadedLibrary {
                name: r.name,
                requested_by: r.requested_by,
                dlopen: r.request == Request::Dlopen,
                path: r.path,
                real_path: r.real_path,
                found_by: r.step.map(|s| s.describe()),
                version: r.version,
                version_source: r.version_source,
                error: r.error,
                searched: r.searched,
            })
            .collect(),
        gpu_code: l.archs.map(|a| GpuCode {
            cubins: a.cubins.into_iter().map(|(target, count)| ArchCount { target, count }).collect(),
            ptx: a.ptx,
            compressed: a.compressed,
            problems: a.problems,
        }),
        cudnn_mixes: l.cudnn_mixes,
        notes: l.notes,
    }
}
