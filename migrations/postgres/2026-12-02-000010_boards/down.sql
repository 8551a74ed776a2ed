ALTER TABLE games ADD COLUMN fen TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN turn TEXT NOT NULL DEFAULT 'white';
ALTER TABLE games ADD COLUMN draw_offer TEXT;
ALTER TABLE games ADD COLUMN last_move_at TIMESTAMP;
UPDATE games SET
    fen = (SELECT b.fen FROM game_boards b WHERE b.game_id = games.id AND b.board = 0),
    turn = (SELECT b.turn FROM game_boards b WHERE b.game_id = games.id AND b.board = 0),
    draw_offer = (SELECT b.draw_offer FROM game_boards b WHERE b.game_id = games.id AND b.board = 0),
    last_move_at = (SELECT b.last_move_at FROM game_boards b WHERE b.game_id = games.id AND b.board = 0);
ALTER TABLE games DROP COLUMN revision;
DROP TABLE game_boards;
