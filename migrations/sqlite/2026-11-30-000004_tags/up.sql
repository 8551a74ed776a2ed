-- Private tags: each user's own words on any game, seen by nobody else (SQLite).
CREATE TABLE game_tags (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (user_id, game_id, tag)
);
CREATE INDEX game_tags_user_tag ON game_tags (user_id, tag);

-- The game search's default order: the most recently finished first.
CREATE INDEX games_finished_at ON games (finished_at);
