DROP TABLE challenges;
DROP TABLE game_messages;
DROP TABLE moves;
DROP TABLE game_players;
DROP TABLE games;
DROP TABLE login_attempts;
DROP TABLE api_tokens;
DROP TABLE users;
