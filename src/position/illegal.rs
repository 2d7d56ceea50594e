//! Illegal move reasons (to be written).
