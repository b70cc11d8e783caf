//! The real-error corpus: error texts from public issue threads (tests/explain_corpus/*.toml, each
//! with its thread URL, the fix the thread confirmed and the root-cause category of that fix).
//! With `--no-check` semantics (no machine facts), the first explained error's top cause must be
//! the thread's category for most of the corpus (the floor is in the test, with the history of
//! the score); misses are listed.

use cudoctor::explain::known::KnownReports;
use cudoctor::explain::words::WordModel;
use cudoctor::explain::{self, Category, Explanation, Learned};
use std::path::Path;

mod common;
use common::{load, load_from, Case};

/// The word model that never saw `case`: each report is ranked by a model trained on the nine
/// tenths of the corpus that do not hold it, so the corpus measures it as on a report it has
/// not seen.
fn leave_out(case: &Case) -> &'static WordModel {
    common::model_without(&case.url)
}

/// `explain --no-check` (or with `report`) of a corpus case as if the case were not in the corpus:
/// the word model without it, the known reports without it.
fn explain_left_out(case: &Case, report: Option<&cudoctor::report::Report>) -> Vec<Explanation> {
    let result = explain::scan::scan_bytes(case.text.as_bytes(), explain::table());
    let words = leave_out(case);
    explain::explain_with(
        &result,
        report,
        &Learned { words: Some(words), known: None, leave_out: Some(&case.url) },
    )
}

/// Checks that `data/<file>` holds `table`, built from the corpus; rewrites it first when
/// CUDOCTOR_UPDATE_WORDS is set.
fn check_built_from_corpus(file: &str, table: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(file);
    if std::env::var_os("CUDOCTOR_UPDATE_WORDS").is_some() {
        fs_err::write(&path, table).unwrap();
    }
    assert!(
        fs_err::read_to_string(&path).unwrap_or_default() == table,
        "data/{file} is not built from tests/explain_corpus: run CUDOCTOR_UPDATE_WORDS=1 cargo test --test explain_corpus"
    );
}

#[test]
fn the_word_model_is_trained_on_this_corpus() {
    // data/words.tsv is the corpus's counts and data/reports.tsv its reports: a case added without
    // rebuilding them fails here. CUDOCTOR_UPDATE_WORDS=1 rewrites both.
    let cases = load();
    let trained = WordModel::train(
        cases.iter().map(|(_, c)| (c.text.as_str(), Category::from_name(&c.category).expect("checked"))),
    );
    check_built_from_corpus("words.tsv", &trained.to_table());
    assert_eq!(explain::words::model(), &trained, "the embedded model is the table's");

    let known = KnownReports::train(cases.iter().map(|(_, c)| {
        (c.url.as_str(), Category::from_name(&c.category).expect("checked"), c.fix.as_str(), c.text.as_str())
    }));
    check_built_from_corpus("reports.tsv", &known.to_table());
    assert!(explain::known::reports() == &known, "the embedded table is the file's");
    assert_eq!(known.len(), cases.len());
}

/// Repositories that moved to another owner (GitHub redirects the old URLs): the old name, the new.
const MOVED: [(&str, &str); 8] = [
    ("ggerganov/llama.cpp", "ggml-org/llama.cpp"),
    ("ggerganov/whisper.cpp", "ggml-org/whisper.cpp"),
    ("google/jax", "jax-ml/jax"),
    ("openai/triton", "triton-lang/triton"),
    ("timdettmers/bitsandbytes", "bitsandbytes-foundation/bitsandbytes"),
    ("comfyanonymous/comfyui", "comfy-org/comfyui"),
    ("microsoft/deepspeed", "deepspeedai/deepspeed"),
    ("pytorchlightning/pytorch-lightning", "lightning-ai/pytorch-lightning"),
];

