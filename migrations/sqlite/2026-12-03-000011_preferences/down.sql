DROP TABLE user_preferences;
