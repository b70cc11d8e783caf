//! The `Report`: every fact `cudoctor check` found on a machine, each with its evidence.
//!
//! This is the one data model between the probes (which fill it) and everything downstream
//! (rendering, diagnosis, explain, plan). It is serialised as-is by `--format json`; its shape is
//! versioned by [`SCHEMA_VERSION`] and documented in `docs/report-schema.md`. Probes never judge:
//! a fact here says what is, not whether it is good.

use crate::version::{ComputeCapability, CudaVersion, DriverVersion, Version};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Bumped on every incompatible change of the JSON shape.
pub const SCHEMA_VERSION: u32 = 1;

/// Where a fact was read from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Evidence {
    /// The content of a file (`path`), optionally a field or line of it (`detail`).
    File {
        /// Machine path.
        path: String,
        /// The line or field that held the value.
        #[serde(skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    /// The name of a file (`libcudart.so.13.0.96`), when its content says nothing.
    FileName {
        /// Machine path.
        path: String,
    },
    /// A symbolic link and its target.
    Symlink {
        /// Machine path of the link.
        path: String,
        /// Its target as written.
        target: String,
    },
    /// The output of a command.
    Command {
        /// The command line.
        command: String,
    },
    /// A library call (NVML, the CUDA driver API).
    Api {
        /// The function called.
        call: String,
    },
    /// An environment variable.
    Env {
        /// The variable's name.
        name: String,
    },
    /// cudoctor's knowledge base (a GPU named from its PCI device id, say): not read from the
    /// machine, looked up from a fact that was.
    KnowledgeBase {
        /// The table and key used (`gpu catalog 0x2335`).
        lookup: String,
    },
    /// A package database entry (dpkg, rpm, conda-meta, pip dist-info).
    Package {
        /// The package manager.
        manager: PackageManager,
        /// The package name.
        package: String,
        /// The database file the entry was read from.
        path: String,
    },
}

impl Evidence {
    /// Evidence from a file's content.
    pub fn file(path: impl Into<String>) -> Evidence {
        Evidence::File { path: path.into(), detail: None }
    }

    /// Evidence from a field or line of a file.
    pub fn file_detail(path: impl Into<String>, detail: impl Into<String>) -> Evidence {
        Evidence::File { path: path.into(), detail: Some(detail.into()) }
    }

    /// Evidence from a file name.
    pub fn file_name(path: impl Into<String>) -> Evidence {
        Evidence::FileName { path: path.into() }
    }

    /// Evidence from an API call.
    pub fn api(call: impl Into<String>) -> Evidence {
        Evidence::Api { call: call.into() }
    }

    /// Evidence from a command.
    pub fn command(command: impl Into<String>) -> Evidence {
        Evidence::Command { command: command.into() }
    }

    /// Evidence from an environment variable.
    pub fn env(name: impl Into<String>) -> Evidence {
        Evidence::Env { name: name.into() }
    }

    /// One line for people: `file /usr/include/cudnn_version.h (CUDNN_MAJOR)`.
    pub fn describe(&self) -> String {
        match self {
            Evidence::File { path, detail: Some(d) } => format!("{path} ({d})"),
            Evidence::File { path, detail: None } => path.clone(),
            Evidence::FileName { path } => format!("file name {path}"),
            Evidence::Symlink { path, target } => format!("{path} -> {target}"),
            Evidence::Command { command } => format!("`{command}`"),
            Evidence::Api { call } => format!("{call}()"),
            Evidence::Env { name } => format!("${name}"),
            Evidence::Package { manager, package, .. } => format!("{} package {package}", manager.name()),
            Evidence::KnowledgeBase { lookup } => format!("knowledge base: {lookup}"),
        }
    }
}

/// A value with the evidence it was read from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact<T> {
    /// The value.
    pub value: T,
    /// Where it was read (first: the source used; further: sources that agree).
    pub evidence: Vec<Evidence>,
}

impl<T> Fact<T> {
    /// A fact from one source.
    pub fn new(value: T, evidence: Evidence) -> Fact<T> {
        Fact { value, evidence: vec![evidence] }
    }
}

/// A package manager whose database cudoctor reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PackageManager {
    /// Debian/Ubuntu `/var/lib/dpkg/status`.
    Dpkg,
    /// RPM database.
    Rpm,
    /// `conda-meta/*.json` of a conda environment.
    Conda,
    /// pip `*.dist-info` in site-packages.
    Pip,
}

