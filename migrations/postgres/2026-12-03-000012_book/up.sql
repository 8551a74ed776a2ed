-- The opening book: for each finished game, the move played from each of its first positions
-- (the position as a FEN without move counters), with the game's result. Written in the
-- transaction that ends a game, so a running game is never in it; games finished before this
-- table existed are indexed when the server starts.
CREATE TABLE book_moves (
    id BIGSERIAL PRIMARY KEY,
    variant TEXT NOT NULL,
    position TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    uci TEXT NOT NULL,
    san TEXT NOT NULL,
    result TEXT NOT NULL,
    UNIQUE (game_id, ply)
);
CREATE INDEX book_moves_position ON book_moves (variant, position);
