-- Boards apart from games: each board of a game (one, or two in bughouse) has its own position,
-- turn, deadline and draw offer. games keeps what belongs to the whole game; its deadline_at
-- becomes the earliest deadline of its boards (the worker's and the lists' index), its ply the
-- moves on all boards, and revision counts every change, so that a move prepared before the
-- write lock is stored only if nothing changed meanwhile. Existing games keep everything.
CREATE TABLE game_boards (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    fen TEXT NOT NULL,
    ply INTEGER NOT NULL DEFAULT 0,
    turn TEXT NOT NULL DEFAULT 'white',
    deadline_at TIMESTAMP,
    draw_offer TEXT,
    last_move_at TIMESTAMP,
    UNIQUE (game_id, board)
);
INSERT INTO game_boards (game_id, board, fen, ply, turn, deadline_at, draw_offer, last_move_at)
    SELECT id, 0, fen, ply, turn, deadline_at, draw_offer, last_move_at FROM games;
ALTER TABLE games ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games DROP COLUMN fen;
ALTER TABLE games DROP COLUMN turn;
ALTER TABLE games DROP COLUMN draw_offer;
ALTER TABLE games DROP COLUMN last_move_at;
