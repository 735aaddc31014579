//! The redirect that ends a sign-in in the person's browser, received on `127.0.0.1` at a
//! port the system picks (RFC 8252 §7.3: a native app's loopback redirect). Only the
//! `/callback` request counts; anything else the browser asks for is answered 404.

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

use super::AuthError;

const PATH: &str = "/callback";
/// A request line or header longer than this is not a browser's redirect.
const MAX_LINE: usize = 16 * 1024;

/// A listener for one sign-in's redirect.
pub struct Loopback {
    listener: TcpListener,
    redirect_uri: String,
}

impl Loopback {
    pub async fn bind() -> Result<Self, AuthError> {
        let failed = |e: std::io::Error| AuthError::NotCompleted(format!("no loopback port: {e}"));
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

    /// Waits for the redirect and returns its query; the browser is told it may close
    /// the page. The caller bounds the wait.
    pub async fn receive(&self) -> Result<Vec<(String, String)>, AuthError> {
        loop {
            let (socket, _) = self.listener.accept().await.map_err(|e| {
                AuthError::NotCompleted(format!("the loopback listener failed: {e}"))
            })?;
            if let Some(query) = answer(socket).await {
                return Ok(query);
            }
        }
    }
}

/// Reads one request; the query if it was the redirect.
async fn answer(socket: TcpStream) -> Option<Vec<(String, String)>> {
    let mut socket = BufReader::new(socket);
    let target = read_line(&mut socket).await?.split(' ').nth(1)?.to_owned();
    // The headers matter not; they are read so that the browser sees a clean answer.
    while !read_line(&mut socket).await?.trim().is_empty() {}
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let found = path == PATH;
    let (status, page) = if found {
        (
            "200 OK",
            "Signed in. You may close this page and return to Switchboard.",
        )
    } else {
        ("404 Not Found", "Not found.")
    };
    let reply = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
        page.len()
    );
    let _ = socket.get_mut().write_all(reply.as_bytes()).await;
    found.then(|| {
        url::form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect()
    })
}

async fn read_line(socket: &mut BufReader<TcpStream>) -> Option<String> {
    let mut line = String::new();
    let mut limited = (&mut *socket).take(MAX_LINE as u64);
    match limited.read_line(&mut line).await {
        Ok(0) | Err(_) => None,
        Ok(_) if !line.ends_with('\n') => None,
        Ok(_) => Some(line),
    }
}
