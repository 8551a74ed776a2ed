//! A database as an earlier schema left it: the migrations that come before a given one, run
//! in order, for the tests of what migrations keep and of upgrades.

use diesel::migration::{MigrationConnection, MigrationSource};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness};

/// Runs, in name order, the migrations of `source` whose names sort before `first_left_out`;
/// returns how many ran.
pub fn migrate_before<C>(conn: &mut C, source: EmbeddedMigrations, first_left_out: &str) -> usize
where
    C: MigrationHarness<C::Backend> + MigrationConnection,
    EmbeddedMigrations: MigrationSource<C::Backend>,
{
    conn.setup().expect("the migrations table");
    let mut migrations = source.migrations().expect("read migrations");
    migrations.sort_by_key(|m| m.name().to_string());
    let earlier: Vec<_> = migrations
        .iter()
        .filter(|m| *m.name().to_string() < *first_left_out)
        .collect();
    for m in &earlier {
        conn.run_migration(&***m)
            .expect("an earlier migration runs");
    }
    earlier.len()
}
