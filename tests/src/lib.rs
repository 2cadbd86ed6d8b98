//! Cross-service integration tests and the test harness (filled in by the platform work).
