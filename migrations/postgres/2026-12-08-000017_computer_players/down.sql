-- The computer accounts stay as users (their games keep their players); only the list goes.
DROP TABLE computer_players;
