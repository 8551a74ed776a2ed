//! Stopping an instance gently: when the HTTP server has finished its requests after a
//! SIGTERM, the background loops are told to stop; each finishes what it holds (the mail row it
//! claimed, the computer move it is playing, the analysis position it is judging) and then ends,
//! and the process exits once they all have.

use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

/// The instance's "stop now" signal, shared by the background loops.
#[derive(Default)]
pub struct Shutdown {
    stopping: AtomicBool,
    notify: Notify,
}

impl Shutdown {
    /// Tells every loop to stop after what it is doing.
    pub fn begin(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// Whether the instance is stopping: checked between one piece of work and the next.
    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// Waits until `period` has passed or `wakeup` fired; `false` when the instance is
    /// stopping instead (then the loop should end).
    pub async fn wait(&self, period: std::time::Duration, wakeup: Option<&Notify>) -> bool {
        let stopped = self.notify.notified();
        tokio::pin!(stopped);
        stopped.as_mut().enable();
        if self.is_stopping() {
            return false;
        }
        let woken = async {
            match wakeup {
                Some(w) => w.notified().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = &mut stopped => {}
            _ = woken => {}
            _ = actix_web::rt::time::sleep(period) => {}
        }
        !self.is_stopping()
    }
}
