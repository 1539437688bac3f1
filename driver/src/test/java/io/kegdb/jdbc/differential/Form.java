package io.kegdb.jdbc.differential;

/** The families of cases the generator writes, each counted on its own (the shapes held back are {@link OpenIssue}'s). */
enum Form {
    /** Key and value predicates (comparisons, BETWEEN, IN lists, LIKE, NULL tests, AND/OR/NOT), projections. */
    FILTER,
    /** COALESCE, CASE and TRIM in predicates and projections. */
    VALUE_FUNCTION,
    /** Arithmetic on exact and approximate values (sums, products, negation) near the types' limits. */
    ARITHMETIC,
    /** COUNT, COUNT(DISTINCT), MIN, MAX, SUM and AVG over a whole table. */
    AGGREGATE,
    /** GROUP BY with the same aggregates, HAVING, ORDER BY of the groups. */
    GROUP_BY,
    /** SUM, COUNT and ROW_NUMBER over a window ordered by the key. */
    WINDOW,
    /** Inner and outer joins on keys and values, with more conditions in ON. */
    JOIN,
    /** IN / NOT IN / EXISTS sub-queries and scalar sub-queries, correlated on the key. */
    SUBQUERY,
    /** Sub-queries correlated on the outer query's value column. */
    CORRELATED_VALUE,
    /** EXISTS and IN over sub-queries that are empty (an empty table, {@code 7 < -8}, {@code v <> v}) or always true. */
    EMPTY_OR_TRUE_SUBQUERY,
    /** ORDER BY ... DESC with LIMIT or FETCH FIRST above joins and sub-queries. */
    ORDER_LIMIT,
    /** UNION [ALL], EXCEPT, INTERSECT, ordered by ordinal. */
    SET_OPERATION,
    /** WITH ... AS common table expressions. */
    CTE,
    /** Ordered, limited derived tables under an aggregate. */
    DERIVED,
    /** INSERT of multi-row VALUES with NULLs, in either column order. */
    INSERT_VALUES,
    /** INSERT ... SELECT from another table or the same. */
    INSERT_SELECT,
    /** INSERT ... ON CONFLICT (k) DO UPDATE SET v = expression / DO NOTHING (H2: MERGE; SQLite: the same). */
    UPSERT,
    /** UPDATE with the predicates above, sub-queries included. */
    UPDATE,
    /** DELETE with the predicates above, sub-queries included. */
    DELETE,
    /** Writes and reads in one transaction that commits or rolls back. */
    TRANSACTION;

}
