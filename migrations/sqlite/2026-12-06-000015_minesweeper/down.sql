ALTER TABLE challenges DROP COLUMN setup_hours;
