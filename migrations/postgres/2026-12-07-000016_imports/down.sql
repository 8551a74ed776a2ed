DROP TABLE game_imports;
