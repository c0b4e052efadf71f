//! A job as tmux keeps it: its id, the pane options that record it, and the shells
//! `run_command` types into.
//!
//! A job of pane `%P` is `%P:X` to the caller, where `X` (128 bits in hex) is the first
//! half of the SHA-256 of the job's *seal*, 128 random bits from the operating system
//! that only the wrapper script holds. It lives in pane `%P`'s user options:
//! `@paneward_job_X` holds [`STAGED`] from before anything of the job is staged, and the
//! time paneward typed it (Unix milliseconds, paneward's clock) from the very tmux step
//! that types its line; `@paneward_run_X` is set when the shell fetches the wrapper;
//! `@paneward_exit_X` holds `<status> <Unix seconds> <seal>` (the tmux host's clock),
//! set by the wrapper when the command ends. The wrapper script waits in buffer
//! `paneward_X_job` until the shell fetches it (and deletes it). Nothing is kept in
//! paneward's memory or in files, so a restarted paneward, or one on another machine,
//! reads the same job; and everything goes when the pane does.
//!
//! Why `staged`: a paneward that stops between staging and typing (killed, its client
//! gone) leaves a record that says, for certain, that nothing was typed, since the one
//! step that types the line is the one that overwrites it. The next `run_command` in
//! the pane removes that record and its buffer and goes on; a job recorded as typed
//! but not fetched still holds the pane, as its shell may yet read the line.
//!
//! Why a seal: the command runs with the pane's `$TMUX`, so it can read every option
//! and buffer and set any option. It can learn `X` and write `@paneward_exit_X`, or
//! print an end marker, but not the seal: the seal is only in the wrapper's text, which
//! leaves tmux (the buffer is deleted) before the command starts, and it is told only
//! after the command ended (in the end marker and the status). An exit status counts
//! only with a seal whose hash is the job's id ([`Recorded::sealed_exit`]), so no other
//! key, no memory of paneward's and nothing the command can read is needed to check it.

use crate::runtime::error::{short_echo, ToolError, ToolErrorKind};
use crate::tmux::PaneId;
use sha2::{Digest, Sha256};

/// Hex digits of a job's random part.
const ID_HEX_DIGITS: usize = 32;

/// A program name as an error message repeats it: escaped and bounded (a program
/// chooses its own name).
pub fn shown_program(program: &str) -> String {
    let shown = short_echo(program);
    format!("{:?}", shown)
}

/// One job: its pane and random part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobId {
    pub pane: PaneId,
    pub random: String,
}

/// The half of SHA-256(`seal`) that names the job, in hex.
fn sealed_id(seal: &str) -> String {
    let digest = Sha256::digest(seal.as_bytes());
    crate::runtime::hex::encode(&digest[..ID_HEX_DIGITS / 2])
}

impl JobId {
    /// A new job of `pane` and its seal (see the module documentation).
    ///
    /// # Errors
    /// The operating system giving no randomness.
    pub fn new(pane: PaneId) -> Result<(Self, String), ToolError> {
        let mut bytes = [0u8; ID_HEX_DIGITS / 2];
        getrandom::fill(&mut bytes)
            .map_err(|error| ToolError::internal(format!("no randomness for a job seal: {error}")))?;
        let seal = crate::runtime::hex::encode(&bytes);
        let job = Self {
            pane,
            random: sealed_id(&seal),
        };
        Ok((job, seal))
    }

    /// Whether `seal` is this job's.
    pub fn is_sealed_by(&self, seal: &str) -> bool {
        seal.len() == ID_HEX_DIGITS && sealed_id(seal) == self.random
    }

