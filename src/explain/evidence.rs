//! Facts read from the log text around an error: GPU names and capabilities, memory figures of an
//! out-of-memory message, the driver's CUDA version in "found version 11040", compiled-vs-runtime
//! cuDNN versions, the missing library, the Xid number. Pure functions over the error's context.

use super::SignatureTable;
use crate::report::FrameworkKind;
use crate::version::{ComputeCapability, CudaVersion, DriverVersion, Version};
use regex::Regex;
use serde::Serialize;
use std::sync::OnceLock;

/// What the log itself says about an error.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LogEvidence {
    /// A GPU product named in the log.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_name: Option<String>,
    /// Its compute capability (from `sm_XX` in the message, else from the product name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_capability: Option<ComputeCapability>,
    /// The architectures the build says it supports (`sm_50 sm_60 …`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub supported_archs: Vec<ComputeCapability>,
    /// Memory asked for, MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_mib: Option<f64>,
    /// Memory free on the GPU at that moment, MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free_mib: Option<f64>,
    /// What the process may use at most, MiB: PyTorch adds "1.40 GiB allowed;" to its message when
    /// the program capped it (torch.cuda.set_per_process_memory_fraction).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_mib: Option<f64>,
    /// The GPU's capacity, MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_mib: Option<f64>,
    /// Memory this process held, MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process_mib: Option<f64>,
    /// The newest CUDA the driver supports, from PyTorch's "found version 11040".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver_cuda: Option<CudaVersion>,
    /// The cuDNN version the framework was built with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cudnn_compiled: Option<Version>,
    /// The cuDNN version found at run time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cudnn_runtime: Option<Version>,
    /// A library the loader could not find or a version check named (`libcudnn.so.8`, `cuSOLVER`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library: Option<String>,
    /// An undefined symbol.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// The NVML library version printed by nvidia-smi on a mismatch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nvml_library_version: Option<Version>,
    /// An Xid number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xid: Option<u32>,
    /// CUDA_VISIBLE_DEVICES as the log shows it being set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuda_visible_devices: Option<String>,
    /// The NVIDIA driver version the log names ("my driver version is 470.141.03", nvidia-smi's
    /// "Driver Version: 525.147.05", "the driver is 525"); a bare branch is read as that branch's
    /// newest release.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver_version: Option<DriverVersion>,
    /// A CUDA version the log names around the error ("cuda12.1", "CUDA Version: 12.4",
    /// "cudatoolkit 11.3"): the CUDA the user has, to hold against a missing library's version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuda_in_log: Option<CudaVersion>,
    /// The cuDNN versions the log names as the ones the user has ("cuDNN: 8.1.1", "libcudnn 5.1",
    /// "CUDA/cuDNN version: 10.2, 8.0.2"; a bare major from "libcudnn8", "I have installed
    /// cudnn-9", "nvidia-cudnn-cu12==9.1", "CUDNN_MAJOR 8"), each once, at most 8: to hold against
    /// the cuDNN major a program asks for. A missing library's own name (libcudnn_ops.so.9) is not
    /// one of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cudnn_in_log: Vec<Version>,
    /// A TensorFlow graph op named around the error (`[Op:Conv2D]`, `[[{{node …}}]]`,
    /// `Node: '…'`): the error came from a TensorFlow op that ran on a registered GPU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tf_op: Option<String>,
    /// The log named only the CUDA major ("cuda10", "CUDA 11"): `cuda_in_log` holds it as `X.0`
    /// and only its major may be compared.
    #[serde(skip)]
    pub cuda_in_log_major_only: bool,
    /// The operating-system error a failed call reported ("Permission denied", "No space left on
    /// device").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub os_error: Option<String>,
    /// The user saying the machine has no NVIDIA GPU ("I am running this on the CPU", "my laptop
    /// has an Intel UHD", "I don't have an NVIDIA GPU", the graphics adapter Ubuntu's About page
    /// shows: "Mesa Intel® Xe Graphics"): the phrase as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_nvidia_gpu: Option<String>,
    /// The log shows the program running in (or being started as) a Docker container: a
    /// `docker run` command line, `nvidia-docker`, a container's `root@<12 hex digits>` prompt, the
    /// library directory NVIDIA's CUDA images put on LD_LIBRARY_PATH (`/usr/local/nvidia/lib64`,
    /// where the container toolkit mounts the driver).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container_in_log: Option<String>,
    /// The log shows Windows Subsystem for Linux (`WSL2`, a `-microsoft-standard-WSL2` kernel,
    /// `/usr/lib/wsl/lib`): the driver lives on the Windows side and libcuda comes from there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wsl_in_log: Option<String>,
    /// The log shows a GPU in MIG mode (a `MIG-<uuid>` device, "MIG mode", a MIG instance or
    /// slice, the `MIG` acronym on its own): a CUDA process then sees one MIG instance, the one
    /// CUDA_VISIBLE_DEVICES names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mig_in_log: Option<String>,
    /// The log shows WSL 1 (its `4.4.0-<build>-Microsoft` kernel, or the user naming WSL1), which
    /// has no GPU support at all: no driver, no libcuda, whatever is installed inside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wsl1_in_log: Option<String>,
    /// The log shows native Windows (`Windows 10`, a `C:\` path, `nvidia-smi.exe`, `[WinError 126]`,
    /// a `.dll`, a `win_amd64` wheel).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub windows_in_log: Option<String>,
    /// The text is written for readers, not printed by a program: a Markdown heading, a code fence,
    /// a bold template label (`**Describe the bug**`) or an image link, as in an issue on a tracker,
    /// or a line a person starts ("I have tried…", "When I run…", "Hi,", "Any help…").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written_report: Option<String>,
    /// The log shows Google Colab, whose runtime comes with one CUDA release installed (`colab`,
    /// `Google Colab`, `/usr/local/lib/python3.x/dist-packages/google/colab`): the marker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colab_in_log: Option<String>,
    /// The log is about a PyTorch C++/CUDA extension the user built (`cpp_extension`,
    /// `CUDAExtension`, `BuildExtension`, "a CUDA extension for PyTorch"): the marker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub torch_extension_in_log: Option<String>,
    /// An nvidia-smi table or query shows a GPU in an exclusive compute mode (`E. Process`,
    /// `Exclusive_Process`, `E. Thread`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusive_compute_mode: Option<String>,
    /// Where the log shows the library the loader could not find (a `find`/`locate` result after
    /// the error): it exists, the loader just does not look there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library_found_at: Option<String>,
    /// The log shows the installed PyTorch is a CPU build: a `+cpu` wheel version ("you have
    /// 2.1.2+cpu", "torch 2.0.1+cpu") or collect_env's "CUDA used to build PyTorch: None".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_build_in_log: Option<String>,
    /// The log shows the installed PyTorch is a CUDA build: a `+cuXXX` wheel version, an install
    /// from a CUDA wheel index (`download.pytorch.org/whl/cu118`, `whl/nightly/cu129`), or a plain `pip install torch`
    /// on x86 Linux, where the wheels pip picks are CUDA builds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuda_build_in_log: Option<String>,
    /// A PyTorch version the log names (`torch==2.0.0+cu118`, `pytorch version: 2.6.0+cu126`), as
    /// written: its CUDA wheels bring their own cuDNN (data/pytorch.toml pins).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub torch_in_log: Option<String>,
    /// A TensorFlow version the log names (`tensorflow version: 1.5.0`, the issue template's
    /// `TensorFlow version (use command below): v1.13.1-0-g6612da8951`, `tensorflow-gpu==1.14`,
    /// `TF-GPU 1.1.0`): its GPU build loads the CUDA it was built for (data/frameworks.toml).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tf_in_log: Option<Version>,
    /// An ONNX Runtime release the log names (`onnxruntime-gpu 1.16.3`, `onnxruntime-gpu==1.18.1`,
    /// `ONNX Runtime: 1.16.3`, the Windows archive `onnxruntime-win-x64-cuda12-1.17.1`, the NuGet
    /// package `Microsoft.ML.OnnxRuntime.GPU (nuget package VERSION 1.16.0)`), the GPU package's
    /// when both packages are named: the CUDA and cuDNN majors its build needs are in
    /// data/frameworks.toml.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ort_in_log: Option<Version>,
    /// The CUDA major an ONNX Runtime package's name gives (`onnxruntime-win-x64-cuda12-1.17.1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ort_build_cuda: Option<u32>,
    /// A PaddlePaddle GPU build the log names by its post tag, and the CUDA major the tag stands
    /// for (`paddlepaddle-gpu==1.7.2.post107`: CUDA 10; `2.4.2.post116`: CUDA 11; `post97`: 9).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paddle_build: Option<(String, u32)>,
    /// An NCCL parameter the log shows set from the environment or nccl.conf ("NCCL INFO
    /// NCCL_GRAPH_FILE set by environment to …"), NCCL_DEBUG* left out: `NAME=value`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nccl_env_set: Option<String>,
    /// NCCL found no network interface to bootstrap on ("Bootstrap : no socket interface found",
    /// "NET/Socket : No usable listening interface found"): the line as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nccl_no_interface: Option<String>,
    /// The log comes from JAX (an `XlaRuntimeError`, a `jaxlib` or `jax/_src` frame): the marker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jax_in_log: Option<String>,
    /// The frameworks the text names by name ("import torch", `site-packages/tensorflow/`,
    /// "CUDAExecutionProvider", "paddlepaddle"), each once; `Some(empty)` when it names only
    /// programs a check does not report (llama.cpp, CTranslate2, Caffe, OpenCV) and `None` when it
    /// names none: which of this machine's frameworks a message can be about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frameworks_named: Option<Vec<FrameworkKind>>,
    /// The cuDNN failure is Caffe's convolution layer setting up (`cudnn_conv_layer.cpp:N]`, or
    /// Caffe's glog CHECK `Check failed: status == CUDNN_STATUS_SUCCESS (4 vs. 0)` as pasted):
    /// the marker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caffe_cudnn_conv: Option<String>,
    /// The log shows a job spread over several machines ("training on two remote nodes",
    /// "multi-node", `--nnodes 2`), or NCCL choosing among several network interfaces
    /// ("NET/Socket : Using \[0\]bond0… \[1\]br-…"): the phrase as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multi_node: Option<String>,
    /// The user says memory ran out or that a smaller batch runs ("fail with correct OOM
    /// error", "a lower batch size … will succeed"): the phrase as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_hint: Option<String>,
    /// The user says GPU memory grows over the run ("memory leak during training", "GPU memory
    /// usage grew slowly", "a slow and steady increase"): the phrase as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_growth: Option<String>,
    /// The log shows a checkpoint being restored by `torch.load` (its `map_location` argument, or
    /// torch/serialization.py's restore functions in a traceback): the marker as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint_load: Option<String>,
    /// A CUDA allocator mode or a virtual GPU named in the log (`expandable_segments`,
    /// `cudaMallocAsync`, `cuda-malloc`, a vGPU profile such as `L40S-48C` or `GRID T4-8C`): the
    /// marker as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocator_or_vgpu: Option<String>,
    /// The log names a bfloat16 operation (`CUDA_R_16BF` in a refused cuBLAS call, `bfloat16`,
    /// `bf16`): the marker as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bf16_in_log: Option<String>,
    /// The user says the system or the driver was just upgraded ("the automatic upgrades",
    /// "after apt upgrade", "I updated the nvidia driver") and says nothing of a reboot since:
    /// the phrase as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upgrade_in_log: Option<String>,
    /// How a launcher says a worker ended (torchrun's "exitcode: -9", "signal 9 (SIGKILL)
    /// received by PID …", "exitcode  : 1"): the phrase as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worker_exit: Option<String>,
    /// The CUDA error NCCL reports under its own error ("Cuda failure 'peer access is not
    /// supported between these two devices'", "Cuda failure 1 'invalid argument'"): the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nccl_cuda_failure: Option<String>,
    /// The log names a serving framework's custom all-reduce, kernels that exchange data over GPU
    /// peer (P2P) access instead of NCCL (vLLM's `custom_all_reduce.cuh`, SGLang's
    /// `CustomAllreduce`, "custom all reduce", TensorRT-LLM's `IpcMemory::`): the marker as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_allreduce: Option<String>,
    /// The Python (major.minor) the log's program ran on: a traceback's `…/python3.8/site-packages/`
    /// path, collect_env's `Python version: 3.10.12`, a `cp39` wheel tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub python_in_log: Option<Version>,
    /// The first installed-packages directory a path in the log lies in
    /// (`/home/u/anaconda3/envs/x/lib/python3.8/site-packages`, `C:/Python310/Lib/site-packages`),
    /// with `/` for separators: where the log's program took its packages from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packages_dir_in_log: Option<String>,
    /// The failing GPU code is a framework's or a vendor library's own kernel that user code does
    /// not index into: a convolution (`nn.Conv2d`, `F.conv3d`, a `cudnn_convolution` frame) or
    /// code PyTorch's compiler generated (`[inductor]`, `torch/_inductor`, `torch.compile`,
    /// `max-autotune`, a `triton_poi_…` kernel, "Triton Error \[CUDA\]"): the marker as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library_kernel: Option<String>,
    /// The failing GPU code is an op of a compiled extension a project builds itself (deformable
    /// convolution, RoIAlign/NMS ops, mmcv's `_ext`, an `…_im2col_cuda` kernel): the marker as
    /// written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extension_op: Option<String>,
    /// A PyTorch installed by pip (`site-packages/torch/__init__.py` in the traceback) failed to
    /// import: its CUDA wheels get cuDNN and the other CUDA libraries from the nvidia-* wheels pip
    /// installed beside it. The path as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pip_torch_import: Option<String>,
    /// The CUDA toolkit's link-time stub of the driver library shown as the one loaded or searched
    /// (`/usr/local/cuda-12.1/lib64/stubs/libcuda.so` in a loader message, a `lib64/stubs` directory
    /// on LD_LIBRARY_PATH): the path as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stub_libcuda: Option<String>,
    /// The log shows a process forked or worker processes (`fork`, `multiprocessing`,
    /// `DataLoader`, `num_workers`): CUDA touched before a fork fails to initialise in the child.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fork_in_log: Option<String>,
    /// The user says the machine was suspended, hibernated or woke from sleep ("after resuming
    /// from suspend", "since hibernation"): the phrase as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspend_in_log: Option<String>,
    /// The user describes the hardware being pushed or failing rather than a program: an
    /// overclock or undervolt, the power supply, a mining rig, the whole OS crashing or a blue
    /// screen, a "faulty device": the phrase as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardware_hint: Option<String>,
    /// The text shows the kernel driver kept from loading: Secure Boot, a module key rejected,
    /// kernel lockdown, nouveau: the phrase as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver_blocked: Option<String>,
    /// The text says the driver could not be reached ("couldn't communicate with the NVIDIA
    /// driver"): the phrase as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver_unreachable: Option<String>,
    /// The failing call is PyTorch's cuDNN recurrent layer (`self.lstm(`, `nn.GRU`, a
    /// `torch/nn/modules/rnn.py` frame): the marker as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rnn_in_log: Option<String>,
    /// The log names PyTorch's run-time compiled kernels or their cache (JITerator,
    /// `~/.cache/torch/kernels`, PYTORCH_KERNEL_CACHE_PATH, "kernel cache"): the marker as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel_cache_in_log: Option<String>,
    /// The text is about the GPU's video engines (FFmpeg's `h264_nvenc`, NVENC, NVDEC, CUVID):
    /// the marker as written. What a GPU's CUDA and cuDNN support says nothing of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub video_engine_in_log: Option<String>,
    /// The log names an embedding layer or its vocabulary (`nn.Embedding`, "embeddings",
    /// `vocab_size`): the input of a lookup that fails when an index is out of range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedding_in_log: Option<String>,
    /// A Python import statement the log shows ahead of the error (`from vllm import cuda_utils`,
    /// `---> 11 import selective_scan_cuda`): the error came from loading that module.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub python_import: Option<String>,
    /// The first installed package other than PyTorch that a Python traceback runs through (a
    /// frame under site-packages or dist-packages: `vllm`, `accelerate`): the failing call went
    /// through that library.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library_frame: Option<String>,
    /// The first traceback frame that is neither an installed package nor Python's own library
    /// (`/tmp/fork.py`, `train.py`): the program's own code, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_frame: Option<String>,
    /// The missing file is a module that PyTorch builds at first use under its extensions cache
    /// (`~/.cache/torch_extensions/py310_cu121/cpu_adam/cpu_adam.so`): DeepSpeed's ops, a project's
    /// `load()`-compiled kernels. Its file name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jit_extension: Option<String>,
    /// The text around the error names cuDNN at all (any case: "cudnn64_8.dll", "cuDNN 8.9").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub names_cudnn: bool,
    /// The text around the error, the input's last lines or a pasted report anywhere (see
    /// [`add_setup_from_trailer`]; a paste is read whole once) names a container at all, in any words
    /// (Docker, Kubernetes, a pod, Podman, Singularity/Apptainer, enroot, containerd, an
    /// `nvidia/cuda` image): looser than `container_in_log`, which needs the program shown running
    /// in one.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub names_container: bool,
    /// Other values the signature's regex captured.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub captured: Vec<(String, String)>,
    /// The architecture a compiler was asked for (`compute_35`, `sm_120a`), not the GPU's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked_arch: Option<ComputeCapability>,
}

