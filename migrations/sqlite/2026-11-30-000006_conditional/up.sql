-- Conditional moves: one set of lines per player per game, from the position at base_ply.
CREATE TABLE conditional_moves (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    base_ply INTEGER NOT NULL,
    lines TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (game_id, user_id)
);