impl PackageManager {
    /// The manager's name as people write it.
    pub fn name(&self) -> &'static str {
        match self {
            PackageManager::Dpkg => "dpkg",
            PackageManager::Rpm => "rpm",
            PackageManager::Conda => "conda",
            PackageManager::Pip => "pip",
        }
    }
}

/// How a component came onto the machine.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Origin {
    /// A pip wheel (`nvidia-cudnn-cu13`) in a Python environment.
    Pip {
        /// Distribution name.
        package: String,
        /// The environment prefix.
        env: String,
    },
    /// A conda package in an environment.
    Conda {
        /// Package name.
        package: String,
        /// The environment prefix.
        env: String,
    },
    /// A system package (dpkg or rpm).
    System {
        /// dpkg or rpm.
        manager: PackageManager,
        /// Package name.
        package: String,
    },
    /// Part of a CUDA toolkit tree not owned by any package (runfile or tarball install).
    Toolkit {
        /// The toolkit root.
        root: String,
    },
    /// Installed by the NVIDIA driver (or mounted into a container by the NVIDIA runtime).
    Driver,
    /// Not owned by any package database cudoctor can read.
    Unknown,
}

/// A problem met while probing: the check goes on, and the report says what could not be read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ProbeProblem {
    /// The probe that met it (`driver`, `gpus`, `toolkits`…).
    pub probe: String,
    /// The machine path or command concerned, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// What went wrong (`unreadable: permission denied`, `timed out after 2 s`).
    pub message: String,
}

/// Everything `cudoctor check` found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`SCHEMA_VERSION`] of this document.
    pub schema_version: u32,
    /// The cudoctor that wrote it.
    pub cudoctor_version: String,
    /// The filesystem root that was checked (`/` for this machine).
    pub root: String,
    /// Whether live probes (NVML, libcuda, subprocesses) were allowed.
    pub live: bool,
    /// Operating system, containers, Python environments, package databases.
    pub host: Host,
    /// Kernel module and user-space driver libraries.
    pub driver: Driver,
    /// GPUs and which of them a process will see.
    pub gpus: Gpus,
    /// CUDA toolkits and where the usual pointers to them lead.
    pub cuda: Cuda,
    /// Every copy of every CUDA library found.
    pub libraries: Vec<CudaLibrary>,
    /// cuDNN installs, one per directory.
    pub cudnn: Vec<CudnnInstall>,
    /// Framework builds in every Python environment.
    pub frameworks: Vec<Framework>,
    /// The allow-listed environment variables that were set.
    pub environment: Vec<EnvVar>,
    /// What could not be read.
    pub problems: Vec<ProbeProblem>,
}

impl Report {
    /// An empty report for a root.
    pub fn new(root: &str, live: bool) -> Report {
        Report {
            schema_version: SCHEMA_VERSION,
            cudoctor_version: env!("CARGO_PKG_VERSION").to_string(),
            root: root.to_string(),
            live,
            host: Host::default(),
            driver: Driver::default(),
            gpus: Gpus::default(),
            cuda: Cuda::default(),
            libraries: Vec::new(),
            cudnn: Vec::new(),
            frameworks: Vec::new(),
            environment: Vec::new(),
            problems: Vec::new(),
        }
    }
}

/// The host: OS, kernel, libc, containers, Python environments and package databases.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Host {
    /// `PRETTY_NAME` (else `NAME VERSION_ID`) of os-release.
    pub os: Option<Fact<String>>,
    /// `ID` of os-release (`ubuntu`, `debian`, `rhel`).
    pub os_id: Option<String>,
    /// `VERSION_ID` of os-release.
    pub os_version: Option<String>,
    /// Kernel release (`6.8.0-45-generic`).
    pub kernel: Option<Fact<String>>,
    /// CPU architecture (`x86_64`, `aarch64`).
    pub arch: Option<Fact<String>>,
    /// glibc version.
    pub glibc: Option<Fact<Version>>,
    /// Host name (hidden by `--redact`).
    pub hostname: Option<String>,
    /// Containers and virtual machines detected.
    pub containers: Vec<Fact<Container>>,
    /// Python environments found from files.
    pub python_envs: Vec<PythonEnv>,
    /// Package databases present.
    pub package_dbs: Vec<PackageDb>,
}

impl Host {
    /// The containers this machine runs in. WSL 2 is not one: its GPU is the Windows driver's, and
    /// its libraries are this machine's own.
    pub fn containers_around(&self) -> Vec<Container> {
        self.containers.iter().map(|c| c.value).filter(|c| *c != Container::Wsl2).collect()
    }
}

