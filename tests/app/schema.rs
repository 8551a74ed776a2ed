//! The SQLite migrations build the tables of `src/schema.rs` (printed from PostgreSQL's).
//!
//! `scripts/check-schema.sh` proves that `src/schema.rs` is what `diesel print-schema` writes for
//! the PostgreSQL migrations; this test closes the loop for SQLite: same tables, same columns,
//! same nullability, and declared types that match.

use std::collections::BTreeMap;
use std::path::Path;

use diesel::prelude::*;
use diesel::sql_types::{Integer, Text};
use slowfuse::db::DbConnection;

/// One column: its diesel type without `Nullable<…>`, and whether it may be NULL.
#[derive(Debug, PartialEq, Eq)]
struct Column {
    sql_type: String,
    nullable: bool,
}

type Tables = BTreeMap<String, BTreeMap<String, Column>>;

/// The tables and columns that `src/schema.rs` declares, read from its `table!` blocks.
fn declared_tables() -> Tables {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/schema.rs");
    let text = std::fs::read_to_string(&path).expect("read src/schema.rs");
    let table_start = regex::Regex::new(r"^\s*(\w+) \([\w, ]+\) \{$").unwrap();
    let sql_name = regex::Regex::new(r#"^\s*#\[sql_name = "(\w+)"\]$"#).unwrap();
    let column = regex::Regex::new(r"^\s*(\w+) -> (.+),$").unwrap();
    let mut tables = Tables::new();
    let mut current: Option<String> = None;
    let mut renamed: Option<String> = None;
    for line in text.lines() {
        if let Some(c) = table_start.captures(line) {
            current = Some(c[1].to_string());
            tables.entry(c[1].to_string()).or_default();
        } else if line.trim() == "}" {
            current = None;
        } else if let (Some(table), Some(c)) = (&current, sql_name.captures(line)) {
            assert!(tables.contains_key(table));
            renamed = Some(c[1].to_string());
        } else if let (Some(table), Some(c)) = (&current, column.captures(line)) {
            let name = renamed.take().unwrap_or_else(|| c[1].to_string());
            let ty = &c[2];
            let (sql_type, nullable) = match ty.strip_prefix("Nullable<") {
                Some(inner) => (inner.trim_end_matches('>').to_string(), true),
                None => (ty.to_string(), false),
            };
            let sql_type = canonical(&sql_type).to_string();
            let col = Column { sql_type, nullable };
            tables.get_mut(table).unwrap().insert(name, col);
        }
    }
    assert!(tables.len() > 10, "src/schema.rs read as {tables:?}");
    tables
}

#[derive(QueryableByName, Debug)]
struct SqliteColumn {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    declared_type: String,
    #[diesel(sql_type = Integer)]
    not_null: i32,
    #[diesel(sql_type = Integer)]
    primary_key: i32,
}

/// The tables and columns of a fresh SQLite database migrated as the app does it, with each
/// declared type replaced by the diesel type it stands for.
fn sqlite_tables() -> Tables {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("schema.db");
    let sqlite = SqliteConnection::establish(path.to_str().unwrap()).expect("open SQLite");
    let mut conn = DbConnection::Sqlite(sqlite);
    slowfuse::db::migrate(&mut conn).expect("migrate SQLite");
    let DbConnection::Sqlite(sqlite) = &mut conn else {
        unreachable!()
    };
    let rows: Vec<SqliteColumn> = diesel::sql_query(
        "SELECT m.name AS table_name, p.name AS column_name, p.type AS declared_type, \
                p.\"notnull\" AS not_null, p.pk AS primary_key \
         FROM sqlite_master m JOIN pragma_table_info(m.name) p \
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' \
           AND m.name NOT LIKE '\\_\\_diesel%' ESCAPE '\\'",
    )
    .load(sqlite)
    .expect("read the SQLite tables");
    // Only a table's one-column `INTEGER PRIMARY KEY` is the row id; the columns of a key of
    // several columns keep their declared types.
    let mut key_columns = std::collections::HashMap::<String, usize>::new();
    for row in rows.iter().filter(|r| r.primary_key > 0) {
        *key_columns.entry(row.table_name.clone()).or_default() += 1;
    }
    let mut tables = Tables::new();
    for row in rows {
        let key = row.primary_key > 0;
        let row_id = key && key_columns.get(&row.table_name) == Some(&1);
        let col = Column {
            sql_type: diesel_type(&row.declared_type, row_id).to_string(),
            nullable: row.not_null == 0 && !key,
        };
        tables
            .entry(row.table_name)
            .or_default()
            .insert(row.column_name, col);
    }
    tables
}

/// Diesel's PostgreSQL name of a type that also has a generic one (`Int8` is `BigInt`).
fn canonical(diesel_type: &str) -> &str {
    match diesel_type {
        "BigInt" => "Int8",
        "Integer" => "Int4",
        "Double" => "Float8",
        "SmallInt" => "Int2",
        "Float" => "Float4",
        other => other,
    }
}

/// The diesel type (as `diesel print-schema` names it for PostgreSQL) that a declared SQLite
/// type stands for. `INTEGER PRIMARY KEY` is SQLite's 64-bit row id, PostgreSQL's `BIGSERIAL`.
fn diesel_type(declared: &str, row_id: bool) -> &'static str {
    match declared.to_uppercase().as_str() {
        "INTEGER" if row_id => "Int8",
        "INTEGER" => "Int4",
        "BIGINT" => "Int8",
        "TEXT" => "Text",
        "BOOLEAN" => "Bool",
        "TIMESTAMP" => "Timestamp",
        "REAL" | "DOUBLE" => "Float8",
        other => panic!("SQLite type {other} has no counterpart here: add it to diesel_type"),
    }
}

#[test]
fn sqlite_migrations_build_the_tables_of_schema_rs() {
    let declared = declared_tables();
    let sqlite = sqlite_tables();
    let names = |t: &Tables| t.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&sqlite),
        names(&declared),
        "tables: SQLite vs src/schema.rs"
    );
    let mut differences = Vec::new();
    for (table, columns) in &declared {
        let built = &sqlite[table];
        for (name, column) in columns {
            match built.get(name) {
                None => differences.push(format!("{table}.{name}: missing in SQLite")),
                Some(got) if got != column => differences.push(format!(
                    "{table}.{name}: SQLite {got:?}, src/schema.rs {column:?}"
                )),
                Some(_) => {}
            }
        }
        for name in built.keys().filter(|n| !columns.contains_key(*n)) {
            differences.push(format!("{table}.{name}: in SQLite only"));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
