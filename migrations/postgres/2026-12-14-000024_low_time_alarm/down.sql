DROP INDEX game_boards_low_time;
ALTER TABLE game_boards DROP COLUMN low_time_at;
