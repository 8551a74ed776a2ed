DROP INDEX moves_game_id_id;
