//! Mapping of event-log errors and validation failures to gRPC statuses. Every
//! message starts with the field at fault (`field: what is wrong`).
use tonic::Status;

/// `INVALID_ARGUMENT` naming the field.
pub fn invalid(field: &str, message: impl std::fmt::Display) -> Status {
    Status::invalid_argument(format!("{field}: {message}"))
}

/// `NOT_FOUND` naming the field.
pub fn not_found(field: &str, message: impl std::fmt::Display) -> Status {
    Status::not_found(format!("{field}: {message}"))
}

/// The status for an event-log error.
pub fn from_log(e: arbiter_eventlog::Error) -> Status {
    use arbiter_eventlog::Error as E;
    match e {
        E::Conflict { .. } => Status::aborted(e.to_string()),
        E::CommandIdReused { .. } | E::CommandIdMismatch { .. } => {
            Status::already_exists(e.to_string())
        }
        E::Unsealed { .. } => Status::failed_precondition(e.to_string()),
        E::Invalid { .. } => Status::invalid_argument(e.to_string()),
        E::Corrupt { .. } => Status::data_loss(e.to_string()),
        E::Database(_) | E::Migrate(_) => {
            tracing::error!(error = %e, "event log failure");
            Status::unavailable(e.to_string())
        }
    }
}

/// Validates the common command metadata and returns it.
pub fn command_meta(
    meta: Option<arbiter_proto::v1::CommandMeta>,
) -> Result<arbiter_proto::v1::CommandMeta, Status> {
    let meta = meta.ok_or_else(|| invalid("meta", "command metadata is required"))?;
    if meta.command_id.trim().is_empty() {
        return Err(invalid(
            "meta.command_id",
            "must not be empty (a client-chosen id makes retries safe)",
        ));
    }
    if meta.command_id.len() > 200 {
        return Err(invalid("meta.command_id", "at most 200 characters"));
    }
    if let Some(v) = meta.expected_version
        && v < 0
    {
        return Err(invalid("meta.expected_version", "must be 0 or more"));
    }
    Ok(meta)
}
