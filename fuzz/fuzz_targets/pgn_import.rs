//! Fuzz target: any bytes imported as a PGN file by a player, through the import use case
//! that the import page and the `import` command run, on a temporary SQLite database. The
//! import never panics and never fails as the server's failure (a database error); every game
//! it skips says why, and every game it stores reads back whole (its ply and its moves agree).
//! Each input starts from the same database: one account, the importer.

#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use slowfuse::usecases::accounts::{CheckedSignUp, sign_up};
use slowfuse::usecases::import::{Importer, import_pgn};
use slowfuse::web::errors::UseCaseError;
use slowfuse_fuzz::{Bench, now};

/// What the inputs are imported into, made once per process.
struct World {
    bench: Bench,
    importer: Importer,
}

// Made before the first input (the `init` below): what the setup holds on to is not taken
// for a leak of an input.
thread_local! {
    static WORLD: RefCell<World> = RefCell::new(World::new());
}

fuzz_target!(init: WORLD.with(|_| ()), |data: &[u8]| {
    WORLD.with_borrow_mut(|world| world.import(data));
});

impl World {
    /// The importer's account on the prepared database.
    fn new() -> World {
        let mut bench = Bench::new();
        let checked = CheckedSignUp {
            username: "Importer".to_string(),
            email: "importer@example.com".to_string(),
        };
        let mut conn = bench.state.pool.get().expect("a connection");
        // Nobody logs in as the importer: the stored hash is never checked.
        let user = sign_up(&mut conn, now(), &checked, "no password").expect("the importer");
        drop(conn);
        bench.keep_as_start();
        let importer = Importer {
            user_id: user.id,
            username: user.username,
        };
        World { bench, importer }
    }

    /// Imports one input on the prepared database put back, and checks what it did.
    fn import(&mut self, bytes: &[u8]) {
        self.bench.restore();
        let mut conn = self.bench.state.pool.get().expect("a connection");
        let summary = match import_pgn(&mut conn, now(), bytes, Some(&self.importer), &mut |_| {}) {
            Ok(summary) => summary,
            Err(error) => {
                assert!(
                    !error.status().is_server_error(),
                    "the import failed: {error:?}"
                );
                return;
            }
        };
        for skipped in &summary.skipped {
            assert!(
                !skipped.reason.to_string().is_empty(),
                "game {} skipped without a reason",
                skipped.index
            );
        }
        for imported in &summary.imported {
            let record = slowfuse::game::load_game(&mut conn, imported.game_id)
                .expect("the imported game reads")
                .expect("the imported game is stored");
            assert_eq!(
                record.moves.len(),
                usize::try_from(record.game.ply).expect("a ply"),
                "game {} of the file, stored as {}",
                imported.index,
                imported.game_id
            );
        }
    }
}
