//! A browser for sign-in tests: it opens the authorization URL, follows every redirect as
//! a browser does (a consent page that approves at once ends at the loopback listener),
//! and keeps the page it showed last. With a consent script, the script plays the person
//! on the authorization server's own login and consent pages instead.
//!
//! Declared by the tests that sign in, beside `mod common;` where they use it.
#![allow(dead_code)]

use std::sync::Mutex;
use std::time::Duration;

use switchboard_mcp::auth::{AuthError, Loopback, SignIn, UserAgent};
use switchboard_mcp::transport::BoxFuture;

/// What else reaches the loopback port while the browser signs in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Stray {
    Nothing,
    /// A page's icon, then a redirect with another sign-in's `state`, each answered.
    WrongState,
    /// A connection that is opened and never sends a byte.
    Silent,
}

pub struct Browser {
    loopback: Loopback,
    stray: Stray,
    /// The statuses the loopback listener answered the stray requests with.
    pub stray_answers: Mutex<Vec<u16>>,
    /// Connections opened and left silent.
    held: Mutex<Vec<tokio::net::TcpStream>>,
    /// A program run with the authorization URL and the redirect URI, that signs in and
    /// consents, and prints the last page.
    consent_script: Option<Vec<std::path::PathBuf>>,
    pub last_page: Mutex<String>,
    /// Every sign-in the person was shown, in order.
    pub shown: Mutex<Vec<SignIn>>,
}

impl Browser {
    pub async fn new() -> Self {
        Self::with_consent_script(None).await
    }

    /// A browser that meets `stray` at the loopback port before it comes back.
    pub async fn with_stray(stray: Stray) -> Self {
        Self {
            stray,
            ..Self::new().await
        }
    }

    pub async fn with_consent_script(script: Option<Vec<std::path::PathBuf>>) -> Self {
        Self {
            loopback: Loopback::bind().await.expect("a loopback port"),
            stray: Stray::Nothing,
            stray_answers: Mutex::new(Vec::new()),
            held: Mutex::new(Vec::new()),
            consent_script: script,
            last_page: Mutex::new(String::new()),
            shown: Mutex::new(Vec::new()),
        }
    }

    pub fn sign_ins(&self) -> usize {
        self.shown.lock().expect("lock").len()
    }

    async fn open(&self, sign_in: &SignIn) -> Result<Vec<(String, String)>, AuthError> {
        self.shown.lock().expect("lock").push(sign_in.clone());
        let visit = async {
            if !self.visit_strays().await {
                return;
            }
            let page = match &self.consent_script {
                None => {
                    let page = reqwest::get(&sign_in.url).await.expect("the browser loads");
                    page.text().await.expect("a page")
                }
                Some(command) => {
                    let output = tokio::process::Command::new(&command[0])
                        .args(&command[1..])
                        .arg(&sign_in.url)
                        .arg(self.loopback.redirect_uri())
                        .output()
                        .await
                        .expect("run the consent script");
                    assert!(
                        output.status.success(),
                        "the consent script failed: {}",
                        String::from_utf8_lossy(&output.stderr)
                    );
                    String::from_utf8_lossy(&output.stdout).into_owned()
                }
            };
            *self.last_page.lock().expect("lock") = page;
        };
        let (query, ()) = tokio::join!(
            self.loopback
                .receive(&sign_in.state, Duration::from_secs(300)),
            visit
        );
        query
    }
}

impl Browser {
    /// Reaches the loopback port as `stray` says; false if the listener took a stray
    /// request for the redirect (the sign-in is over).
    async fn visit_strays(&self) -> bool {
        let redirect = self.loopback.redirect_uri().to_owned();
        match self.stray {
            Stray::Nothing => true,
            Stray::Silent => {
                let address = url::Url::parse(&redirect).expect("a URL");
                let port = address.port().expect("a port");
                let socket = tokio::net::TcpStream::connect(("127.0.0.1", port))
                    .await
                    .expect("connect to the loopback port");
                self.held.lock().expect("lock").push(socket);
                true
            }
            Stray::WrongState => {
                let icon = redirect.replace("/callback", "/favicon.ico");
                for url in [icon, format!("{redirect}?state=forged&code=stolen")] {
                    let status = reqwest::get(&url).await.expect("an answer").status();
                    self.stray_answers
                        .lock()
                        .expect("lock")
                        .push(status.as_u16());
                    if status.is_success() {
                        return false;
                    }
                }
                true
            }
        }
    }
}

impl UserAgent for Browser {
    fn redirect_uri(&self) -> String {
        self.loopback.redirect_uri().to_owned()
    }

    fn authorize<'a>(
        &'a self,
        sign_in: &'a SignIn,
    ) -> BoxFuture<'a, Result<Vec<(String, String)>, AuthError>> {
        Box::pin(self.open(sign_in))
    }
}
