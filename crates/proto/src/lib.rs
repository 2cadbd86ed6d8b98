//! The contracts between services: gRPC services and the event envelope and payloads
//! (`proto/arbiter/v1/`). Generated code only; no behaviour lives here.

/// Package `arbiter.v1`.
pub mod v1 {
    #![allow(clippy::all, missing_docs)]
    tonic::include_proto!("arbiter.v1");
}

/// Encoded `FileDescriptorSet` of every Arbiter proto, for gRPC reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("arbiter_descriptor");
