//! Password hashes: argon2id hashing and checking, and the `PasswordGate` that runs at most a
//! few at once on threads of its own, queueing a bounded number of callers for a bounded time.
//!
//! An argon2id hash takes about 19 MB of memory and tens of milliseconds of one core, by
//! design. Hundreds of sign-ups or logins at once, each hashing on whatever thread it landed
//! on, would take gigabytes and every core. A sign-in is first admitted ([`PasswordGate::admit`],
//! before it touches the database): at most `concurrent + queue` are admitted at once, anyone
//! beyond is refused at once with [`HashError::Busy`] (the web layer's 503 with
//! `Retry-After`), having changed nothing. Admitted ones hash `concurrent` at a time on
//! `concurrent` threads that keep their memory for the next hash; the others wait their turn
//! for at most `wait`, then are refused the same way.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use std::cell::RefCell;

use argon2::password_hash::{Output, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::{Semaphore, oneshot};

/// An argon2id hash of a random password, checked against when the user does not exist, so
/// that timing does not tell which names exist.
pub const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c2xvd2Z1c2VkdW1teQ$J1y7iVfYxwYjKxv8a9mVvQ3Jq8kz7oS5lq1dW1cSxXc";

thread_local! {
    /// The argon2 working memory of this thread (about 19 MB), made once and used by every
    /// hash the thread makes: a fresh allocation per hash fragments the allocator's heap and
    /// grows the process by about that much each time.
    static MEMORY: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's working memory, `blocks` long.
fn with_memory<T>(blocks: usize, f: impl FnOnce(&mut [Block]) -> T) -> T {
    MEMORY.with(|memory| {
        let mut memory = memory.borrow_mut();
        if memory.len() != blocks {
            memory.clear();
            memory.shrink_to_fit();
            memory.resize(blocks, Block::default());
        }
        f(&mut memory[..])
    })
}

/// The argon2id hash of `password` with a fresh random salt, as a PHC string (argon2's
/// default cost: 19 MiB, two passes, one lane).
pub fn hash_password(password: &str) -> String {
    let salt_bytes: [u8; 16] = rand::random();
    let salt = SaltString::encode_b64(&salt_bytes).expect("16 bytes encode");
    let params = Params::default();
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    with_memory(params.block_count(), |memory| {
        argon.hash_password_into_with_memory(password.as_bytes(), &salt_bytes, &mut out, memory)
    })
    .expect("argon2id hashing with default parameters");
    let output = Output::new(&out).expect("a 32-byte output");
    format!(
        "$argon2id$v=19$m={},t={},p={}${}${}",
        params.m_cost(),
        params.t_cost(),
        params.p_cost(),
        salt.as_str(),
        output
    )
}

/// Whether `password` is the one `hash` (a PHC string) was made from; an unreadable hash
/// matches nothing. The comparison takes the same time wherever the outputs differ.
pub fn password_matches(hash: &str, password: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    let (Ok(algorithm), Ok(params)) = (
        Algorithm::try_from(parsed.algorithm),
        Params::try_from(&parsed),
    ) else {
        return false;
    };
    let Ok(version) = parsed.version.map_or(Ok(Version::V0x13), Version::try_from) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let mut salt_buf = [0u8; 64];
    let Ok(salt_bytes) = salt.decode_b64(&mut salt_buf) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    let argon = Argon2::new(algorithm, version, params.clone());
    let made = with_memory(params.block_count(), |memory| {
        argon.hash_password_into_with_memory(password.as_bytes(), salt_bytes, &mut out, memory)
    });
    made.is_ok() && Output::new(&out).is_ok_and(|o| o == expected)
}

/// Why the gate did not hash.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// Too many hashes asked for at once: the queue was full, or the wait ran out.
    #[error("Too many sign-ins at once; try again in a moment")]
    Busy,
    /// A hashing thread is gone (it panicked): the server's fault.
    #[error("the password hashing thread stopped")]
    Stopped,
}

type Job = Box<dyn FnOnce() + Send>;

/// At most `concurrent` hashes at once, on threads of their own; a bounded queue before them.
pub struct PasswordGate {
    permits: Semaphore,
    admitted: AtomicUsize,
    /// The most admitted at once: those hashing and those waiting.
    most: usize,
    wait: Duration,
    jobs: Mutex<mpsc::Sender<Job>>,
}

impl PasswordGate {
    /// Starts `concurrent` hashing threads (0: one per core). Up to `queue` callers wait for
    /// one, each for at most `wait`.
    pub fn new(concurrent: usize, queue: usize, wait: Duration) -> Arc<PasswordGate> {
        let concurrent = if concurrent == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            concurrent
        };
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..concurrent {
            let receiver = Arc::clone(&receiver);
            std::thread::Builder::new()
                .name(format!("password-hash-{n}"))
                .spawn(move || {
                    loop {
                        // The lock is held only while taking a job, never while hashing.
                        let job = match receiver.lock() {
                            Ok(jobs) => jobs.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return, // the gate is gone
                        }
                    }
                })
                .expect("start a password hashing thread");
        }
        Arc::new(PasswordGate {
            permits: Semaphore::new(concurrent),
            admitted: AtomicUsize::new(0),
            most: concurrent + queue,
            wait,
            jobs: Mutex::new(sender),
        })
    }

    /// A place among the sign-ins under way, or `Busy` when `concurrent + queue` already are;
    /// given back when the admission is dropped.
    pub fn admit(self: &Arc<Self>) -> Result<Admission, HashError> {
        let before = self.admitted.fetch_add(1, Ordering::SeqCst);
        let admission = Admission(Arc::clone(self));
        if before >= self.most {
            return Err(HashError::Busy);
        }
        Ok(admission)
    }

    /// Waits for a hashing thread (at most `wait`), then runs `work` on it.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashError> {
        let _turn = tokio::time::timeout(self.wait, self.permits.acquire())
            .await
            .map_err(|_| HashError::Busy)?
            .map_err(|_| HashError::Stopped)?;
        let (done, result) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = done.send(work());
        });
        self.jobs
            .lock()
            .map_err(|_| HashError::Stopped)?
            .send(job)
            .map_err(|_| HashError::Stopped)?;
        result.await.map_err(|_| HashError::Stopped)
    }
}

