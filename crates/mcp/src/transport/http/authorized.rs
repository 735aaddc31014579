//! One HTTP exchange under authorization, for both transports: sent with the current
//! token; when the server refuses it (401, or 403 for want of scope) and the transport can
//! sign in, it signs in (or refreshes, or steps up) and sends again, a bounded number of
//! times.

use std::future::Future;

use super::Shared;
use crate::auth::{AuthError, Challenge};
use crate::transport::TransportError;

pub async fn authorized<T, F, Fut>(shared: &Shared, mut exchange: F) -> Result<T, TransportError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, TransportError>>,
{
    let Some(auth) = &shared.auth else {
        return exchange().await;
    };
    let mut sign_ins = 0;
    loop {
        let token = auth.bearer().await?;
        match exchange().await {
            Err(TransportError::Unauthorized {
                status,
                challenge,
                nonce,
                ..
            }) if sign_ins < auth.max_sign_ins_per_request() => {
                sign_ins += 1;
                auth.challenged(
                    status,
                    challenge.as_deref(),
                    token.as_deref(),
                    nonce.as_deref(),
                )
                .await?;
            }
            Err(TransportError::Unauthorized {
                status: 403,
                challenge,
                ..
            }) => {
                let scopes = challenge
                    .as_deref()
                    .map(Challenge::parse)
                    .and_then(|c| c.scope)
                    .unwrap_or_default()
                    .join(" ");
                return Err(AuthError::StepUpLimit {
                    attempts: sign_ins,
                    scopes,
                }
                .into());
            }
            other => return other,
        }
    }
}
