DROP INDEX users_username_skeleton;
ALTER TABLE users DROP COLUMN username_skeleton;
