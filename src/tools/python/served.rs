//! The tmux server paneward serves, as libtmux names servers. To libtmux a
//! `socket_name` is `tmux -L NAME`: the socket NAME in tmux's socket folder (`tmux-UID`
//! under `$TMUX_TMPDIR`, else `/tmp`). So the served server's *real name* is its
//! socket's file name when the socket lies in that folder, however paneward was told
//! of it (`-L`, `-S`, `LIBTMUX_SOCKET`, `LIBTMUX_SOCKET_PATH`, or the `$TMUX` of the
//! pane it runs in): `default` for the server a plain `tmux` starts, `work` for one
//! inherited from a pane of `tmux -L work`. A socket elsewhere (`-S /run/x.sock`) has
//! no name: no `-L` reaches it.
//!
//! A `socket_name` is accepted when it is that real name, or a path (it holds a `/`,
//! as paneward reads `LIBTMUX_SOCKET`) to that very socket; any other names another
//! server, which one paneward never drives.

use std::path::{Path, PathBuf};

use crate::guard::state::Settings;
use crate::tmux::native::socket::{socket_path, user_folder};
use crate::tmux::ServerAddress;

/// What identifies the served server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// Its name to libtmux, if a `-L` reaches it.
    pub name: Option<String>,
    /// Its socket, when known here (not for a name or the default over `--ssh`: that
    /// folder is on the other host).
    pub path: Option<PathBuf>,
    /// Whether paneward reaches it by path (`-S`, `LIBTMUX_SOCKET_PATH`, `$TMUX`), as
    /// libtmux would: then `get_server_info` reports the path, as libtmux-mcp does.
    pub by_path: bool,
}

impl Served {
    /// The server paneward's `settings` choose, in this process's environment.
    pub fn serving(settings: &Settings) -> Self {
        Self::of(&settings.address, settings.ssh_host.is_some(), |key| {
            std::env::var(key).ok()
        })
    }

    /// The server `address` chooses (on another host if `remote`), with the socket
    /// folder and `$TMUX` of `var`.
    pub fn of(address: &ServerAddress, remote: bool, var: impl Fn(&str) -> Option<String> + Copy) -> Self {
        if remote {
            // tmux runs on another host, in an ssh session of its own: no `$TMUX`
            // there, and its socket folder is not this one.
            return match address {
                ServerAddress::Name(name) => Self::named(name, None),
                ServerAddress::Default => Self::named("default", None),
                ServerAddress::Path(path) => Self {
                    name: None,
                    path: Some(path.clone()),
                    by_path: true,
                },
            };
        }
        let path = socket_path(address, var);
        match address {
            // `-L NAME` is the name libtmux uses, by definition.
            ServerAddress::Name(name) => Self::named(name, path),
            ServerAddress::Default | ServerAddress::Path(_) => {
                let inherited = matches!(address, ServerAddress::Default)
                    && var("TMUX").is_some_and(|v| !v.is_empty() && !v.starts_with(','));
                let folder = user_folder(var);
                let name = match (&path, &folder) {
                    (Some(path), Some(folder)) => name_in(path, folder),
                    _ => None,
                };
                Self {
                    name,
                    by_path: inherited || matches!(address, ServerAddress::Path(_)),
                    path,
                }
            }
        }
    }

    fn named(name: &str, path: Option<PathBuf>) -> Self {
        Self {
            name: Some(name.to_string()),
            path,
            by_path: false,
        }
    }

    /// Whether `socket_name` names this server: its real name, or a path to its socket.
    pub fn is_named_by(&self, socket_name: &str) -> bool {
        if self.name.as_deref() == Some(socket_name) {
            return true;
        }
        socket_name.contains('/')
            && self
                .path
                .as_deref()
                .is_some_and(|path| same_file(Path::new(socket_name), path))
    }

    /// The server in words, for a refusal.
    pub fn described(&self) -> String {
        match (&self.name, &self.path) {
            (Some(name), Some(path)) => format!("the tmux server of socket name {name:?}, at {}", path.display()),
            (Some(name), None) => format!("the tmux server of socket name {name:?}"),
            (None, Some(path)) => format!(
                "the tmux server at {}, outside tmux's socket folder, which no socket name reaches",
                path.display()
            ),
            (None, None) => "a tmux server whose socket cannot be found".to_string(),
        }
    }
}

/// `path`'s file name if `path` lies directly in `folder` (both as the file system
/// resolves them: `/tmp` may be a link).
fn name_in(path: &Path, folder: &Path) -> Option<String> {
    let parent = path.parent()?;
    if !same_file(parent, folder) {
        return None;
    }
    Some(path.file_name()?.to_string_lossy().into_owned())
}

/// Whether `a` and `b` are one place, links resolved where they exist.
fn same_file(a: &Path, b: &Path) -> bool {
    let resolved = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    resolved(a) == resolved(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + Copy + 'a {
        move |key| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| (*v).to_string())
    }

    #[test]
    fn the_real_name_is_the_sockets_name_in_tmuxs_folder() {
        let dir = std::env::temp_dir().to_string_lossy().into_owned();
        let folder = user_folder(env(&[("TMUX_TMPDIR", &dir)])).unwrap();
        let inside = |name: &str| format!("{},123,4", folder.join(name).display());
        // A plain `tmux`'s server, from a pane of it: "default", not "no name".
        let from_pane = inside("default");
        let vars = [("TMUX_TMPDIR", dir.as_str()), ("TMUX", from_pane.as_str())];
        let served = Served::of(&ServerAddress::Default, false, env(&vars));
        assert_eq!(served.name.as_deref(), Some("default"));
        assert!(served.by_path);
        assert!(served.is_named_by("default"));
        assert!(!served.is_named_by("work"));
        let path = folder.join("default").to_string_lossy().into_owned();
        assert!(served.is_named_by(&path), "its own path names it");
        // A pane of `tmux -L work`: "work", and "default" is another server.
        let from_work = inside("work");
        let vars = [("TMUX_TMPDIR", dir.as_str()), ("TMUX", from_work.as_str())];
        let served = Served::of(&ServerAddress::Default, false, env(&vars));
        assert!(served.is_named_by("work") && !served.is_named_by("default"));
        // Outside a pane, the default socket.
        let served = Served::of(&ServerAddress::Default, false, env(&vars[..1]));
        assert_eq!((served.name.as_deref(), served.by_path), (Some("default"), false));
        // -S into the folder is named; -S elsewhere is not.
        let in_folder = ServerAddress::Path(folder.join("w"));
        assert!(Served::of(&in_folder, false, env(&vars[..1])).is_named_by("w"));
        let elsewhere = Served::of(&ServerAddress::Path("/run/x/w".into()), false, env(&vars[..1]));
        assert_eq!(elsewhere.name, None);
        assert!(!elsewhere.is_named_by("w") && elsewhere.is_named_by("/run/x/w"));
        assert!(!elsewhere.is_named_by("default"));
    }

    #[test]
    fn over_ssh_the_address_says_it() {
        let served = Served::of(&ServerAddress::Default, true, env(&[("TMUX", "/tmp/t/x,1,0")]));
        assert!(served.is_named_by("default") && !served.is_named_by("x"));
        let served = Served::of(&ServerAddress::Name("w".into()), true, env(&[]));
        assert_eq!((served.name.as_deref(), served.path), (Some("w"), None));
    }
}
