//! Probe: the allow-listed environment variables. Only these ever reach a report: everything
//! else in the environment (tokens, keys, paths of unrelated tools) stays out.

use crate::report::{EnvVar, Report};
use crate::system::System;

/// Variables reported by exact name.
pub const ALLOWED: &[&str] = &[
    "CUDA_HOME",
    "CUDA_PATH",
    "CUDA_ROOT",
    "CUDNN_HOME",
    "CUDNN_PATH",
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "LIBRARY_PATH",
    "PATH",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV",
    "PYTHONPATH",
    "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "NVIDIA_VISIBLE_DEVICES",
    "NVIDIA_DRIVER_CAPABILITIES",
    "NVIDIA_REQUIRE_CUDA",
    "NVIDIA_DISABLE_REQUIRE",
    "CUDA_VERSION",
    "NV_CUDNN_VERSION",
    "PYTORCH_CUDA_ALLOC_CONF",
    "PYTORCH_ALLOC_CONF",
    "TORCH_CUDA_ARCH_LIST",
    "CUBLAS_WORKSPACE_CONFIG",
    "CUDA_LAUNCH_BLOCKING",
    "CUDA_MODULE_LOADING",
    "CUDA_CACHE_PATH",
    "CUDA_CACHE_DISABLE",
    "CUDA_FORCE_PTX_JIT",
    "CUDNN_LOGINFO_DBG",
    "CUDNN_LOGDEST_DBG",
    "CUDNN_LOGLEVEL_DBG",
    "XLA_FLAGS",
    "XLA_PYTHON_CLIENT_PREALLOCATE",
    "XLA_PYTHON_CLIENT_MEM_FRACTION",
    "XLA_PYTHON_CLIENT_ALLOCATOR",
    "JAX_PLATFORMS",
    "CUPY_CUDA_PATH",
];

/// Variables reported by prefix.
pub const ALLOWED_PREFIXES: &[&str] = &["TF_", "NCCL_"];

/// Values of variables with these name fragments are never shown, even when allow-listed by
/// prefix (`NCCL_…TOKEN` does not exist today, but a prefix lets anything in).
const SECRET_FRAGMENTS: &[&str] = &["TOKEN", "SECRET", "PASSWORD", "KEY"];

/// True when a variable may appear in a report.
pub fn is_allowed(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    if SECRET_FRAGMENTS.iter().any(|f| upper.contains(f)) {
        return false;
    }
    ALLOWED.contains(&name) || ALLOWED_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Adds the allow-listed variables that are set, sorted by name.
pub fn probe(sys: &System, report: &mut Report) {
    report.environment = sys
        .env_vars()
        .iter()
        .filter(|(k, _)| is_allowed(k))
        .map(|(k, v)| EnvVar { name: k.clone(), value: v.clone() })
        .collect();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_allow_listed_variables_pass() {
        assert!(is_allowed("CUDA_HOME"));
        assert!(is_allowed("NCCL_DEBUG"));
        assert!(is_allowed("TF_CPP_MIN_LOG_LEVEL"));
        assert!(!is_allowed("HF_TOKEN"));
        assert!(!is_allowed("AWS_SECRET_ACCESS_KEY"));
        assert!(!is_allowed("TF_API_KEY"));
        assert!(!is_allowed("HOME"));
    }
}
