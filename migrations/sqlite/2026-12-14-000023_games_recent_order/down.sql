DROP INDEX games_recent_order;
