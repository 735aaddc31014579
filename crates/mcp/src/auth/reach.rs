//! Where sign-in may go for a server. Discovery follows addresses the server (or whoever
//! answers for it) names: the challenge's `resource_metadata`, the authorization servers
//! its metadata lists, the endpoints theirs list. Each is reached only if it is the
//! server's own origin, or an https address no farther inside the person's network than
//! the server itself: a server on the internet cannot make the app send requests (and
//! secrets) to the machine's own ports or the local network, while a server on this
//! machine may name an authorization server on another of its ports, over http too (the
//! traffic never leaves the machine).
//!
//! Addresses are judged by their host as written: IP literals and `localhost`. A name
//! that resolves to a private address is not looked up here.

use std::net::{Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

use super::AuthError;

/// How far inside the person's network an address is, outermost first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Public,
    /// Private, link-local, unique-local, shared and unspecified addresses.
    Private,
    /// This machine.
    Loopback,
}

/// The addresses sign-in may reach for one MCP server.
#[derive(Debug, Clone)]
pub struct Reach {
    server: Url,
}

impl Reach {
    pub fn of(server: &Url) -> Self {
        Self {
            server: server.clone(),
        }
    }

    /// For a server known by its resource URL (a grant's `resource`).
    pub fn of_resource(resource: &str) -> Result<Self, AuthError> {
        Url::parse(resource)
            .map(|server| Self { server })
            .map_err(|e| AuthError::Discovery {
                url: resource.to_owned(),
                detail: format!("not a URL: {e}"),
            })
    }

    /// `url` parsed, if sign-in may reach it; else why not.
    pub fn check(&self, url: &str) -> Result<Url, AuthError> {
        let parsed = Url::parse(url).map_err(|e| AuthError::Discovery {
            url: url.to_owned(),
            detail: format!("not a URL: {e}"),
        })?;
        if parsed.origin() == self.server.origin() {
            return Ok(parsed);
        }
        let refused = |reason: &str| AuthError::Unreachable {
            url: url.to_owned(),
            reason: reason.to_owned(),
        };
        let (target, server) = (place(&parsed), place(&self.server));
        if target > server {
            return Err(refused(match target {
                Place::Loopback => "it is on this machine, and the server is not",
                _ => "it is on a private network, and the server is not",
            }));
        }
        let within_machine = target == Place::Loopback;
        if parsed.scheme() != "https" && !within_machine {
            return Err(refused("it is not https"));
        }
        Ok(parsed)
    }
}

fn place(url: &Url) -> Place {
    match url.host() {
        Some(Host::Ipv4(ip)) => place_v4(ip),
        Some(Host::Ipv6(ip)) => match ip.to_ipv4_mapped() {
            Some(ip) => place_v4(ip),
            None => place_v6(ip),
        },
        Some(Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            if name == "localhost" || name.ends_with(".localhost") {
                Place::Loopback
            } else {
                Place::Public
            }
        }
        None => Place::Public,
    }
}

fn place_v4(ip: Ipv4Addr) -> Place {
    let shared = ip.octets()[0] == 100 && (ip.octets()[1] & 0xc0) == 64;
    if ip.is_loopback() {
        Place::Loopback
    } else if ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || shared
    {
        Place::Private
    } else {
        Place::Public
    }
}

fn place_v6(ip: Ipv6Addr) -> Place {
    let first = ip.segments()[0];
    if ip.is_loopback() {
        Place::Loopback
    } else if ip.is_unspecified() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80 {
        Place::Private
    } else {
        Place::Public
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(server: &str) -> Reach {
        Reach::of(&Url::parse(server).expect("a URL"))
    }

    fn refused(reach: &Reach, url: &str) -> String {
        match reach.check(url) {
            Err(AuthError::Unreachable { url: named, reason }) => {
                assert_eq!(named, url);
                reason
            }
            other => panic!("{url}: {other:?}"),
        }
    }

    #[test]
    fn a_server_on_the_internet_leads_sign_in_only_to_https_on_the_internet() {
        let reach = reach("https://mcp.example.com/mcp");
        for ok in [
            "https://auth.example.com/.well-known/oauth-authorization-server",
            "https://8.8.8.8/token",
            "https://mcp.example.com/register",
        ] {
            assert!(reach.check(ok).is_ok(), "{ok}");
        }
        assert_eq!(
            refused(&reach, "http://auth.example.com/token"),
            "it is not https"
        );
        assert_eq!(
            refused(&reach, "http://mcp.example.com:8080/token"),
            "it is not https"
        );
        for machine in [
            "https://127.0.0.1/token",
            "http://127.0.0.2:8080/",
            "https://[::1]/token",
            "https://localhost/token",
            "https://auth.localhost./token",
            "https://[::ffff:127.0.0.1]/token",
        ] {
            assert_eq!(
                refused(&reach, machine),
                "it is on this machine, and the server is not",
                "{machine}"
            );
        }
        for private in [
            "https://10.0.0.1/token",
            "https://172.16.5.4/token",
            "https://192.168.1.1/token",
            "https://169.254.169.254/latest/meta-data",
            "https://100.64.0.1/token",
            "https://0.0.0.0/token",
            "https://[fd00::1]/token",
            "https://[fe80::1]/token",
            "https://[::ffff:10.0.0.1]/token",
        ] {
            assert_eq!(
                refused(&reach, private),
                "it is on a private network, and the server is not",
                "{private}"
            );
        }
        assert!(matches!(
            reach.check("not a url"),
            Err(AuthError::Discovery { .. })
        ));
    }

    #[test]
    fn a_server_on_this_machine_may_name_its_other_ports_over_http() {
        let reach = reach("http://127.0.0.1:8000/mcp");
        for ok in [
            "http://127.0.0.1:8000/.well-known/oauth-protected-resource",
            "http://127.0.0.1:9000/token",
            "http://localhost:9000/token",
            "https://192.168.1.1/token",
            "https://auth.example.com/token",
        ] {
            assert!(reach.check(ok).is_ok(), "{ok}");
        }
        assert_eq!(
            refused(&reach, "http://192.168.1.1/token"),
            "it is not https"
        );
        assert_eq!(
            refused(&reach, "http://auth.example.com/token"),
            "it is not https"
        );
    }

    #[test]
    fn a_server_on_a_private_network_may_name_it_but_not_this_machine() {
        let reach = reach("http://10.1.2.3/mcp");
        assert!(
            reach.check("http://10.1.2.3/register").is_ok(),
            "own origin"
        );
        assert!(reach.check("https://10.9.9.9/token").is_ok());
        assert_eq!(refused(&reach, "http://10.9.9.9/token"), "it is not https");
        assert_eq!(
            refused(&reach, "https://127.0.0.1/token"),
            "it is on this machine, and the server is not"
        );
    }
}
