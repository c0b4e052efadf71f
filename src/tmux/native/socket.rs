//! Where the tmux server's socket is, found the way the `tmux` binary finds it.

use std::path::PathBuf;

use crate::tmux::ServerAddress;

/// The socket path `tmux` would connect to for `address`, given the environment
/// variables `var` returns; `None` when tmux would not find one either.
///
/// `-S` is the path itself. With neither `-S` nor `-L`, a `$TMUX` of this server wins
/// (its first comma-separated field). Otherwise the socket is `NAME` (or `default`) in
/// `tmux-UID` under `$TMUX_TMPDIR` if that folder exists, else under `/tmp`.
pub fn socket_path(address: &ServerAddress, var: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let name = match address {
        ServerAddress::Path(path) => return Some(path.clone()),
        ServerAddress::Name(name) => name.as_str(),
        ServerAddress::Default => {
            if let Some(tmux) = var("TMUX").filter(|v| !v.is_empty() && !v.starts_with(',')) {
                let path = tmux.split(',').next().unwrap_or_default();
                return Some(PathBuf::from(path));
            }
            "default"
        }
    };
    Some(user_folder(var)?.join(name))
}

/// tmux's socket folder for this user: `tmux-UID` under `$TMUX_TMPDIR` if that folder
/// exists, else under `/tmp`.
pub fn user_folder(var: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let folder = var("TMUX_TMPDIR")
        .filter(|dir| !dir.is_empty())
        .and_then(|dir| std::fs::canonicalize(dir).ok())
        .or_else(|| std::fs::canonicalize("/tmp").ok())?;
    let uid = rustix::process::getuid().as_raw();
    Some(folder.join(format!("tmux-{uid}")))
}

/// Whether `tmux` marks this client as using the default socket (`CLIENT_DEFAULTSOCKET`):
/// it does whenever it built the path from a name rather than being given one.
pub fn is_default_socket(address: &ServerAddress, var: impl Fn(&str) -> Option<String>) -> bool {
    match address {
        ServerAddress::Path(_) => false,
        ServerAddress::Name(_) => true,
        ServerAddress::Default => var("TMUX").is_none_or(|v| v.is_empty() || v.starts_with(',')),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |key| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| (*v).to_string())
    }

    #[test]
    fn a_path_is_used_as_given_and_tmux_names_the_default_server() {
        let path = ServerAddress::Path("/x/y".into());
        assert_eq!(socket_path(&path, env(&[])), Some(PathBuf::from("/x/y")));
        let inside = env(&[("TMUX", "/tmp/tmux-5/work,123,0")]);
        assert_eq!(
            socket_path(&ServerAddress::Default, inside),
            Some(PathBuf::from("/tmp/tmux-5/work"))
        );
        assert!(!is_default_socket(&ServerAddress::Default, env(&[("TMUX", "/s,1,0")])));
    }

    #[test]
    fn a_name_lives_in_the_users_folder_under_tmux_tmpdir() {
        let dir = std::env::temp_dir();
        let real = std::fs::canonicalize(&dir).unwrap();
        let dir = dir.to_string_lossy().into_owned();
        let path = socket_path(&ServerAddress::Name("w".into()), env(&[("TMUX_TMPDIR", &dir)])).unwrap();
        let uid = rustix::process::getuid().as_raw();
        assert_eq!(path, real.join(format!("tmux-{uid}")).join("w"));
        // -L ignores $TMUX.
        let named = socket_path(&ServerAddress::Name("w".into()), env(&[("TMUX", "/elsewhere,1,0")])).unwrap();
        assert!(named.ends_with(format!("tmux-{uid}/w")));
    }
}
