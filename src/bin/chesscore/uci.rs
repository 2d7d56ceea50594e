//! `chesscore` without arguments: the UCI engine on stdin and stdout.

use crate::Failure;
use chesscore::uci::{RunError, Uci};
use std::io;
use std::sync::{Arc, Mutex};

/// Speaks UCI on stdin and stdout until `quit` or the end of input.
pub(crate) fn uci_cmd() -> Result<(), Failure> {
    let mut uci = Uci::new(Arc::new(Mutex::new(io::stdout())));
    match uci.run(io::stdin().lock()) {
        Ok(()) => Ok(()),
        Err(RunError::Output(e)) => Err(Failure::Output(e)),
        Err(RunError::Input(e)) => Err(Failure::Input(e)),
    }
}
