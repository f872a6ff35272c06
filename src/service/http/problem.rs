//! The errors the HTTP server answers with: RFC 9457 problem documents, each an axum response
//! of its own. [`Problem`] wraps the library's document ([`ragcite::api::Problem`], which knows
//! nothing of HTTP) with the headers that go with it (`Retry-After`, `Allow`); the problems the
//! server itself raises (limits, timeouts, routes) are named here, with their texts.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use ragcite::api;

use super::MAX_BODY_BYTES;
use super::budget;

/// A problem document and its status, as the server sends it: `application/problem+json`,
/// with `Retry-After` when the client may come back, and `Allow` when the method was wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    document: api::Problem,
    retry_after: Option<u64>,
    allow: Option<HeaderValue>,
}

impl Problem {
    /// A problem of `status` with a short `code`; see [`api::Problem::new`].
    pub fn new(status: u16, title: &str, code: &str, detail: impl Into<String>) -> Self {
        api::Problem::new(status, title, code, detail).into()
    }

    /// The document sent.
    pub fn document(&self) -> &api::Problem {
        &self.document
    }

    /// Asks the client to come back in `seconds` (at least 1).
    #[must_use]
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds.max(1));
        self
    }

    /// The methods the resource allows, for a 405.
    #[must_use]
    pub fn allow(mut self, methods: HeaderValue) -> Self {
        self.allow = Some(methods);
        self
    }

    /// 413: a body over [`MAX_BODY_BYTES`], announced or read.
    pub fn too_large() -> Self {
        Problem::new(
            413,
            "Request body too large",
            "too-large",
            format!("the body is over {MAX_BODY_BYTES} bytes"),
        )
    }

    /// 400: the connection failed while the body was read.
    pub fn unreadable_body(error: impl std::fmt::Display) -> Self {
        Problem::new(
            400,
            "Unreadable body",
            "unreadable-body",
            format!("the body could not be read: {error}"),
        )
    }

    /// 408: the body did not arrive within `--timeout`.
    pub fn body_timeout(timeout: Duration) -> Self {
        Problem::new(
            408,
            "Request timeout",
            "timeout",
            format!("the body did not arrive within {} s", timeout.as_secs()),
        )
    }

    /// 503 when the bodies held at once would go over their budget (see `budget.rs`).
    pub fn bodies_over_budget() -> Self {
        Problem::new(
            503,
            "Overloaded",
            "overloaded",
            format!(
                "the request bodies held at once would go over {} MiB in all or {} MiB for this \
                 client; retry when earlier requests are answered",
                budget::TOTAL_BYTES >> 20,
                budget::PER_CLIENT_BYTES >> 20
            ),
        )
        .retry_after(1)
    }

    /// 503 when the checks' queue is full: retry in a second.
    pub fn overloaded() -> Self {
        Problem::new(
            503,
            "Overloaded",
            "overloaded",
            "too many checks are waiting; retry in a second",
        )
        .retry_after(1)
    }

    /// 429: the client's token bucket is empty for `seconds` more.
    pub fn rate_limited(seconds: u64) -> Self {
        Problem::new(
            429,
            "Too many requests",
            "rate-limited",
            format!(
                "this client is over the rate limit; retry in {} s",
                seconds.max(1)
            ),
        )
        .retry_after(seconds)
    }

    /// 500: a check that panicked, or a thread that could not be joined.
    pub fn internal() -> Self {
        Problem::new(
            500,
            "Internal error",
            "internal",
            "the check failed; this is a bug in ragcite",
        )
    }

    /// 404: no route at `path`.
    pub fn not_found(path: &str) -> Self {
        Problem::new(
            404,
            "Not found",
            "not-found",
            format!("no resource at {path}"),
        )
    }

    /// 405: `method` on a route that does not take it (axum adds `Allow`).
    pub fn method_not_allowed(method: &Method, path: &str) -> Self {
        Problem::new(
            405,
            "Method not allowed",
            "method-not-allowed",
            format!("{method} is not allowed on {path}"),
        )
    }
}

impl From<api::Problem> for Problem {
    fn from(document: api::Problem) -> Self {
        Problem {
            document,
            retry_after: None,
            allow: None,
        }
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.document.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (status, Json(&self.document)).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        if let Some(seconds) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        if let Some(allow) = self.allow {
            headers.insert(header::ALLOW, allow);
        }
        response
    }
}
