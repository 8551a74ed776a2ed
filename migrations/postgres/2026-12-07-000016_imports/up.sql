-- Finished games imported from PGN files: the players' names as the PGN gives them (not
-- accounts; the keys are the names in lower case, for the search), every tag pair as read (a
-- JSON list of [name, value]), who imported the game (NULL from the command line without
-- --as-user) and a key unique to the game (a SHA-256 of its variant, start, moves and main
-- tags), so importing a file twice adds nothing.
CREATE TABLE game_imports (
    game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    import_key TEXT NOT NULL UNIQUE,
    imported_by BIGINT REFERENCES users(id),
    white_name TEXT NOT NULL,
    black_name TEXT NOT NULL,
    white_key TEXT NOT NULL,
    black_key TEXT NOT NULL,
    tags TEXT NOT NULL,
    imported_at TIMESTAMP NOT NULL
);
CREATE INDEX game_imports_white_key ON game_imports (white_key);
CREATE INDEX game_imports_black_key ON game_imports (black_key);
