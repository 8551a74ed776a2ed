-- Indexes for a database of 100,000 games and more (docs/benchmarks.md, "Data at scale").
-- The search's default order (finished games newest first, then the others): a page is read
-- in index order instead of sorting every game that matches.
CREATE INDEX games_finished_order ON games ((finished_at IS NULL), finished_at DESC, id DESC);
-- The opening book counts a position's moves from the index alone; the position search
-- finds the games there too.
DROP INDEX book_moves_position;
CREATE INDEX book_moves_position ON book_moves (variant, position, uci, san, result, game_id);
-- The worker's clean-up finds the old finished mail without reading the recent.
CREATE INDEX outbox_finished ON outbox (status, created_at);