    /// Reads `%P:X` as run_command returns it.
    ///
    /// # Errors
    /// Any other form, named as `field`.
    pub fn parse(field: &str, text: &str) -> Result<Self, ToolError> {
        let bad =
            || ToolError::invalid_argument(field, "must be a job id as run_command returns it (%N:<32 hex digits>)");
        let (pane, random) = text.split_once(':').ok_or_else(bad)?;
        let pane: PaneId = pane.parse().map_err(|_| bad())?;
        if random.len() != ID_HEX_DIGITS || !random.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')) {
            return Err(bad());
        }
        Ok(Self {
            pane,
            random: random.to_string(),
        })
    }

    /// The pane option holding when the job was typed.
    pub fn started_option(&self) -> String {
        format!("@paneward_job_{}", self.random)
    }

    /// The pane option the typed line sets when the shell fetches the wrapper.
    pub fn fetched_option(&self) -> String {
        format!("@paneward_run_{}", self.random)
    }

    /// The pane option the wrapper sets to the exit status.
    pub fn exit_option(&self) -> String {
        format!("@paneward_exit_{}", self.random)
    }

    /// The pane option that makes the job a task (the Tasks extension): what the reply
    /// needs that the job does not record (`TaskRecord`).
    pub fn task_option(&self) -> String {
        format!("@paneward_task_{}", self.random)
    }

    /// The pane option that says `tasks/cancel` interrupted the job, and when (Unix
    /// milliseconds); set in the tmux step that types the interrupt.
    pub fn cancel_option(&self) -> String {
        format!("@paneward_cancel_{}", self.random)
    }

    /// The buffer the wrapper waits in until the shell fetches it.
    pub fn buffer(&self) -> String {
        format!("paneward_{}_job", self.random)
    }

    /// A refusal for an id this pane holds no job for.
    pub fn unknown(&self) -> ToolError {
        ToolError::new(
            ToolErrorKind::NotFound,
            format!(
                "pane {} holds no job {self}: it was issued by another tmux server, or for another pane, or \
                 collected (a finished job stays until the next run_command in its pane)",
                self.pane
            ),
        )
    }
}

impl std::fmt::Display for JobId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.pane, self.random)
    }
}

/// What `@paneward_job_X` holds from before a job is staged until its line is typed.
pub const STAGED: &str = "staged";

/// What the pane's options say about one job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub random: String,
    /// When paneward typed it (Unix milliseconds), if readable.
    pub started_ms: Option<u64>,
    /// Staged and never typed ([`STAGED`]).
    pub staged: bool,
    /// The shell fetched the wrapper.
    pub fetched: bool,
    /// What the exit option holds, as written (sealed or not).
    pub exit: Option<Exit>,
    /// The job is a task: what its reply needs.
    pub task: Option<TaskRecord>,
    /// When `tasks/cancel` interrupted it (Unix milliseconds).
    pub cancelled_ms: Option<u64>,
}

/// What a job that is a task keeps beside its record: the parts of `run_command`'s
/// reply that the job itself does not say (how many lines, the wait asked for).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskRecord {
    pub max_lines: usize,
    pub timeout_ms: u64,
    pub timeout_clamped: bool,
}

impl TaskRecord {
    /// The option's value: three numbers.
    pub fn value(&self) -> String {
        format!(
            "{} {} {}",
            self.max_lines,
            self.timeout_ms,
            u8::from(self.timeout_clamped)
        )
    }

    /// Reads [`TaskRecord::value`]; `None` for anything else.
    pub fn parse(value: &str) -> Option<Self> {
        let mut words = value.split(' ');
        let max_lines = words.next()?.parse().ok()?;
        let timeout_ms = words.next()?.parse().ok()?;
        let timeout_clamped = match words.next()? {
            "0" => false,
            "1" => true,
            _ => return None,
        };
        words.next().is_none().then_some(Self {
            max_lines,
            timeout_ms,
            timeout_clamped,
        })
    }
}

/// An exit option's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exit {
    pub status: i64,
    /// The Unix second it was reported.
    pub at: Option<u64>,
    pub seal: String,
}

impl Recorded {
    /// The exit, if the wrapper wrote it: its seal is the job's. Anything else in the
    /// option was written by someone else (the command itself) and does not count.
    pub fn sealed_exit(&self) -> Option<&Exit> {
        let job = JobId {
            pane: PaneId(0),
            random: self.random.clone(),
        };
        self.exit.as_ref().filter(|exit| job.is_sealed_by(&exit.seal))
    }
}

