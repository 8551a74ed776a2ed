-- Minesweeper challenges: how many hours the players have to place their bombs once the game
-- is created (the setup phase); the game's options are the challenge's variant_options.
ALTER TABLE challenges ADD COLUMN setup_hours INTEGER;
