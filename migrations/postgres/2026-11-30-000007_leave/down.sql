DROP TABLE leaves;
