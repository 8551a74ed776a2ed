DROP TABLE book_moves;
