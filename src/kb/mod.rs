//! The knowledge base: compatibility tables and error codes kept as TOML under `data/`, every row
//! with its public source, embedded at build time and parsed once into typed tables.
//!
//! Code asks the knowledge base; it never hard-codes a version table.

pub mod codes;
pub mod gpus;
