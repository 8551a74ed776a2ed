DROP INDEX games_finished_at;
DROP TABLE game_tags;
