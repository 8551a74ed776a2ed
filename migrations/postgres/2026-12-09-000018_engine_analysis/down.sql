DROP TABLE engine_analysis_plies;
DROP TABLE engine_analyses;
