//! The SQL an operation sends, caught with diesel's instrumentation, and each statement's plan:
//! `EXPLAIN QUERY PLAN` on SQLite, `EXPLAIN (ANALYZE, BUFFERS)` on PostgreSQL.

use std::sync::{Arc, Mutex};

use diesel::connection::{Instrumentation, InstrumentationEvent};
use diesel::prelude::*;
use diesel::sql_types::{Integer, Text};
use slowfuse::db::DbConnection;

/// Collects the statements a connection sends.
#[derive(Clone, Default)]
pub struct Recorder(Arc<Mutex<Vec<String>>>);

impl Instrumentation for Recorder {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        if let InstrumentationEvent::StartQuery { query, .. } = event {
            let text = query.to_string();
            let head = text.trim_start().to_ascii_uppercase();
            let kept = ["SELECT", "WITH", "DELETE", "UPDATE"];
            if kept.iter().any(|k| head.starts_with(k)) {
                self.0.lock().unwrap().push(text);
            }
        }
    }
}

impl Recorder {
    /// Starts recording on `conn` (its own connection, not the pool's).
    pub fn attach(conn: &mut DbConnection) -> Recorder {
        let recorder = Recorder::default();
        match conn {
            DbConnection::Sqlite(c) => c.set_instrumentation(recorder.clone()),
            DbConnection::Pg(c) => c.set_instrumentation(recorder.clone()),
        }
        recorder
    }

    /// The distinct statements sent since the last call, with their binds.
    pub fn take(&self) -> Vec<String> {
        let mut all = std::mem::take(&mut *self.0.lock().unwrap());
        let mut seen = Vec::new();
        all.retain(|q| {
            let sql = split(q).0.to_string();
            let new = !seen.contains(&sql);
            seen.push(sql);
            new
        });
        all
    }
}

/// `SQL -- binds: [..]` as diesel prints a query: the SQL and the binds' text.
fn split(query: &str) -> (&str, &str) {
    match query.rsplit_once(" -- binds: ") {
        Some((sql, binds)) => (sql, binds),
        None => (query, "[]"),
    }
}

