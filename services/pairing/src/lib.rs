//! # The pairing service (Swiss (Dutch), round robin and knockout pairings)
//!
//! A shell so far: it is hosted, answers health and `GetServiceInfo`, and its
//! domain RPCs arrive with the issue that builds it. Service name in events and
//! NATS subjects: `pairing`.
use arbiter_proto::v1::pairing_service_server::{PairingService, PairingServiceServer};
use arbiter_proto::v1::{GetServiceInfoRequest, ServiceInfo};
use arbiter_service_kit::host::service_info;
use arbiter_service_kit::{Platform, ServiceModule};
use tonic::{Request, Response, Status};

/// Service name in events and NATS subjects.
pub const SERVICE: &str = "pairing";

/// The pairing gRPC service.
#[derive(Clone)]
pub struct Pairing {
    platform: Platform,
}

impl Pairing {
    /// The service on this platform.
    pub fn start(platform: &Platform) -> Pairing {
        Pairing {
            platform: platform.clone(),
        }
    }
}

impl ServiceModule for Pairing {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.PairingService"
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(PairingServiceServer::new(*self));
    }
}

#[tonic::async_trait]
impl PairingService for Pairing {
    async fn get_service_info(
        &self,
        _request: Request<GetServiceInfoRequest>,
    ) -> Result<Response<ServiceInfo>, Status> {
        service_info(&self.platform, SERVICE, &[])
            .await
            .map(Response::new)
    }
}
