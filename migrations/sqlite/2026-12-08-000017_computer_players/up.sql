-- The computer opponents: one account per engine level ("Play the computer"). Their password
-- hash is not a hash at all ("!"), so nobody logs in as them, and their address is empty, so
-- no mail goes to them. A name already taken by a person is left alone: that level then has
-- no account until an operator renames the person.
CREATE TABLE computer_players (
    user_id BIGINT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    level TEXT NOT NULL UNIQUE
);
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-easy', 'computer-easy', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-easy');
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-medium', 'computer-medium', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-medium');
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-hard', 'computer-hard', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-hard');
INSERT INTO computer_players (user_id, level)
SELECT id, SUBSTR(username_key, 10) FROM users
WHERE username_key IN ('computer-easy', 'computer-medium', 'computer-hard')
  AND password_hash = '!';
