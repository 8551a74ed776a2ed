DROP INDEX game_messages_one_note;
ALTER TABLE challenges DROP COLUMN is_public;
