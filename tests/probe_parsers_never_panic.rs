//! Every parser of the on-disk probes takes any text without panicking (property tests), and
//! what it returns is bounded by its input.

use cudoctor::probe::{cudnn, frameworks, libraries, packages, python, toolkits};
use proptest::prelude::*;

/// Text shaped like the inputs (keys, separators, quotes, digits), plus arbitrary characters.
fn texty() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        proptest::collection::vec(
            prop_oneof![
                Just("Package: ".to_string()),
                Just("Version: ".to_string()),
                Just("Status: install ok installed".to_string()),
                Just("#define CUDNN_MAJOR ".to_string()),
                Just("#define CUDA_VERSION ".to_string()),
                Just("__version__ = '".to_string()),
                Just("('cuda_version', '".to_string()),
                Just("release ".to_string()),
                Just(", V".to_string()),
                Just("include ".to_string()),
                Just("\"".to_string()),
                Just("'".to_string()),
                Just("\n".to_string()),
                Just("\n\n".to_string()),
                Just("=".to_string()),
                Just(",".to_string()),
                "[0-9.]{0,12}",
                "[a-z_/*?]{0,8}",
                Just("cudnné".to_string()),
                Just("+cuda12.cudnn".to_string()),
            ],
            0..40,
        )
        .prop_map(|v| v.concat()),
    ]
}

proptest! {
    #[test]
    fn package_parsers_never_panic(text in texty()) {
        let entries = packages::parse_dpkg_status(&text);
        prop_assert!(entries.len() <= text.matches("Package").count());
        let _ = packages::parse_metadata(&text);
        prop_assert!(packages::parse_record(&text).len() <= text.lines().count());
        let _ = packages::parse_conda_meta(&text);
        let _ = packages::upstream_version(&text);
        let _ = packages::parse_dist_dir_name(&text);
        let _ = packages::parse_conda_meta_file_name(&text);
        let _ = packages::normalize_dist_name(&text);
    }

    #[test]
    fn version_file_parsers_never_panic(text in texty()) {
        let _ = toolkits::parse_version_json(&text);
        let _ = toolkits::parse_version_txt(&text);
        let _ = toolkits::parse_nvcc_version(&text);
        let _ = toolkits::parse_cuda_h(&text);
        let _ = toolkits::so_version(&text);
        let _ = cudnn::parse_cudnn_header(&text);
        let _ = cudnn::cuda_major_from_package(&text);
        let _ = python::parse_pyvenv_cfg(&text);
        let _ = python::python_dir_version(&text);
    }

    #[test]
    fn python_and_loader_parsers_never_panic(text in texty()) {
        let _ = frameworks::parse_torch_version_py(&text);
        let _ = frameworks::parse_tf_build_info(&text);
        prop_assert!(frameworks::parse_py_assignments(&text).len() <= text.lines().count());
        let _ = frameworks::cupy_cuda(&text);
        let _ = frameworks::jax_plugin_cuda(&text);
        let _ = frameworks::tf_cuda_version(&text);
        if let Ok(v) = format!("0.4.26+{text}").parse() {
            let _ = frameworks::jaxlib_local(&v);
        }
        if let Ok(v) = text.parse() {
            let _ = frameworks::torch_build(&v, None, Some(&text));
        }
        let _ = libraries::classify(&text);
    }
}
