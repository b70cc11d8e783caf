//! cudoctor: finds every part of the NVIDIA GPU software stack of a machine, says what is wrong
//! and how to fix it, explains CUDA/cuDNN/framework errors, and recommends builds that work.
//!
//! The layers, one way: [`system`] → [`probe`] → [`report`] ← [`kb`] → [`render`]. See
//! `DESIGN.md` in the repository for the architecture.
#![deny(missing_docs)]

pub mod annotate;
pub mod binary;
pub mod cli;
pub mod explain;
pub mod inspect;
pub mod kb;
pub mod loader;
pub mod probe;
pub mod render;
pub mod report;
pub mod system;
pub mod version;
