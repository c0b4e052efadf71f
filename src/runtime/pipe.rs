//! Room in the pipes a long reply goes through ([`REPLY_PIPE_BYTES`]).

use std::os::fd::AsFd;

use crate::limits::REPLY_PIPE_BYTES;

/// Asks the kernel to let the pipe behind `fd` hold [`REPLY_PIPE_BYTES`]. Not a pipe
/// (a file, a terminal, a socket), or refused (a lower limit set by the administrator,
/// the user's pipe pages spent): the pipe stays as it is, which costs only speed.
pub fn widen(fd: impl AsFd, what: &str) {
    #[cfg(target_os = "linux")]
    if let Err(error) = rustix::pipe::fcntl_setpipe_size(fd, REPLY_PIPE_BYTES) {
        tracing::debug!("{what}: the pipe keeps its size ({error})");
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (fd, what);
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_pipe_is_widened_and_anything_else_is_left_alone() {
        let (reader, writer) = std::io::pipe().unwrap();
        let before = rustix::pipe::fcntl_getpipe_size(&reader).unwrap();
        assert!(before < REPLY_PIPE_BYTES, "the kernel's default is smaller ({before})");
        widen(&writer, "a test pipe");
        // Either end names the one pipe.
        assert_eq!(rustix::pipe::fcntl_getpipe_size(&reader).unwrap(), REPLY_PIPE_BYTES);
        let file = std::fs::File::open("/dev/null").unwrap();
        widen(&file, "not a pipe");
        assert!(rustix::pipe::fcntl_getpipe_size(&file).is_err());
    }
}
