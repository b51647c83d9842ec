//! Errors naming the JSON path at fault and the reason, as the Python engine's errors do.

use std::fmt;

/// A state that is malformed or impossible under the rules (`InvalidStateError` in Python).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidState {
    /// Where the problem is, e.g. `$.players[1].tools.rope`.
    pub path: String,
    /// What is wrong there.
    pub reason: String,
}

impl InvalidState {
    /// An error at `path` with `reason`.
    pub fn new(path: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for InvalidState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

impl std::error::Error for InvalidState {}

/// A move that cannot be parsed, or that is well formed but not legal now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// A malformed move (`InvalidActionError` in Python).
    Invalid {
        /// Where the problem is, e.g. `$.column`.
        path: String,
        /// What is wrong there.
        reason: String,
    },
    /// A well-formed move that is not legal in the state (`IllegalActionError` in Python).
    Illegal {
        /// Always `$`: the move as a whole.
        path: String,
        /// Why it is not legal.
        reason: String,
    },
}

impl ActionError {
    /// The JSON path at fault.
    pub fn path(&self) -> &str {
        match self {
            Self::Invalid { path, .. } | Self::Illegal { path, .. } => path,
        }
    }

    /// The reason.
    pub fn reason(&self) -> &str {
        match self {
            Self::Invalid { reason, .. } | Self::Illegal { reason, .. } => reason,
        }
    }

    /// A malformed-move error.
    pub fn invalid(path: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Invalid {
            path: path.into(),
            reason: reason.into(),
        }
    }

    /// A not-legal-now error (path `$`).
    pub fn illegal(reason: impl Into<String>) -> Self {
        Self::Illegal {
            path: "$".into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path(), self.reason())
    }
}

impl std::error::Error for ActionError {}
