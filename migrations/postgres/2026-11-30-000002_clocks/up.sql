-- Fischer clocks (starting bank) and the choice between automatic flagging and a claimed win.
ALTER TABLE games ADD COLUMN initial_seconds INTEGER;
ALTER TABLE games ADD COLUMN auto_flag BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE challenges ADD COLUMN initial_seconds INTEGER;
ALTER TABLE challenges ADD COLUMN auto_flag BOOLEAN NOT NULL DEFAULT TRUE;
