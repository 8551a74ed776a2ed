//! The revision checks of page views, shared: on PostgreSQL a view of a kept record asks the
//! database one number, the game's `revision`, and each such question is a round trip and a
//! statement for the database's CPU. Requests that ask while a check is out wait for the next
//! one, which asks for all of their games in one statement (`WHERE id = ANY(…)`), sent by one
//! of them; so under load one statement answers many views.
//!
//! No view misses a write: every answer comes from a statement sent after its request asked
//! (a request never joins a check already out), so a move acknowledged before a view began is
//! in the revision that view reads, as with a statement of its own. Only for reads outside any
//! transaction: an answer is not of the asker's snapshot. When the statement fails, each
//! waiting request asks on its own connection.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard};

use diesel::QueryResult;

/// The revisions of some games, by id (a game that does not exist is left out).
pub type Revisions = HashMap<i64, i64>;

/// One application's shared revision checks (it lives in the [`super::RecordCache`]).
#[derive(Default)]
pub struct SharedChecks {
    state: Mutex<Checks>,
    answered: Condvar,
}

#[derive(Default)]
struct Checks {
    /// The number of the check being gathered: the one a request asking now waits for.
    gathering: u64,
    /// The games asked of the check being gathered, and how many requests wait for it.
    asked: Vec<i64>,
    waiting: usize,
    /// Whether a check is out (its statement running).
    out: bool,
    /// The answers of checks that came back, until every request that waited has read its own.
    answers: HashMap<u64, Answer>,
}

struct Answer {
    /// `None`: the statement failed, and each request asks again on its own.
    revisions: Option<Revisions>,
    unread: usize,
}

