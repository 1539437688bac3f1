package io.kegdb.sql;

/** Carries a {@link SqlError} out of code Calcite calls (which cannot throw checked exceptions). */
final class StatementFailure extends RuntimeException {
    final SqlError error;

    StatementFailure(SqlError error) {
        super(error.getMessage(), error, false, false);
        this.error = error;
    }
}
