-- Glicko-2 ratings, one per user and variant, and one history row per player per rated game (PostgreSQL).
CREATE TABLE ratings (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (user_id, variant)
);

CREATE TABLE rating_history (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    opponent_id BIGINT NOT NULL REFERENCES users(id),
    score DOUBLE PRECISION NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    volatility_after DOUBLE PRECISION NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (game_id, user_id)
);
CREATE INDEX rating_history_user_variant ON rating_history (user_id, variant, id);
