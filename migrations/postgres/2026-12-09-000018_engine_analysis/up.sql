-- Engine analysis of finished games: one row per game asked for (queued, running, done or
-- failed; by whom; claimed by one worker at a time with a lease, so several instances never
-- analyse the same game at once; the engine that did it and its node budget a position), and
-- one row per position judged, written as each is done (so the page shows progress and a
-- worker that dies mid-way leaves what it did): White's score in centipawns, the moves to a
-- mate when one is seen, the best move and line in UCI and in SAN, the depth and nodes of the search.
CREATE TABLE engine_analyses (
    game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    engine TEXT NOT NULL,
    nodes BIGINT NOT NULL,
    positions INTEGER NOT NULL,
    done_positions INTEGER NOT NULL,
    requested_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    requested_at TIMESTAMP NOT NULL,
    claimed_by TEXT,
    claimed_until TIMESTAMP,
    finished_at TIMESTAMP,
    error TEXT
);
CREATE INDEX engine_analyses_waiting ON engine_analyses (status, requested_at);
CREATE TABLE engine_analysis_plies (
    game_id BIGINT NOT NULL REFERENCES engine_analyses(game_id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    eval_cp INTEGER NOT NULL,
    mate INTEGER,
    best_uci TEXT,
    best_san TEXT,
    best_line TEXT NOT NULL,
    best_line_san TEXT NOT NULL,
    depth INTEGER NOT NULL,
    nodes BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
