//! A real OpenSSH server for `--ssh` tests: `sshd` on a free loopback port, running as
//! the current user, with a throw-away host key and user key and its own
//! configuration; killed on drop. Clients reach it through the ssh configuration file
//! [`Sshd::client_config`] (ssh reads `~/.ssh` from the passwd home, not `$HOME`, so
//! tests pass `--ssh-config`), which pins the host key in a private known_hosts.

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use super::{wait_for, Scratch};

const SSHD: &str = "/usr/sbin/sshd";

pub struct Sshd {
    child: Child,
    pub scratch: Scratch,
    pub port: u16,
    user: String,
}

impl Sshd {
    /// Starts sshd; `None` (and a loud note) when it is not installed, except in CI
    /// (`CI` set), where that fails the test.
    pub fn start() -> Option<Self> {
        if !Path::new(SSHD).is_file() {
            let message = format!("--ssh test SKIPPED: {SSHD} is not installed (apt-get install openssh-server)");
            assert!(
                std::env::var_os("CI").is_none(),
                "{message}; CI installs it and never skips"
            );
            eprintln!("\n!!!!!!!!!! {message} !!!!!!!!!!\n");
            return None;
        }
        let scratch = Scratch::new();
        for key in ["host", "user"] {
            let status = Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-f", &scratch.path(key)])
                .stdin(Stdio::null())
                .status()
                .expect("run ssh-keygen");
            assert!(status.success(), "ssh-keygen failed");
        }
        let user = String::from_utf8(Command::new("id").arg("-un").output().expect("id -un").stdout)
            .unwrap()
            .trim()
            .to_string();
        // sshd checks that its privilege separation folder exists even when it cannot
        // use it; only root can make it, and only root needs it.
        let _ = std::fs::create_dir_all("/run/sshd");
        let port = free_port();
        let root = user == "root";
        let config = format!(
            "ListenAddress 127.0.0.1\nPort {port}\nHostKey {host}\nAuthorizedKeysFile {user_pub}\n\
             PidFile {pid}\nUsePAM no\nStrictModes no\nPermitRootLogin {root_login}\n\
             PubkeyAuthentication yes\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n\
             PrintMotd no\nPrintLastLog no\nAllowTcpForwarding no\nX11Forwarding no\n",
            host = scratch.path("host"),
            user_pub = scratch.path("user.pub"),
            pid = scratch.path("sshd.pid"),
            root_login = if root { "prohibit-password" } else { "no" },
        );
        std::fs::write(scratch.path("sshd_config"), config).unwrap();
        let host_key = std::fs::read_to_string(scratch.path("host.pub")).unwrap();
        let host_key: Vec<&str> = host_key.split_whitespace().take(2).collect();
        std::fs::write(
            scratch.path("known_hosts"),
            format!("[127.0.0.1]:{port} {}\n", host_key.join(" ")),
        )
        .unwrap();
        let client = format!(
            "Host *\n  IdentityFile {key}\n  IdentitiesOnly yes\n  UserKnownHostsFile {known}\n  \
             GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n  LogLevel ERROR\n",
            key = scratch.path("user"),
            known = scratch.path("known_hosts"),
        );
        std::fs::write(scratch.path("ssh_config"), client).unwrap();
        let log = std::fs::File::create(scratch.path("sshd.log")).unwrap();
        let child = Command::new(SSHD)
            .args(["-D", "-e", "-f", &scratch.path("sshd_config")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start sshd");
        let sshd = Self {
            child,
            scratch,
            port,
            user,
        };
        wait_for("sshd to listen", || {
            TcpStream::connect(("127.0.0.1", port)).ok().map(drop)
        });
        Some(sshd)
    }

    /// The destination as a URI (the form with a port).
    pub fn destination(&self) -> String {
        format!("ssh://{}@127.0.0.1:{}", self.user, self.port)
    }

    /// The ssh client configuration that reaches this server.
    pub fn client_config(&self) -> String {
        self.scratch.path("ssh_config")
    }

    /// What sshd logged (to explain a failure).
    pub fn log(&self) -> String {
        self.scratch.read("sshd.log")
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback port nothing listens on now (the kernel's pick, released at once).
fn free_port() -> u16 {
    let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
    listener.local_addr().unwrap().port()
}
