//! Registry service (filled in by the platform work).
