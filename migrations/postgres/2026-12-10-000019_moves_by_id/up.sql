-- A game's moves by their id: a server that holds a game's first moves reads only those
-- stored since (`id > last`), which this index finds without walking the game's other moves.
CREATE INDEX moves_game_id_id ON moves (game_id, id);
