-- The computer opponents: three accounts per engine level ("Play the computer"; the second and
-- third take the other empty seats of a bughouse match). Their password
-- hash is not a hash at all ("!"), so nobody logs in as them, and their address is empty, so
-- no mail goes to them. A name already taken by a person is left alone: that level then has
-- no account until an operator renames the person.
CREATE TABLE computer_players (
    user_id BIGINT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    level TEXT NOT NULL
);
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-easy', 'computer-easy', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-easy');
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-easy-2', 'computer-easy-2', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-easy-2');
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-easy-3', 'computer-easy-3', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-easy-3');
INSERT INTO computer_players (user_id, level)
SELECT id, 'easy' FROM users WHERE username_key IN ('computer-easy', 'computer-easy-2', 'computer-easy-3') AND password_hash = '!';
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-medium', 'computer-medium', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-medium');
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-medium-2', 'computer-medium-2', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-medium-2');
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-medium-3', 'computer-medium-3', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-medium-3');
INSERT INTO computer_players (user_id, level)
SELECT id, 'medium' FROM users WHERE username_key IN ('computer-medium', 'computer-medium-2', 'computer-medium-3') AND password_hash = '!';
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-hard', 'computer-hard', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-hard');
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-hard-2', 'computer-hard-2', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-hard-2');
INSERT INTO users (username, username_key, email, password_hash, created_at)
SELECT 'computer-hard-3', 'computer-hard-3', '', '!', CURRENT_TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM users WHERE username_key = 'computer-hard-3');
INSERT INTO computer_players (user_id, level)
SELECT id, 'hard' FROM users WHERE username_key IN ('computer-hard', 'computer-hard-2', 'computer-hard-3') AND password_hash = '!';
