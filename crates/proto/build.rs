//! Compiles `proto/arbiter/v1/*.proto`. protoc comes from `protoc-bin-vendored`
//! (nothing to install); `$PROTOC` overrides it.
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-env-changed=PROTOC");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../proto");
    let files = [
        "common", "events", "registry", "pairing", "results", "rating", "clock", "access",
        "webhooks",
    ]
    .map(|f| root.join(format!("arbiter/v1/{f}.proto")));
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let mut config = tonic_prost_build::Config::new();
    if std::env::var_os("PROTOC").is_none() {
        config.protoc_executable(protoc_bin_vendored::protoc_bin_path()?);
    }
    tonic_prost_build::configure()
        .file_descriptor_set_path(out.join("arbiter_descriptor.bin"))
        .compile_with_config(config, &files, &[root])?;
    Ok(())
}
