DROP TABLE analysis_trees;
