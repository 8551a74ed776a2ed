-- The generation of a user's logins: each session carries the value it was made under, and a
-- session whose value is no longer the user's is logged out. Logging out counts it up, so a
-- copy of the cookie kept from before is worth nothing.
ALTER TABLE users ADD COLUMN session_epoch INTEGER NOT NULL DEFAULT 0;