/// One sign-in admitted through the gate: it may hash or check its password.
pub struct Admission(Arc<PasswordGate>);

impl Admission {
    /// The argon2id hash of `password`, made on a hashing thread.
    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        self.0.run(move || hash_password(&password)).await
    }

    /// Whether `password` matches `hash`, checked on a hashing thread.
    pub async fn verify(&self, hash: String, password: String) -> Result<bool, HashError> {
        self.0.run(move || password_matches(&hash, &password)).await
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.admitted.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_only_the_right_password() {
        let h = hash_password("correct horse battery");
        assert!(h.starts_with("$argon2id$"));
        assert!(password_matches(&h, "correct horse battery"));
        assert!(!password_matches(&h, "wrong horse battery"));
        assert!(!password_matches("not a hash", "anything"));
        // Hashes made by argon2's own `PasswordHasher` (every account so far) still match.
        use argon2::password_hash::PasswordHasher;
        let salt = SaltString::encode_b64(b"sixteen byte salt").expect("salt");
        let theirs = Argon2::default()
            .hash_password(b"correct horse battery", &salt)
            .expect("hash")
            .to_string();
        assert!(password_matches(&theirs, "correct horse battery"));
        assert!(!password_matches(&theirs, "correct horse batter"));
        let ours_shape = h.rsplitn(3, '$').nth(2).expect("the head");
        assert!(theirs.starts_with(ours_shape), "{theirs} and {h}");
    }

    /// Occupies the gate's one thread until the returned sender is dropped.
    async fn occupy(gate: &Arc<PasswordGate>) -> std::sync::mpsc::Sender<()> {
        let (release, held) = std::sync::mpsc::channel::<()>();
        let holder = gate.admit().expect("admitted");
        tokio::spawn(async move { holder.0.run(move || held.recv()).await });
        while gate.permits.available_permits() > 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        release
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn callers_beyond_the_queue_are_refused_at_once_and_the_queue_served() {
        let gate = PasswordGate::new(1, 2, Duration::from_secs(60));
        let release = occupy(&gate).await;
        let calls: Vec<_> = (0..5)
            .map(|_| {
                let gate = Arc::clone(&gate);
                tokio::spawn(async move { gate.admit()?.hash("a long password".into()).await })
            })
            .collect();
        while gate.admitted.load(Ordering::SeqCst) < 3 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        // Two wait; the other three are refused while the thread is still busy.
        let (mut refused, mut queued) = (0, Vec::new());
        for call in calls {
            if call.is_finished() {
                assert!(matches!(call.await.expect("task"), Err(HashError::Busy)));
                refused += 1;
            } else {
                queued.push(call);
            }
        }
        for _ in 0..1000 {
            if refused == 3 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
            let (done, waiting): (Vec<_>, Vec<_>) =
                queued.into_iter().partition(|c| c.is_finished());
            for call in done {
                assert!(matches!(call.await.expect("task"), Err(HashError::Busy)));
                refused += 1;
            }
            queued = waiting;
        }
        assert_eq!((refused, queued.len()), (3, 2));
        drop(release);
        for call in queued {
            let hash = call.await.expect("task").expect("hashed after the wait");
            assert!(password_matches(&hash, "a long password"));
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_wait_that_runs_out_is_busy() {
        let gate = PasswordGate::new(1, 10, Duration::from_millis(50));
        let release = occupy(&gate).await;
        let admitted = gate.admit().expect("admitted");
        let refused = admitted.verify(DUMMY_HASH.into(), "x".into()).await;
        assert!(matches!(refused, Err(HashError::Busy)));
        drop(release);
        let checked = admitted.verify(DUMMY_HASH.into(), "x".into()).await;
        assert_eq!(checked.ok(), Some(false));
    }
}
