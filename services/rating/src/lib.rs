//! # The rating service (FIDE Elo per event and monthly rating lists)
//!
//! A shell so far: it is hosted, answers health and `GetServiceInfo`, and its
//! domain RPCs arrive with the issue that builds it. Service name in events and
//! NATS subjects: `rating`.
use arbiter_proto::v1::rating_service_server::{RatingService, RatingServiceServer};
use arbiter_proto::v1::{GetServiceInfoRequest, ServiceInfo};
use arbiter_service_kit::host::service_info;
use arbiter_service_kit::{Platform, ServiceModule};
use tonic::{Request, Response, Status};

/// Service name in events and NATS subjects.
pub const SERVICE: &str = "rating";

/// The rating gRPC service.
#[derive(Clone)]
pub struct Rating {
    platform: Platform,
}

impl Rating {
    /// The service on this platform.
    pub fn start(platform: &Platform) -> Rating {
        Rating {
            platform: platform.clone(),
        }
    }
}

impl ServiceModule for Rating {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.RatingService"
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(RatingServiceServer::new(*self));
    }
}

#[tonic::async_trait]
impl RatingService for Rating {
    async fn get_service_info(
        &self,
        _request: Request<GetServiceInfoRequest>,
    ) -> Result<Response<ServiceInfo>, Status> {
        service_info(&self.platform, SERVICE, &[])
            .await
            .map(Response::new)
    }
}
