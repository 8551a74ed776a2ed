DROP INDEX outbox_finished;
DROP INDEX book_moves_position;
CREATE INDEX book_moves_position ON book_moves (variant, position);
DROP INDEX games_finished_order;