/// A thread's URL as one name for it: lower case, no trailing slash, a moved repository under
/// its new owner.
fn same_thread(url: &str) -> String {
    let url = url.trim_end_matches('/').to_lowercase();
    let Some(path) = url.strip_prefix("https://github.com/") else { return url };
    let mut parts = path.splitn(3, '/');
    let (owner, repo, rest) =
        (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let repository = format!("{owner}/{repo}");
    let repository =
        MOVED.iter().find(|(old, _)| *old == repository).map_or(repository.as_str(), |(_, new)| new);
    format!("https://github.com/{repository}/{rest}")
}

#[test]
fn a_thread_is_one_thread_under_its_old_owner_and_in_any_case() {
    assert_eq!(
        same_thread("https://github.com/ggerganov/llama.cpp/issues/3247/"),
        same_thread("https://github.com/ggml-org/llama.cpp/issues/3247")
    );
    assert_eq!(
        same_thread("https://github.com/NVIDIA/apex/issues/1"),
        "https://github.com/nvidia/apex/issues/1"
    );
    // Forks keep their own numbers: these are two threads.
    assert_ne!(
        same_thread("https://github.com/weiliu89/caffe/issues/69"),
        same_thread("https://github.com/yjxiong/caffe/issues/69")
    );
}

#[test]
fn each_fold_holds_about_a_tenth_of_the_corpus_and_keeps_its_reports() {
    let cases = load();
    let mut sizes = [0usize; common::FOLDS];
    for (_, c) in &cases {
        sizes[common::fold_of(&c.url)] += 1;
    }
    for size in sizes {
        assert!(size * 100 >= cases.len() * 8 && size * 100 <= cases.len() * 12, "fold sizes {sizes:?}");
    }
    // A report's fold is its URL's alone: what joins the corpus beside it does not move it.
    let url = "https://github.com/pytorch/pytorch/issues/1504";
    assert_eq!(common::fold_of(url), common::fold_of(&format!("{url}/")));
}

#[test]
fn the_corpus_is_real_and_well_formed() {
    let mut cases = load();
    // The held-out reports are checked alike, and none of them may be a corpus thread.
    cases.extend(load_from("tests/explain_heldout"));
    assert!(cases.len() >= 40, "only {} corpus cases", cases.len());
    // One case per thread: a thread collected twice would count twice. GitHub's owner and
    // repository names are case-blind, and a repository that moved keeps its issues' numbers
    // (ggml-org/llama.cpp#3247 was once held again as ggerganov/llama.cpp#3247).
    let mut urls: Vec<String> = cases.iter().map(|(_, c)| same_thread(&c.url)).collect();
    urls.sort_unstable();
    let twice: Vec<&String> = urls.windows(2).filter(|w| w[0] == w[1]).map(|w| &w[0]).collect();
    assert!(twice.is_empty(), "threads collected twice: {twice:?}");
    for (name, c) in &cases {
        assert!(c.url.starts_with("https://github.com/"), "{name}: {}", c.url);
        assert!(Category::from_name(&c.category).is_some(), "{name}: unknown category {}", c.category);
        assert!(!c.fix.trim().is_empty() && !c.text.trim().is_empty(), "{name}");
    }
}

#[test]
fn the_right_category_comes_first_for_most_of_the_corpus() {
    let cases = load();
    let mut misses = Vec::new();
    // Per expected category: (right, total), to see which kinds of report are weak.
    let mut by_category: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    // For studying priors offline: CORPUS_DUMP=FILE appends each report's first error with all
    // its ranked causes, one JSON line a report.
    let mut dump = std::env::var_os("CORPUS_DUMP")
        .map(|path| fs_err::OpenOptions::new().create(true).append(true).open(path).unwrap());
    for (name, c) in &cases {
        by_category.entry(c.category.as_str()).or_default().1 += 1;
        let explained = explain_left_out(c, None);
        if let Some(f) = dump.as_mut() {
            let wv: Vec<(String, f64)> =
                leave_out(c).rank(&c.text).iter().map(|v| (v.category.name().to_string(), v.share)).collect();
            let line = serde_json::json!({"name": name, "category": c.category, "first": explained.first(), "words": wv});
            std::io::Write::write_all(f, format!("{line}\n").as_bytes()).unwrap();
        }
        let got = explained.first().and_then(|e| e.causes.first().map(|k| (e.signature.clone(), k.category)));
        match got {
            Some((sig, cat)) if cat.name() == c.category => {
                by_category.entry(c.category.as_str()).or_default().0 += 1;
                if std::env::var_os("CORPUS_HITS").is_some() {
                    // For measuring a signature's share of each category: CORPUS_HITS=1 lists the
                    // hits too, in the misses' form.
                    eprintln!("  hit: {name}: expected {}, got {cat} (signature {sig})", c.category);
                }
            }
            Some((sig, cat)) => {
                misses.push(format!("{name}: expected {}, got {cat} (signature {sig})", c.category))
            }
            None => misses.push(format!("{name}: expected {}, nothing matched", c.category)),
        }
    }
    let hit = cases.len() - misses.len();
    let rate = hit as f64 / cases.len() as f64;
    eprintln!("corpus: {hit}/{} right ({:.0}%)", cases.len(), rate * 100.0);
    for (category, (right, total)) in &by_category {
        eprintln!("  {category}: {right}/{total}");
    }
    for m in &misses {
        eprintln!("  miss: {m}");
    }
    // 981/1090 (90%) before the 240 held-out reports of rounds I-Z joined (they scored 138/240
    // when they were held out); 1123/1330 with them and the rules written since; 1298/1629 when
    // the 299 of rounds AA-AT joined (168/299 while held out), 1304 with the priors set to the
    // corpus majority; 1476/1929 when the 300 of rounds AU-BI joined (174/300 while held out),
    // 1481 with the signatures written for them; 1575/2081 when the 152 of rounds BJ-BQ joined
    // (85/152 while held out), and 1735/2337 when rounds BZ-CM joined as well (77/136 and 61/100
    // while unseen: collected for the corpus, scored before any rule was written for them); 1760
    // with the signatures, keywords and priors written for these rounds. Rounds CP-DJ (438 reports
    // of the long tail: 60/155, 92/183 and 64/100 before any rule was written for them) took it to
    // 1930/2675, then 1999/2775 (72%), and 2005/2780 with round DK (5 reports of the issue's own
    // messages) and the signatures written for errors provoked on the H200. Rounds DL-EA (528
    // reports from 16 corners of the ecosystem: 148/260 and 138/268 before any rule was written
    // for them) took it to 2321/3308, and 2328 with the rules written for them; rounds EB-EC (57
    // reports of research code with its own CUDA ops: 36/57 before) to 2368/3365, 2369 with CMake's
    // "Found unsuitable version" for CUDA releases that disagree. Rounds ED-EO (585 reports from
    // twelve more corners: science, RAPIDS, robotics, compilers, distributed training, local LLM
    // apps, face and video apps, speech, old frameworks, generative image and video, NLP and
    // graphs, detection; 309/585 before any rule was written for them) took it to 2681/3950, and
    // 2696 with the rules written for them (a forked child's own signature, two GPUs in a device
    // mismatch, an invalid ordinal on several nodes, out-of-memory status names, CMake's NOTFOUND);
    // 2710/3972 with round EP (22 reports of the rarer categories, 12/22 before). Rounds EQ-FB
    // (552 reports: Windows, GPU models, packaging, HPC, inference engines, kernel libraries,
    // native consumers, the newest stack, and the largest repositories; 296/552 before any rule
    // was written for them) took it to 3033/4524, 3046 with the rules written for them (a package
    // manager finding no build, a minimum compute capability, CTranslate2 without CUDA, Paddle's
    // loader, WinError 127 on a cuDNN DLL, a torch_extensions module that did not build, cuBLAS on
    // Blackwell), 3055 once the word model also counts pairs of words, and 3065 with a report's
    // first-line words counted again as its title's; 3070 with a title's words of trouble, a
    // card's number naming the stack, and access only root or a group has; 3071 with GPU numbers
    // that disagree with nvidia-smi's. Rounds FC-FJ (476 reports: speech, 3D and robotics, science,
    // bindings outside Python, LLM fine-tuning, vision, image generation, infrastructure; 275/476
    // before any rule was written for them) took it to 3360/5000, 3362 with nvcc's __cuda…
    // symbols, 3380 once Python exception names stopped counting for the user's code; rounds
    // FK-FN (167: the older stack, Jetson, CUDA extensions, TensorFlow's tail; 100/167 before)
    // to 3479/5167, FO-FP (30 of the issue's own messages; 16/30 before) to 3494/5197, and 3500
    // once a bare "No such file or directory" stopped counting for a missing library; 3502 with
    // PyTorch 1.8.0's CUDA 10.2 wheels failing to initialise cuDNN. Tenth session: 3512 with CJK
    // text counted by character pairs and a short title answered; rounds FQ-FX (424: Windows apps,
    // simulation, life sciences, data science, compilers, the 2025-26 stack, LLM engines, CJK
    // reports; 245/424 before) to 3783/5621, 3792 with CUDA 13's removed APIs; FY-FZ (113:
    // serving, NVENC and OptiX; 44/113 before) to 3851/5734; GA (26 from mid-size repositories;
    // 16/26 before) to 3870/5760. Eleventh session: rounds GB-GI (346: the classic stack, the
    // Hugging Face ecosystem, NVIDIA's libraries, clusters and clouds, image and video apps,
    // robotics, the mainstream trackers' 2025-26 threads, science; 214/346 before) to 4076/6106,
    // below 67% for the first time: the floor is 66%; 4078 once a missing libcuda in a text that
    // names no container stopped ranking the container first. Twelfth session: GJ-GK (127: GPU
    // compute apps, packaging; 76/127 before) to 4163/6233, 4191 with the signatures' priors set
    // to their threads' majority (a GPU-and-CPU device mismatch, too many launch resources, NCCL
    // timeouts, bitsandbytes, cuDNN mapping errors); GL-GU (413 from ten more corners; 242/413
    // before) to 4435/6646, 4437 with a pasted report's GPU read anywhere in it, 4436 with a Mac
    // read as a machine without an NVIDIA GPU; GV-GW (77: Macs and other GPUs, 2025-26 threads;
    // 26/77 before) to 4467/6723. Thirteenth session: GX-HL (398 from fifteen more corners;
    // 222/398 before) to 4699/7121 (65.99%, under the floor), 4716 with TF32 read as runs that
    // differ, a Paddle wheel's CUDA against the log's, and three signatures' priors set to their
    // threads' majority (NCCL WARN, torch's own undefined symbols, cuBLAS NOT_SUPPORTED); HM-HN
    // (51: Jetson and WSL, research code; 31/51 before) and "exec format error" read as the
    // image's platform: 4749/7172; 4751 with StopIteration and OUT_OF_ statuses as error lines.
    // Fourteenth session: HO-HV (124 from eight more corners; 76/124 before) to 4832/7296, 4844
    // with PyTorch's allocator NVML asserts, the container CLI's brand condition and keywords for
    // torchrun's --local-rank, DeepSpeed's ds_opt_adam, "No algorithm worked!", tf32 below Ampere
    // and video libraries in a container; HW-HZ (54; 29/54 before) and keywords for Visual
    // Studio's CUDA props and PyTorch's older API breaks: 4884/7350 (66.4%); 4887 with a Kepler
    // card named in the log read as the architecture (and the GTX 750 as Maxwell). Fifteenth
    // session: the word model a linear SVM, measured in ten folds: 4948/7350; IA-IH (73 from
    // seven corners far from the corpus; 36/73 before): 4971/7423, 4972 with deviceQuery's
    // status number and the GPUassert macro's unknown error; IJ-IL (30; 16/30 before): 4984/7453. Sixteenth
    // session, IM-IV (117 from ten more corners; 70/118 before, one a duplicate): 5073/7570; IW (8;
    // 3/8 before) and PyTorch's torch._C without _cuda_ functions: 5067/7578; the folds cut by URL
    // hash instead of position: 5047/7578. The seventeenth session's kernel-image split: 5054/7578;
    // its 73 reports joined: 5123/7651; its last 22: 5134/7673; its last 2: 5138/7675;
    // the OOM killer's words in the keyword table: 5141/7675; MIG's device selection: 5143/7675.
    // The eighteenth session's rules (video libraries, Paddle's CPU build, nvlink, CUDA DLLs):
    // 5145/7675; its 69 reports joined: 5186/7744; its last 14: 5197/7758; a title's leading
    // exception class no longer making it one thread's: 5198/7758. The nineteenth session's 72
    // reports joined: 5242/7830; a text that begins with a report's title is that report: 5248/7830; its last 32: 5269/7862; NVENC's session cap: 5270/7862.
    assert!(rate >= 0.66, "only {hit}/{} right; misses:\n{}", cases.len(), misses.join("\n"));
}

#[test]
fn an_excerpt_of_a_corpus_report_is_that_known_report() {
    // Someone pastes part of a thread the corpus holds (the log without the prose, or the prose
    // without the log): `explain` names the thread, its fix, and its category first. Each report's
    // second half is explained with the embedded table (which holds the report).
    let cases = load();
    let (mut long, mut named, mut right) = (0, 0, 0);
    for (name, c) in &cases {
        let cut = c.text.char_indices().nth(c.text.chars().count() / 2).map_or(0, |(i, _)| i);
        let half = &c.text[cut..];
        if !explain::known::could_match(half) || half.split_whitespace().count() < 40 {
            continue;
        }
        long += 1;
        let result = explain::scan::scan_bytes(half.as_bytes(), explain::table());
        let explained = explain::explain(&result, None);
        let Some(first) = explained.first() else { continue };
        if first.known_reports.first().is_some_and(|k| k.url == c.url.trim_end_matches('/')) {
            named += 1;
            if first.causes.first().is_some_and(|k| k.category.name() == c.category) {
                right += 1;
            } else {
                eprintln!("  {name}: named, but {} first", first.causes[0].category);
            }
        }
    }
    eprintln!(
        "halves of 40 words or more: {named}/{long} name their thread, {right} with its category first"
    );
    assert!(named * 100 >= long * 90 && right * 100 >= named * 98, "{named}/{long} named, {right} right");

    // A report's title followed by another part of its thread than the table holds (here: the
    // last quarter of its other lines, as someone quoting the end of the log under the title
    // would paste): the title names the thread even where the rest shares too little.
    let (mut quoted, mut named, mut right) = (0, 0, 0);
    for (_, c) in &cases {
        let lines: Vec<&str> = c.text.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.len() < 9 {
            continue;
        }
        let tail = &lines[lines.len() - (lines.len() - 1) / 4..];
        let text = format!("{}\n{}", lines[0], tail.join("\n"));
        quoted += 1;
        let result = explain::scan::scan_bytes(text.as_bytes(), explain::table());
        let Some(first) = explain::explain(&result, None).into_iter().next() else { continue };
        if first.known_reports.first().is_some_and(|k| k.url == c.url.trim_end_matches('/')) {
            named += 1;
            right += usize::from(first.causes.first().is_some_and(|k| k.category.name() == c.category));
        }
    }
    eprintln!("titles over their log's last quarter: {named}/{quoted} name their thread, {right} with its category first");
    assert!(named * 100 >= quoted * 85 && right * 100 >= named * 98, "{named}/{quoted} named, {right} right");

    // A report's first line alone (most often the thread's title): with eight words or more it
    // can share five runs with its report; with 4 to 7 it names its thread only when it is that
    // report's first line word for word and no other report's, with a distinctive run in it.
    // Named less often than halves (a title says less), and then rightly.
    let first_lines: Vec<(&Case, &str, usize)> = cases
        .iter()
        .filter_map(|(_, c)| {
            let line = c.text.lines().find(|l| !l.trim().is_empty())?.trim();
            let words = explain::words::runs_of_word_characters(line).count();
            Some((c, line, words))
        })
        .collect();
    // (lines, named, named with the thread's category first) among first lines of `words` words.
    let name_threads = |words: std::ops::Range<usize>| {
        let mut counts = (0, 0, 0);
        for (c, line, _) in first_lines.iter().filter(|(_, _, n)| words.contains(n)) {
            counts.0 += 1;
            let result = explain::scan::scan_bytes(line.as_bytes(), explain::table());
            let Some(e) = explain::explain(&result, None).into_iter().next() else { continue };
            if e.known_reports.first().is_some_and(|k| k.url == c.url.trim_end_matches('/')) {
                counts.1 += 1;
                counts.2 += usize::from(e.causes.first().is_some_and(|k| k.category.name() == c.category));
            }
        }
        counts
    };
    let (titles, named, right) = name_threads(8..usize::MAX);
    eprintln!(
        "first lines of 8 words or more: {named}/{titles} name their thread, {right} with its category first"
    );
    assert!(named * 100 >= titles * 50 && right * 100 >= named * 98, "{named}/{titles} named, {right} right");
    let short: Vec<(&Case, &str)> =
        first_lines.iter().filter(|(_, _, n)| (4..8).contains(n)).map(|&(c, l, _)| (c, l)).collect();
    let (_, named, right) = name_threads(4..8);
    eprintln!(
        "first lines of 4 to 7 words: {named}/{} name their thread, {right} with its category first",
        short.len()
    );
    assert!(
        named * 100 >= short.len() * 40 && right * 100 >= named * 98,
        "{named}/{} named, {right} right",
        short.len()
    );

    // With its own report left out, a title matches another thread only when two threads share
    // it word for word: how often, and how often that thread's category is another.
    let (mut other_thread, mut other_category) = (0, 0);
    for (c, line) in &short {
        if let Some(k) = explain::known::reports().matches(line, Some(&c.url)).first() {
            if k.similarity >= explain::known::SAME_REPORT {
                other_thread += 1;
                if k.category.name() != c.category {
                    other_category += 1;
                    eprintln!("  {line:?}: {} ({}) for {} ({})", k.url, k.category.name(), c.url, c.category);
                }
            }
        }
    }
    eprintln!("left out, {other_thread} of them match another thread, {other_category} of another category");
    assert!(
        other_category * 100 <= short.len(),
        "{other_category} titles match a thread of another category"
    );
}

#[test]
fn reports_held_out_of_the_corpus_measure_what_it_cannot() {
    // tests/explain_heldout: reports collected by people who never ran cudoctor, scored before
    // anything was changed for them, and kept out of the corpus, the word model and the rules
    // (see its README). The corpus is what the rules were written against; this is the rate on
    // reports they were not. The set there now (rounds BR-BY and CN-CO, 191 reports from ten
    // helpers) scored 75/154 (BR-BY) on the build they were collected against, 98/191 on the
    // build with the rules written since, 100/191 with the fifth session's and 99/191 with the
    // seventh's; the sets before it (I-Z, AA-AT, AU-BI, BJ-BQ) 138/240,
    // 168/299, 174/300 and 85/152 while they were held out, and are in the corpus now.
    let cases = load_from("tests/explain_heldout");
    let mut right = 0;
    for (name, c) in &cases {
        let result = explain::scan::scan_bytes(c.text.as_bytes(), explain::table());
        let got = explain::explain(&result, None).first().and_then(|e| e.causes.first().map(|k| k.category));
        if got.is_some_and(|k| k.name() == c.category) {
            right += 1;
        } else if std::env::var_os("HELDOUT_MISSES").is_some() {
            // Hidden unless asked: whoever writes rules should not be shown these reports.
            eprintln!("  held-out miss: {name}: expected {}, got {got:?}", c.category);
        }
    }
    eprintln!("held out: {right}/{} right ({:.0}%)", cases.len(), 100.0 * right as f64 / cases.len() as f64);
    assert!(cases.len() >= 191 && right * 100 >= cases.len() * 48, "held out: only {right}/{}", cases.len());
}

/// `cudoctor check` of a fixture machine, as the report `explain --report` reads.
fn fixture_report(name: &str) -> cudoctor::report::Report {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    let mut args = vec!["check".to_string(), "--root".into(), dir.join("root").display().to_string()];
    if dir.join("env").exists() {
        args.extend(["--env-file".to_string(), dir.join("env").display().to_string()]);
    }
    args.extend(["--format".to_string(), "json".to_string()]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cudoctor")).args(&args).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn reports_pasted_on_another_machine_are_not_misranked_by_its_facts() {
    // Each corpus text comes from someone else's machine. Explained with a fixture machine's
    // report, most must still come out right: facts that contradict the log (another GPU, driver,
    // Python or PyTorch) set the machine aside, and facts that do not bear on the error (a second
    // cuDNN that no framework loads) must not outweigh what the text says. REPORT_MISSES=1 lists
    // the misses with the first fact that ranked them.
    let cases = load();
    for fixture in
        ["h200-cuda13-torch211", "no-gpu", "pip-torch-cu126", "debian-toolkit-driver", "pip-torch112-cu102"]
    {
        let report = fixture_report(fixture);
        let list = std::env::var_os("REPORT_MISSES").is_some();
        let right = cases
            .iter()
            .filter(|(name, c)| {
                let explained = explain_left_out(c, Some(&report));
                let top = explained.first().and_then(|e| e.causes.first().map(|k| (e, k)));
                let ok = top.is_some_and(|(_, k)| k.category.name() == c.category);
                if let (false, true, Some((e, k))) = (ok, list, top) {
                    let fact = k.facts.first().map(|f| f.to_string()).unwrap_or_default();
                    eprintln!(
                        "  {fixture}: {name}: expected {}, got {} ({}) {fact}",
                        c.category,
                        k.category.name(),
                        e.signature
                    );
                }
                ok
            })
            .count();
        let rate = right as f64 / cases.len() as f64;
        eprintln!("corpus with the {fixture} report: {right}/{} right ({:.0}%)", cases.len(), rate * 100.0);
        // 938 to 959 of 1090 before the held-out reports joined; 1080 to 1097 of 1330 after; 1255 to
        // 1274 of 1629 once the second held-out set (AA-AT) joined; 1430 to 1450 of 1929 with the
        // third (AU-BI); 1698 to 1726 of 2337 once rounds BJ-BQ and BZ-CM joined; 1922 and up of
        // 2775 with rounds CP-DJ; 2239 and up of 3308 with rounds DL-EA; 2279 and up of 3365 with EB-EC;
        // 2598 and up of 3950 with ED-EO; 2612 and up of 3972 with EP; 2644 and up once a line a
        // person starts ("I have tried…") marks a written report; 2966 and up of 4524 with EQ-FB,
        // 2987 and up with their rules and the word pairs, 3003 and up with the title words, 3009 and
        // up once a message any framework prints is held to the frameworks its text names; 3406 and
        // up of 5167 with rounds FC-FN, 3428 and up of 5197 with FO-FP, 3438 and up once a text
        // no signature knows and that names no framework is not ranked on the machine's frameworks;
        // 3787 and up of 5734 with the tenth session's rounds FQ-FZ, 3805 and up of 5760 with GA;
        // 4395 and up of 6723 with the twelfth session's, 4674 and up of 7172 with the thirteenth's (4676 with
        // its last rule); 4806 and up of 7350 with the fourteenth's; 4905 and up of 7423 with the
        // fifteenth's first rounds and the word model a linear SVM; 4913 and up of 7453 with its last; 5003 and up of 7570 with the sixteenth's; 4980 and up of
        // 7578 with its last round and the folds by URL hash; 5069 and up of 7675 with the seventeenth's;
        // 5115 and up of 7744 with the eighteenth's; 5127 and up of 7758 with its last two rounds;
        // 5174 and up of 7830 with the nineteenth's first round, 5201 and up of 7862 with its second;
        // 5239 and up of 7937 with the twentieth's first eight rounds, 5252 and up of 7957 with its last three;
        // 5263 and up of 7958 with its last signatures and keywords, 5264 with the PyTorch 2.3 rule;
        // 5266 and up with the twenty-first's nvcc rules and 5269 and up once "but i already…" and
        // "when i…" mark a written report; 5325 and up of 8031 with its nine rounds.
        assert!(rate >= 0.65, "{fixture}: only {right}/{}", cases.len());
    }
}

/// The words of a fix that say what to do: names of packages, flags, variables, files and
/// actions, not the filler every fix shares.
fn fix_terms(text: &str) -> std::collections::BTreeSet<String> {
    const FILLER: &[&str] = &[
        "which",
        "their",
        "there",
        "these",
        "those",
        "would",
        "could",
        "should",
        "about",
        "after",
        "before",
        "again",
        "being",
        "install",
        "installed",
        "installing",
        "using",
        "version",
        "versions",
        "issue",
        "problem",
        "fixed",
        "works",
        "worked",
        "working",
        "error",
        "errors",
        "instead",
        "while",
        "still",
        "since",
        "thread",
        "reporter",
        "maintainer",
        "says",
        "said",
        "confirmed",
        "solved",
        "resolved",
        "running",
        "reinstall",
        "reinstalled",
        "upgrade",
        "upgraded",
        "upgrading",
        "update",
        "updated",
        "downgrade",
        "downgraded",
        "setting",
        "because",
        "other",
        "needs",
        "needed",
        "where",
    ];
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '+' | '-')))
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | '-' | '+')).to_ascii_lowercase())
        .filter(|w| w.len() >= 5 && w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .filter(|w| !FILLER.contains(&w.as_str()))
        .collect()
}