impl SharedChecks {
    fn lock(&self) -> MutexGuard<'_, Checks> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The revision of `game_id` (`None`: no such game), from a check sent after this call
    /// began. `ask` sends one statement for the games given, on the caller's connection: it
    /// runs for this request's check when no check is out, or again for this game alone when
    /// the check this request waited for failed.
    pub fn revision(
        &self,
        game_id: i64,
        mut ask: impl FnMut(&[i64]) -> QueryResult<Revisions>,
    ) -> QueryResult<Option<i64>> {
        let mut checks = self.lock();
        let mine = checks.gathering;
        checks.asked.push(game_id);
        checks.waiting += 1;
        loop {
            if let Some(answer) = checks.answers.get_mut(&mine) {
                answer.unread -= 1;
                let found = answer.revisions.as_ref().map(|r| r.get(&game_id).copied());
                if answer.unread == 0 {
                    checks.answers.remove(&mine);
                }
                drop(checks);
                return match found {
                    Some(revision) => Ok(revision),
                    None => ask(&[game_id]).map(|r| r.get(&game_id).copied()),
                };
            }
            if !checks.out && checks.gathering == mine {
                checks.out = true;
                checks.gathering += 1;
                let mut asked = std::mem::take(&mut checks.asked);
                let others = std::mem::take(&mut checks.waiting) - 1;
                drop(checks);
                asked.sort_unstable();
                asked.dedup();
                let sending = Sending {
                    checks: self,
                    number: mine,
                    others,
                    revisions: None,
                };
                let answer = ask(&asked);
                return sending.finish(answer).map(|r| r.get(&game_id).copied());
            }
            checks = self
                .answered
                .wait(checks)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// A check out, sent by one request for the others waiting: when it ends (also by unwinding)
/// they are given its answer, or told it failed, and woken.
struct Sending<'a> {
    checks: &'a SharedChecks,
    number: u64,
    others: usize,
    revisions: Option<Revisions>,
}

impl Sending<'_> {
    fn finish(mut self, answer: QueryResult<Revisions>) -> QueryResult<Revisions> {
        if let Ok(revisions) = &answer {
            self.revisions = Some(revisions.clone());
        }
        answer
    }
}

impl Drop for Sending<'_> {
    fn drop(&mut self) {
        let mut checks = self.checks.lock();
        checks.out = false;
        if self.others > 0 {
            checks.answers.insert(
                self.number,
                Answer {
                    revisions: self.revisions.take(),
                    unread: self.others,
                },
            );
        }
        drop(checks);
        self.checks.answered.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
    use std::time::Duration;

    /// A database of one game whose revision a writer counts up; each statement is slow, so
    /// that requests pile up behind it.
    struct Database {
        revision: AtomicI64,
        statements: AtomicUsize,
    }

    impl Database {
        fn ask(&self, ids: &[i64]) -> QueryResult<Revisions> {
            self.statements.fetch_add(1, Ordering::SeqCst);
            let revision = self.revision.load(Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(2));
            Ok(ids
                .iter()
                .filter(|&&id| id == 7)
                .map(|&id| (id, revision))
                .collect())
        }
    }

    #[test]
    fn every_answer_is_at_least_the_revision_written_before_it_was_asked() {
        let db = Arc::new(Database {
            revision: AtomicI64::new(0),
            statements: AtomicUsize::new(0),
        });
        let checks = Arc::new(SharedChecks::default());
        let readers: Vec<_> = (0..8)
            .map(|_| {
                let (db, checks) = (db.clone(), checks.clone());
                std::thread::spawn(move || {
                    for _ in 0..200 {
                        let before = db.revision.load(Ordering::SeqCst);
                        let seen = checks.revision(7, |ids| db.ask(ids)).unwrap();
                        assert!(seen.unwrap() >= before, "a view missed a write");
                        assert_eq!(checks.revision(8, |ids| db.ask(ids)).unwrap(), None);
                    }
                })
            })
            .collect();
        let writer = {
            let db = db.clone();
            std::thread::spawn(move || {
                for _ in 0..100 {
                    db.revision.fetch_add(1, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_micros(300));
                }
            })
        };
        for r in readers {
            r.join().unwrap();
        }
        writer.join().unwrap();
        let statements = db.statements.load(Ordering::SeqCst);
        assert!(
            statements < 8 * 400 / 2,
            "{statements} statements for 3,200 checks: waiting requests share them"
        );
        assert!(checks.lock().answers.is_empty(), "every answer was read");
    }

    #[test]
    fn when_a_shared_statement_fails_each_request_that_waited_for_it_asks_alone() {
        // The first check is slow and answers; the second, sent for the five requests that
        // came meanwhile, fails; then each of the other four asks for itself.
        let checks = Arc::new(SharedChecks::default());
        let statements = Arc::new(AtomicUsize::new(0));
        let start = Arc::new(std::sync::Barrier::new(6));
        let readers: Vec<_> = (0..6)
            .map(|i| {
                let (checks, statements, start) =
                    (checks.clone(), statements.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    if i > 0 {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    checks.revision(7, |ids| match statements.fetch_add(1, Ordering::SeqCst) {
                        0 => {
                            std::thread::sleep(Duration::from_millis(50));
                            Ok(ids.iter().map(|&id| (id, 3)).collect())
                        }
                        1 => Err(diesel::result::Error::BrokenTransactionManager),
                        _ => Ok(ids.iter().map(|&id| (id, 3)).collect()),
                    })
                })
            })
            .collect();
        let answers: Vec<_> = readers.into_iter().map(|r| r.join().unwrap()).collect();
        let failed = answers.iter().filter(|a| a.is_err()).count();
        assert_eq!(
            failed, 1,
            "only the sender of the failed check sees its error"
        );
        assert!(
            answers
                .iter()
                .filter_map(|a| a.as_ref().ok())
                .all(|r| *r == Some(3))
        );
        assert_eq!(
            statements.load(Ordering::SeqCst),
            6,
            "1 + 1 + 4 on their own"
        );
        assert!(checks.lock().answers.is_empty());
        assert!(!checks.lock().out);
    }
}
