-- A profile's recent games (docs/benchmarks.md, "Data at scale"): a player seated in
-- thousands of games has their most recently active ones read in this order, each checked for
-- their seat, instead of sorting all of their games.
CREATE INDEX games_recent_order ON games (updated_at DESC, id DESC);