/// A container or VM the check runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Container {
    /// Docker (`/.dockerenv` or a docker cgroup).
    Docker,
    /// Podman (`/run/.containerenv`).
    Podman,
    /// A Kubernetes pod.
    Kubernetes,
    /// Windows Subsystem for Linux 2.
    Wsl2,
    /// Another container runtime seen in cgroups (containerd, lxc).
    Other,
}

/// A Python environment, found from files (no interpreter is run).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PythonEnv {
    /// The environment prefix (`/opt/torch/.venv`).
    pub prefix: String,
    /// What kind of environment.
    pub kind: PythonEnvKind,
    /// Python version (from pyvenv.cfg, conda-meta or the lib/pythonX.Y directory).
    pub python_version: Option<Version>,
    /// Its site-packages directories.
    pub site_packages: Vec<String>,
    /// Why it was considered (the PATH entry, `$VIRTUAL_ENV`, a conda `envs/` directory).
    pub evidence: Vec<Evidence>,
    /// True when this is the environment `python` on PATH runs (the first on PATH).
    pub active: bool,
    /// The base interpreter's directory (`home` of pyvenv.cfg).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<String>,
    /// `include-system-site-packages` of pyvenv.cfg: whether the system's site-packages are
    /// also importable from this venv.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_system_site_packages: Option<bool>,
}

/// The kinds of Python environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PythonEnvKind {
    /// A venv / virtualenv (has pyvenv.cfg).
    Venv,
    /// A conda environment (has conda-meta/).
    Conda,
    /// The system interpreter's site-packages.
    System,
    /// A user's `~/.local/lib/pythonX.Y/site-packages`.
    User,
}

/// A package database found on the machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackageDb {
    /// Which manager.
    pub manager: PackageManager,
    /// Its machine path.
    pub path: String,
    /// How many packages it lists (0 when the database is only detected, see `note`).
    pub packages: usize,
    /// What could not be read of it (`not parsed: …`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The packages of the GPU stack it lists (CUDA, cuDNN, NCCL, NVIDIA, frameworks).
    #[serde(default)]
    pub gpu_packages: Vec<InstalledPackage>,
}

/// One installed package of the GPU stack, as its database records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstalledPackage {
    /// The package name (`libcudnn9-cuda-13`, `nvidia-cudnn-cu13`).
    pub name: String,
    /// The version as recorded (`9.14.0.64-1`, `2.28.3-1+cuda13.0`).
    pub version: String,
    /// The upstream version (epoch and packaging revision removed: `9.14.0.64`), when it parses.
    pub upstream_version: Option<Version>,
    /// True when the package is held back from upgrades (dpkg `hold`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub held: bool,
    /// The database entry.
    pub evidence: Evidence,
}

/// The NVIDIA driver.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Driver {
    /// The loaded kernel module.
    pub kernel_module: Option<KernelModule>,
    /// User-space driver libraries (libcuda, libnvidia-ml, …), forward-compat copies included.
    pub libraries: Vec<DriverLibrary>,
    /// The newest CUDA the driver supports (cuDriverGetVersion or NVML).
    pub cuda_supported: Option<Fact<CudaVersion>>,
    /// The driver version NVML reports.
    pub nvml_version: Option<Fact<DriverVersion>>,
    /// `/dev/nvidia*` nodes.
    pub device_nodes: Vec<DeviceNode>,
}

/// The NVIDIA kernel module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelModule {
    /// Its version.
    pub version: Fact<DriverVersion>,
    /// Open or proprietary flavour.
    pub flavour: ModuleFlavour,
}

/// The two flavours of NVIDIA's kernel module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModuleFlavour {
    /// NVIDIA's open GPU kernel modules (required for Blackwell).
    Open,
    /// The proprietary module.
    Proprietary,
    /// Not said by the evidence available.
    Unknown,
}

/// A user-space driver library file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriverLibrary {
    /// Library name (`libcuda`, `libnvidia-ml`, `libnvidia-ptxjitcompiler`, `libnvidia-encode`).
    pub name: String,
    /// Machine path of the versioned file.
    pub path: String,
    /// Version from the file name.
    pub version: Option<DriverVersion>,
    /// True for a forward-compatibility copy (`cuda-X/compat`).
    pub forward_compat: bool,
    /// Whether `/etc/ld.so.cache` leads to this file (what `ldconfig -p` lists, so what a program
    /// using the system's loader finds without LD_LIBRARY_PATH); `None` when no cache was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_loader_cache: Option<bool>,
    /// Who installed it.
    pub origin: Origin,
    /// The evidence.
    pub evidence: Vec<Evidence>,
}

