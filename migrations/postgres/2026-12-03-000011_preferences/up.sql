-- Each user's board preferences (the game page's Settings, the account page and
-- /api/v1/me/preferences). A user without a row has the defaults.
CREATE TABLE user_preferences (
    user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    board_theme TEXT NOT NULL DEFAULT 'green',
    piece_set TEXT NOT NULL DEFAULT 'classic',
    confirm_moves BOOLEAN NOT NULL DEFAULT TRUE,
    always_white BOOLEAN NOT NULL DEFAULT FALSE,
    next_game_after_move BOOLEAN NOT NULL DEFAULT FALSE,
    coordinates BOOLEAN NOT NULL DEFAULT TRUE,
    board_3d BOOLEAN NOT NULL DEFAULT FALSE,
    animation_ms INTEGER NOT NULL DEFAULT 700,
    updated_at TIMESTAMP NOT NULL
);
