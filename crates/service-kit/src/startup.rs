//! How a server binary ends when it cannot start (ADR cli-003): one line on stderr —
//! what failed, where (the flag or file the error names), what to do — and exit code 1;
//! never a backtrace (`main` does not return the error to the runtime, which would print
//! it with `{:?}` and, under `RUST_BACKTRACE`, its frames).
use std::process::ExitCode;

/// The line printed for a start-up error of `program`.
pub fn message(program: &str, e: &anyhow::Error) -> String {
    let io = e
        .chain()
        .find_map(|c| c.downcast_ref::<std::io::Error>())
        .map(std::io::Error::kind);
    let todo = match io {
        Some(std::io::ErrorKind::AddrInUse) => {
            " — another program is listening on that address: stop it, or give --listen with a free port"
        }
        Some(std::io::ErrorKind::AddrNotAvailable) => {
            " — that address is not one of this machine's: give --listen with a local address, e.g. 127.0.0.1:50051"
        }
        Some(std::io::ErrorKind::PermissionDenied) => {
            " — permission denied: run as the owner of that path, or fix its permissions"
        }
        Some(std::io::ErrorKind::NotFound) => " — no such file or directory: check the path",
        _ => "",
    };
    let text = format!("{e:#}").replace('\n', " ");
    format!("{program}: error: {text}{todo}")
}

/// Exit code 0 for `Ok`; for `Err` the one line of [`message`] on stderr and exit code 1.
pub fn exit(program: &str, result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", message(program, &e));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context as _;

    #[test]
    fn a_taken_port_is_one_line_saying_what_where_and_what_to_do() {
        let e: anyhow::Error = Err::<(), _>(std::io::Error::from(std::io::ErrorKind::AddrInUse))
            .context("--listen 127.0.0.1:50051")
            .unwrap_err();
        let m = message("arbiterd", &e);
        assert!(
            m.starts_with("arbiterd: error: --listen 127.0.0.1:50051: "),
            "{m}"
        );
        assert!(m.contains("give --listen with a free port"), "{m}");
        assert!(!m.contains('\n'));
    }
}
