//! Probe: host (being written).

use crate::report::Report;
use crate::system::System;

/// Adds the host facts of `sys` to `report`.
pub fn probe(_sys: &System, _report: &mut Report) {}
