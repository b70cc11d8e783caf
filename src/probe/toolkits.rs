//! Probe: toolkits (to be written; see the issue "cudoctor check").

use crate::report::Report;
use crate::system::System;

/// Adds the toolkits facts of `sys` to `report`.
pub fn probe(_sys: &System, _report: &mut Report) {}
