//! gRPC statuses as HTTP problems (RFC 9457 `application/problem+json`): the same
//! refusal as over gRPC, with its code, its message and the field it names. Pure.
use serde::Serialize;
use tonic::Code;

/// A problem document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Problem {
    /// `about:blank` (the status says what kind of problem it is).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The HTTP status's reason phrase.
    pub title: &'static str,
    /// The HTTP status.
    pub status: u16,
    /// What is wrong and where, as the gRPC message says it
    /// (`tournament_id: no tournament 0199…`).
    pub detail: String,
    /// The gRPC code (`INVALID_ARGUMENT`, `NOT_FOUND`, …).
    pub code: &'static str,
    /// The request field the message names, when it names one (`round`, `page_token`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// The HTTP status of a gRPC code: the mapping of Google's API design guide (AIP-193)
/// and grpc-gateway.
pub fn http_status(code: Code) -> u16 {
    match code {
        Code::Ok => 200,
        Code::Cancelled => 499,
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => 400,
        Code::DeadlineExceeded => 504,
        Code::NotFound => 404,
        Code::AlreadyExists | Code::Aborted => 409,
        Code::PermissionDenied => 403,
        Code::Unauthenticated => 401,
        Code::ResourceExhausted => 429,
        Code::Unimplemented => 501,
        Code::Unavailable => 503,
        Code::Unknown | Code::Internal | Code::DataLoss => 500,
    }
}

/// `INVALID_ARGUMENT` for `Code::InvalidArgument`.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Content Too Large",
        429 => "Too Many Requests",
        499 => "Client Closed Request",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Internal Server Error",
    }
}

/// The field a service message names: the services write `field: what` (ADR
/// platform-005/cli-002), e.g. `round: …`, `players[3].data.name: …`,
/// `authorization: …`.
pub fn field_of(message: &str) -> Option<String> {
    let (head, _) = message.split_once(": ")?;
    let ok = !head.is_empty()
        && head.len() <= 80
        && head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']' | '-'));
    ok.then(|| head.to_owned())
}

/// The problem of a gRPC status.
pub fn from_status(s: &tonic::Status) -> Problem {
    let status = http_status(s.code());
    Problem {
        kind: "about:blank",
        title: reason(status),
        status,
        detail: s.message().to_owned(),
        code: code_name(s.code()),
        field: field_of(s.message()),
    }
}

/// A problem of the HTTP layer itself (a bad path or query value): as the services
/// would say it, `INVALID_ARGUMENT` naming the field.
pub fn invalid(field: &str, what: impl std::fmt::Display) -> Problem {
    from_status(&tonic::Status::invalid_argument(format!("{field}: {what}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_maps_to_a_status_and_the_field_is_read_from_the_message() {
        let p = from_status(&tonic::Status::invalid_argument(
            "round: round 9 is beyond the announced rounds",
        ));
        assert_eq!((p.status, p.code), (400, "INVALID_ARGUMENT"));
        assert_eq!(p.field.as_deref(), Some("round"));
        let p = from_status(&tonic::Status::unauthenticated(
            "authorization: GetTournament needs a bearer token (ARBITER_TOKEN)",
        ));
        assert_eq!((p.status, p.field.as_deref()), (401, Some("authorization")));
        assert_eq!(
            from_status(&tonic::Status::permission_denied("x")).status,
            403
        );
        assert_eq!(from_status(&tonic::Status::not_found("x")).status, 404);
        assert_eq!(from_status(&tonic::Status::aborted("x")).status, 409);
        assert_eq!(from_status(&tonic::Status::unavailable("x")).status, 503);
        assert_eq!(
            field_of("players[3].data.name: must not be empty").as_deref(),
            Some("players[3].data.name")
        );
        assert_eq!(field_of("the log failed its check: position 3"), None);
        assert_eq!(field_of("no colon here"), None);
    }
}
