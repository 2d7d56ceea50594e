//! Move events (to be written).
