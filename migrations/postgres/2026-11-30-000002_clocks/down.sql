ALTER TABLE challenges DROP COLUMN auto_flag;
ALTER TABLE challenges DROP COLUMN initial_seconds;
ALTER TABLE games DROP COLUMN auto_flag;
ALTER TABLE games DROP COLUMN initial_seconds;
