ALTER TABLE users DROP COLUMN digest_hour;
