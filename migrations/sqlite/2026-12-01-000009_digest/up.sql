-- The daily digest: the hour (0-23, in the user's time zone, users.time_zone) at which it goes out.
-- Kinds of mail set to the digest wait in the outbox as 'held' rows until then.
ALTER TABLE users ADD COLUMN digest_hour INTEGER NOT NULL DEFAULT 7;
