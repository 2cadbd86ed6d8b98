//! Shared domain vocabulary (filled in by the platform work).
