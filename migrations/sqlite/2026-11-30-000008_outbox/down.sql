DROP TABLE email_preferences;
DROP TABLE outbox;