/// A `/dev/nvidia*` node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceNode {
    /// Machine path.
    pub path: String,
    /// Whether this user can open it read-write (`None` when not checked live).
    pub accessible: Option<bool>,
}

/// GPUs and their visibility.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Gpus {
    /// How the list was made.
    pub source: GpuSource,
    /// Every NVIDIA GPU of the machine.
    pub devices: Vec<Gpu>,
    /// `CUDA_VISIBLE_DEVICES` as set.
    pub cuda_visible_devices: Option<String>,
    /// `NVIDIA_VISIBLE_DEVICES` as set.
    pub nvidia_visible_devices: Option<String>,
    /// What the visibility variables mean here, in words.
    pub visibility_note: Option<String>,
}

/// How the GPU list was made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GpuSource {
    /// Through NVML, live.
    Nvml,
    /// From PCI devices in sysfs (vendor 0x10de, display/3D class).
    Sysfs,
    /// No source answered.
    #[default]
    None,
}

/// One GPU.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Gpu {
    /// NVML index (or PCI order from sysfs).
    pub index: u32,
    /// Product name (`NVIDIA H200`); from NVML, else from the knowledge base by device id.
    pub name: Option<String>,
    /// GPU UUID (hidden by `--redact`).
    pub uuid: Option<String>,
    /// Serial number (hidden by `--redact`).
    pub serial: Option<String>,
    /// PCI bus id (`00000000:00:06.0`).
    pub pci_bus_id: Option<String>,
    /// PCI device id (`0x2335`).
    pub pci_device_id: Option<u16>,
    /// PCI subsystem id.
    pub pci_subsystem_id: Option<u32>,
    /// Compute capability.
    pub compute_capability: Option<ComputeCapability>,
    /// Total memory in MiB.
    pub memory_total_mib: Option<u64>,
    /// Used memory in MiB.
    pub memory_used_mib: Option<u64>,
    /// Processes using the GPU.
    pub processes: Vec<GpuProcess>,
    /// MIG mode enabled.
    pub mig_enabled: Option<bool>,
    /// Persistence mode.
    pub persistence: Option<bool>,
    /// ECC enabled.
    pub ecc_enabled: Option<bool>,
    /// Temperature in °C.
    pub temperature_c: Option<u32>,
    /// Power draw in W.
    pub power_w: Option<f64>,
    /// Power limit in W.
    pub power_limit_w: Option<f64>,
    /// Active clock throttle reasons.
    pub throttle_reasons: Vec<String>,
    /// NVENC encode sessions open on the GPU now (NVML's encoder statistics).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoder_sessions: Option<u32>,
    /// Whether a CUDA process will see this GPU under the visibility variables.
    pub visible: bool,
    /// Where the facts came from.
    pub evidence: Vec<Evidence>,
}

/// A process holding GPU memory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuProcess {
    /// Process id.
    pub pid: u32,
    /// Command name from /proc, when readable.
    pub name: Option<String>,
    /// GPU memory used in MiB.
    pub used_mib: Option<u64>,
    /// `compute` or `graphics`.
    pub kind: String,
}

/// CUDA toolkits and the pointers to them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cuda {
    /// Every toolkit found.
    pub toolkits: Vec<CudaToolkit>,
    /// Where `/usr/local/cuda` leads, link by link.
    pub usr_local_cuda: Option<PathChain>,
    /// Where `$CUDA_HOME` leads.
    pub cuda_home: Option<PathChain>,
    /// Where `$CUDA_PATH` leads.
    pub cuda_path: Option<PathChain>,
    /// The first `nvcc` on PATH, and where it leads.
    pub nvcc_on_path: Option<PathChain>,
}

/// A path and the links followed from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathChain {
    /// The path as given (`/usr/local/cuda`).
    pub path: String,
    /// Each hop: `/usr/local/cuda -> /etc/alternatives/cuda`, …
    pub links: Vec<Evidence>,
    /// The final path, or `None` when the chain is broken.
    pub target: Option<String>,
    /// Why the chain is broken (dangling link, loop).
    pub error: Option<String>,
}

