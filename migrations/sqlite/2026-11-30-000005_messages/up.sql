-- Comments, kibitz and private notes: challenges choose whether their game is public (its
-- comments readable by everyone) and each player keeps at most one note per game.
ALTER TABLE challenges ADD COLUMN is_public BOOLEAN NOT NULL DEFAULT TRUE;
CREATE UNIQUE INDEX game_messages_one_note ON game_messages (game_id, user_id) WHERE kind = 'note';
