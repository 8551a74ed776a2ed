-- Each username's confusable skeleton (src/usernames.rs): the name case-folded in NFKC and
-- reduced to the characters it looks like (UTS #39), so that "Zoë", "ZOË" and a Cyrillic
-- look-alike share one. It is unique: two names that look alike cannot both be taken.
-- SQL cannot compute it, so the column starts empty for the accounts made before; the server
-- fills it at its start (accounts::fill_username_skeletons), oldest account first. An account
-- whose skeleton an older one already holds keeps NULL here and is found by its own name
-- (username_key) as before.
ALTER TABLE users ADD COLUMN username_skeleton TEXT;
CREATE UNIQUE INDEX users_username_skeleton ON users (username_skeleton);
