//! The redirect that ends a sign-in in the person's browser, received on `127.0.0.1` at a
//! port the system picks (RFC 8252 §7.3: a native app's loopback redirect). Only the
//! `/callback` request carrying the sign-in's own `state` ends the wait; anything else
//! that reaches the port (a page's icon, a port scanner, another sign-in's redirect) is
//! answered 404 or 400 and the listener goes on waiting. Connections are served side by
//! side, each with a bound on its request's size and on the time to send it, so that one
//! slow or silent connection never keeps the browser's redirect waiting.

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

use super::AuthError;

const PATH: &str = "/callback";
/// A request head (request line and headers) larger than this is not a browser's redirect.
const MAX_HEAD: u64 = 32 * 1024;
/// How long one connection has to send its request head.
const HEAD_WAIT: Duration = Duration::from_secs(10);
/// Connections served at once; more are closed as they come.
const MAX_CONNECTIONS: usize = 32;

/// A listener for one sign-in's redirect.
pub struct Loopback {
    listener: TcpListener,
    redirect_uri: String,
}

impl Loopback {
    pub async fn bind() -> Result<Self, AuthError> {
        let failed = |e: std::io::Error| AuthError::not_completed(format!("no loopback port: {e}"));
        let listener = TcpListener::bind("127.0.0.1:0").await.map_err(failed)?;
        let port = listener.local_addr().map_err(failed)?.port();
        Ok(Self {
            listener,
            redirect_uri: format!("http://127.0.0.1:{port}{PATH}"),
        })
    }

    pub fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    /// Waits, for at most `within`, for the redirect that carries `state` and returns its
    /// query; the browser is told it may close the page.
    pub async fn receive(
        &self,
        state: &str,
        within: Duration,
    ) -> Result<Vec<(String, String)>, AuthError> {
        let deadline = tokio::time::sleep(within);
        tokio::pin!(deadline);
        // Dropped on return: the connections still open are closed.
        let mut connections = JoinSet::new();
        loop {
            tokio::select! {
                () = &mut deadline => {
                    return Err(AuthError::BrowserDidNotReturn {
                        millis: u64::try_from(within.as_millis()).unwrap_or(u64::MAX),
                    });
                }
                accepted = self.listener.accept() => {
                    let (socket, _) = accepted.map_err(|e| {
                        AuthError::not_completed(format!("the loopback listener failed: {e}"))
                    })?;
                    if connections.len() < MAX_CONNECTIONS {
                        connections.spawn(answer(socket, state.to_owned()));
                    }
                }
                Some(Ok(Some(query))) = connections.join_next() => return Ok(query),
            }
        }
    }
}

/// What a request to the port was.
enum Request {
    /// The redirect of this sign-in.
    Redirect(Vec<(String, String)>),
    /// `/callback` without this sign-in's `state`.
    OtherState,
    NotFound,
}

/// Serves one connection; the query if it brought this sign-in's redirect.
async fn answer(socket: TcpStream, state: String) -> Option<Vec<(String, String)>> {
    let mut socket = BufReader::new(socket);
    let target = tokio::time::timeout(HEAD_WAIT, read_head(&mut socket))
        .await
        .ok()??;
    let (status, page, query) = match classify(&target, &state) {
        Request::Redirect(query) => (
            "200 OK",
            "Signed in. You may close this page and return to Switchboard.",
            Some(query),
        ),
        Request::OtherState => (
            "400 Bad Request",
            "This is not the answer to the sign-in Switchboard is waiting for.",
            None,
        ),
        Request::NotFound => ("404 Not Found", "Not found.", None),
    };
    let reply = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
        page.len()
    );
    let _ = socket.get_mut().write_all(reply.as_bytes()).await;
    query
}

fn classify(target: &str, state: &str) -> Request {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if path != PATH {
        return Request::NotFound;
    }
    let query: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let states: Vec<&str> = query
        .iter()
        .filter(|(key, _)| key == "state")
        .map(|(_, value)| value.as_str())
        .collect();
    match states.as_slice() {
        [only] if *only == state => Request::Redirect(query),
        _ => Request::OtherState,
    }
}

/// Reads the request line and the headers (which matter not, but are read so that the
/// browser sees a clean answer); the request's target.
async fn read_head(socket: &mut BufReader<TcpStream>) -> Option<String> {
    let mut head = (&mut *socket).take(MAX_HEAD);
    let target = read_line(&mut head).await?.split(' ').nth(1)?.to_owned();
    while !read_line(&mut head).await?.trim().is_empty() {}
    Some(target)
}

async fn read_line(head: &mut (impl AsyncBufReadExt + Unpin)) -> Option<String> {
    let mut line = String::new();
    match head.read_line(&mut line).await {
        Ok(0) | Err(_) => None,
        Ok(_) if !line.ends_with('\n') => None,
        Ok(_) => Some(line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_callback_with_this_sign_ins_state_is_the_redirect() {
        let redirect = |target: &str| matches!(classify(target, "s1"), Request::Redirect(_));
        assert!(redirect("/callback?code=c&state=s1"));
        assert!(redirect("/callback?error=access_denied&state=s1"));
        for stray in [
            "/callback?code=c&state=s2",
            "/callback?code=c",
            "/callback?code=c&state=s1&state=s2",
        ] {
            assert!(
                matches!(classify(stray, "s1"), Request::OtherState),
                "{stray}"
            );
        }
        for stray in ["/favicon.ico", "/", "/callback/x?state=s1"] {
            assert!(
                matches!(classify(stray, "s1"), Request::NotFound),
                "{stray}"
            );
        }
    }

    /// A connection that sends nothing is closed once its time to send a request is up,
    /// and the wait as a whole ends at its deadline.
    #[tokio::test(start_paused = true)]
    async fn a_silent_connection_is_closed_and_the_wait_ends_at_its_deadline() {
        let loopback = Loopback::bind().await.expect("a port");
        let port = url::Url::parse(loopback.redirect_uri())
            .expect("a URL")
            .port()
            .expect("a port");
        let silent = async {
            let mut socket = TcpStream::connect(("127.0.0.1", port))
                .await
                .expect("connect");
            let opened = tokio::time::Instant::now();
            let mut byte = [0; 1];
            let read = socket.read(&mut byte).await.expect("closed, not failed");
            assert_eq!(read, 0, "the listener closes the silent connection");
            assert!(opened.elapsed() >= HEAD_WAIT);
        };
        let started = tokio::time::Instant::now();
        let within = HEAD_WAIT * 3;
        let (waited, ()) = tokio::join!(loopback.receive("s1", within), silent);
        let error = waited.expect_err("no redirect came");
        assert!(
            error.to_string().contains("did not come back within 30 s"),
            "{error}"
        );
        assert!(started.elapsed() >= within);
    }
}
