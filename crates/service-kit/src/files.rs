//! File modes of what a process keeps (ADR platform-010): the data dir and the key dir
//! 0700, the event log, the token file, the keys and the anchor 0600. New files are
//! created with their mode; [`keep_private`] tightens one that others may read (made by
//! an older version, or by hand).

use std::path::Path;

/// Makes `path` `mode` (0700 for a dir, 0600 for a file) when group or others have any
/// permission on it. Best effort: a read-only mount is left as it is, with a warning.
pub fn keep_private(path: &Path, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(m) = std::fs::metadata(path) else {
            return;
        };
        if m.permissions().mode() & 0o077 == 0 {
            return;
        }
        match std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)) {
            Ok(()) => tracing::warn!(
                path = %path.display(),
                mode = format!("{mode:o}"),
                "others could read it: permissions tightened"
            ),
            Err(e) => tracing::warn!(
                path = %path.display(),
                error = %e,
                "others can read it and its permissions could not be tightened"
            ),
        }
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
}

/// Creates the dir `path` (and its parents) and makes it 0700.
pub fn private_dir(path: &Path) -> std::io::Result<()> {
    if !path.exists() {
        let mut b = std::fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        b.create(path)?;
    }
    keep_private(path, 0o700);
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn dirs_are_made_0700_and_readable_files_tightened() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("a/data");
        private_dir(&d).unwrap();
        assert_eq!(mode(&d), 0o700);
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
        private_dir(&d).unwrap();
        assert_eq!(mode(&d), 0o700);
        let f = d.join("tokens");
        std::fs::write(&f, "x").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
        keep_private(&f, 0o600);
        assert_eq!(mode(&f), 0o600);
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o400)).unwrap();
        keep_private(&f, 0o600);
        assert_eq!(mode(&f), 0o400, "already private: left as it is");
    }
}
