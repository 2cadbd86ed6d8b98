//! # The results service (results, corrections, standings and tie-breaks)
//!
//! A shell so far: it is hosted, answers health and `GetServiceInfo`, and its
//! domain RPCs arrive with the issue that builds it. Service name in events and
//! NATS subjects: `results`.
use arbiter_proto::v1::results_service_server::{ResultsService, ResultsServiceServer};
use arbiter_proto::v1::{GetServiceInfoRequest, ServiceInfo};
use arbiter_service_kit::host::service_info;
use arbiter_service_kit::{Platform, ServiceModule};
use tonic::{Request, Response, Status};

/// Service name in events and NATS subjects.
pub const SERVICE: &str = "results";

/// The results gRPC service.
#[derive(Clone)]
pub struct Results {
    platform: Platform,
}

impl Results {
    /// The service on this platform.
    pub fn start(platform: &Platform) -> Results {
        Results {
            platform: platform.clone(),
        }
    }
}

impl ServiceModule for Results {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.ResultsService"
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(ResultsServiceServer::new(*self));
    }
}

#[tonic::async_trait]
impl ResultsService for Results {
    async fn get_service_info(
        &self,
        _request: Request<GetServiceInfoRequest>,
    ) -> Result<Response<ServiceInfo>, Status> {
        service_info(&self.platform, SERVICE, &[])
            .await
            .map(Response::new)
    }
}
