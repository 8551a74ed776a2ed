-- Glicko-2 ratings, one per user and variant, and one history row per player per rated game (SQLite).
CREATE TABLE ratings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (user_id, variant)
);

CREATE TABLE rating_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    opponent_id BIGINT NOT NULL REFERENCES users(id),
    score REAL NOT NULL,
    rating_before REAL NOT NULL,
    deviation_before REAL NOT NULL,
    rating_after REAL NOT NULL,
    deviation_after REAL NOT NULL,
    volatility_after REAL NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (game_id, user_id)
);
CREATE INDEX rating_history_user_variant ON rating_history (user_id, variant, id);