#[test]
fn the_first_cause_s_fix_names_what_fixed_the_thread() {
    // "Land in the right category, with that fix": for a report ranked right, the fix printed
    // first should name something the thread's confirmed fix names (a package, flag, variable,
    // file or action: `allow_growth`, `--gpus`, `LD_LIBRARY_PATH`, `num_classes`, `reboot`). A
    // word overlap is a floor, not a judgement: 776/980 with the fix texts of 6f4854a, 854/980
    // after 45 signatures' fixes were rewritten from their threads' fixes (the held-out reports,
    // which nobody read for that, counted alike by a script: 106/138 -> 113/138); 968/1122 once
    // those joined the corpus; 1113/1303 once the second held-out set did; 1251/1480 (84.5%) with
    // the third, whose threads' fixes name more project-specific steps.
    let cases = load();
    let (mut right, mut named) = (0, 0);
    let mut unnamed = Vec::new();
    for (name, c) in &cases {
        let explained = explain_left_out(c, None);
        let Some(top) = explained.first().and_then(|e| e.causes.first()) else { continue };
        let thread = fix_terms(&c.fix);
        if top.category.name() != c.category || thread.is_empty() {
            continue;
        }
        right += 1;
        if fix_terms(&top.fix).intersection(&thread).next().is_some() {
            named += 1;
        } else {
            unnamed.push(format!("{name}: the thread: {} | ours: {}", c.fix, top.fix));
        }
    }
    eprintln!("fix names a term of the thread's fix: {named}/{right}");
    if std::env::var_os("FIX_MISSES").is_some() {
        unnamed.iter().for_each(|u| eprintln!("  {u}"));
    }
    // 1251/1480 (84.5%) with 1929 reports; 1452/1759 (82.5%) with 2337; 1624/1998 (81.3%) with 2775;
    // 1865/2327 (80.1%) with 3308; 1884/2367 with 3365, then 1944/2367 (82.1%) once the fix for an
    // extension built against another torch named the wheel and the torch release to match, and
    // 1977/2367 (83.5%) with the fixes for a library of another CUDA release (that release's
    // runtime, or the program's build for the installed one) and for Windows DLLs (Python 3.8's
    // os.add_dll_directory); 2013/2367 (85.0%) once the fallback's fixes for `other`, the
    // architecture and the environment named what such threads did (upgrade or patch the library,
    // another code path or precision, set variables before the import); 2019 with the fix for runs
    // that differ naming TensorFlow's switch and a server's batching; 2300/2709 (84.9%) with 3972
    // reports, then 2363/2709 (87.2%) once the fixes for a library's kernel fault, a build without
    // CUDA, out of memory and a missing library named what such threads did; 2392/2709 (88.3%)
    // with the fallback's fixes for the architecture, the environment and containers likewise;
    // 2404/2709 (88.7%) with JAX's CPU-only jaxlib and uncorrectable ECC errors; 2407 with an
    // NCCL release's bug (the system's NCCL for programs built against it). 4179/4886 (85.5%)
    // with 7350 reports; then the word model became a linear SVM (fifteenth session) and put
    // 183 more texts no signature knows right as a library's own bug, whose fix can only be
    // general ("upgrade the library the error comes from"), or the package the traceback names:
    // 4154/4947 (84.0%), 4182/4970 (84.1%) once the package was named and the session's 73
    // reports joined; 4197/4983 (84.2%) with its last 30; 4261/5072 (84.0%) with the sixteenth's 117; 4245/5046 (84.1%) with its last 8 and the
    // folds by URL hash; 4308/5122 (84.1%) with the seventeenth's 73, 4330/5137 (84.3%) with its last 24; 4366/5185 (84.2%) with the eighteenth's 69, 4375/5196 with its last 14; 4405/5241 (84.0%) with the nineteenth's 72, 4429/5268 (84.1%) with its last 32. The floor follows: 84%.
    assert!(named * 100 >= right * 84, "only {named}/{right}");
}
