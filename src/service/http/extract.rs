//! The request bodies of the API and of `/mcp`, as axum extractors. A body is read within the
//! server's limits (413 beyond [`MAX_BODY_BYTES`], 408 when it does not arrive within
//! `--timeout`, 503 when the bodies held at once would go over their budget, 400 when the
//! connection fails), then the request is admitted to the checks' queue (503 when it is full),
//! then the body is parsed strictly (400 for JSON that is malformed or has a key twice, 422 for
//! each invalid field, 413 for an MCP message of too many values). Every refusal is a
//! [`Problem`]. axum's own body extractors (`Json`, `Bytes`) are not used: their limit is one
//! size with no time, no budget and no problem document.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, Method, header};
use http_body_util::BodyExt;
use ragcite::api;
use ragcite::api::request::{CalculateRequest, QuoteRequest, RequestError};
use tokio::sync::OwnedSemaphorePermit;

use super::budget::Held;
use super::{AppState, MAX_BODY_BYTES, MAX_MCP_VALUES, Problem, client_of};
use crate::service::Client;

/// A request's claim on the server's memory and checks, from its body's first byte to its
/// answer: the bytes of its body count against the budget, and it holds a place in the checks'
/// queue. Both are given back when it is dropped.
#[derive(Debug)]
pub struct Admission {
    _held: Held,
    _queued: OwnedSemaphorePermit,
}

/// A request of the API (`/api/v1/calculate`, `/api/v1/quote`): its body read within the
/// limits, admitted to the checks' queue, and parsed.
#[derive(Debug)]
pub struct Admitted<T> {
    pub request: T,
    /// Who sent it, which the check slots are shared by.
    pub client: Client,
    /// Held until the handler returns.
    pub admission: Admission,
}

/// A request the API parses from its body.
pub trait FromBody: Sized + Send + 'static {
    /// Whether parsing may take long (a calculate's chunks): then it runs on a blocking thread.
    const BLOCKING: bool;

    fn from_body(body: &[u8]) -> Result<Self, RequestError>;
}

impl FromBody for CalculateRequest {
    const BLOCKING: bool = true;

    fn from_body(body: &[u8]) -> Result<Self, RequestError> {
        CalculateRequest::from_body(body)
    }
}

impl FromBody for QuoteRequest {
    const BLOCKING: bool = false;

    fn from_body(body: &[u8]) -> Result<Self, RequestError> {
        QuoteRequest::from_body(body)
    }
}

impl<T: FromBody> FromRequest<Arc<AppState>> for Admitted<T> {
    type Rejection = Problem;

    async fn from_request(request: Request, app: &Arc<AppState>) -> Result<Self, Problem> {
        let client = client_of(request.extensions());
        let (_, body, admission) = admit(app, client, request).await?;
        let parsed = if T::BLOCKING {
            tokio::task::spawn_blocking(move || T::from_body(&body))
                .await
                .map_err(|_| Problem::internal())?
        } else {
            T::from_body(&body)
        };
        let request = parsed.map_err(|e| Problem::from(api::Problem::from_request(e)))?;
        Ok(Admitted {
            request,
            client,
            admission,
        })
    }
}

/// A request to `/mcp`. A POST's body is read within the limits of the API's, admitted to the
/// checks' queue, and scanned: strictly (a key given twice is refused; rmcp would keep the last
/// one) and counted as it is built, so that a body of more than [`MAX_MCP_VALUES`] JSON values
/// is refused before rmcp parses it to a tree. Any other method goes to rmcp as it came.
#[derive(Debug)]
pub enum McpRequest {
    Post {
        /// The request, its body read.
        request: Request,
        /// Held until the handler returns.
        admission: Admission,
    },
    Other(Request),
}

impl FromRequest<Arc<AppState>> for McpRequest {
    type Rejection = Problem;

    async fn from_request(request: Request, app: &Arc<AppState>) -> Result<Self, Problem> {
        if request.method() != Method::POST {
            return Ok(McpRequest::Other(request));
        }
        let client = client_of(request.extensions());
        let (parts, body, admission) = admit(app, client, request).await?;
        let scanned = tokio::task::spawn_blocking(move || {
            ragcite::api::json::parse_unique_within(&body, MAX_MCP_VALUES)
                .map_err(|e| Box::new(api::Problem::from_json_error(e)))?;
            Ok::<_, Box<api::Problem>>(body)
        })
        .await;
        let body = match scanned {
            Ok(Ok(body)) => body,
            Ok(Err(refusal)) => return Err((*refusal).into()),
            Err(_) => return Err(Problem::internal()),
        };
        Ok(McpRequest::Post {
            request: Request::from_parts(parts, Body::from(body)),
            admission,
        })
    }
}

/// The body of `request`, read within the limits, and the request admitted to the checks'
/// queue, or shed: the body is read first, so that a body over the limits is refused for
/// what it is whether or not the queue is full, and a slow body holds no place in the queue.
async fn admit(
    app: &AppState,
    client: Client,
    request: Request,
) -> Result<(axum::http::request::Parts, Bytes, Admission), Problem> {
    let (parts, body) = request.into_parts();
    let (body, held) = read_limited(app, client, &parts.headers, body).await?;
    let Ok(queued) = Arc::clone(&app.queue).try_acquire_owned() else {
        return Err(Problem::overloaded());
    };
    let admission = Admission {
        _held: held,
        _queued: queued,
    };
    Ok((parts, body, admission))
}

/// The body, read within the limits: 413 beyond [`MAX_BODY_BYTES`], 408 when too slow, 503
/// when the bodies held at once would go over their budget. The bytes stay counted until the
/// returned [`Held`] is dropped, at the end of the request.
async fn read_limited(
    app: &AppState,
    client: Client,
    headers: &HeaderMap,
    body: Body,
) -> Result<(Bytes, Held), Problem> {
    // A body announced over the limit is refused before it is read; one announced within it
    // is counted whole from the start, since that is what it will hold.
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return Err(Problem::too_large());
    }
    let mut held = app.bodies.start(client);
    let announced = announced.map(|length| length as usize);
    if let Some(length) = announced
        && !held.grow(length)
    {
        return Err(Problem::bodies_over_budget());
    }
    let read = async {
        let mut body = body;
        let mut bytes = Vec::with_capacity(announced.unwrap_or(0));
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(Problem::unreadable_body)?;
            let Ok(data) = frame.into_data() else {
                continue;
            };
            if bytes.len() + data.len() > MAX_BODY_BYTES {
                return Err(Problem::too_large());
            }
            // A body of no announced length is counted as it comes.
            if announced.is_none() && !held.grow(data.len()) {
                return Err(Problem::bodies_over_budget());
            }
            bytes.extend_from_slice(&data);
        }
        Ok(Bytes::from(bytes))
    };
    match tokio::time::timeout(app.timeout, read).await {
        Err(_) => Err(Problem::body_timeout(app.timeout)),
        Ok(Err(problem)) => Err(problem),
        Ok(Ok(bytes)) => Ok((bytes, held)),
    }
}