impl LogEvidence {
    /// What the signature's regex captured in the group `name` (`ptxas`, `dir`, `option`…).
    pub fn group(&self, name: &str) -> Option<&str> {
        self.captured.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

struct Patterns {
    sm: Regex,
    supports: Regex,
    requested: Regex,
    total: Regex,
    free: Regex,
    process: Regex,
    allowed: Regex,
    xla_memory: Regex,
    jax: Regex,
    framework_named: Regex,
    caffe_conv: Regex,
    found_version: Regex,
    torch_cudnn_tuple: Regex,
    torch_cudnn_int: Regex,
    caffe2_cudnn: Regex,
    tf_cudnn: Regex,
    cuda_in_log: Regex,
    driver_version: Regex,
    driver_release: Regex,
    cudnn_in_log: Regex,
    tf_op: Regex,
    cuda_major_in_log: Regex,
    os_error: Regex,
    python: Regex,
    packages_dir: Regex,
    no_nvidia_gpu: Regex,
    other_graphics: Regex,
    library_kernel: Regex,
    extension_op: Regex,
    pip_torch_import: Regex,
    cpu_build: Regex,
    cuda_build: Regex,
    pip_torch: Regex,
    linux: Regex,
    not_x86_linux: Regex,
    container: Regex,
    container_word: Regex,
    wsl: Regex,
    wsl1: Regex,
    mig: Regex,
    windows: Regex,
    written_report: Regex,
    colab: Regex,
    torch_extension: Regex,
    dll_loading: Regex,
    cuda_dll: Regex,
    exclusive: Regex,
    nvml: Regex,
    visible: Regex,
    symbol: Regex,
    gpu_name: Regex,
    gpu_compact: Regex,
    gpu_bare: Regex,
    gpu_generation: Regex,
    nccl_env: Regex,
    nccl_no_interface: Regex,
    cudnn_named: Regex,
    torch_named: Regex,
    tf_named: Regex,
    multi_node: Regex,
    memory_hint: Regex,
    memory_growth: Regex,
    checkpoint_load: Regex,
    allocator_or_vgpu: Regex,
    bf16: Regex,
    upgrade: Regex,
    fork: Regex,
    suspend: Regex,
    hardware_hint: Regex,
    driver_blocked: Regex,
    driver_unreachable: Regex,
    rnn: Regex,
    kernel_cache: Regex,
    video_engine: Regex,
    embedding: Regex,
    python_import: Regex,
    frame: Regex,
    stdlib: Regex,
    reboot: Regex,
    worker_exit: Regex,
    nccl_cuda_failure: Regex,
    custom_allreduce: Regex,
    tf_template: Regex,
    ort_named: Regex,
    paddle_post: Regex,
    cudnn_file: Regex,
    stub_libcuda: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        // Word boundaries are ASCII ones ("不支持cuda10以下": see ascii_word_boundaries).
        let re = |s: &str| {
            Regex::new(&super::ascii_word_boundaries(s)).expect("evidence regexes are constant and tested")
        };
        Patterns {
            sm: re(r"capability (?:sm_)?(\d{2,3})[a-z]?\b|(?:capability|\bCC) (\d{1,2})\.(\d)"),
            supports: re(r"supports CUDA capabilities ((?:(?:sm|compute)_\d+[a-z]? ?)+)"),
            requested: re(r"Tried to allocate ([\d.]+) ?(GiB|MiB|KiB|GB|MB|bytes)"),
            total: re(r"([\d.]+) ?(GiB|MiB) total capacity|total capacity of ([\d.]+) ?(GiB|MiB)"),
            free: re(r"(?:; |of which )([\d.]+) ?(GiB|MiB|KiB|bytes) (?:is )?free"),
            process: re(r"this process has ([\d.]+) ?(GiB|MiB|KiB|bytes) memory in use"),
            allowed: re(r"\b([\d.]+) ?(GiB|MiB|KiB|bytes) allowed;"),
            // XLA's cuda_dnn.cc after a failed cuDNN handle: "Memory usage: 707198976 bytes free,
            // 4231397376 bytes total."
            xla_memory: re(r"Memory usage: (\d+) bytes free, (\d+) bytes total"),
            jax: re(r"\b(?:XlaRuntimeError|jaxlib|jax[/.]_src|import jax)\b"),
            framework_named: re(concat!(
                r"(?i)(?P<torch>\b(?:py)?torch\b)|(?P<tf>\btensorflow)|(?P<ort>onnxruntime|onnx runtime|",
                r"executionprovider)|(?P<paddle>\bpaddle)|(?P<cupy>\bcupy\b)|(?P<other>\bllama[_.-]?cpp|\bggml|",
                r"ctranslate2|\bdarknet\b|\bmxnet\b|\btheano\b|\bcaffe\b|\bopencv\b|\bcv2\.dnn)",
            )),
            caffe_conv: re(r"(?m)\bcudnn_conv_layer\.cpp:\d+\]|^[\s`>]*Check failed: status == CUDNN_STATUS_SUCCESS \(4 vs\. 0\)"),
            found_version: re(r"found version (\d{4,5})\b"),
            torch_cudnn_tuple: re(
                r"compiled\s+against \((\d+), (\d+), (\d+)\) but found runtime version \((\d+), (\d+), (\d+)\)",
            ),
            torch_cudnn_int: re(r"compiled against (\d{4,6}) but (?:linked|found) against (\d{4,6})"),
            caffe2_cudnn: re(r"cuDNN compiled \((\d{4,6})\) and runtime \((\d{4,6})\)"),
            tf_cudnn: re(r"Loaded runtime CuDNN library:? ([\d.]+) but source was compiled with:? ([\d.]+)"),
            // Not nvidia-smi's "CUDA Version: 12.4": that is what the driver supports, not what
            // is installed. A user's own "my CUDA version is 10.0" is, and so is an issue
            // template's "CUDA version: 11.2" (lower-case v, unlike nvidia-smi's header).
            cuda_in_log: re(
                r"(?i)(?:^|[^A-Za-z0-9_])(?:cuda(?:[ _-]?toolkit)?|cuda compilation tools, release)(?: version is|[ \t]*版本|[ \t]+ver\.?)?(?:[ \t]*[:：])?[\s=_-]*(\d{1,2})\.(\d)\b|\+cu(\d{2,3})\b|(?-i:\bCUDA\s+version:\s*)(\d{1,2})\.(\d)\b|\bcuda/cudnn(?: version)?\**:?\**\s*(\d{1,2})\.(\d)\b",
            ),
            driver_version: re(
                r"(?i)\bdriver(?: version)?(?: is|:)? +(?:version +)?(\d{3})((?:\.\d{1,3}){1,2})?\b",
            ),
            // Where no "Driver Version" is written: nvidia-smi's header ("NVIDIA-SMI 570.158.01",
            // the same release on Linux) and libcuda's versioned file name (libcuda.so.575.57.08).
            driver_release: re(r"\bNVIDIA-SMI +(\d{3})((?:\.\d{1,3}){1,2})\b|\blibcuda\.so\.(\d{3})((?:\.\d{1,3}){1,2})\b"),
            // cuDNN majors are single digits: "cudnn-10.0-linux-x64-v7.6" names the CUDA it is
            // for, and "libcudnn.so.8" is a file, not a statement of what is installed.
            // "cuDNN version is 8.0", "cudnn 为 8.4.1" (Chinese: "is") say the same as a colon.
            cudnn_in_log: re(
                r"(?i)(?:^|[^A-Za-z0-9_]|lib)cudnn(?: version|[ \t]*版本|[ \t]+ver\.?)?(?:[ \t]+is\b|[ \t]*[为是])?[\s:：=_-]*v?([2-9])\.(\d{1,2})\b|cuda/cudnn(?: version)?\**:?\**\s*\d{1,2}\.\d[\d.]*\s*[,/]\s*v?([2-9])\.(\d{1,2})\b",
            ),
            tf_op: re(r"\[Op:[A-Za-z0-9_]+\]?|\[\[\{\{node [^}]+\}\}|(?m)^\s*Node: '[^']+'"),
            // "cuda10", "CUDA 11", "cuda_toolkit 10": a major alone, as people write it in prose.
            // Majors 7-19 only: "CUDA 0"/"cuda:1" name devices, not releases.
            cuda_major_in_log: re(r"(?i)\b(?:cuda|cudatoolkit|cuda[ _-]toolkit)[ _-]?(7|8|9|1\d)\b(?:[^.\d]|$)"),
            os_error: re(r"\b(Permission denied|No space left on device|Operation not permitted)\b"),
            packages_dir: re(r#"((?:[A-Za-z]:)?[/\\][^\s"'<>|*?]*?[/\\](?:site|dist)-packages)(?:[/\\]|\b)"#),
            python: re(
                r"(?i)[/\\]python(3)\.(\d{1,2})[/\\]|\bPython(?: version)?:? (3)\.(\d{1,2})\.\d{1,2}\b|-cp3(\d{1,2})-",
            ),
            // `docker compose --profile x up` has options before the verb; a compose service's
            // log lines start with `name_1  | ` (v1) or `name-1  | ` (v2). People also say where
            // the program runs: "in the docker image", "inside a docker container", and in Chinese
            // reports "docker运行" (run in docker), "docker中" / "docker里" (in docker), "docker容器".
            // Kubernetes runs every program in a container, so naming it says where the program
            // runs too. So does an image tag in the scheme of NVIDIA's and PyTorch's CUDA images
            // (`nvidia/cuda:11.7.1-devel-ubuntu20.04`, `pytorch:1.13.1-py3.8.16-cuda11.7.1-devel-ubuntu20.04`;
            // the OS suffix marks NVIDIA's scheme), "in a docker on my server", and docker-compose
            // v1's progress lines ("Creating vqgan-clip-docker_generate_run ... done"), and a
            // Dockerfile's base-image line pasted with the error (`FROM jrottenberg/ffmpeg:4.2-nvidia`).
            container: re(
                r"(?m)^FROM [\w./-]+:[\w.-]+(?: (?i:as) [\w.-]+)?[ \t]*$|(?i:\bkubernetes\b|\bk8s\b|\bkubectl\b)|\bdocker(?:-compose| compose)?(?: --?[a-z][a-z-]*(?:[ =][a-z0-9._/-]+)?)* (?:run|exec|up)\b|\bnvidia-docker\b|\broot@[0-9a-f]{12}\b|^[a-z0-9][a-z0-9._-]*[-_]\d+ +\| |\bfailed to solve: process\b|^#\d+ \d+\.\d+ |/usr/local/nvidia/lib(?:64)?\b|(?i:\b(?:in|inside|within|use|using|run|running|pulled?) (?:the |a |an |my |this |our |your |official |latest |provided )*docker (?:image|container)s?\b)|(?i:docker) ?(?:运行|中|里|容器|内)|\b\w+@[\w-]*docker[\w-]*:[~/]|(?i:\b(?:in|inside|within) (?:a|my) docker\b)|:[\w.-]*-(?:devel|runtime|base)-(?:ubuntu|centos|rockylinux|ubi)[\d.]+\b|^(?:Creating|Recreating|Starting) [\w.-]+ \.\.\. done\b",
            ),
            // Any word for a container, for a text alone: a report that names none was, in the
            // corpus, never fixed in the container (the bare `libcuda.so.1: cannot open` of a
            // desktop install: 11 without such a word, none fixed there; 15 with, 7 of them).
            container_word: re(
                r"(?i)\b(?:docker\w*|containers?|containeri[sz]ed|containerd|kubernetes|k8s|kubectl|kubelet|pods?|podman|singularity|apptainer|enroot|pyxis|nvidia-ctk|cri-o|helm)\b|\bnvidia/cuda:|容器",
            ),
            wsl: re(r"(?i)\bwsl ?2\b|\bwsl\b|-microsoft-standard|/usr/lib/wsl/"),
            // Case-sensitive: "mig" is a word in other languages and a prefix of "migrate".
            mig: re(r"\bMIG-[0-9a-fA-F]{8}|\bMIG\b"),
            // WSL 1 runs on a translation layer that reports a 4.4.0-<Windows build>-Microsoft
            // kernel (WSL 2's is `-microsoft-standard[-WSL2]`), and has no GPU support
            // (https://github.com/microsoft/WSL/issues/5554: "That kernel version indicates that you
            // are using WSL1"). "WSL 1.2.5" is the version of the WSL app, not WSL 1.
            wsl1: re(r"\b4\.4\.0-\d{4,5}-Microsoft\b|(?i:\bwsl ?1\b(?:[^.\d]|$))"),
            // What only a Windows machine prints: its versions, drive-letter paths, its loader's
            // error numbers and DLL names, a Windows wheel's platform tag; also Python's repr of a
            // path there (`WindowsPath('C:/...')`) and the user saying so ("I am using Windows").
            windows: re(
                r"\bWindows (?:10|11|Server)\b|\b[A-Z]:\\[A-Za-z]|\bnvidia-smi\.exe\b|\[WinError \d+\]|\b\w[\w.-]*\.[Dd][Ll][Ll]\b|\bwin_amd64\b|\bWindowsPath\(|(?i:\b(?:i am|i'm|im) (?:using|on|running) (?:a )?windows\b)",
            ),
            // Markdown a person writes in an issue: `## Environment`, a ``` fence, `**To Reproduce**`,
            // a pasted screenshot. Not one `#` (a root shell's prompt, a comment in a script). Or a
            // line a person starts ("I have tried…", "When I run…", "Hi,", "but i already set…"),
            // which no program prints (glog's "I1201 …" is not "I " and a word).
            written_report: re(
                r"(?m)^[ \t]*(?:#{2,4}[ \t]+\S|```|\*\*[A-Z][^*\n]{2,40}\*\*|!\[[^\]\n]*\]\(https?://)|^(?:(?:(?i:but|and|so|also|now|then) )?(?i:i)(?: am|'m| have|'ve| get| got| tried| installed| ran| run| followed| use| used| was| can|'d| want| encountered| met| already| always| still| also)|(?i:when i)|Hi|Hello|Hey|Thanks|Any (?:help|idea|ideas|suggestions?))\b[^\n]{8,}",
            ),
            torch_extension: re(
                r"(?i)\bcpp_extension\b|\b(?:CUDA|Cpp)Extension\b|\bBuildExtension\b|\b(?:cuda|c\+\+|cpp) extensions? (?:for|of) pytorch\b|\bpytorch (?:cuda|c\+\+|cpp) extension\b",
            ),
            colab: re(r"(?i)\b(?:google[ -])?colab(?:oratory)?\b|/google/colab/"),
            // PyTorch's `Error loading "<dir>\<name>.dll" or one of its dependencies`, also when a
            // logger wrapped the line before the path or the message was pasted JSON-escaped
            // (`\"c:\\Users\\...\\fbgemm.dll\"`).
            dll_loading: re(r#"Error loading\s+\\?"([^"\n]*?)\\+([\w.-]+\.dll)\\?""#),
            // A CUDA library's versioned Windows DLL named anywhere, as people retype it ("it
            // needed cublas64_12.dll"): no \b before it, CJK letters are word characters.
            cuda_dll: re(r"(?i)(?:^|[^A-Za-z0-9_])((?:cublas(?:lt)?|cudart|cufft|curand|cusparse|cusolver|nvrtc)64_\d{2,3}(?:_\d)?\.dll)\b"),
            exclusive: re(r"\bE\. (?:Process|Thread)\b|\bExclusive_(?:Process|Thread)\b"),
            // Only what a person writes about their machine; not a program's "no GPU devices".
            no_nvidia_gpu: re(
                r"(?im)\b(?:(?:running|run|am using|using|use) (?:it |this (?:step |code )?)?on (?:the |a |my )?cpu\b|(?:i|we|my (?:laptop|machine|computer|pc|notebook)) (?:don'?t|do not|doesn'?t|does not|didn'?t) have (?:an? |any )?(?:(?:nvidia |cuda |dedicated |discrete )?(?:gpu|graphics card|video card|graphics adapter|adapter)|nvidia(?:[ \t]*[,.!?;]|[ \t]+(?:card|hardware|does|do|so|and|but)\b|[ \t]*$))|(?:i|we) (?:have|use|am using|'m using) (?:an? )?(?:amd (?:gpu|graphics|card|video card|radeon|rx)|radeon)\b|\bmy amd (?:gpu|card|graphics card|radeon|rx)\b|(?:instructions|guide|wiki) for amd (?:cards|gpus)\b|no (?:dedicated|discrete) (?:gpu|graphics card)|\b(?:due to|because of|there is|there's|(?:i|we) have|it has|with) no nvidia (?:gpu|card|graphics card)\b|intel(?:®|\(r\))? (?:hd|uhd|iris(?: xe| plus| pro)?|arc|xe) graphics|amd radeon|apple m[1-4]\b|macbook|\bapple silicon\b|\bmac(?: mini| studio| pro)? m[1-4]\b|\bm[1-4] (?:pro |max |ultra )?(?:mac|chip)\b|\b(?:on|using|running) (?:an? |my )?mac\b|\bmacos (?:1[0-5]|sonoma|ventura|monterey|sequoia|big sur|tahoe)\b|\bdevice ?= ?['\x22]mps['\x22]|\btorch\.backends\.mps\b)",
            ),
            // Graphics that are not NVIDIA's, as lspci, Windows and users name them ("Intel
            // Corporation Iris Plus Graphics G7", "Intel(R) UHD Graphics 620", "Intel HD graphics
            // 4000", "AMD Radeon", "Radeon RX 580", an integrated GPU, an Apple M1): read only when
            // the log names no NVIDIA GPU, since laptops pair them with one.
            other_graphics: re(
                r"(?i)\bintel(?:\(r\)|®)?(?: corporation)? (?:(?:hd|uhd)(?: graphics|[ \t]+\d{3,4}\b)|iris(?: plus| xe| pro)?(?: graphics)?\b|arc(?: graphics|[ \t]+a\d{3}\b))|\bintegrated (?:intel )?(?:gpu|graphics)\b|\bamd radeon\b|\bradeon (?:rx|pro|vega|graphics|hd)\b|\bapple m[1-4]\b|\bmacbook\b",
            ),
            // A convolution (the module, the functional call, ATen's and cuDNN's frames) or the
            // code TorchInductor/Triton generated: kernels whose indexing user code does not write.
            // So are a serving engine's and its quantized or attention kernels (vLLM, SGLang,
            // AWQ/GPTQ, flash-attn, xformers), and a report whose title starts with the "[Bug]" of
            // those engines' issue template: its users run stock models, not kernels of their own
            // (https://github.com/vllm-project/vllm/issues/1518, fixed by a vLLM upgrade;
            // https://github.com/vllm-project/vllm/issues/13939, .../20005, .../6976).
            library_kernel: re(
                r"(?i:\b(?:nn\.|F\.)?conv[123]d\b|\bcudnn_convolution|\bCudnnConvolution|\bcudnn::|\bvllm\b|\bsglang\b|\bTensorRT-LLM\b|\b(?:awq|gptq)\b|\bflash[_-]?attn\b|\bxformers\b)|(?m:^\s*\[Bug\])|\[inductor\]|\btorch[/\\._]+_inductor\b|\bTorchInductor\b|\btorch\.compile\b|\bmax-autotune\b|\btriton_(?:poi|red|per|mm|tem)_|Triton Error \[CUDA\]|\btriton_heuristics\b",
            ),
            extension_op: re(
                r"(?i)\b(?:modulated_)?deform(?:able)?_?(?:conv|col2im|im2col|attn|pool)\w*|\b\w+_(?:im2col|col2im)\w*_cuda\b|\broi_?(?:align|pool)\w*|\bmmcv\b|\b_ext\b|\bmaskrcnn_benchmark\b|\bdetectron2\._C\b|\bnms_cuda\b",
            ),
            pip_torch_import: re(r"[\w./\\-]*(?:site|dist)-packages[/\\]torch[/\\]__init__\.py"),
            // A wheel's local version tag, not the word CPU: "2.1.2+cpu", not YOLOv5's "torch 1.7.1 CPU".
            // Also conda's CPU builds: the `py3.8_cpu_0` build string, the `pytorch_cpu` package
            // and the `cpuonly` feature package (https://github.com/pytorch/pytorch/issues/69202,
            // https://github.com/pytorch/pytorch/issues/32369, https://github.com/meta-pytorch/data/issues/315).
            cpu_build: re(
                r"\b\d+\.\d+(?:\.\d+)?(?:\.?(?:dev|post|a|b|rc)\d+)*\+cpu\b|CUDA used to build PyTorch: None|\bpy3\.?\d{1,2}_cpu_\d\b|\bpytorch_cpu\b|\bcpuonly\b",
            ),
            cuda_build: re(r"\b\d+\.\d+(?:\.\d+)?\+cu\d{2,3}\b|download\.pytorch\.org/whl/(?:nightly/|test/)?cu\d{2,3}\b"),
            pip_torch: re(r"(?im)^.*\bpip3?\s+install\b.*\btorch(?:[\s=<>~!\[]|$).*$"),
            linux: re(r"(?i)\b(?:ubuntu|centos|debian|linux)"),
            not_x86_linux: re(r"(?i)aarch64|\barm64\b|jetson|\bmacos\b|\bmac os\b|darwin|apple m\d"),
            nvml: re(r"NVML library version: ([\d.]+)"),
            nccl_env: re(r"\b(NCCL_[A-Z0-9_]+) set by environment to (\S+)"),
            nccl_no_interface: re(r"Bootstrap ?: no socket interface found|No usable listening interface found"),
            // A major of 5 to 9 standing alone ("cudnn64_9.dll" and "libcudnn_ops.so.9" do not
            // match: a digit or a letter follows, or "_ops" comes between).
            cudnn_named: re(
                r"(?i)(?:^|[^A-Za-z0-9_.])(?:nvidia-cudnn-cu1\d[ \t]*==[ \t]*|(?:lib)?cudnn(?:_major)?[ \t_=-]*(?:(?:version|版本)[ \t:：]*)?v?)([5-9])(?:\.\d{1,2})*(?:$|[^A-Za-z0-9_])",
            ),
            torch_named: re(
                r"(?i)(?:^|[^\w.])(?:py)?torch(?:[ \t]+version)?[ \t]*(?:==|:|[ \t])[ \t]*v?(\d\.\d{1,2}(?:\.\d+)?(?:\+cu\d{2,3})?)",
            ),
            // Not `tf.__version__` or a path (`tensorflow/core/...`): a name, an optional
            // "version" and "(use command below)", then the number after `==`, `:` or a space.
            // The old TensorFlow issue template bolds its labels ("- **CUDA/cuDNN version**: 10.2",
            // "- **TensorFlow version (use command below)**: 1.8.0"): `\**` lets the value follow.
            // The package name joined to its version ("tensorflow-gpu-1.2.0") reads the same, and
            // so does the GPU package's name mistyped ("tensorfloe-gpu"): the `-gpu` package of a
            // name starting "tensorf" is TensorFlow's.
            tf_named: re(
                r"(?i)(?:^|[^\w./])(?:tensorflow|tf|tensorf[a-z]{3,5}[-_]gpu)(?:[-_]gpu)?(?:[ \t]+version)?(?:[ \t]*\([^)\n]{0,40}\))?\**[ \t]*(?:==|:|[ \t]|-)[ \t]*v?(\d\.\d{1,2}(?:\.\d+)?)\b",
            ),
            multi_node: re(
                r"(?i)\b(?:two|2|three|multiple|several|remote|different) (?:remote |gpu |worker )?(?:nodes|machines|servers|hosts)\b|\bmulti[- ]?(?:node|machine)s?\b|\binter-?node\b|--nnodes[= ]?[2-9]|NET/Socket : Using\s*\[0\]\S+\s*\[1\]",
            ),
            nccl_cuda_failure: re(r"Cuda failure (?:\d+ )?'([^'\n]{3,80})'"),
            worker_exit: re(r"exitcode\s*:\s*-?\d+|signal \d+ \(SIG[A-Z]+\)"),
            custom_allreduce: re(r"(?i)\bcustom[ _-]?all[ _-]?reduce|\bIpcMemory::"),
            // vGPU profiles end in a frame-buffer size and a series letter: C (compute), Q, B, A.
            allocator_or_vgpu: re(
                r"\bexpandable_segments\b|\bcudaMallocAsync\b|\bcuda[-_]malloc\b|\bGRID [A-Z0-9]+-\d+[CQBA]\b|\b[A-Z]\d{1,3}S?-\d{1,3}[CQ]\b",
            ),
            memory_hint: re(
                r"(?i)\b(?:out of (?:gpu |cuda |device )?memory|OOM)\b|\b(?:smaller|lower|reduc\w*|decreas\w*) (?:the )?batch[ _-]?size\b[^.\n]{0,60}\b(?:works?|worked|succeed\w*|fine|normal|runs?)\b",
            ),
            memory_growth: re(
                r"(?i)\bmemory[ -]leak\w*|\bleak(?:s|ing|age)?\b[^.\n]{0,30}\b(?:memory|vram)\b|\b(?:memory|vram)(?: usage| consumption)? (?:slowly |steadily |gradually |keeps? )?(?:grows?|grew|growed|growing|increas\w*|rising|going up|accumulat\w*)|\b(?:slow|steady|gradual|constant) (?:and steady )?(?:increase|growth|rise)\b",
            ),
            checkpoint_load: re(
                r"\bmap_location\b(?:\s*=\s*[^,)\n]{1,40})?|\b(?:default_restore_location|_cuda_deserialize)\b|torch\.load\([^)\n]{0,80}\)",
            ),
            bf16: re(r"CUDA_R_16BF|\b(?:bfloat16|bf16|BF16)\b"),
            upgrade: re(
                r"(?i)\b(?:automatic (?:system )?(?:upgrades?|updates?)|unattended[- ]upgrades?|apt(?:-get)? (?:dist-|full-)?upgrade|(?:after|since) (?:an? |the |my )?(?:system |kernel |driver |nvidia |package )?(?:upgrade|update)s?\b|(?:upgraded|updated) (?:the |my )?(?:nvidia |gpu |graphics )?drivers?\b)",
            ),
            frame: re(r#"File "([^"\n]+)", line \d+"#),
            // Python's own library: lib/python3.X/ (not its site-packages), or Lib\ on Windows.
            stdlib: re(r"(?i)(?:^|/)lib/python\d(?:\.\d+)?/[^/]+(?:\.py|/)|(?:^|/)Lib/[^/]+(?:\.py|/)|^<frozen "),
            python_import: re(
                r"(?m)\bfrom +\.{0,2}[A-Za-z_][\w.]* +import +[\w*(]+|^[\s>-]*(?:\d+ +)?import +[A-Za-z_][\w.]*(?: +as +\w+)? *$",
            ),
            // Miners' and gamers' words for an unstable card (https://github.com/ethereum-mining/ethminer/issues/285,
            // https://github.com/nicehash/excavator/issues/18, https://github.com/miniZ-miner/miniZ/issues/1).
            hardware_hint: re(
                r"(?i)\b(?:over-?clock\w*|under-?volt\w*|power supply|PSU|mining rig|(?:my |the |gpu |mining )rig|miner|mining|blue ?screens?|BSOD|crash(?:es|ed|ing)? (?:my |the (?:whole )?)?(?:OS|operating system|computer|pc|system|machine)|(?:faulty|defective|broken|dying) (?:gpu|device|card|graphics card|board|hardware|vram))\b",
            ),
            // nvidia-smi's words for a driver it cannot reach, and what keeps a module from loading
            // (https://github.com/NVIDIA/gpu-driver-container/issues/44, https://github.com/Start9Labs/start-os/issues/3702).
            driver_blocked: re(
                r"(?i)secure ?boot|key was rejected by service|lockdown|mokutil|\bnouveau\b",
            ),
            driver_unreachable: re(r"(?i)couldn.t communicate with the nvidia driver"),
            // Also other frameworks' cuDNN RNN layers: Chainer's NStepLSTM, TensorFlow's CudnnRNN
            // ops and Keras's LSTM/GRU layers, cuDNN's own cudnnRNN* calls.
            rnn: re(r"(?i)\bnn\.(?:lstm|gru|rnn)\b|\bself\.(?:lstm|gru|rnn)\b|\bnn[/\\]modules[/\\]rnn\.py\b|\b_cudnn_rnn\b|\bNStep(?:Bi)?(?:LSTM|GRU|RNN)\b|\bCudnnRNN\w*|\bcudnnRNN\w+|\blayers\.(?:LSTM|GRU)\b"),
            video_engine: re(r"(?i)\b\w*nvenc\w*|\bnvdec\b|\b\w*_cuvid\b|\bnvcuvid\b"),
            kernel_cache: re(r"(?i)\bjiterator\b|torch[/\\]kernels\b|\bPYTORCH_KERNEL_CACHE_PATH\b|\bkernel[ _]cache\b"),
            embedding: re(r"(?i)\bnn\.Embedding\b|\bembeddings?\b|\bvocab(?:ulary)?[_ ]size\b"),
            suspend: re(r"(?i)\b(?:suspend(?:ed|ing)?|hibernat\w*|resum(?:e|ed|ing) from|(?:after|from) (?:a |the )?sleep|wak(?:e|es|ing) (?:up )?from)\b"),
            fork: re(r"(?i)\bfork(?:ed|ing)?\b|\bmultiprocessing\b|\bDataLoader\b|\bnum_workers\b|\bstart[_ ]method\b"),
            reboot: re(r"(?i)\breboot|\brestart(?:ed|ing)? (?:the |my )?(?:machine|computer|system|pc|server|host)\b"),
            // The new issue template puts the version on the line after its heading
            // ("### Tensorflow Version\n\nv2.11.0-rc2-15-g6290819256d 2.11.0", the git version
            // first): read when `tf_named` finds nothing on one line.
            tf_template: re(
                r"(?i)\b(?:tensorflow(?:-gpu)?|tf)(?:[ \t]+version)?(?:[ \t]*\(use command below\))?\**(?:[ \t]*:[ \t]*|[ \t]*==[ \t]*|[ \t]+|\s*\n\s*)(?:v\d[\w.-]*[ \t]+)?v?(\d\.\d{1,2}(?:\.\d+)?)\b",
            ),
            // "onnxruntime-gpu 1.16.3", "onnxruntime-gpu==1.18.1", "onnxruntime-gpu-1.18.1",
            // "ONNX Runtime: 1.16.3", "onnxruntime-win-x64-cuda12-1.17.1",
            // "OnnxRuntime.GPU (nuget package VERSION 1.16.0)"; group 1 is the GPU package's suffix,
            // group 2 a CUDA major in the name, group 3 the version.
            ort_named: re(
                r"(?i)\bonnx ?runtime([-_.]gpu)?(?:[-_]win[-_]x64)?(?:[-_]cuda(1\d))?(?:[ \t]*\(nuget package)?(?:[ \t]+version)?[ \t]*(?:==|:|-|[ \t])[ \t]*v?(1\.\d{1,2}(?:\.\d{1,2})?)\b",
            ),
            // A Paddle wheel's version with its post tag: "paddlepaddle-gpu==2.4.2.post116",
            // "paddle-gpu(1.7.2.post97)", "paddlepaddle_gpu-2.5.1.post117". The tag is the CUDA
            // release (and for 9.x/10.0 the cuDNN major) it was built for: post97 CUDA 9 / cuDNN 7,
            // post107 CUDA 10.0 / cuDNN 7, post101 10.1, post112 11.2, post120 12.0
            // (https://www.paddlepaddle.org.cn/documentation/docs/en/install/pip/linux-pip_en.html and
            // its older releases' install pages). The package's name on the same line keeps other
            // packages' post releases out (conda-forge's torch 2.3.0.post300).
            paddle_post: re(r"(?i)paddle[^\n]{0,40}?\b(\d\.\d{1,2}\.\d{1,2})\.post(\d{2,3})\b"),
            // A cuDNN library file by name: the DLL (`cudnn64_9.dll`, `cudnn_ops_infer64_8.dll`) or
            // the soname (`libcudnn_ops.so.9`): the name in group 1, its major in group 2 or 3. No \b
            // before it: CJK letters are word characters ("找到的是cudnn64_8.dll").
            cudnn_file: re(
                r"(?i)(?:^|[^A-Za-z0-9_])(cudnn(?:_[a-z_]+)?64_(\d{1,2})\.dll|libcudnn(?:_[a-z_]+)?\.so\.(\d{1,2}))\b",
            ),
            // The stub has the driver's file name but none of its code; a path through a `stubs`
            // directory to libcuda, or such a directory on LD_LIBRARY_PATH, is where it comes from.
            stub_libcuda: re(r"[\w./~-]*/stubs/libcuda\.so[\w.]*|LD_LIBRARY_PATH\b[^\n]*?[\w./~-]*/lib(?:64)?/stubs\b"),
            visible: re(r#"CUDA_VISIBLE_DEVICES['"]?\]?\s*=\s*['"]?([0-9,\s]*)['"]?"#),
            symbol: re(
                r"undefined symbol: ([A-Za-z0-9_@.]+)|Could not load symbol:? ([A-Za-z0-9_@.]+)|undefined symbol ((?:_Z|[a-z]+[A-Z_])[A-Za-z0-9_@.]*)|symbol ([A-Za-z0-9_@.]+),? version \S+ not defined in file",
            ),
            gpu_name: re(
                r"((?:NVIDIA |GeForce |Tesla |Quadro )*(?:RTX PRO |RTX |GTX |TITAN )?(?:[A-Z]{1,2}\d{2,4}[A-Za-z]*|\d{4}(?: Ti| SUPER| D)?|[A-Z]\d{2,3}(?:-[A-Z0-9]+)*)(?: Laptop GPU)?)",
            ),
            // As users type them: "RTX3090", "gtx 1080ti", "GTX1660ti".
            gpu_compact: re(r"(?i)\b(rtx|gtx) ?(\d{3,4})(?: ?(ti|super)\b)?"),
            // A GeForce named by its number alone, as owners write it ("I have a 3090", "my 4080
            // super", "two 2080 Tis"): only after an article or possessive, so years and sizes
            // are not read as cards.
            // Also after a preposition or verb of owning ("run failed with 5080", "on my 4090"
            // is caught by "my", "bought 5070"), still only for the GeForce numbers.
            // And where the text labels it: "GPU: 3080", "显卡：3080" (graphics card).
            gpu_bare: re(
                r"(?i)(?:\b(?:a|an|my|the|two|four|eight|\dx|with|on|using|bought|got|own) |\bgpu\s*[:：]\s*|显卡(?:型号)?\s*[:：]?\s*)((?:10[5-8]|16[56]|20[6-8]|30[5-9]|40[6-9]|50[6-9])0)(?: ?(ti|super)\b)?",
            ),
            // A generation instead of a card: "GeForce RTX 50XX", "RTX 40-series", "RTX Blackwell".
            gpu_generation: re(r"(?i)\brtx ?([2-5]0)(?:xx\b|[- ]?series\b)|\b(blackwell)\b"),
        }
    })
}

/// The frameworks a text names: see [`LogEvidence::frameworks_named`].
fn frameworks_named(context: &str, re: &Regex) -> Option<Vec<FrameworkKind>> {
    use FrameworkKind::*;
    // The pattern's groups; its `other` group names no framework a check reports.
    const GROUPS: [(&str, FrameworkKind); 5] =
        [("torch", Torch), ("tf", Tensorflow), ("ort", Onnxruntime), ("paddle", Paddle), ("cupy", Cupy)];
    let mut named: Option<Vec<FrameworkKind>> = None;
    for c in re.captures_iter(context).take(64) {
        let list = named.get_or_insert_with(Vec::new);
        let kind = GROUPS.iter().find(|(group, _)| c.name(group).is_some()).map(|(_, k)| *k);
        if let Some(k) = kind.filter(|k| !list.contains(k)) {
            list.push(k);
        }
    }
    named
}

/// cuDNN versions written as integers: 7605 (7.6.5), 8907 (8.9.7), 91900 (9.19.0).
pub fn cudnn_from_int(n: u64) -> Option<Version> {
    match n {
        1000..=9999 => Some(Version::from_parts(&[n / 1000, (n % 1000) / 100, n % 100])),
        10_000..=999_999 => Some(Version::from_parts(&[n / 10_000, (n % 10_000) / 100, n % 100])),
        _ => None,
    }
}

/// A cuDNN version as TensorFlow or JAX print it: `7.6.5` or `7201`.
fn cudnn_from_text(s: &str) -> Option<Version> {
    if s.contains('.') {
        s.parse().ok()
    } else {
        cudnn_from_int(s.parse().ok()?)
    }
}

fn mib(value: &str, unit: &str) -> Option<f64> {
    let v: f64 = value.parse().ok()?;
    let f = match unit {
        "GiB" | "GB" => 1024.0,
        "MiB" | "MB" => 1.0,
        "KiB" => 1.0 / 1024.0,
        "bytes" => 1.0 / (1024.0 * 1024.0),
        _ => return None,
    };
    Some(v * f)
}

/// An absolute path to `file` on a line after the error's own (a `find` or `locate` result), not
/// counting lines that report the file missing again.
fn library_path_in(context: &str, file: &str) -> Option<String> {
    context.lines().skip(1).find_map(|line| {
        line.match_indices(file).find_map(|(i, _)| {
            let before = &line[..i];
            if !before.ends_with('/') {
                return None;
            }
            // The path the loader failed on is not where the file is: "/x/libfoo.so.1: cannot
            // open shared object file", "No such file or directory: '/x/libfoo.so.1'".
            let after = line[i + file.len()..].trim_start_matches(['\'', '"', '`']);
            let start = before
                .rfind(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`' | '(' | '=' | ':'))
                .map_or(0, |p| p + 1);
            let lead =
                line[..start].trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`'));
            if after.starts_with(':') || lead.ends_with(':') || after.trim_start().starts_with("not found") {
                return None;
            }
            let path = &line[start..i + file.len()];
            // An absolute path, or one retyped without its leading slash ("it is at
            // home/a/venv/lib/python3.11/site-packages/torch/lib/libcudnn_ops_infer.so.8").
            let retyped =
                path.starts_with(|c: char| c.is_ascii_alphanumeric()) && path.matches('/').count() >= 3;
            (path.starts_with('/') || path.starts_with('~') || retyped).then(|| path.to_string())
        })
    })
}

/// The first installed package other than PyTorch and the first of the program's own files that
/// the Python traceback frames in `context` name (see [`LogEvidence::library_frame`]).
fn traceback_frames(context: &str, p: &Patterns) -> (Option<String>, Option<String>) {
    let (mut library, mut own) = (None, None);
    for c in p.frame.captures_iter(context) {
        let path = c[1].replace('\\', "/");
        let installed = ["/site-packages/", "/dist-packages/"].iter().find_map(|d| path.split_once(d));
        match installed {
            Some((_, rest)) => {
                let package = rest.split(['/', '.']).next().unwrap_or_default();
                if library.is_none() && !package.is_empty() && !package.starts_with("torch") {
                    library = Some(package.to_string());
                }
            }
            None if own.is_none() && !p.stdlib.is_match(&path) => own = Some(c[1].to_string()),
            None => {}
        }
    }
    (library, own)
}

/// Reads the evidence of one error from its context (matched line and the lines after it) and the
/// groups the signature's regex captured.
pub fn extract(
    context: &str,
    key: &str,
    groups: &[(String, String)],
    code: Option<u64>,
    table: &SignatureTable,
) -> LogEvidence {
    let p = patterns();
    let mut ev = LogEvidence::default();
    // The first match of a marker, as written.
    let found = |re: &Regex| re.find(context).map(|m| m.as_str().to_string());
    if let Some(c) = p.sm.captures(context) {
        ev.compute_capability = match (c.get(1), c.get(2), c.get(3)) {
            (Some(sm), _, _) => ComputeCapability::from_sm_number(sm.as_str()),
            (None, Some(a), Some(b)) => format!("{}.{}", a.as_str(), b.as_str()).parse().ok(),
            _ => None,
        };
    }
    if let Some(c) = p.supports.captures(context) {
        ev.supported_archs = c[1].split_whitespace().filter_map(|s| s.parse().ok()).collect();
        ev.supported_archs.dedup();
    }
    let compact = p.gpu_compact.captures_iter(context).map(|c| {
        let suffix = c.get(3).map_or(String::new(), |s| {
            let s = s.as_str().to_ascii_lowercase();
            if s == "ti" {
                " Ti".to_string()
            } else {
                " SUPER".to_string()
            }
        });
        format!("{} {}{suffix}", c[1].to_ascii_uppercase(), &c[2])
    });
    let bare = p.gpu_bare.captures_iter(context).map(|c| {
        let family = if c[1].starts_with('1') { "GTX" } else { "RTX" };
        let suffix =
            c.get(2).map_or("", |s| if s.as_str().eq_ignore_ascii_case("ti") { " Ti" } else { " SUPER" });
        format!("{family} {}{suffix}", &c[1])
    });
    let generation = p.gpu_generation.captures_iter(context).map(|c| match c.get(1) {
        Some(n) => format!("RTX {}", n.as_str()),
        None => "Blackwell".to_string(),
    });
    let names = p
        .gpu_name
        .find_iter(context)
        .map(|m| m.as_str().trim().to_string())
        .chain(compact)
        .chain(bare)
        .chain(generation);
    for name in names {
        if let Some(family) = table.gpu_capability(&name) {
            ev.gpu_name = Some(name.clone());
            if ev.compute_capability.is_none() {
                ev.compute_capability = Some(family.cc);
            }
            break;
        }
    }
    if let Some(c) = p.requested.captures(context) {
        ev.requested_mib = mib(&c[1], &c[2]);
    }
    if let Some(c) = p.total.captures(context) {
        ev.total_mib = match (c.get(1), c.get(2), c.get(3), c.get(4)) {
            (Some(v), Some(u), _, _) | (_, _, Some(v), Some(u)) => mib(v.as_str(), u.as_str()),
            _ => None,
        };
    }
    if let Some(c) = p.free.captures(context) {
        ev.free_mib = mib(&c[1], &c[2]);
    }
    if let Some(c) = p.process.captures(context) {
        ev.process_mib = mib(&c[1], &c[2]);
    }
    if let Some(c) = p.allowed.captures(context) {
        ev.allowed_mib = mib(&c[1], &c[2]);
    }
    if ev.free_mib.is_none() && ev.total_mib.is_none() {
        if let Some(c) = p.xla_memory.captures(context) {
            ev.free_mib = mib(&c[1], "bytes");
            ev.total_mib = mib(&c[2], "bytes");
        }
    }
    if let Some(c) = p.found_version.captures(context) {
        ev.driver_cuda = c[1].parse::<i64>().ok().and_then(CudaVersion::from_int);
    }
    if let Some(c) = p.torch_cudnn_tuple.captures(context) {
        let v = |i: usize, j: usize, k: usize| format!("{}.{}.{}", &c[i], &c[j], &c[k]).parse().ok();
        ev.cudnn_compiled = v(1, 2, 3);
        ev.cudnn_runtime = v(4, 5, 6);
    } else if let Some(c) = p.torch_cudnn_int.captures(context).or_else(|| p.caffe2_cudnn.captures(context)) {
        ev.cudnn_compiled = c[1].parse().ok().and_then(cudnn_from_int);
        ev.cudnn_runtime = c[2].parse().ok().and_then(cudnn_from_int);
    } else if let Some(c) = p.tf_cudnn.captures(context) {
        // TensorFlow/XLA print the versions on a line of their own, often next to the error that
        // reports the consequence ("DNN library initialization failed").
        ev.cudnn_runtime = cudnn_from_text(c[1].trim_end_matches('.'));
        ev.cudnn_compiled = cudnn_from_text(c[2].trim_end_matches('.'));
    }
    if let Some(c) = p.cuda_in_log.captures(context) {
        ev.cuda_in_log =
            match (c.get(1).or(c.get(4)).or(c.get(6)), c.get(2).or(c.get(5)).or(c.get(7)), c.get(3)) {
                (Some(a), Some(b), _) => format!("{}.{}", a.as_str(), b.as_str()).parse().ok(),
                // A wheel tag: +cu92, +cu101, +cu118.
                (_, _, Some(tag)) => {
                    let (major, minor) = tag.as_str().split_at(tag.as_str().len() - 1);
                    format!("{major}.{minor}").parse().ok()
                }
                _ => None,
            };
    } else if let Some(c) = p.cuda_major_in_log.captures(context) {
        ev.cuda_in_log = format!("{}.0", &c[1]).parse().ok();
        ev.cuda_in_log_major_only = ev.cuda_in_log.is_some();
    }
    ev.jax_in_log = found(&p.jax);
    ev.frameworks_named = frameworks_named(context, &p.framework_named);
    if let Some(m) = p.caffe_conv.find(context) {
        ev.caffe_cudnn_conv = Some(m.as_str().trim_start_matches(['`', '>', ' ', '\t', '\n']).to_string());
    }
    // "CUDA 10 requires driver 418. The driver here is 384.145": the one in use, not the one asked
    // for; and one stated ("driver is 384.145", "Driver Version: 530.30.02") over one merely named
    // ("Nvidia driver 418 or binding for singularity", a title).
    let drivers: Vec<regex::Captures<'_>> = p
        .driver_version
        .captures_iter(context)
        .filter(|c| !is_requirement(context, c.get(0)))
        .take(16)
        .collect();
    let stated = |c: &&regex::Captures<'_>| c[0].contains(" is") || c[0].contains(':');
    if let Some(c) = drivers.iter().find(stated).or(drivers.first()) {
        let text = match c.get(2) {
            Some(rest) => format!("{}{}", &c[1], rest.as_str()),
            None => format!("{}.999.99", &c[1]),
        };
        ev.driver_version = text.parse().ok();
    } else if let Some(c) = p.driver_release.captures(context) {
        if let (Some(major), Some(rest)) = (c.get(1).or(c.get(3)), c.get(2).or(c.get(4))) {
            ev.driver_version = format!("{}{}", major.as_str(), rest.as_str()).parse().ok();
        }
    }
    // Every one named: the setup a user lists and the version they then installed can differ.
    for c in p.cudnn_in_log.captures_iter(context).filter(|c| !is_requirement(context, c.get(0))).take(8) {
        let v = match (c.get(1), c.get(2), c.get(3), c.get(4)) {
            (Some(a), Some(b), _, _) | (_, _, Some(a), Some(b)) => {
                format!("{}.{}", a.as_str(), b.as_str()).parse::<Version>().ok()
            }
            _ => None,
        };
        if let Some(v) = v.filter(|v| !ev.cudnn_in_log.contains(v)) {
            ev.cudnn_in_log.push(v);
        }
    }
    if let Some(m) = p.tf_op.find(context) {
        ev.tf_op = Some(m.as_str().trim().to_string());
    }
    ev.names_cudnn = memchr::memmem::find(context.to_ascii_lowercase().as_bytes(), b"cudnn").is_some();
    ev.container_in_log = found(&p.container);
    ev.names_container = ev.container_in_log.is_some() || p.container_word.is_match(context);
    ev.wsl_in_log = found(&p.wsl);
    ev.mig_in_log = found(&p.mig);
    ev.wsl1_in_log = found(&p.wsl1).map(|m| m.trim_end_matches(|c: char| !c.is_alphanumeric()).to_string());
    ev.windows_in_log = found(&p.windows);
    // The marker as written, cut at a few words: a person's line can run on into the error.
    ev.written_report = found(&p.written_report).map(|m| {
        let m = m.trim();
        match m.char_indices().nth(40) {
            Some((cut, _)) => format!("{}…", m[..cut].trim_end()),
            None => m.to_string(),
        }
    });
    ev.colab_in_log = found(&p.colab);
    ev.torch_extension_in_log = found(&p.torch_extension);
    ev.exclusive_compute_mode = found(&p.exclusive);
    ev.no_nvidia_gpu = found(&p.no_nvidia_gpu);
    if ev.no_nvidia_gpu.is_none() && ev.gpu_name.is_none() {
        ev.no_nvidia_gpu = found(&p.other_graphics);
    }
    ev.library_kernel = found(&p.library_kernel);
    ev.extension_op = found(&p.extension_op);
    ev.pip_torch_import = found(&p.pip_torch_import);
    ev.cpu_build_in_log = found(&p.cpu_build);
    ev.cuda_build_in_log = found(&p.cuda_build).or_else(|| {
        // A plain `pip install torch` on x86 Linux installs a CUDA build (PyPI's Linux wheels and
        // the unsuffixed ones of download.pytorch.org are CUDA builds); not on Windows or macOS,
        // and not when the line asks for the CPU wheels.
        let line = p.pip_torch.find(context)?.as_str().trim();
        let linux = p.linux.is_match(context) && ev.windows_in_log.is_none();
        (linux && !line.to_lowercase().contains("cpu") && !p.not_x86_linux.is_match(context))
            .then(|| line.to_string())
    });
    if let Some(c) = p.os_error.captures(context) {
        ev.os_error = Some(c[1].to_string());
    }
    // NCCL echoes every parameter it reads from the environment or nccl.conf; NCCL_DEBUG and
    // NCCL_DEBUG_SUBSYS are the ones asked for to get the log, not settings that change behaviour.
    ev.nccl_env_set = p
        .nccl_env
        .captures_iter(context)
        .find(|c| !c[1].starts_with("NCCL_DEBUG"))
        .map(|c| format!("{}={}", &c[1], &c[2]));
    ev.nccl_no_interface = found(&p.nccl_no_interface);
    ev.multi_node = found(&p.multi_node);
    ev.memory_hint = found(&p.memory_hint);
    ev.memory_growth = found(&p.memory_growth);
    // A load already mapped to the CPU puts nothing on the GPU.
    ev.checkpoint_load = p
        .checkpoint_load
        .find_iter(context)
        .map(|m| m.as_str())
        .find(|m| !m.to_lowercase().contains("cpu"))
        .map(str::to_string);
    ev.allocator_or_vgpu = found(&p.allocator_or_vgpu);
    ev.bf16_in_log = found(&p.bf16);
    if !p.reboot.is_match(context) {
        ev.upgrade_in_log = found(&p.upgrade);
    }
    ev.worker_exit = found(&p.worker_exit);
    ev.fork_in_log = found(&p.fork);
    ev.suspend_in_log = found(&p.suspend);
    ev.hardware_hint = found(&p.hardware_hint);
    ev.driver_blocked = found(&p.driver_blocked);
    ev.driver_unreachable = found(&p.driver_unreachable);
    ev.rnn_in_log = found(&p.rnn);
    ev.kernel_cache_in_log = found(&p.kernel_cache);
    ev.video_engine_in_log = found(&p.video_engine);
    ev.embedding_in_log = found(&p.embedding);
    (ev.library_frame, ev.own_frame) = traceback_frames(context, p);
    ev.python_import =
        found(&p.python_import).map(|m| m.trim_start_matches(['\n', ' ', '\t', '>', '-']).to_string());
    ev.nccl_cuda_failure = p.nccl_cuda_failure.captures(context).map(|c| c[1].to_string());
    ev.custom_allreduce = found(&p.custom_allreduce);
    if let Some(c) = p.nvml.captures(context) {
        ev.nvml_library_version = c[1].parse().ok();
    }
    if let Some(c) = p.visible.captures(context) {
        ev.cuda_visible_devices = Some(c[1].trim().to_string());
    }
    if let Some(c) = p.symbol.captures(context) {
        ev.symbol = c
            .get(1)
            .or_else(|| c.get(2))
            .or_else(|| c.get(3))
            .or_else(|| c.get(4))
            .map(|m| m.as_str().to_string());
    }
    // A bare major ("libcudnn8", "nvidia-cudnn-cu12==9.1", "CUDNN_MAJOR 8") where no version with a
    // minor of the same major was read.
    for c in p.cudnn_named.captures_iter(context).filter(|c| !is_requirement(context, c.get(0))) {
        if let Ok(major) = c[1].parse::<u64>() {
            if !ev.cudnn_in_log.iter().any(|v| v.major() == major) && ev.cudnn_in_log.len() < 8 {
                ev.cudnn_in_log.push(Version::from_parts(&[major]));
            }
        }
    }
    if let Some(c) = p.torch_named.captures(context) {
        ev.torch_in_log = Some(c[1].to_string());
    }
    if let Some(c) = p.tf_named.captures(context) {
        ev.tf_in_log = c[1].parse().ok();
    }
    if ev.tf_in_log.is_none() {
        if let Some(c) = p.tf_template.captures(context) {
            ev.tf_in_log = c[1].parse().ok();
        }
    }
    let ort: Vec<regex::Captures<'_>> = p.ort_named.captures_iter(context).take(16).collect();
    let named = ort.iter().find(|c| c.get(1).is_some()).or(ort.first());
    ev.ort_in_log = named.and_then(|c| c[3].parse().ok());
    ev.ort_build_cuda = named.and_then(|c| c.get(2)).and_then(|m| m.as_str().parse().ok());
    ev.paddle_build = p.paddle_post.captures(context).and_then(|c| {
        let tag = &c[2];
        // Two digits: the CUDA major and the cuDNN major (97); three: the CUDA release (112).
        let major: u32 = if tag.len() == 2 { tag[..1].parse().ok()? } else { tag[..2].parse().ok()? };
        (8..=13).contains(&major).then(|| (format!("{}.post{tag}", &c[1]), major))
    });
    // A soname never ends in a dot; "Could not load library libcudnn_ops_infer.so.8. Error: …"
    // leaves one on the captured name.
    let key = key.trim_end_matches('.');
    if key.starts_with("lib") || key.starts_with("cu") || key.starts_with("CU") || key.ends_with(".dll") {
        ev.library = Some(key.to_string());
        if key.starts_with("lib") && key.contains(".so") {
            ev.library_found_at = library_path_in(context, key);
        }
    }
    if key.contains("torch_extensions/") {
        ev.jit_extension = Some(key.rsplit('/').next().unwrap_or(key).to_string());
    }
    // The DLL PyTorch failed to load, when the matched line itself did not name it.
    if key.is_empty() {
        if let Some(c) = p.dll_loading.captures(context) {
            ev.library = Some(c[2].to_string());
            if !groups.iter().any(|(name, _)| name == "dir") {
                ev.captured.push(("dir".into(), c[1].replace("\\\\", "\\")));
            }
        }
    }
    // A text no signature recognised (or one whose line named no file) that names a CUDA
    // library's versioned DLL: that is the library it is about.
    if ev.library.is_none() && key.is_empty() {
        if let Some(c) = p.cuda_dll.captures(context) {
            ev.library = Some(c[1].to_string());
        }
    }
    // A cuDNN library of another major named beside the one that is missing ("saw
    // cudnn_ops_infer64_9.dll instead of cudnn_ops_infer64_8.dll" in torch\lib,
    // https://github.com/m-bain/whisperX/issues/899): that cuDNN is there. The missing file's own
    // major (the same name repeated, its siblings) says nothing of what is installed.
    let file_major =
        |c: &regex::Captures<'_>| c.get(2).or(c.get(3)).and_then(|m| m.as_str().parse::<u64>().ok());
    let wanted = ev.library.as_deref().and_then(|l| p.cudnn_file.captures(l).and_then(|c| file_major(&c)));
    if let Some(wanted) = wanted {
        for c in p.cudnn_file.captures_iter(context).take(32) {
            let Some(major) = file_major(&c).filter(|m| *m != wanted && (5..=9).contains(m)) else {
                continue;
            };
            if !ev.cudnn_in_log.iter().any(|v| v.major() == major) && ev.cudnn_in_log.len() < 8 {
                ev.cudnn_in_log.push(Version::from_parts(&[major]));
            }
        }
    }
    for (name, value) in groups {
        match name.as_str() {
            "xid" => ev.xid = value.parse().ok(),
            "runtime" => ev.cudnn_runtime = cudnn_from_text(value),
            "compiled" => ev.cudnn_compiled = cudnn_from_text(value),
            "found" if key.eq_ignore_ascii_case("cudnn") => {
                ev.cudnn_runtime = value.parse().ok().and_then(cudnn_from_int);
            }
            "built" if key.eq_ignore_ascii_case("cudnn") => {
                ev.cudnn_compiled = value.parse().ok().and_then(cudnn_from_int);
            }
            _ => {}
        }
        ev.captured.push((name.clone(), value.clone()));
    }
    ev.asked_arch = key
        .strip_prefix("compute_")
        .or_else(|| key.strip_prefix("sm_"))
        .and_then(ComputeCapability::from_sm_number);
    if let Some(c) = p.python.captures(context) {
        let v = match (c.get(2), c.get(4), c.get(5)) {
            (Some(minor), _, _) | (_, Some(minor), _) | (_, _, Some(minor)) => {
                format!("3.{}", minor.as_str())
            }
            _ => String::new(),
        };
        ev.python_in_log = v.parse().ok();
    }
    ev.packages_dir_in_log = p.packages_dir.captures(context).map(|c| c[1].replace('\\', "/"));
    ev.stub_libcuda = found(&p.stub_libcuda);
    if ev.xid.is_none() && context.contains("fallen off the bus") {
        ev.xid = Some(79);
    }
    if let Some(code) = code {
        ev.captured.push(("code".into(), code.to_string()));
    }
    ev
}

/// The framework and cuDNN releases that the input's last lines name, where the error's own
/// context named none: a pasted report often ends with the user's set-up ("I use
/// tensorflow-gpu-1.2.0 and cudnn-5.0", <https://github.com/GuangmingZhu/AttentionConvLSTM/issues/13>),
/// which holds for every error above it. Only these versions: a GPU, a CUDA toolkit or a container
/// named at the end of a long log may belong to another machine or step. `end` is the evidence of
/// those last lines ([`extract`] of the scan's trailer), read once for all the errors of a log.
pub fn add_setup_from_trailer(ev: &mut LogEvidence, end: &LogEvidence) {
    if ev.tf_in_log.is_none() {
        ev.tf_in_log = end.tf_in_log.clone();
    }
    if ev.torch_in_log.is_none() {
        ev.torch_in_log = end.torch_in_log.clone();
    }
    if ev.ort_in_log.is_none() {
        ev.ort_in_log = end.ort_in_log.clone();
        ev.ort_build_cuda = end.ort_build_cuda;
    }
    if ev.paddle_build.is_none() {
        ev.paddle_build = end.paddle_build.clone();
    }
    if ev.cudnn_in_log.is_empty() {
        ev.cudnn_in_log = end.cudnn_in_log.clone();
    }
    if ev.written_report.is_none() {
        ev.written_report = end.written_report.clone();
    }
    ev.names_container |= end.names_container;
    // What the user says of the run as a whole ("memory leak during training") holds for the
    // memory error that ends it.
    if ev.memory_growth.is_none() {
        ev.memory_growth = end.memory_growth.clone();
    }
}

/// The GPU a pasted report names anywhere (its title, the environment it lists: "RTX 5070 Ti,
/// driver 576"), or its saying there is none, for an error whose own lines name none: the
/// machine's GPU is one fact of the whole report, not of the lines around the message.
pub fn add_gpu_from_report(ev: &mut LogEvidence, report: &LogEvidence) {
    if ev.gpu_name.is_none() && ev.compute_capability.is_none() {
        ev.gpu_name = report.gpu_name.clone();
        ev.compute_capability = report.compute_capability;
        // Likewise a machine without one ("on my M2 MacBook" in the title), unless the report
        // names an NVIDIA GPU somewhere.
        if ev.no_nvidia_gpu.is_none() && ev.gpu_name.is_none() {
            ev.no_nvidia_gpu = report.no_nvidia_gpu.clone();
        }
    }
}

/// The first cuDNN library file a text names (`cudnn64_7.dll`, `libcudnn_ops.so.9`): in a text that
/// no signature recognised, the library it is about, as the first CUDA DLL named is.
pub fn first_cudnn_file(text: &str) -> Option<&str> {
    patterns().cudnn_file.captures(text).and_then(|c| c.get(1)).map(|m| m.as_str())
}

/// True when a version is named as what a program requires ("Require cuDNN 9.* and CUDA 12.*",
/// "needs cuDNN 8"), not as what the user has.
fn is_requirement(context: &str, m: Option<regex::Match<'_>>) -> bool {
    let Some(m) = m else { return false };
    let mut from = m.start().saturating_sub(16);
    while !context.is_char_boundary(from) {
        from -= 1;
    }
    let before = context[from..m.start()].to_ascii_lowercase();
    ["require", "need"].iter().any(|w| before.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::table;

    fn ev(text: &str) -> LogEvidence {
        extract(text, "", &[], None, table())
    }

    fn majors(e: &LogEvidence) -> Vec<u64> {
        let mut m: Vec<u64> = e.cudnn_in_log.iter().map(|v| v.major()).collect();
        m.sort_unstable();
        m.dedup();
        m
    }

    #[test]
    fn a_cuda_toolkit_named_with_a_colon_or_the_word_toolkit_is_the_cuda_in_the_log() {
        let cuda = |t: &str| ev(t).cuda_in_log.map(|v| v.to_string());
        assert_eq!(cuda("- CUDA Toolkit: 11.8"), Some("11.8".into()));
        assert_eq!(cuda("Install CUDA Toolkit 12.1 first"), Some("12.1".into()));
        assert_eq!(cuda("device: NVIDIA GeForce RTX 3090\ncuda: 12.1\ncudnn: 8801"), Some("12.1".into()));
        assert_eq!(cuda("Device: cuda:0 NVIDIA GeForce RTX 4070 Ti : native"), None);
    }

    #[test]
    fn the_onnxruntime_release_named_is_the_gpu_packages_when_both_are_listed() {
        let v = |t: &str| ev(t).ort_in_log.map(|v| v.to_string());
        assert_eq!(
            v("i am using cuda 11.8, onnxruntime-gpu 1.16.3 and python 3.10.0."),
            Some("1.16.3".into())
        );
        assert_eq!(
            v("onnxruntime                       1.17.1\nonnxruntime-gpu                   1.20.1"),
            Some("1.20.1".into())
        );
        assert_eq!(v("pip install onnxruntime-gpu==1.18.1"), Some("1.18.1".into()));
        assert_eq!(v("- ONNX Runtime: 1.16.3"), Some("1.16.3".into()));
        assert_eq!(v("import onnxruntime as ort"), None);
    }

    #[test]
    fn a_cudnn_library_of_another_major_beside_the_missing_one_is_a_cudnn_the_log_names() {
        let text = "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!\n\
                    Took a look in torch\\lib and saw `cudnn_ops_infer64_9.dll` instead of `cudnn_ops_infer64_8.dll`";
        let e = extract(text, "cudnn_ops_infer64_8.dll", &[], None, table());
        assert_eq!(majors(&e), vec![9]);
        // The missing file repeated, or a sibling of its own major, says nothing of what is there.
        let text = "Could not load library cudnn_cnn_infer64_8.dll. Error code 126\nPlease make sure cudnn_cnn_infer64_8.dll is in your library path!\ncudnn_ops_infer64_8.dll";
        let e = extract(text, "cudnn_cnn_infer64_8.dll", &[], None, table());
        assert!(e.cudnn_in_log.is_empty());
        // Without a missing cuDNN library, a file name in a listing is not read as installed.
        assert!(ev("ls torch/lib: cudnn64_9.dll cudnn_ops64_9.dll").cudnn_in_log.is_empty());
    }

    #[test]
    fn cudnn_files_written_inside_other_text_and_versions_after_is_are_read() {
        // CJK letters are word characters: the file name right after one is still a file name.
        let text = "依赖的库是cudnn64_7.dll，我在cuda的目录下搜索，找到的是cudnn64_8.dll";
        assert_eq!(first_cudnn_file(text), Some("cudnn64_7.dll"));
        assert_eq!(majors(&extract(text, "cudnn64_7.dll", &[], None, table())), vec![8]);
        assert_eq!(first_cudnn_file("no cuDNN file here: cudnn.h"), None);
        assert_eq!(majors(&ev("cudnn 为 8.4.1")), vec![8]);
        assert_eq!(majors(&ev("My cuDNN version is 7.6.5")), vec![7]);
    }

    #[test]
    fn the_set_up_a_report_ends_with_fills_only_the_versions_the_error_lines_did_not_name() {
        let tf = |t: &str| ev(t).tf_in_log.map(|v| v.to_string());
        assert_eq!(tf("I use tensorflow-gpu-1.2.0 and cudnn-5.0"), Some("1.2.0".into()));
        assert_eq!(tf("I use tensorfloe-gpu-1.2.0"), Some("1.2.0".into()));
        assert_eq!(tf("tensorflow/core/kernels/conv_ops.cc:667"), None);
        let trailer = "thank you!\n\nI use tensorflow-gpu-1.2.0 and cudnn-5.0\nGeForce RTX 3090, CUDA 9.0";
        let mut e = ev("could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR");
        add_setup_from_trailer(&mut e, &ev(trailer));
        assert_eq!(e.tf_in_log.as_ref().map(|v| v.to_string()).as_deref(), Some("1.2.0"));
        assert_eq!(majors(&e), vec![5]);
        assert!(e.gpu_name.is_none() && e.cuda_in_log.is_none());
        // What the error's own lines say stays.
        let mut e = ev("Loaded cuDNN 8.9 with tensorflow 2.15");
        add_setup_from_trailer(&mut e, &ev(trailer));
        assert_eq!(e.tf_in_log.as_ref().map(|v| v.to_string()).as_deref(), Some("2.15"));
        assert_eq!(majors(&e), vec![8]);
    }

    #[test]
    fn the_toolkits_stub_libcuda_is_read_from_a_loader_message_or_the_library_path() {
        let stub = |t: &str| ev(t).stub_libcuda;
        assert_eq!(
            stub("AttributeError: /opt/cuda-12.1/lib64/stubs/libcuda.so: undefined symbol: _undef")
                .as_deref(),
            Some("/opt/cuda-12.1/lib64/stubs/libcuda.so")
        );
        assert!(stub("export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:$LD_LIBRARY_PATH").is_some());
        assert!(stub("export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH").is_none());
        assert!(stub("/usr/lib/x86_64-linux-gnu/libcuda.so.1").is_none());
    }

    #[test]
    fn a_cudnn_a_program_requires_is_not_one_the_user_has() {
        let e = ev("Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*. Please install all dependencies");
        assert!(e.cudnn_in_log.is_empty(), "{:?}", e.cudnn_in_log);
        assert_eq!(majors(&ev("I installed cuDNN 8.9 but it needs cuDNN 9")), [8]);
    }

    #[test]
    fn gpu_names_typed_without_spaces_or_capitals_are_read() {
        let cc = |t: &str| ev(t).compute_capability.map(|c| c.to_string());
        assert_eq!(cc("training on my RTX3090 fails").as_deref(), Some("8.6"));
        assert_eq!(cc("GPU: gtx 1080ti, driver 430").as_deref(), Some("6.1"));
        assert_eq!(cc("I have a GTX1660ti").as_deref(), Some("7.5"));
        assert_eq!(ev("I have a GTX1660ti").gpu_name.as_deref(), Some("GTX 1660 Ti"));
        assert_eq!(cc("cuda10 with cudnn7"), None);
        // A GeForce by its number alone, after an article or possessive; not a year or a size.
        assert_eq!(
            ev("my monitor is on an integrated gpu but I have a 4080 super").gpu_name.as_deref(),
            Some("RTX 4080 SUPER")
        );
        assert_eq!(ev("two 2080 ti cards").gpu_name.as_deref(), Some("RTX 2080 Ti"));
        assert_eq!(ev("on my 1060").gpu_name.as_deref(), Some("GTX 1060"));
        assert_eq!(ev("显卡：3080\ncuda10.2").gpu_name.as_deref(), Some("RTX 3080"));
        // Against CJK words, with no space: ASCII word boundaries.
        let e = ev("我用的rtx3090显卡，网络上说不支持cuda10以下版本");
        assert_eq!(e.gpu_name.as_deref(), Some("RTX 3090"));
        assert_eq!(e.cuda_in_log, Some(CudaVersion::new(10, 0)));
        assert_eq!(ev("GPU: 4090, driver 550").gpu_name.as_deref(), Some("RTX 4090"));
        assert_eq!(ev("since 2080 people have asked; 3090 MB free").gpu_name, None);
    }

    #[test]
    fn the_python_of_the_program_is_read_from_paths_versions_and_wheel_tags() {
        let py = |t: &str| ev(t).python_in_log.map(|v| v.to_string());
        let frame = "  File \"/home/u/miniconda3/envs/x/lib/python3.8/site-packages/torch/cuda/__init__.py\"";
        assert_eq!(py(frame).as_deref(), Some("3.8"));
        assert_eq!(py("/usr/local/lib/python3.10/dist-packages/tensorflow/").as_deref(), Some("3.10"));
        assert_eq!(py("Python version: 3.11.4 (main, Jul  5 2023)").as_deref(), Some("3.11"));
        assert_eq!(py("torch-1.7.1+cu101-cp37-cp37m-linux_x86_64.whl").as_deref(), Some("3.7"));
        assert_eq!(py("I use python3 and CUDA 11.8"), None);
    }

    #[test]
    fn windows_is_read_from_python_path_reprs_and_the_user_saying_so() {
        assert!(ev("found to be non-existent: {WindowsPath('C')}").windows_in_log.is_some());
        assert!(ev("I am using Windows python notebook Environment").windows_in_log.is_some());
        assert!(ev("PosixPath('/usr/local/cuda/lib64')").windows_in_log.is_none());
    }

    #[test]
    fn the_dll_pytorch_failed_to_load_is_read_from_the_next_line_when_wrapped() {
        let e = ev("[WinError 126] The specified module could not be found. Error loading\n   \"P:\\AI\\venv\\lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.");
        assert_eq!(e.library.as_deref(), Some("fbgemm.dll"));
        assert!(e
            .captured
            .contains(&("dir".to_string(), r"P:\AI\venv\lib\site-packages\torch\lib".to_string())));
    }

    #[test]
    fn cudnn_and_torch_versions_named_by_the_user_are_read_but_not_a_missing_library_name() {
        let e = ev("Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file\nOther issues said install libcudnn8. The thing is, I have installed cudnn-9.2 as per Nvidia's instructions.");
        assert_eq!(majors(&e), vec![8, 9]);
        let e = ev("Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9}\ncudnn_ops_infer64_8.dll and cudnn64_9.dll; torch.backends.cudnn.version()");
        assert!(majors(&e).is_empty());
        assert_eq!(majors(&ev("#define CUDNN_MAJOR 8")), vec![8]);
        assert_eq!(majors(&ev("pip install nvidia-cudnn-cu12==9.1.0.70")), vec![9]);
        assert_eq!(
            ev("!pip install torch==2.0.0+cu118 torchvision==0.15.1+cu118").torch_in_log.as_deref(),
            Some("2.0.0+cu118")
        );
        assert_eq!(ev("pytorch version: 2.6.0+cu126").torch_in_log.as_deref(), Some("2.6.0+cu126"));
        assert_eq!(ev("torch==2.5.1").torch_in_log.as_deref(), Some("2.5.1"));
        assert_eq!(ev("File torch/cuda/__init__.py, torchvision 0.15.1").torch_in_log, None);
        let tf = |t: &str| ev(t).tf_in_log.map(|v| v.to_string());
        assert_eq!(tf("tensorflow version: 1.5.0").as_deref(), Some("1.5.0"));
        assert_eq!(
            tf("- TensorFlow version (use command below): v1.13.1-0-g6612da8951").as_deref(),
            Some("1.13.1")
        );
        assert_eq!(tf("pip install tensorflow-gpu==1.14").as_deref(), Some("1.14"));
        assert_eq!(tf("Windows 10, GTX770, CUDA 8.0, CUDNN 5.1, TF-GPU 1.1.0").as_deref(), Some("1.1.0"));
        assert_eq!(tf("tf 2.8").as_deref(), Some("2.8"));
        // Paths and attribute names are not versions the user runs.
        assert_eq!(
            tf("File \"/usr/lib/python3/site-packages/tensorflow/python/client/session.py\", line 1"),
            None
        );
        assert_eq!(tf("print(tf.__version__) 2.4.1"), None);
    }

    #[test]
    fn pytorch_oom_figures_are_read_in_both_message_forms() {
        let old = ev("RuntimeError: CUDA out of memory. Tried to allocate 1.65 GiB (GPU 1; 7.79 GiB total capacity; 3.53 GiB already allocated; 1.40 GiB free; 5.28 GiB reserved in total by PyTorch)");
        assert_eq!(old.requested_mib, Some(1.65 * 1024.0));
        assert_eq!(old.total_mib, Some(7.79 * 1024.0));
        assert_eq!(old.free_mib, Some(1.40 * 1024.0));
        let new = ev("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 186.27 GiB. GPU 0 has a total capacity of 139.80 GiB of which 139.29 GiB is free. Including non-PyTorch memory, this process has 518.00 MiB memory in use.");
        assert_eq!(new.total_mib, Some(139.80 * 1024.0));
        assert_eq!(new.free_mib, Some(139.29 * 1024.0));
        assert_eq!(new.process_mib, Some(518.0));
    }

    #[test]
    fn gpu_capabilities_come_from_sm_names_or_product_names() {
        let e = ev("NVIDIA GeForce RTX 5070 Ti with CUDA capability sm_120 is not compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.");
        assert_eq!(e.compute_capability, Some(ComputeCapability::new(12, 0)));
        assert_eq!(e.supported_archs.len(), 7);
        assert_eq!(e.gpu_name.as_deref(), Some("NVIDIA GeForce RTX 5070 Ti"));
        let e = ev("Device 0: GeForce RTX 3090 failed");
        assert_eq!(e.compute_capability, Some(ComputeCapability::new(8, 6)));
    }

    #[test]
    fn versions_in_messages_are_decoded() {
        assert_eq!(ev("too old (found version 11040)").driver_cuda, Some(CudaVersion::new(11, 4)));
        let e = ev("cuDNN version incompatibility: PyTorch was compiled  against (9, 19, 0) but found runtime version (9, 14, 0).");
        assert_eq!(e.cudnn_compiled.unwrap().to_string(), "9.19.0");
        assert_eq!(e.cudnn_runtime.unwrap().to_string(), "9.14.0");
        let e = ev(
            "RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked against 7600",
        );
        assert_eq!(e.cudnn_compiled.unwrap().to_string(), "7.1.2");
        assert_eq!(e.cudnn_runtime.unwrap().to_string(), "7.6.0");
        assert_eq!(cudnn_from_int(91900).unwrap().to_string(), "9.19.0");
        assert_eq!(cudnn_from_int(12), None);
        assert_eq!(ev("NVML library version: 550.144").nvml_library_version.unwrap().to_string(), "550.144");
        let e = ev("E cuda_dnn.cc:417] Loaded runtime CuDNN library: 8.5.0 but source was compiled with: 8.6.0.  CuDNN library needs to have matching major version");
        assert_eq!(e.cudnn_runtime.unwrap().to_string(), "8.5.0");
        assert_eq!(e.cudnn_compiled.unwrap().to_string(), "8.6.0");
    }

    #[test]
    fn the_cuda_a_user_has_and_os_errors_are_read_from_the_log() {
        let cuda = |t: &str| ev(t).cuda_in_log.map(|c| c.to_string());
        assert_eq!(cuda("我的系统ubuntu20.04+nvidia530.30+cuda12.1+cudnn12.X").as_deref(), Some("12.1"));
        assert_eq!(cuda("my environment: pytorch: 1.5.1+cu101").as_deref(), Some("10.1"));
        // nvidia-smi's header says what the driver supports, not what is installed.
        assert_eq!(cuda("| NVIDIA-SMI 550.144.03   Driver Version: 550.144.03   CUDA Version: 12.4 |"), None);
        assert_eq!(
            cuda("cudatoolkit               10.2.89              hfd86e86_1").as_deref(),
            Some("10.2")
        );
        // A user's own statement of the CUDA they have is.
        assert_eq!(cuda("My CUDA version is 10.0.").as_deref(), Some("10.0"));
        assert_eq!(cuda("- CUDA  version: 11.2").as_deref(), Some("11.2"));
        // A major alone counts, marked as such; a device ordinal does not.
        assert_eq!(cuda("one possible solution is to upgrade cuda10 to cuda11").as_deref(), Some("10.0"));
        assert!(ev("I use CUDA 11 on this box").cuda_in_log_major_only);
        assert!(!ev("cudatoolkit 10.2").cuda_in_log_major_only);
        assert_eq!(cuda("CUDA:0 (Tesla T4, 15102MiB)"), None);
        assert_eq!(cuda("moved to cuda 1 then"), None);
        // A library's soname is not a CUDA version.
        let container = |t: &str| ev(t).container_in_log;
        assert_eq!(
            container("sudo docker run -v /usr/bin:/usr/local/nvidia/bin img").as_deref(),
            Some("docker run")
        );
        assert_eq!(container("[root@24c96d985c30 /]# nvidia-smi").as_deref(), Some("root@24c96d985c30"));
        assert_eq!(container("I use docker sometimes, but not here"), None);
        assert_eq!(
            container("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04 AS base\n").as_deref(),
            Some("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04 AS base")
        );
        assert_eq!(container("SELECT a\nFROM events WHERE x = 1"), None);
        // Said in prose (https://github.com/zzzyuqing/DreamMat/issues/14).
        assert_eq!(
            container("I pulled the official docker image but torch.cuda.is_available() = False").as_deref(),
            Some("pulled the official docker image")
        );
        assert_eq!(
            container("Running in a Docker container on the node").as_deref(),
            Some("in a Docker container")
        );
        assert_eq!(container("we publish a docker image too"), None);
        // Kubernetes runs programs in containers (https://github.com/mattshma/bigdata/issues/99).
        assert_eq!(container("kubernetes 管理的 docker 上运行的 tensorflow").as_deref(), Some("kubernetes"));
        assert_eq!(container("kubectl logs trainer-0").as_deref(), Some("kubectl"));
        assert_eq!(container("the k8s8 model"), None);
        // Chinese prose names it after another CJK word, with no word boundary before "docker"
        // (https://github.com/ApolloAuto/apollo/issues/3637), and Apollo's shell prompt names it
        // in the host (https://github.com/ApolloAuto/apollo/issues/1687).
        assert_eq!(container("在Apollo的docker中运行编译好的文件").as_deref(), Some("docker中"));
        assert_eq!(
            container("xxxxx@in_dev_docker:/apollo$ ./offline_lidar_visualizer_tool").as_deref(),
            Some("xxxxx@in_dev_docker:/")
        );
        assert_eq!(container("user@dockerless-box is my laptop"), None);
        let no_gpu = |t: &str| ev(t).no_nvidia_gpu;
        assert_eq!(
            no_gpu("I am running this step on the CPU.").as_deref(),
            Some("running this step on the CPU")
        );
        assert_eq!(
            no_gpu("My laptop doesn't have an NVIDIA GPU").as_deref(),
            Some("My laptop doesn't have an NVIDIA GPU")
        );
        assert_eq!(no_gpu("tensorflow: no GPU devices found; falling back to CPU"), None);
        assert_eq!(
            no_gpu("I don't have any NVIDIA adapter on my laptop since it supports Intel").as_deref(),
            Some("I don't have any NVIDIA adapter")
        );
        assert_eq!(no_gpu("The server has no dedicated GPU").as_deref(), Some("no dedicated GPU"));
        assert_eq!(no_gpu("I have an NVIDIA adapter"), None);
        // A Mac in the words people use: Apple silicon, an M-series chip, macOS by release, MPS.
        for (text, phrase) in [
            ("Fails on Apple Silicon", "Apple Silicon"),
            ("Mac mini M4, 16 GB", "Mac mini M4"),
            ("my M2 Max chip", "M2 Max chip"),
            ("same error running on a Mac", "on a Mac"),
            ("macOS Sonoma 14.5", "macOS Sonoma"),
            ("pipe.to(device='mps')", "device='mps'"),
        ] {
            assert_eq!(no_gpu(text).as_deref(), Some(phrase), "{text}");
        }
        // NVIDIA's Multi-Process Service is also "MPS"; a template's list of systems is no Mac.
        assert_eq!(no_gpu("nvidia-cuda-mps-control -d; the MPS server started"), None);
        assert_eq!(no_gpu("OS: [e.g. Linux, macOS, Windows]"), None);
        // "NVIDIA" alone as the thing one does not have (https://github.com/lllyasviel/Paints-UNDO/issues/61),
        // but not the driver or a tool that is missing on an NVIDIA machine.
        assert_eq!(
            no_gpu("I dont have NVIDIA does it still works").as_deref(),
            Some("I dont have NVIDIA does")
        );
        assert_eq!(no_gpu("I don't have NVIDIA.").as_deref(), Some("I don't have NVIDIA."));
        assert_eq!(no_gpu("I don't have nvidia drivers installed yet"), None);
        assert_eq!(no_gpu("we don't have nvidia-smi in the image"), None);
        assert_eq!(no_gpu("I have an AMD RX 6800").as_deref(), Some("I have an AMD RX"));
        assert_eq!(no_gpu("I have an AMD Ryzen 9 and an RTX 4090"), None);
        // Ubuntu's About page names the graphics adapter with Intel's mark
        // (https://github.com/fboulnois/stable-diffusion-docker/issues/82); not a Xeon CPU.
        assert_eq!(
            no_gpu("Graphics Mesa Intel® Xe Graphics (TGL GT2)").as_deref(),
            Some("Intel® Xe Graphics")
        );
        assert_eq!(no_gpu("Intel(R) Iris Xe Graphics").as_deref(), Some("Intel(R) Iris Xe Graphics"));
        assert_eq!(no_gpu("CPU: Intel Xeon Gold 6248"), None);
        // Following the AMD install instructions says which GPU the machine has
        // (https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/9402).
        assert_eq!(
            no_gpu("After following the instructions from the wiki for AMD cards, I get").as_deref(),
            Some("wiki for AMD cards")
        );
        assert_eq!(no_gpu("my AMD GPU is not detected").as_deref(), Some("my AMD GPU"));
        assert_eq!(no_gpu("Stable Diffusion WebUI AMDGPU Forge"), None);
        // Graphics that are not NVIDIA's, named as lspci and Windows name them
        // (https://github.com/MIC-DKFZ/HD-BET/issues/16), unless an NVIDIA GPU is named beside
        // them (a laptop's pair: https://github.com/tensorflow/tensorflow/issues/60269).
        assert_eq!(
            no_gpu(r#"the GPU: "Intel Corporation Iris Plus Graphics G7 (rev 07)""#).as_deref(),
            Some("Intel Corporation Iris Plus Graphics")
        );
        assert_eq!(no_gpu("Display: Intel(R) UHD Graphics 620").as_deref(), Some("Intel(R) UHD Graphics"));
        assert_eq!(no_gpu("my Intel CPU also has an integrated GPU").as_deref(), Some("integrated GPU"));
        assert_eq!(no_gpu("GPUs: NVIDIA GeForce RTX 2060, Intel Corporation UHD Graphics 630"), None);
        assert_eq!(no_gpu("Intel HD Audio controller"), None);
        let kernel = |t: &str| ev(t).library_kernel;
        assert_eq!(
            kernel("CUDA error: an illegal memory access was encountered with nn.Conv2d").as_deref(),
            Some("nn.Conv2d")
        );
        assert_eq!(kernel("works on batch size 24 but not 25 with conv3D").as_deref(), Some("conv3D"));
        assert_eq!(
            kernel("[inductor] RuntimeError: CUDA error: an illegal memory access").as_deref(),
            Some("[inductor]")
        );
        assert_eq!(
            kernel("RuntimeError: Triton Error [CUDA]: an illegal memory access").as_deref(),
            Some("Triton Error [CUDA]")
        );
        assert_eq!(kernel("File \"ops/deform_conv2d.py\", line 9"), None);
        assert_eq!(kernel("index out of range in embedding"), None);
        let pip_torch = |t: &str| ev(t).pip_torch_import;
        assert_eq!(
            pip_torch(r#"venv/lib64/python3.11/site-packages/torch/__init__.py", line 427, in <module>"#)
                .as_deref(),
            Some("venv/lib64/python3.11/site-packages/torch/__init__.py")
        );
        assert_eq!(pip_torch(r#"site-packages/torchvision/__init__.py", line 5"#), None);
        let cpu = |t: &str| ev(t).cpu_build_in_log;
        assert_eq!(
            cpu("PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)").as_deref(),
            Some("2.1.2+cpu")
        );
        assert_eq!(cpu("torch==2.6.0.dev20241112+cpu").as_deref(), Some("2.6.0.dev20241112+cpu"));
        assert_eq!(
            cpu("CUDA used to build PyTorch: None").as_deref(),
            Some("CUDA used to build PyTorch: None")
        );
        assert_eq!(cpu("YOLOv5 v4.0-14-gb75c432 torch 1.7.1 CPU"), None);
        assert_eq!(cpu("torch 2.1.2+cu121"), None);
        assert_eq!(cuda("libcudart.so.10.1: cannot open shared object file"), None);
        let cudnn = |t: &str| ev(t).cudnn_in_log.first().map(|c| c.to_string());
        assert_eq!(cudnn("cuDNN: 8.1.1").as_deref(), Some("8.1"));
        assert_eq!(cudnn("the docs tell users to install libcudnn 5.1.").as_deref(), Some("5.1"));
        assert_eq!(cudnn("- CUDA/cuDNN version: 10.2, 8.0.2").as_deref(), Some("8.0"));
        assert_eq!(cudnn("cudnn 7.6.5 for cuda 10.1").as_deref(), Some("7.6"));
        // A cuDNN archive named for its CUDA version, and a soname, say nothing of this.
        assert_eq!(cudnn("cudnn-10.0-linux-x64-v7.6.3.30"), None);
        assert_eq!(cudnn("ImportError: libcudnn.so.6: cannot open shared object file"), None);
        assert_eq!(ev("I had cuDNN 5.1, so I installed libcudnn 6.0 instead").cudnn_in_log.len(), 2);
        let op = |t: &str| ev(t).tf_op;
        assert_eq!(op("DNN library is not found. [Op:Conv2D]").as_deref(), Some("[Op:Conv2D]"));
        assert_eq!(op("\t [[{{node conv2d/Conv2D}}]]").as_deref(), Some("[[{{node conv2d/Conv2D}}"));
        assert_eq!(op("Original error: UNIMPLEMENTED: DNN library is not found."), None);
        let e = ev("include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied");
        assert_eq!(e.os_error.as_deref(), Some("Permission denied"));
        assert_eq!(ev("undefined symbol error twice").symbol, None);
        assert_eq!(ev("x.so: undefined symbol: _ZN2at6TensorE").symbol.as_deref(), Some("_ZN2at6TensorE"));
        // Retyped without the colon (an issue title): a name shaped like a symbol, not a word.
        assert_eq!(ev("undefined symbol ncclCommRegister").symbol.as_deref(), Some("ncclCommRegister"));
        assert_eq!(
            ev("undefined symbol _ZN3c104cuda9SetDeviceEi").symbol.as_deref(),
            Some("_ZN3c104cuda9SetDeviceEi")
        );
        assert_eq!(ev("an undefined symbol error when importing").symbol, None);
    }

    #[test]
    fn the_free_memory_xla_prints_after_a_failed_cudnn_handle_is_read() {
        let e = ev("E cuda_dnn.cc:443] Memory usage: 2624061440 bytes free, 12524191744 bytes total.");
        assert_eq!(e.free_mib.map(|m| m.round()), Some(2503.0));
        assert_eq!(e.total_mib.map(|m| m.round()), Some(11944.0));
        assert_eq!(e.requested_mib, None);
    }

    #[test]
    fn the_frameworks_a_text_names_are_read_once_each() {
        use FrameworkKind::*;
        let e = ev("File \"/venv/lib/python3.10/site-packages/torch/nn/modules/conv.py\"\nimport torch; import tensorflow as tf\ntorch.cuda");
        assert_eq!(e.frameworks_named, Some(vec![Torch, Tensorflow]));
        // CUDAExecutionProvider is ONNX Runtime's, torchvision is not PyTorch itself.
        let e = ev("Failed to create CUDAExecutionProvider. torchvision 0.20");
        assert_eq!(e.frameworks_named, Some(vec![Onnxruntime]));
        // Programs a check does not report: named, but none of its frameworks.
        assert_eq!(ev("llama_cpp: ggml_cuda_init: failed").frameworks_named, Some(vec![]));
        assert_eq!(ev("CUDA error: out of memory").frameworks_named, None);
    }

    #[test]
    fn a_jax_traceback_is_recognised() {
        let e = ev(
            "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed.",
        );
        assert_eq!(e.jax_in_log.as_deref(), Some("jaxlib"));
        assert_eq!(
            ev("tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle").jax_in_log,
            None
        );
    }

    #[test]
    fn driver_versions_and_environment_hints_are_read_from_the_log() {
        let driver = |t: &str| ev(t).driver_version.map(|d| d.to_string());
        assert_eq!(driver("My driver version is 470.141.03 with CUDA 11.7.").as_deref(), Some("470.141.03"));
        assert_eq!(
            driver("| NVIDIA-SMI 525.147.05   Driver Version: 525.147.05   CUDA Version: 12.0 |").as_deref(),
            Some("525.147.05")
        );
        // A bare branch stands for its newest release.
        assert_eq!(
            driver("the version of the driver is 525 and the cuda version is 12.1").as_deref(),
            Some("525.999.99")
        );
        assert_eq!(driver("the NVIDIA driver on your system is too old"), None);
        // The driver in use, not one asked for or merely named in a title.
        assert_eq!(
            driver("Nvidia driver 418 or binding\nCUDA 10 requires Nvidia driver 418. The default driver is 384.145")
                .as_deref(),
            Some("384.145")
        );
        let e = ev("I got the error under wsl2 with cuda 12.1");
        assert_eq!(e.wsl_in_log.as_deref(), Some("wsl2"));
        assert_eq!(ev("A100 with MIG enabled (3g.40gb)").mig_in_log.as_deref(), Some("MIG"));
        assert_eq!(ev("after we migrate the checkpoint; mig 2 done").mig_in_log, None);
        assert_eq!(
            ev("Linux 5.15.90.1-microsoft-standard-WSL2").wsl_in_log.as_deref(),
            Some("-microsoft-standard")
        );
        // WSL 1's kernel name, or the user naming it; not the WSL app's version number.
        assert_eq!(
            ev("Error! Your kernel headers for kernel 4.4.0-19041-Microsoft cannot be found.")
                .wsl1_in_log
                .as_deref(),
            Some("4.4.0-19041-Microsoft")
        );
        assert_eq!(ev("I am on WSL1, Ubuntu 20.04").wsl1_in_log.as_deref(), Some("WSL1"));
        assert_eq!(ev("WSL 1.2.5.0 with kernel 5.15.90.1-microsoft-standard-WSL2").wsl1_in_log, None);
        assert_eq!(
            ev("it fails due to no Nvidia GPU").no_nvidia_gpu.as_deref(),
            Some("due to no Nvidia GPU")
        );
        assert_eq!(ev("docker运行轻量级版本出现no cuda gpu").container_in_log.as_deref(), Some("docker运行"));
        assert_eq!(
            ev("RuntimeError: CUDA error: busy\nWindows 10").windows_in_log.as_deref(),
            Some("Windows 10")
        );
        assert_eq!(ev("PS C:\\projects\\x> nvidia-smi.exe").windows_in_log.as_deref(), Some("C:\\p"));
        assert_eq!(
            ev("| N/A   35C    P0    63W / 235W |     74MiB / 11439MiB |      0%   E. Process |")
                .exclusive_compute_mode
                .as_deref(),
            Some("E. Process")
        );
        let container = |t: &str| ev(t).container_in_log;
        assert_eq!(
            container("error running docker compose --profile auto up --build").as_deref(),
            Some("docker compose --profile auto up")
        );
        assert_eq!(
            container("qna-transformers_1  |     torch._C._cuda_init()").as_deref(),
            Some("qna-transformers_1  | ")
        );
        // A BuildKit log: the command ran in `docker build`, where no GPU is attached
        // (https://github.com/yftzeng/stable-diffusion-webui-docker/issues/5).
        assert_eq!(
            container("#0 920.0 AssertionError: Torch is not able to use GPU").as_deref(),
            Some("#0 920.0 ")
        );
        assert_eq!(
            container("failed to solve: process \"/bin/sh -c pip install\" did not complete").as_deref(),
            Some("failed to solve: process")
        );
        assert_eq!(container("#1 is the issue number, 2.5 GB free"), None);
        assert_eq!(
            container("pytorch:1.13.1-py3.8.16-cuda11.7.1-devel-ubuntu20.04").as_deref(),
            Some(":1.13.1-py3.8.16-cuda11.7.1-devel-ubuntu20.04")
        );
        assert_eq!(container("run faster-whisper in a docker on my server").as_deref(), Some("in a docker"));
        assert_eq!(container("a base image for ubuntu-22.04 runtime"), None);
        assert_eq!(
            container("Creating vqgan-clip-docker_generate_run ... done").as_deref(),
            Some("Creating vqgan-clip-docker_generate_run ... done")
        );
        assert_eq!(container("epoch 1 | loss 0.3"), None);
        // The LD_LIBRARY_PATH of NVIDIA's CUDA images, as TensorFlow's loader prints it
        // (https://github.com/deepchem/deepchem/issues/2467).
        assert_eq!(
            container("dlerror: libcudart.so.11.0: cannot open shared object file; LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64").as_deref(),
            Some("/usr/local/nvidia/lib")
        );
        assert_eq!(container("export LD_LIBRARY_PATH=/usr/local/nvidia-libs"), None);
    }

    #[test]
    fn several_nodes_and_a_user_s_memory_remarks_are_read_from_the_log() {
        let nodes = |t: &str| ev(t).multi_node;
        // Written with a space (https://github.com/NVIDIA/nccl/issues/207).
        assert_eq!(
            nodes("I try to use torch.distributed.launch to run code in multi node with multi gpus")
                .as_deref(),
            Some("multi node")
        );
        assert_eq!(
            nodes("ncclSystemError: System call failed when training on two remote nodes").as_deref(),
            Some("two remote nodes")
        );
        assert!(nodes(
            "INFO NET/Socket : Using\n[0]bond0:192.168.1.161<0>\n[1]br-05ab815fa14e:172.19.0.1<0>"
        )
        .is_some());
        assert_eq!(nodes("torchrun --nnodes=2 --nproc_per_node=8 train.py").as_deref(), Some("--nnodes=2"));
        assert_eq!(nodes("NET/Socket : Using [0]eth0:10.0.0.2<0>\nnode0 ready"), None);
        let failure = |t: &str| ev(t).nccl_cuda_failure;
        assert_eq!(
            failure("Last error:\nCuda failure 'peer access is not supported between these two devices'")
                .as_deref(),
            Some("peer access is not supported between these two devices")
        );
        assert_eq!(
            failure("[rank7]: Cuda failure 1 'invalid argument'").as_deref(),
            Some("invalid argument")
        );
        assert_eq!(failure("CUDA failure 2: out of memory"), None);
        let exit = |t: &str| ev(t).worker_exit;
        assert_eq!(
            exit("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0")
                .as_deref(),
            Some("exitcode: -9")
        );
        assert_eq!(exit("  exitcode  : 1 (pid: 303075)").as_deref(), Some("exitcode  : 1"));
        assert_eq!(
            exit("traceback : signal 9 (SIGKILL) received by PID 36071").as_deref(),
            Some("signal 9 (SIGKILL)")
        );
        assert_eq!(exit("the exit code was fine"), None);
        let memory = |t: &str| ev(t).memory_hint;
        assert_eq!(
            memory("Starting w/ a lower batch size for all failure cases will succeed.").as_deref(),
            Some("lower batch size for all failure cases will succeed")
        );
        assert_eq!(memory("but sometimes fail with correct OOM error").as_deref(), Some("OOM"));
        assert_eq!(memory("I lowered the batch size but it still crashes"), None);
        assert_eq!(memory("ZOOM in on the plot"), None);
        let checkpoint = |t: &str| ev(t).checkpoint_load;
        assert_eq!(
            checkpoint("    checkpoint = torch.load(args.checkpoint)").as_deref(),
            Some("torch.load(args.checkpoint)")
        );
        assert_eq!(
            checkpoint(r#"  File "torch/serialization.py", line 135, in _cuda_deserialize"#).as_deref(),
            Some("_cuda_deserialize")
        );
        assert_eq!(checkpoint("model.load_state_dict(state)"), None);
        assert_eq!(checkpoint("sd = torch.load(path, map_location='cpu')"), None);
    }

    #[test]
    fn a_bf16_operation_and_a_recent_upgrade_are_read_from_the_log() {
        let bf16 = |t: &str| ev(t).bf16_in_log;
        assert_eq!(
            bf16("CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx(handle, a, CUDA_R_16BF, lda)`")
                .as_deref(),
            Some("CUDA_R_16BF")
        );
        assert_eq!(bf16("model = load(torch_dtype=torch.bfloat16)").as_deref(), Some("bfloat16"));
        assert_eq!(bf16("cublasGemmEx(handle, a, CUDA_R_16F, lda)"), None);
        let upgrade = |t: &str| ev(t).upgrade_in_log;
        assert_eq!(
            upgrade("i'm now thinking the automatic upgrades may have something to do with it").as_deref(),
            Some("automatic upgrades")
        );
        assert_eq!(upgrade("It broke after sudo apt upgrade yesterday").as_deref(), Some("apt upgrade"));
        assert_eq!(
            upgrade("I updated the nvidia driver to 535").as_deref(),
            Some("updated the nvidia driver")
        );
        assert_eq!(upgrade("please update your driver"), None);
        assert_eq!(upgrade("the same thing is happening to me today after a system upgrade/reboot"), None);
        assert_eq!(upgrade("the weights update each step"), None);
    }

    #[test]
    fn a_missing_library_shown_at_a_path_later_in_the_log_is_found() {
        let text = "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\n\
                    $ locate libcudnn_ops_infer.so.8\n\
                    /home/u/.local/lib/python3.8/site-packages/nvidia/cudnn/lib/libcudnn_ops_infer.so.8";
        let e = extract(text, "libcudnn_ops_infer.so.8", &[], None, table());
        assert_eq!(
            e.library_found_at.as_deref(),
            Some("/home/u/.local/lib/python3.8/site-packages/nvidia/cudnn/lib/libcudnn_ops_infer.so.8")
        );
        // The same message repeated with an absolute path is not a place where the file is.
        let repeated = "libfoo.so.1: cannot open shared object file\nOSError: /opt/x/libfoo.so.1: cannot open shared object file";
        assert_eq!(extract(repeated, "libfoo.so.1", &[], None, table()).library_found_at, None);
        let python = "libfoo.so.1: cannot open shared object file\nFileNotFoundError: No such file or directory: '/opt/x/libfoo.so.1'";
        assert_eq!(extract(python, "libfoo.so.1", &[], None, table()).library_found_at, None);
        // Said on the error's own line after it, with the leading slash lost in retyping.
        let retyped = "Could not load library libcudnn_ops_infer.so.8.\n\
                       Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory. But it is at `home/a/venv/lib/python3.11/site-packages/torch/lib/libcudnn_ops_infer.so.8`";
        assert_eq!(
            extract(retyped, "libcudnn_ops_infer.so.8", &[], None, table()).library_found_at.as_deref(),
            Some("home/a/venv/lib/python3.11/site-packages/torch/lib/libcudnn_ops_infer.so.8")
        );
    }

    #[test]
    fn a_tensorflow_release_and_the_templates_cuda_line_are_read() {
        let t = table();
        let ev = |s: &str| extract(s, "", &[], None, t);
        let tf = |s: &str| ev(s).tf_in_log.map(|v| v.to_string());
        assert_eq!(tf("- TensorFlow version (use command below): 2.1.0").as_deref(), Some("2.1.0"));
        assert_eq!(
            tf("### Tensorflow Version\n\nv2.11.0-rc2-15-g6290819256d 2.11.0").as_deref(),
            Some("2.11.0")
        );
        assert_eq!(tf("pip3 install tensorflow-gpu==1.13.1").as_deref(), Some("1.13.1"));
        assert_eq!(tf("TF 2.11 on Ubuntu").as_deref(), Some("2.11"));
        assert_eq!(tf("tensorflow/core/common_runtime/gpu/gpu_device.cc:1956] Cannot dlopen"), None);
        assert_eq!(tf("tf.config.list_physical_devices('GPU')"), None);
        let cuda = |s: &str| ev(s).cuda_in_log.map(|c| c.to_string());
        assert_eq!(cuda("- CUDA/cuDNN version: 10.2.89").as_deref(), Some("10.2"));
        assert_eq!(cuda("### CUDA/cuDNN version\n\n11.3.0 / 8.2.0.53").as_deref(), Some("11.3"));
        assert_eq!(
            ev("ptxas does not support CC 8.9").compute_capability.map(|c| c.to_string()).as_deref(),
            Some("8.9")
        );
    }
    #[test]
    fn the_old_tensorflow_template_s_bold_labels_still_give_their_versions() {
        let text = "- **TensorFlow version (use command below)**: 1.8.0\n- **CUDA/cuDNN version**: 10.2.89-5 (from Archlinux repo)";
        let e = ev(text);
        assert_eq!(e.tf_in_log.as_ref().map(|v| v.to_string()).as_deref(), Some("1.8.0"));
        assert_eq!(e.cuda_in_log.map(|v| v.to_string()).as_deref(), Some("10.2"));
        let pair = ev("- **CUDA/cuDNN version**: 8.0/5.1");
        assert_eq!(pair.cudnn_in_log.first().map(|v| v.to_string()).as_deref(), Some("5.1"));
    }

    #[test]
    fn onnx_runtime_versions_are_read_as_packages_name_them() {
        for (text, want) in [
            ("pip install onnxruntime-gpu==1.17.0", "1.17.0"),
            ("onnxruntime-gpu 1.16", "1.16"),
            ("apply yolov8n.onnx with cuda12.4 cudnn9 onnxruntime-win-x64-cuda12-1.17.1", "1.17.1"),
            ("Microsoft.ML.OnnxRuntime.GPU (nuget package VERSION 1.16.0)", "1.16.0"),
        ] {
            let e = ev(text);
            assert_eq!(e.ort_in_log.map(|v| v.to_string()).as_deref(), Some(want), "{text}");
        }
        let provider = r#"LoadLibrary failed with error 126 "" when trying to load "C:\venv\Lib\site-packages\onnxruntime\capi\onnxruntime_providers_cuda.dll""#;
        assert!(ev(provider).ort_in_log.is_none());
    }
}
