-- When the worker's time-running-low scan next looks at a board (docs/benchmarks.md, "Data at
-- scale"): set to the moment of writing whenever the board's deadline is written, moved by the
-- scan to the next threshold of the turn, cleared when none is left or the game ends. A pass
-- reads the boards whose look is due instead of every running board.
ALTER TABLE game_boards ADD COLUMN low_time_at TIMESTAMP;
UPDATE game_boards SET low_time_at = COALESCE(
    last_move_at,
    (SELECT created_at FROM games WHERE games.id = game_boards.game_id)
) WHERE deadline_at IS NOT NULL;
CREATE INDEX game_boards_low_time ON game_boards (low_time_at) WHERE low_time_at IS NOT NULL;