/// The jobs recorded in a pane's options, from `show-options -p` output (`name value`
/// lines; values paneward and its wrapper write hold digits and one space, quoted by
/// tmux when they hold a space).
pub fn recorded_jobs(options: &str) -> Vec<Recorded> {
    fn entry(jobs: &mut Vec<Recorded>, random: &str) -> usize {
        if let Some(index) = jobs.iter().position(|job| job.random == random) {
            return index;
        }
        jobs.push(Recorded {
            random: random.to_string(),
            started_ms: None,
            staged: false,
            fetched: false,
            exit: None,
            task: None,
            cancelled_ms: None,
        });
        jobs.len() - 1
    }
    let mut jobs: Vec<Recorded> = Vec::new();
    for line in options.lines() {
        let Some((name, value)) = line.split_once(' ') else {
            continue;
        };
        let value = value.trim_matches('"');
        if let Some(random) = name.strip_prefix("@paneward_job_") {
            let index = entry(&mut jobs, random);
            jobs[index].staged = value == STAGED;
            jobs[index].started_ms = value.parse().ok();
        } else if let Some(random) = name.strip_prefix("@paneward_run_") {
            let index = entry(&mut jobs, random);
            jobs[index].fetched = true;
        } else if let Some(random) = name.strip_prefix("@paneward_task_") {
            let index = entry(&mut jobs, random);
            jobs[index].task = TaskRecord::parse(value);
        } else if let Some(random) = name.strip_prefix("@paneward_cancel_") {
            let index = entry(&mut jobs, random);
            jobs[index].cancelled_ms = value.parse().ok();
        } else if let Some(random) = name.strip_prefix("@paneward_exit_") {
            let index = entry(&mut jobs, random);
            let mut words = value.split(' ');
            let status = words.next().and_then(|w| w.parse().ok());
            let at = words.next().and_then(|w| w.parse().ok());
            let seal = words.next().unwrap_or_default().to_string();
            jobs[index].exit = Some(Exit {
                status: status.unwrap_or(-1),
                at,
                seal,
            });
        }
    }
    jobs
}

pub use crate::runtime::clock::now_ms;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_id_round_trips_and_other_forms_are_refused() {
        let (id, seal) = JobId::new(PaneId(7)).unwrap();
        assert!(id.is_sealed_by(&seal));
        assert!(!id.is_sealed_by(&id.random), "the id is not its own seal");
        let parsed = JobId::parse("/job_id", &id.to_string()).unwrap();
        assert_eq!(parsed, id);
        for bad in [
            "",
            "%7",
            "7:abc",
            "%7:ABCDEF0123456789ABCDEF0123456789",
            "%x:0123456789abcdef0123456789abcdef",
        ] {
            let error = JobId::parse("/job_id", bad).unwrap_err().to_string();
            assert!(error.contains("/job_id"), "{bad}: {error}");
        }
    }

    #[test]
    fn the_options_of_a_pane_give_its_jobs() {
        let (job, seal) = JobId::new(PaneId(1)).unwrap();
        let x = &job.random;
        let options = format!(
            "@other 1\n@paneward_job_{x} 1700000000123\n@paneward_run_{x} 1\n@paneward_exit_{x} \"7 1700000001 {seal}\"\n\
             @paneward_job_cd 5\n@paneward_exit_cd \"0 1700000001 forged\"\n@paneward_job_ef staged\n"
        );
        let jobs = recorded_jobs(&options);
        assert_eq!(jobs.len(), 3);
        assert!(jobs[2].staged && jobs[2].started_ms.is_none(), "staged, never typed");
        assert!(!jobs[0].staged && !jobs[1].staged);
        assert_eq!(jobs[0].started_ms, Some(1_700_000_000_123));
        assert!(jobs[0].fetched);
        let exit = jobs[0].sealed_exit().unwrap();
        assert_eq!((exit.status, exit.at), (7, Some(1_700_000_001)));
        assert_eq!((jobs[1].started_ms, jobs[1].fetched), (Some(5), false));
        assert!(
            jobs[1].exit.is_some() && jobs[1].sealed_exit().is_none(),
            "a forged exit does not count"
        );
        assert_eq!((jobs[0].task, jobs[0].cancelled_ms), (None, None));
    }

    #[test]
    fn a_task_record_round_trips_and_other_values_are_not_one() {
        let record = TaskRecord {
            max_lines: 500,
            timeout_ms: 30_000,
            timeout_clamped: true,
        };
        assert_eq!(TaskRecord::parse(&record.value()), Some(record));
        for bad in ["", "500", "500 30000", "500 30000 2", "500 30000 1 x", "-1 0 0"] {
            assert_eq!(TaskRecord::parse(bad), None, "{bad:?}");
        }
        let (job, _) = JobId::new(PaneId(2)).unwrap();
        let x = &job.random;
        let options = format!(
            "@paneward_job_{x} 1700000000123\n@paneward_task_{x} \"{}\"\n@paneward_cancel_{x} 1700000000999\n",
            record.value()
        );
        let jobs = recorded_jobs(&options);
        assert_eq!(
            (jobs[0].task, jobs[0].cancelled_ms),
            (Some(record), Some(1_700_000_000_999))
        );
    }
}
