-- Accounts, challenges, games and moves (PostgreSQL).
CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    email_verified_at TIMESTAMP,
    password_hash TEXT NOT NULL,
    time_zone TEXT NOT NULL DEFAULT 'UTC',
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE api_tokens (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP
);

CREATE TABLE login_attempts (
    id BIGSERIAL PRIMARY KEY,
    throttle_key TEXT NOT NULL,
    attempted_at TIMESTAMP NOT NULL
);
CREATE INDEX login_attempts_key_time ON login_attempts (throttle_key, attempted_at);

CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    variant TEXT NOT NULL,
    variant_options TEXT NOT NULL DEFAULT '{}',
    initial_fen TEXT NOT NULL,
    fen TEXT NOT NULL,
    ply INTEGER NOT NULL DEFAULT 0,
    turn TEXT NOT NULL DEFAULT 'white',
    status TEXT NOT NULL DEFAULT 'started',
    result TEXT NOT NULL DEFAULT '*',
    termination TEXT,
    time_control TEXT NOT NULL DEFAULT 'days',
    days_per_move INTEGER,
    increment_seconds INTEGER,
    cap_seconds INTEGER,
    deadline_at TIMESTAMP,
    rated BOOLEAN NOT NULL DEFAULT FALSE,
    is_public BOOLEAN NOT NULL DEFAULT TRUE,
    draw_offer TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    last_move_at TIMESTAMP,
    finished_at TIMESTAMP
);
CREATE INDEX games_status_deadline ON games (status, deadline_at);

CREATE TABLE game_players (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    board INTEGER NOT NULL DEFAULT 0,
    color TEXT NOT NULL,
    time_left_seconds BIGINT,
    secret_state TEXT,
    UNIQUE (game_id, board, color)
);
CREATE INDEX game_players_user ON game_players (user_id);

CREATE TABLE moves (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    board INTEGER NOT NULL DEFAULT 0,
    ply INTEGER NOT NULL,
    uci TEXT NOT NULL,
    san TEXT NOT NULL,
    fen_after TEXT NOT NULL,
    player_id BIGINT REFERENCES users(id),
    comment TEXT,
    played_at TIMESTAMP NOT NULL,
    UNIQUE (game_id, board, ply)
);

CREATE TABLE game_messages (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    ply INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX game_messages_game ON game_messages (game_id, ply);

CREATE TABLE challenges (
    id BIGSERIAL PRIMARY KEY,
    creator_id BIGINT NOT NULL REFERENCES users(id),
    opponent_id BIGINT REFERENCES users(id),
    kind TEXT NOT NULL DEFAULT 'open',
    share_token TEXT NOT NULL UNIQUE,
    variant TEXT NOT NULL,
    variant_options TEXT NOT NULL DEFAULT '{}',
    color TEXT NOT NULL,
    time_control TEXT NOT NULL DEFAULT 'days',
    days_per_move INTEGER,
    increment_seconds INTEGER,
    cap_seconds INTEGER,
    rated BOOLEAN NOT NULL DEFAULT FALSE,
    status TEXT NOT NULL DEFAULT 'open',
    game_id BIGINT REFERENCES games(id),
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX challenges_status ON challenges (status);