/// Reads a Rust `Debug` list of binds into SQL literals for `EXECUTE`: strings, numbers,
/// times and booleans quoted (PostgreSQL casts them to the parameters' types), lists as
/// array literals, `None` as NULL.
fn literals(binds: &str) -> Vec<String> {
    fn items(text: &str) -> Vec<String> {
        let inner = text.trim();
        let inner = inner
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .unwrap_or(inner);
        let (mut out, mut cur, mut depth, mut in_str, mut esc) =
            (Vec::new(), String::new(), 0, false, false);
        for ch in inner.chars() {
            if in_str {
                cur.push(ch);
                if esc {
                    esc = false;
                } else if ch == '\\' {
                    esc = true;
                } else if ch == '"' {
                    in_str = false;
                }
                continue;
            }
            match ch {
                '"' => {
                    in_str = true;
                    cur.push(ch);
                }
                '[' | '(' => {
                    depth += 1;
                    cur.push(ch);
                }
                ']' | ')' => {
                    depth -= 1;
                    cur.push(ch);
                }
                ',' if depth == 0 => out.push(std::mem::take(&mut cur).trim().to_string()),
                _ => cur.push(ch),
            }
        }
        if !cur.trim().is_empty() {
            out.push(cur.trim().to_string());
        }
        out
    }
    fn unquote(s: &str) -> String {
        let body = &s[1..s.len() - 1];
        body.replace("\\\"", "\"").replace("\\\\", "\\")
    }
    fn value(item: &str) -> String {
        let item = item
            .strip_prefix("Some(")
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(item);
        if item == "None" {
            return "NULL".into();
        }
        let raw = if item.starts_with('[') {
            let parts: Vec<String> = items(item)
                .iter()
                .map(|p| {
                    if p.starts_with('"') {
                        format!("\"{}\"", unquote(p).replace('"', "\\\""))
                    } else {
                        p.clone()
                    }
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        } else if item.starts_with('"') {
            unquote(item)
        } else {
            item.to_string()
        };
        format!("'{}'", raw.replace('\'', "''"))
    }
    items(binds).iter().map(|i| value(i)).collect()
}

#[derive(QueryableByName)]
struct SqlitePlan {
    #[diesel(sql_type = Integer)]
    id: i32,
    #[diesel(sql_type = Integer)]
    parent: i32,
    #[diesel(sql_type = Text)]
    detail: String,
}

#[derive(QueryableByName)]
struct PgPlan {
    #[diesel(sql_type = Text)]
    #[diesel(column_name = "QUERY PLAN")]
    line: String,
}

/// The plan of one recorded statement, as lines.
pub fn explain(conn: &mut DbConnection, query: &str) -> Vec<String> {
    let (sql, binds) = split(query);
    match conn {
        DbConnection::Sqlite(c) => {
            match diesel::sql_query(format!("EXPLAIN QUERY PLAN {sql}")).load::<SqlitePlan>(c) {
                Ok(rows) => {
                    let mut depth: Vec<(i32, usize)> = Vec::new();
                    rows.into_iter()
                        .map(|r| {
                            while depth.last().is_some_and(|(id, _)| *id != r.parent) {
                                depth.pop();
                            }
                            let indent = depth.len();
                            depth.push((r.id, indent));
                            format!("{}{}", "  ".repeat(indent), r.detail)
                        })
                        .collect()
                }
                Err(e) => vec![format!("no plan: {e}")],
            }
        }
        DbConnection::Pg(c) => {
            // A write is planned, not run: EXPLAIN ANALYZE would carry it out.
            let analyze = if sql.trim_start().to_ascii_uppercase().starts_with("SELECT") {
                "ANALYZE, BUFFERS"
            } else {
                "COSTS"
            };
            let args = literals(binds);
            let prepared = diesel::sql_query(format!("PREPARE scale_plan AS {sql}")).execute(c);
            if let Err(e) = prepared {
                return vec![format!("no plan: {e}")];
            }
            let execute = if args.is_empty() {
                "EXECUTE scale_plan".to_string()
            } else {
                format!("EXECUTE scale_plan({})", args.join(", "))
            };
            let lines = diesel::sql_query(format!("EXPLAIN ({analyze}) {execute}"))
                .load::<PgPlan>(c)
                .map(|rows| rows.into_iter().map(|r| r.line).collect())
                .unwrap_or_else(|e| vec![format!("no plan: {e}")]);
            let _ = diesel::sql_query("DEALLOCATE scale_plan").execute(c);
            lines
        }
    }
}

/// The lines of a plan worth printing: on PostgreSQL the nodes that read a table or an index,
/// sort or aggregate, and the execution time; on SQLite every line (they are few).
pub fn key_lines(pg: bool, plan: &[String]) -> Vec<String> {
    if !pg {
        return plan.to_vec();
    }
    plan.iter()
        .filter(|l| {
            [
                "Scan",
                "Sort",
                "Aggregate",
                "Join",
                "Loop",
                "Limit",
                "Execution",
                "no plan",
            ]
            .iter()
            .any(|k| l.contains(k))
        })
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// Whether a plan reads a whole big table: SQLite's `SCAN t` without an index, PostgreSQL's
/// `Seq Scan on t` that reads many rows.
pub fn scans_big_table(pg: bool, plan: &[String]) -> bool {
    const BIG: [&str; 6] = [
        "games",
        "moves",
        "book_moves",
        "game_players",
        "game_boards",
        "outbox",
    ];
    plan.iter().any(|l| {
        let l = l.trim();
        if pg {
            BIG.iter().any(|t| l.contains(&format!("Seq Scan on {t} "))) && !l.contains("rows=0 ")
        } else {
            BIG.iter().any(|t| {
                (l == format!("SCAN {t}") || l.starts_with(&format!("SCAN {t} ")))
                    && !l.contains("USING")
            })
        }
    })
}

/// The SQL alone, on one line and shortened, to name a statement in the report.
pub fn short_sql(query: &str) -> String {
    let sql = split(query)
        .0
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if sql.chars().count() > 160 {
        format!("{}…", sql.chars().take(160).collect::<String>())
    } else {
        sql
    }
}
