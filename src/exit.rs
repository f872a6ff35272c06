//! Exit codes: a small documented enum, decided by the gate, never by the printers.

use std::process::ExitCode;

/// How a run of ragcite ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: every limit held (or nothing was checked: help, version, explain).
    Success,
    /// 1: a limit was exceeded; the output says which and by how much.
    LimitsExceeded,
    /// 2: a usage or input error; one line on stderr names the file and what is wrong.
    Error,
    /// 130 (128 + SIGINT): `batch` was interrupted; its output ends with a summary that says
    /// it is incomplete.
    Interrupted,
    /// 143 (128 + SIGTERM): `batch` was asked to stop; the same.
    Terminated,
}

impl ExitStatus {
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::LimitsExceeded => 1,
            ExitStatus::Error => 2,
            ExitStatus::Interrupted => 130,
            ExitStatus::Terminated => 143,
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> Self {
        ExitCode::from(status.code())
    }
}

impl From<&ragcite::GateOutcome> for ExitStatus {
    fn from(gate: &ragcite::GateOutcome) -> Self {
        if gate.passed {
            ExitStatus::Success
        } else {
            ExitStatus::LimitsExceeded
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_documented_ones() {
        assert_eq!(ExitStatus::Success.code(), 0);
        assert_eq!(ExitStatus::LimitsExceeded.code(), 1);
        assert_eq!(ExitStatus::Error.code(), 2);
        assert_eq!(ExitStatus::Interrupted.code(), 130);
        assert_eq!(ExitStatus::Terminated.code(), 143);
    }

    #[test]
    fn the_gate_decides() {
        let passed = ragcite::GateOutcome {
            passed: true,
            failures: vec![],
        };
        let failed = ragcite::GateOutcome {
            passed: false,
            failures: vec![],
        };
        assert_eq!(ExitStatus::from(&passed), ExitStatus::Success);
        assert_eq!(ExitStatus::from(&failed), ExitStatus::LimitsExceeded);
    }
}