/// A CUDA toolkit install.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CudaToolkit {
    /// Its root directory (real path).
    pub root: String,
    /// The toolkit version (`13.0.88` from nvcc, `13.0` from cuda.h): the best source found.
    pub version: Option<Fact<Version>>,
    /// Every version source read, so that disagreements can be seen.
    pub version_sources: Vec<Fact<Version>>,
    /// Who installed it.
    pub origin: Origin,
    /// Machine path of its nvcc, if it has one.
    pub nvcc: Option<String>,
    /// Which pointers lead here (`/usr/local/cuda`, `CUDA_HOME`, `nvcc on PATH`).
    pub pointed_to_by: Vec<String>,
}

/// A CUDA library family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LibraryKind {
    /// CUDA runtime (libcudart).
    Cudart,
    /// cuBLAS.
    Cublas,
    /// cuBLASLt.
    CublasLt,
    /// cuDNN (the main library and its sub-libraries).
    Cudnn,
    /// NCCL.
    Nccl,
    /// NVRTC.
    Nvrtc,
    /// cuFFT.
    Cufft,
    /// cuRAND.
    Curand,
    /// cuSPARSE.
    Cusparse,
    /// cuSOLVER.
    Cusolver,
    /// nvJitLink.
    NvJitLink,
    /// CUPTI.
    Cupti,
}

impl LibraryKind {
    /// Every kind, in report order.
    pub const ALL: [LibraryKind; 12] = [
        LibraryKind::Cudart,
        LibraryKind::Cublas,
        LibraryKind::CublasLt,
        LibraryKind::Cudnn,
        LibraryKind::Nccl,
        LibraryKind::Nvrtc,
        LibraryKind::Cufft,
        LibraryKind::Curand,
        LibraryKind::Cusparse,
        LibraryKind::Cusolver,
        LibraryKind::NvJitLink,
        LibraryKind::Cupti,
    ];

    /// The library's display name.
    pub fn name(&self) -> &'static str {
        match self {
            LibraryKind::Cudart => "cudart",
            LibraryKind::Cublas => "cublas",
            LibraryKind::CublasLt => "cublasLt",
            LibraryKind::Cudnn => "cudnn",
            LibraryKind::Nccl => "nccl",
            LibraryKind::Nvrtc => "nvrtc",
            LibraryKind::Cufft => "cufft",
            LibraryKind::Curand => "curand",
            LibraryKind::Cusparse => "cusparse",
            LibraryKind::Cusolver => "cusolver",
            LibraryKind::NvJitLink => "nvJitLink",
            LibraryKind::Cupti => "cupti",
        }
    }
}

/// One copy of a CUDA library (one real file; the links to it are listed with it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CudaLibrary {
    /// Which library.
    pub kind: LibraryKind,
    /// The file name as the loader asks for it (`libcudnn.so.9`), or the real file name.
    pub name: String,
    /// Machine path of the real file.
    pub path: String,
    /// Links in the same directory that point to it (`libcudnn.so`, `libcudnn.so.9`).
    pub links: Vec<String>,
    /// Its version.
    pub version: Option<Fact<Version>>,
    /// Who installed it.
    pub origin: Origin,
    /// Size in bytes (0 marks a placeholder that is no real library).
    pub size: u64,
}

/// A cuDNN install (one library directory).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CudnnInstall {
    /// The directory holding libcudnn.
    pub lib_dir: String,
    /// Version (header, then METADATA, then package, then file name).
    pub version: Option<Fact<Version>>,
    /// Single library (7.x) or split (8.x, 9.x).
    pub layout: CudnnLayout,
    /// The library file names found.
    pub libraries: Vec<String>,
    /// The version header used, if any.
    pub header: Option<String>,
    /// The CUDA major it was built for, when the package says (`-cu13`, `cuda-13`).
    pub cuda_major: Option<u32>,
    /// Who installed it.
    pub origin: Origin,
}

/// cuDNN library layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CudnnLayout {
    /// One libcudnn (up to 7.x).
    Single,
    /// libcudnn plus sub-libraries (8.x: ops/cnn/adv infer+train; 9.x: graph, engines, heuristic…).
    Split,
    /// Not decidable from the files present.
    Unknown,
}

/// A framework family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrameworkKind {
    /// PyTorch.
    Torch,
    /// TensorFlow.
    Tensorflow,
    /// JAX (the Python package).
    Jax,
    /// jaxlib.
    Jaxlib,
    /// A JAX CUDA plugin (`jax-cuda12-plugin`, `jax-cuda13-plugin`).
    JaxCudaPlugin,
    /// CuPy.
    Cupy,
    /// ONNX Runtime.
    Onnxruntime,
    /// PaddlePaddle.
    Paddle,
}

