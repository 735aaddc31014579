//! A browser for sign-in tests: it opens the authorization URL, follows every redirect as
//! a browser does (a consent page that approves at once ends at the loopback listener),
//! and keeps the page it showed last. With a consent script, the script plays the person
//! on the authorization server's own login and consent pages instead.
//!
//! Declared by the tests that sign in, beside `mod common;` where they use it.
#![allow(dead_code)]

use std::sync::Mutex;

use switchboard_mcp::auth::{AuthError, Loopback, SignIn, UserAgent};
use switchboard_mcp::transport::BoxFuture;

pub struct Browser {
    loopback: Loopback,
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

    pub async fn with_consent_script(script: Option<Vec<std::path::PathBuf>>) -> Self {
        Self {
            loopback: Loopback::bind().await.expect("a loopback port"),
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
        let (query, ()) = tokio::join!(self.loopback.receive(), visit);
        query
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
