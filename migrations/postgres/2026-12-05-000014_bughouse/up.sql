-- Bughouse on the site. A four-seat challenge keeps one row per seat (A1, B1, B2, A2): who has
-- taken it, and who alone may take it when it was offered to one player by name. A user holds
-- at most one seat of a challenge. The match starts when the fourth seat is taken.
CREATE TABLE challenge_seats (
    id BIGSERIAL PRIMARY KEY,
    challenge_id BIGINT NOT NULL REFERENCES challenges(id) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    user_id BIGINT REFERENCES users(id) ON DELETE CASCADE,
    invited_id BIGINT REFERENCES users(id) ON DELETE CASCADE,
    taken_at TIMESTAMP,
    UNIQUE (challenge_id, seat),
    UNIQUE (challenge_id, user_id)
);
-- Partners' chat in a bughouse match: each line belongs to one team (A or B) and is read only
-- by that team's two players, through one named reader; never by the opponents, spectators,
-- the PGN or mail.
CREATE TABLE team_chat (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    team TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX team_chat_by_game ON team_chat (game_id, team, id);
