-- Each user's own analysis of a game (the game page's Analysis Board): one tree of moves with
-- variations, stored as PGN written by the server after checking every move. Read only by its
-- owner: never by the page, PGN, JSON or mail of anyone else.
CREATE TABLE analysis_trees (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    pgn TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
