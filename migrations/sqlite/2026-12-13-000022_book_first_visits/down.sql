-- The later visits are not written back: the book reads the same without them but for the
-- counts of games that came back to a position.
SELECT 1;
