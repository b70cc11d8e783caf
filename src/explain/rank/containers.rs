//! Rules on containers: this machine's runtime and device nodes, a container shown in the log, the
//! driver's libraries mounted into one.

use super::*;

/// The driver library a message says could not be loaded, for the messages whose rules look it up
/// on this machine ([`video_library_and_capability`], [`driver_library_in_this_container`]): its
/// name as the check lists it (without ".so").
pub(super) fn driver_library_named(input: &RuleInput<'_>) -> Option<&'static str> {
    let named = |prefix: &str| input.evidence.library.as_deref().is_some_and(|l| l.starts_with(prefix));
    match input.signature.id.as_str() {
        "video-library-missing" if named("libnvcuvid") => Some("libnvcuvid"),
        "video-library-missing" => Some("libnvidia-encode"),
        // nvidia-smi's "couldn't find libnvidia-ml.so" is NVML's library alike.
        "loader-libcuda-missing" if named("libnvidia-ml") => Some("libnvidia-ml"),
        "loader-libcuda-missing" => Some("libcuda"),
        "nvidia-smi-no-libnvidia-ml" => Some("libnvidia-ml"),
        _ => None,
    }
}

/// Whether this runs in a container, and with GPU device nodes.
pub fn containers(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::ContainerRuntime) {
        return vec![];
    }
    let Some(report) = input.report else { return vec![] };
    let kinds = report.host.containers_around();
    if kinds.is_empty() {
        // A log that shows a container, read on a machine that is none, came from a container this
        // host started (`docker run … 2>&1 | cudoctor explain -`) or from another machine: that
        // this host is no container says nothing about it, and `container_in_log` weighs the log.
        if input.evidence.container_in_log.is_some() {
            return vec![];
        }
        return vec![adj(Category::ContainerRuntime, 0.3, "this is not a container")];
    }
    // A container whose GPU answers (device nodes, NVML, and libcuda's cuDriverGetVersion) has its
    // plumbing working: a cause such as "started without --gpus" or "no driver mounted" is
    // contradicted for an error from here. Not for the container runtime's own messages, which
    // come from where a container is started, not from inside one; not for a container cause
    // that is no GPU plumbing (a /dev/shm too small for NCCL or DataLoader workers); and not
    // where a rule of its own reads the driver library the message names (in its loader cache).
    let gpu_answers = !report.driver.device_nodes.is_empty()
        && report.driver.nvml_version.is_some()
        && report.driver.cuda_supported.is_some();
    let shared_memory_only = all_of_kind(input, Category::ContainerRuntime, CauseKind::HostMemory);
    let runtime_message =
        input.signature.container_message || shared_memory_only || driver_library_named(input).is_some();
    if report.driver.device_nodes.is_empty() {
        vec![adj(
            Category::ContainerRuntime,
            4.0,
            format!("running in a container ({:?}) with no /dev/nvidia* device nodes", kinds[0])
                .to_lowercase(),
        )]
    } else if gpu_answers && !runtime_message {
        vec![adj(
            Category::ContainerRuntime,
            0.5,
            format!(
                "this container ({}) reaches the GPU: its device nodes, NVML and libcuda answer",
                format!("{:?}", kinds[0]).to_lowercase()
            ),
        )]
    } else {
        vec![adj(
            Category::ContainerRuntime,
            1.2,
            format!("running in a container ({:?})", kinds[0]).to_lowercase(),
        )]
    }
}

/// The driver's libcuda or libnvidia-ml "cannot open" (or nvidia-smi not finding
/// libnvidia-ml.so), read inside a container that holds the
/// very library the loader's cache lists (the H200's container: libcuda.so.1 in
/// /usr/local/nvidia/lib64, in `ldconfig -p`): this container was started with the driver mounted,
/// so "started without the NVIDIA runtime" does not explain an error from here, and a program
/// here that still fails searches elsewhere (its own library path, a sandbox). The message's
/// usual reading, a container without the runtime, stays for a machine that is none (the log of
/// a `docker run` this host started) or whose cache does not list the library.
pub fn driver_library_in_this_container(input: &RuleInput<'_>) -> Vec<Adjustment> {
    // The video libraries' container cause is read on the capabilities instead.
    if input.signature.id == "video-library-missing" {
        return vec![];
    }
    let Some(wanted) = driver_library_named(input) else { return vec![] };
    let Some(report) = input.report else { return vec![] };
    if report.host.containers_around().is_empty() || !has(input, Category::ContainerRuntime) {
        return vec![];
    }
    let Some(lib) = report
        .driver
        .libraries
        .iter()
        .find(|l| l.name == wanted && !l.forward_compat && l.in_loader_cache == Some(true))
    else {
        return vec![];
    };
    vec![
        adj(
            Category::ContainerRuntime,
            0.4,
            format!(
                "this container has {} and the loader's cache lists it: the driver was mounted",
                lib.path
            ),
        ),
        adj(Category::LibraryNotFound, 2.0, found_by_the_loader(&lib.path)),
    ]
}