impl FrameworkKind {
    /// The display name.
    pub fn name(&self) -> &'static str {
        match self {
            FrameworkKind::Torch => "PyTorch",
            FrameworkKind::Tensorflow => "TensorFlow",
            FrameworkKind::Jax => "JAX",
            FrameworkKind::Jaxlib => "jaxlib",
            FrameworkKind::JaxCudaPlugin => "JAX CUDA plugin",
            FrameworkKind::Cupy => "CuPy",
            FrameworkKind::Onnxruntime => "ONNX Runtime",
            FrameworkKind::Paddle => "PaddlePaddle",
        }
    }
}

/// A framework install in one Python environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Framework {
    /// Which framework.
    pub kind: FrameworkKind,
    /// The distribution name (`torch`, `cupy-cuda13x`, `onnxruntime-gpu`).
    pub package: String,
    /// The environment prefix it lives in.
    pub env: String,
    /// Its package directory (`…/site-packages/torch`).
    pub location: String,
    /// Version.
    pub version: Fact<Version>,
    /// The CUDA version it was built for.
    pub cuda: Option<Fact<CudaVersion>>,
    /// The cuDNN version it was built against.
    pub cudnn: Option<Fact<Version>>,
    /// The build flavour: `cu130`, `cpu`, `rocm6.2`, `cuda13`.
    pub build: Option<String>,
    /// Other build facts (`git_version`, `hip`, `cuda_compute_capabilities`).
    pub details: BTreeMap<String, String>,
    /// The CUDA major it was built for when only the major is known (`cupy-cuda13x`,
    /// `jax-cuda13-plugin`), or the major of `cuda`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_major: Option<u32>,
    /// What its main CUDA binary loads on this machine and which GPUs it has kernels for, read
    /// from the binaries (see `cudoctor inspect`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkage: Option<Linkage>,
}

/// The CUDA libraries a framework's main binary gets from the dynamic loader here, and its GPU
/// code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Linkage {
    /// The binary examined (`…/torch/lib/libtorch_cuda.so`).
    pub binary: String,
    /// Why its ELF facts could not be read (a placeholder, a truncated file).
    pub binary_error: Option<String>,
    /// The CUDA runtime soname it links (`libcudart.so.13`; an auditwheel-hashed name as the
    /// SONAME it stands for: `libcudart-80664282.so.10.2` → `libcudart.so.10.2`).
    pub cuda_runtime: Option<String>,
    /// Each CUDA library as the loader resolves it.
    pub libraries: Vec<LoadedLibrary>,
    /// Its kernels, from the `.nv_fatbin` section.
    pub gpu_code: Option<GpuCode>,
    /// Two cuDNN installs mixed in one process: sub-libraries loaded from another directory
    /// than the libcudnn that dlopens them, one line per directory.
    #[serde(default)]
    pub cudnn_mixes: Vec<String>,
    /// Assumptions made and remarks.
    pub notes: Vec<String>,
}

/// One library as the dynamic loader would resolve it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadedLibrary {
    /// The name asked for (`libcudnn.so.9`).
    pub name: String,
    /// The object that asks for it.
    pub requested_by: String,
    /// True when it is opened at run time with dlopen (cuDNN's sub-libraries), not DT_NEEDED.
    pub dlopen: bool,
    /// The machine path opened, `None` when not found.
    pub path: Option<String>,
    /// The real file behind it.
    pub real_path: Option<String>,
    /// The search step that found it (`RPATH of libtorch_cuda.so`, `LD_LIBRARY_PATH`).
    pub found_by: Option<String>,
    /// Its version.
    pub version: Option<Version>,
    /// Where the version was read.
    pub version_source: Option<String>,
    /// Why the file found was refused.
    pub error: Option<String>,
    /// Every place searched, when not found.
    pub searched: Vec<String>,
}

/// The GPU code in a binary's fat binary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuCode {
    /// Cubins per target, in target order (`sm_90` → 444).
    pub cubins: Vec<ArchCount>,
    /// PTX targets (`compute_90`).
    pub ptx: Vec<String>,
    /// Entries whose payload is compressed.
    pub compressed: usize,
    /// What could not be read.
    pub problems: Vec<String>,
}

/// A cubin target and how many cubins the binary has for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchCount {
    /// `sm_90`, `sm_100a`.
    pub target: String,
    /// Number of cubins.
    pub count: usize,
}

/// An allow-listed environment variable that is set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvVar {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: String,
}
