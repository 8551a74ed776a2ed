-- The opening book counts a game once in each position: the move it played the first time it
-- stood there. The later visits of a position that a game came back to are removed.
DELETE FROM book_moves
WHERE EXISTS (
    SELECT 1 FROM book_moves AS earlier
    WHERE earlier.game_id = book_moves.game_id
      AND earlier.position = book_moves.position
      AND earlier.ply < book_moves.ply
);
