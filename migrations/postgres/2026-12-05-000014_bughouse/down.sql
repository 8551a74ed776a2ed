DROP TABLE team_chat;
DROP TABLE challenge_seats;
