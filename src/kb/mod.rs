//! The knowledge base: compatibility tables and error codes kept as TOML under `data/`, every row
//! with its public source, embedded at build time and parsed once into typed tables.
//!
//! Code asks the knowledge base; it never hard-codes a version table. [`tables`] holds the typed
//! compatibility tables (CUDA toolkits and drivers, driver branches, cuDNN, PyTorch, other
//! frameworks) and [`kb`] returns them parsed once; [`query`] answers the questions `cudoctor kb`
//! asks of them; [`gpus`] is the GPU catalog and [`codes`] the error-code tables; [`cli`] is the
//! `cudoctor kb` command.

pub mod cli;
pub mod codes;
pub mod gpus;
pub mod query;
pub mod tables;

pub use tables::{kb, Kb, KbError};
