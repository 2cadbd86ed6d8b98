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
        E::Conflict { .. } | E::NotWritten => Status::aborted(e.to_string()),
        E::CommandIdReused { .. } | E::CommandIdMismatch { .. } => {
            Status::already_exists(e.to_string())
        }
        E::Unsealed { .. } | E::ReadOnly(_) => Status::failed_precondition(e.to_string()),
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
    // Every service's reason, bounded here once (the registry names its own rule too).
    crate::limits::check_text(&meta.command_id, 200).map_err(|m| invalid("meta.command_id", m))?;
    crate::limits::check_text(&meta.reason, crate::limits::MAX_REASON_CHARS)
        .map_err(|m| invalid("meta.reason", m))?;
    if let Some(v) = meta.expected_version
        && v < 0
    {
        return Err(invalid("meta.expected_version", "must be 0 or more"));
    }
    Ok(meta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_services_reason_and_command_id_are_bounded_and_free_of_control_characters() {
        let meta = |id: &str, reason: String| {
            Some(arbiter_proto::v1::CommandMeta {
                command_id: id.into(),
                reason,
                ..Default::default()
            })
        };
        assert!(command_meta(meta("c", "sheet says 1-0".into())).is_ok());
        let long = command_meta(meta("c", "x".repeat(crate::limits::MAX_REASON_CHARS + 1)));
        assert!(
            long.unwrap_err()
                .message()
                .starts_with("meta.reason: at most 1000")
        );
        let esc = command_meta(meta("c", "a\u{1b}[2J".into())).unwrap_err();
        assert!(esc.message().contains("U+001B"), "{}", esc.message());
        let id = command_meta(meta("c\n1", String::new())).unwrap_err();
        assert!(
            id.message()
                .starts_with("meta.command_id: control character")
        );
    }
}
