//! The engine's process: spawned in a process group of its own, lines written to its standard
//! input, lines read from its standard output with a deadline, and its end (quit, or killed with
//! everything it started).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::UciError;

/// A line longer than this is cut (an engine line is a few hundred bytes; a `pv` a few KB).
const MAX_LINE: u64 = 1 << 20;

/// A running program with piped standard input and output. Dropping it kills the program.
pub(crate) struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    ended: bool,
}

/// Spawns `command`, trying again for a moment while its file is busy: a program just written
/// (or replaced by an upgrade) stays "text file busy" while any process forked at that moment
/// still holds it open for writing, until that process runs its own program.
fn spawn_when_not_busy(command: &mut Command) -> std::io::Result<std::process::Child> {
    let mut tries = 0;
    loop {
        match command.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 40 => {
                tries += 1;
                thread::sleep(std::time::Duration::from_millis(25));
            }
            other => return other,
        }
    }
}

impl EngineProcess {
    /// Starts `path args…` with its standard error discarded; a thread reads its standard
    /// output line by line.
    pub fn spawn(path: &Path, args: &[String]) -> Result<EngineProcess, UciError> {
        let mut command = Command::new(path);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = spawn_when_not_busy(&mut command).map_err(UciError::Spawn)?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, stdout),
            _ => unreachable!("both pipes were asked for"),
        };
        let (sender, lines) = mpsc::channel();
        let reader = thread::Builder::new()
            .name("uci-reader".into())
            .spawn(move || {
                let mut stdout = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match (&mut stdout).take(MAX_LINE).read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buffer);
                            let line = line.trim_end_matches(['\n', '\r']).to_string();
                            if sender.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        let mut process = EngineProcess {
            child,
            stdin,
            lines,
            ended: false,
        };
        if let Err(error) = reader {
            process.kill();
            return Err(UciError::Spawn(error));
        }
        Ok(process)
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes one command line.
    pub fn send(&mut self, line: &str) -> Result<(), UciError> {
        let written = self
            .stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.stdin.flush());
        written.map_err(|error| match error.kind() {
            io::ErrorKind::BrokenPipe => UciError::Exited,
            _ => UciError::Io(error),
        })
    }

    /// The next line from the engine: `Timeout` when none comes before `deadline`, `Exited`
    /// when the engine closed its output (it has ended).
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, UciError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(wait).map_err(|error| match error {
            RecvTimeoutError::Timeout => UciError::Timeout,
            RecvTimeoutError::Disconnected => UciError::Exited,
        })
    }

    /// Asks the engine to `quit`, waits up to `grace` for it to close its output, then kills
    /// whatever is left of its process group and collects its exit.
    pub fn quit(&mut self, grace: Duration) {
        if self.ended {
            return;
        }
        if self.send("quit").is_ok() {
            let deadline = Instant::now() + grace;
            while let Ok(_line) = self.read_line(deadline) {}
        }
        self.kill();
    }

    /// Kills the engine and every process of its group (a wrapper script's engine too), then
    /// collects its exit. The group is signalled before the exit is collected, while its id
    /// cannot belong to anyone else.
    pub fn kill(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        #[cfg(unix)]
        if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: kill(2) has no memory effects; the group is ours (process_group(0) at
            // spawn) and its leader has not been waited for yet.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