/// A driver library the message says could not be loaded, found in this machine's loader cache:
/// what that says of the program that failed.
pub(super) fn found_by_the_loader(path: &str) -> String {
    format!(
        "{path} is in the loader's cache here (ldconfig -p lists it): a program using the system's loader finds it, so the one that failed searches elsewhere (its own library path, a Snap or Flatpak sandbox) or ran in another container"
    )
}

/// The same log also holds an error whose most likely cause is the container runtime (the NVIDIA
/// hook failing, Docker without a GPU driver, a driver library missing inside the image): an error
/// that the container could explain (nvidia-smi failing to reach the driver) is most likely that
/// too. Which signatures count is read from the table (those whose first cause is the container).
pub fn container_errors_elsewhere_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if !has(input, Category::ContainerRuntime) {
        return vec![];
    }
    let top = |s: &Signature| s.likeliest_cause().map(|c| (c.category, c.weight));
    if top(input.signature).is_some_and(|(category, _)| category == Category::ContainerRuntime) {
        return vec![];
    }
    // Another error counts when the container explains it more often than not: NCCL's generic
    // "unhandled system error" leads with the container at 0.35 of its causes but says nothing
    // about an NCCL socket or InfiniBand failure in the same log.
    let other = input.table.signatures.iter().find(|s| {
        s.id != input.signature.id
            && input.seen.contains(s.id.as_str())
            && top(s)
                .is_some_and(|(category, weight)| category == Category::ContainerRuntime && weight >= 0.5)
    });
    match other {
        Some(s) => vec![adj(
            Category::ContainerRuntime,
            4.0,
            format!("the same log also shows a container error ({})", s.id),
        )],
        None => vec![],
    }
}

/// The log shows the program ran in a Docker container (a `docker run` line, a container prompt):
/// for an error the container can explain, the container. When this machine is itself a
/// container, `containers` decides instead (its device nodes are facts; the log's words are not).
/// Not for a text no signature matched: there the container's words have already voted, and in
/// Docker and Kubernetes reports they are everywhere whatever failed (a driver install that
/// nouveau blocks, <https://github.com/NVIDIA/k8s-driver-manager/issues/37>), so they must not
/// count twice.
pub fn container_in_log(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some_and(|r| !r.host.containers_around().is_empty())
        || input.signature.container_message
        || input.signature.id == crate::explain::fallback::UNRECOGNISED
        || !has(input, Category::ContainerRuntime)
    {
        return vec![];
    }
    let Some(hint) = input.evidence.container_in_log.as_deref() else { return vec![] };
    vec![adj(Category::ContainerRuntime, 4.0, format!("the log shows a container (\"{hint}\")"))]
}

/// The driver's libcuda (or libnvidia-ml) not found, ranked on the text alone (`--no-check`; with a
/// report, `containers` weighs the machine), in a text that names no container at all, in any
/// words: the container is the least likely place it was fixed. In the corpus, the reports of
/// this signature that name none (11) were never fixed in the container (a desktop install
/// without the driver's CUDA library, WSL 1, the toolkit's stub), against 7 of the 15 that do; the
/// signature's prior, written for logs from images, put it first. The words are read around the
/// error, in the text's last lines and anywhere in a pasted report (a Singularity report names
/// it in its title only). Only this signature: in a long log the words are read near the error
/// only, and NCCL's reports of a container's shared memory name Docker elsewhere (four such were
/// lost when every signature with a container cause had the rule).
pub fn no_container_in_text(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.report.is_some()
        || input.signature.id != "loader-libcuda-missing"
        || input.evidence.names_container
        || !has(input, Category::ContainerRuntime)
    {
        return vec![];
    }
    vec![adj(Category::ContainerRuntime, 0.5, "the text names no container")]
}

/// The shell found no nvcc, in a text that names a container: CUDA's base and runtime images hold
/// the runtime libraries and no toolkit, so nvcc is missing rather than off the PATH. The corpus's
/// container threads of this message were all fixed with a -devel image or a toolkit installed in
/// the container (<https://github.com/NVIDIA/nvidia-docker/issues/1160>,
/// <https://github.com/anibali/docker-pytorch/issues/17>); on a host, most were a PATH that lacked
/// the toolkit's bin directory (sudo resets it: <https://github.com/traveller59/second.pytorch/issues/7>).
pub fn nvcc_missing_in_container(input: &RuleInput<'_>) -> Vec<Adjustment> {
    if input.signature.id != "nvcc-not-on-path"
        || !input.evidence.names_container
        || !has(input, Category::LibraryNotFound)
    {
        return vec![];
    }
    vec![adj(
        Category::LibraryNotFound,
        2.5,
        "the text names a container: CUDA's base and runtime images have no nvcc",
    )]
}
