//! # The clock-telemetry service (electronic clocks and boards, the Laws of Chess)
//!
//! A shell so far: it is hosted, answers health and `GetServiceInfo`, and its
//! domain RPCs arrive with the issue that builds it. Service name in events and
//! NATS subjects: `clock`.
use arbiter_proto::v1::clock_service_server::{ClockService, ClockServiceServer};
use arbiter_proto::v1::{GetServiceInfoRequest, ServiceInfo};
use arbiter_service_kit::host::service_info;
use arbiter_service_kit::{Platform, ServiceModule};
use tonic::{Request, Response, Status};

/// Service name in events and NATS subjects.
pub const SERVICE: &str = "clock";

/// The clock-telemetry gRPC service.
#[derive(Clone)]
pub struct ClockTelemetry {
    platform: Platform,
}

impl ClockTelemetry {
    /// The service on this platform.
    pub fn start(platform: &Platform) -> ClockTelemetry {
        ClockTelemetry {
            platform: platform.clone(),
        }
    }
}

impl ServiceModule for ClockTelemetry {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.ClockService"
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(ClockServiceServer::new(*self));
    }
}

#[tonic::async_trait]
impl ClockService for ClockTelemetry {
    async fn get_service_info(
        &self,
        _request: Request<GetServiceInfoRequest>,
    ) -> Result<Response<ServiceInfo>, Status> {
        service_info(&self.platform, SERVICE, &[])
            .await
            .map(Response::new)
    }
}
