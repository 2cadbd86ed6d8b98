/// What can go wrong with the event log. Every variant names what and where.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Optimistic concurrency failure: the stream is not at the expected version.
    #[error(
        "expected_version: stream {stream} is at version {actual}, the command expected {expected}"
    )]
    Conflict {
        /// The stream appended to.
        stream: String,
        /// The version the command expected.
        expected: i64,
        /// The version the stream is really at.
        actual: i64,
    },
    /// A command id already used for a different stream.
    #[error("command_id: {command_id} was already used for stream {original_stream}, not {stream}")]
    CommandIdReused {
        /// The reused command id.
        command_id: String,
        /// The stream it was first applied to.
        original_stream: String,
        /// The stream of the new request.
        stream: String,
    },
    /// A command id already used for a different request.
    #[error(
        "meta.command_id: {command_id} was already used by another request (the command that wrote positions {first_position}..{last_position} of stream {original_stream}); a retry must repeat the same request, a new command needs a new id"
    )]
    CommandIdMismatch {
        /// The reused command id.
        command_id: String,
        /// The stream it was first applied to.
        original_stream: String,
        /// What the first use wrote.
        first_position: i64,
        /// What the first use wrote.
        last_position: i64,
    },
    /// A copied event whose seal or chain does not verify (never applied).
    #[error("copy of stream {stream} version {version}: {message}")]
    Unsealed {
        /// The stream.
        stream: String,
        /// The version.
        version: i64,
        /// What is wrong.
        message: String,
    },
    /// Not written: another request of an all-or-nothing batch was refused
    /// (`EventStore::append_all`).
    #[error("not written: another request of the batch was refused, so none was written")]
    NotWritten,
    /// The log refuses appends (it failed its check at start).
    #[error("{0}")]
    ReadOnly(String),
    /// The request itself is malformed.
    #[error("{field}: {message}")]
    Invalid {
        /// Field at fault.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A stored event could not be decoded.
    #[error("event at position {position}: {message}")]
    Corrupt {
        /// Global position of the event.
        position: i64,
        /// What is wrong.
        message: String,
    },
    /// The database failed.
    #[error("event log database: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration failed.
    #[error("event log migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl Error {
    pub(crate) fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        Error::Invalid {
            field,
            message: message.into(),
        }
    }
}
