//! What `serve --http` is told: where to listen, where the token is, and which `Host`
//! and `Origin` values to accept besides loopback ones.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

/// Where the bearer token comes from.
#[derive(Clone, PartialEq, Eq)]
pub enum TokenSource {
    /// `--token-file FILE`: read at start-up.
    File(PathBuf),
    /// `PANEWARD_TOKEN`: its value (never printed).
    Environment(String),
}

impl std::fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::File(path) => write!(f, "File({})", path.display()),
            Self::Environment(_) => f.write_str("Environment(..)"),
        }
    }
}

/// The settings of `serve --http`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    pub bind: SocketAddr,
    pub token: TokenSource,
    /// `--allow-origin`: browser origins accepted besides loopback ones, as
    /// `scheme://host:port` (`:*` for any port).
    pub extra_origins: Vec<String>,
    /// `--allow-host`: `Host` values accepted besides loopback names and the bound
    /// address, as `name` or `name:port`.
    pub extra_hosts: Vec<String>,
}

/// Loopback names a `Host` header may carry.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];
/// Browser origins on this machine, any port.
const LOOPBACK_ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

impl HttpOptions {
    /// Accepted `Host` values: loopback names, the bound address unless it is the
    /// wildcard, then `--allow-host`.
    pub fn allowed_hosts(&self) -> Vec<String> {
        let mut hosts: Vec<String> = LOOPBACK_HOSTS.map(String::from).to_vec();
        let ip = self.bind.ip();
        if !ip.is_unspecified() && !ip.is_loopback() {
            hosts.push(ip.to_string());
        }
        hosts.extend(self.extra_hosts.iter().cloned());
        hosts
    }

    /// Accepted `Origin` values: loopback origins, then `--allow-origin`. A request
    /// without `Origin` (not from a browser) is accepted.
    pub fn allowed_origins(&self) -> Vec<String> {
        let mut origins: Vec<String> = LOOPBACK_ORIGINS.map(String::from).to_vec();
        origins.extend(self.extra_origins.iter().cloned());
        origins
    }
}

/// `--http`'s value: a port alone binds loopback; else `IP:PORT` (`[IPv6]:PORT`), or
/// `localhost:PORT`.
///
/// # Errors
/// Anything else, named in the message.
pub fn parse_bind(text: &str) -> Result<SocketAddr, String> {
    let loopback = |port: &str| {
        port.parse::<u16>()
            .map(|port| SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port))
            .map_err(|_| format!("--http: {port:?} is not a port number"))
    };
    if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() {
        return loopback(text);
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        return loopback(port);
    }
    text.parse::<SocketAddr>().map_err(|_| {
        format!("--http: {text:?} is neither a port nor IP:PORT (such as 8765, 127.0.0.1:8765 or [::1]:8765)")
    })
}

/// An `--allow-origin` value must name a scheme, as rmcp's matching needs.
///
/// # Errors
/// No `scheme://` prefix.
pub fn checked_origin(text: &str) -> Result<String, String> {
    match text.split_once("://") {
        Some((scheme, host)) if !scheme.is_empty() && !host.is_empty() => Ok(text.to_string()),
        _ => Err(format!(
            "--allow-origin: {text:?} must be scheme://host[:port], such as https://app.example.com:443"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_alone_binds_loopback_and_an_address_binds_where_it_says() {
        assert_eq!(parse_bind("8765").unwrap(), "127.0.0.1:8765".parse().unwrap());
        assert_eq!(parse_bind("localhost:9").unwrap(), "127.0.0.1:9".parse().unwrap());
        assert_eq!(parse_bind("0.0.0.0:80").unwrap(), "0.0.0.0:80".parse().unwrap());
        assert_eq!(parse_bind("[::1]:80").unwrap(), "[::1]:80".parse().unwrap());
        assert!(parse_bind("example.com:80").is_err());
        assert!(parse_bind("99999").is_err());
        assert!(parse_bind("").is_err());
    }

    #[test]
    fn hosts_and_origins_are_loopback_plus_what_is_given() {
        let options = HttpOptions {
            bind: "192.0.2.7:8765".parse().unwrap(),
            token: TokenSource::Environment("x".into()),
            extra_origins: vec!["https://app.example:443".into()],
            extra_hosts: vec!["box.example".into()],
        };
        assert_eq!(
            options.allowed_hosts(),
            ["localhost", "127.0.0.1", "::1", "192.0.2.7", "box.example"]
        );
        assert_eq!(options.allowed_origins().last().unwrap(), "https://app.example:443");
        assert_eq!(format!("{:?}", options.token), "Environment(..)");
        assert!(checked_origin("app.example").is_err());
    }
}
