package io.kegdb.sql;

/**
 * The SQLStates KegDB reports, by name: the SQL layer and the JDBC driver both use these, so a state is spelled
 * once. Each follows the SQL standard (ISO/IEC 9075), ODBC (the HYxxx and 42Sxx states) or, where neither has
 * one, PostgreSQL; the comment gives the standard meaning.
 */
public final class SqlState {

    /** Warning. */
    public static final String WARNING = "01000";
    /** Dynamic SQL error: the statement does not produce what the call expects (rows vs. an update count). */
    public static final String DYNAMIC_SQL_ERROR = "07000";
    /** Using clause does not match dynamic parameter specifications: a parameter has no value. */
    public static final String PARAMETER_MISSING = "07001";
    /** Invalid descriptor index: a column or parameter number out of range. */
    public static final String INVALID_DESCRIPTOR_INDEX = "07009";
    /** SQL client unable to establish SQL connection. */
    public static final String CANNOT_CONNECT = "08001";
    /** Connection does not exist: it (or the session, or the database) is closed. */
    public static final String CONNECTION_DOES_NOT_EXIST = "08003";
    /** Connection failure: no replica of the group answered. */
    public static final String CONNECTION_FAILURE = "08006";
    /** Transaction resolution unknown: a write may or may not have been committed. */
    public static final String TRANSACTION_RESOLUTION_UNKNOWN = "08007";
    /** Cardinality violation: one row where the statement allows one (a MERGE target row matched twice). */
    public static final String CARDINALITY_VIOLATION = "21000";
    /** Invalid authorization specification: the caller's identity was not accepted. */
    public static final String INVALID_AUTHORIZATION = "28000";
    /**
     * Feature not supported: a statement form the planner cannot handle (the message names what failed). Used
     * for nothing routine: connection pools such as HikariCP close a connection on it.
     */
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    /** Data exception, no subclass. */
    public static final String DATA_EXCEPTION = "22000";
    /** String data, right truncation: a value (or a key or value of the store) is too long. */
    public static final String STRING_DATA_RIGHT_TRUNCATION = "22001";
    /** Numeric value out of range. */
    public static final String NUMERIC_VALUE_OUT_OF_RANGE = "22003";
    /** Invalid datetime format. */
    public static final String INVALID_DATETIME_FORMAT = "22007";
    /** Substring error. */
    public static final String SUBSTRING_ERROR = "22011";
    /** Division by zero. */
    public static final String DIVISION_BY_ZERO = "22012";
    /** Invalid character value for cast. */
    public static final String INVALID_CHARACTER_VALUE_FOR_CAST = "22018";
    /** Invalid parameter value. */
    public static final String INVALID_PARAMETER_VALUE = "22023";
    /** Invalid escape sequence. */
    public static final String INVALID_ESCAPE_SEQUENCE = "22025";
    /** Invalid regular expression. */
    public static final String INVALID_REGULAR_EXPRESSION = "2201B";
    /** Invalid row count in fetch first clause (LIMIT). */
    public static final String INVALID_ROW_COUNT_IN_FETCH_FIRST = "2201W";
    /** Invalid row count in result offset clause (OFFSET). */
    public static final String INVALID_ROW_COUNT_IN_RESULT_OFFSET = "2201X";
    /** Not-null violation: NULL for the key column. */
    public static final String NOT_NULL_VIOLATION = "23502";
    /** Unique violation: the key is already present. */
    public static final String DUPLICATE_KEY = "23505";
    /** Invalid cursor state: the result set is closed or not on a row. */
    public static final String INVALID_CURSOR_STATE = "24000";
    /** Invalid transaction state. */
    public static final String INVALID_TRANSACTION_STATE = "25000";
    /** Active SQL transaction: a setting that cannot change while a transaction is open (the isolation level). */
    public static final String ACTIVE_SQL_TRANSACTION = "25001";
    /** Read-only SQL transaction: a write in a read-only session or statement. */
    public static final String READ_ONLY_TRANSACTION = "25006";
    /** Invalid schema name. */
    public static final String INVALID_SCHEMA_NAME = "3F000";
    /** Serialization failure: a conflicting commit won; retrying can succeed. */
    public static final String SERIALIZATION_FAILURE = "40001";
    /** Syntax error or access rule violation. */
    public static final String SYNTAX_ERROR = "42000";
    /** Insufficient privilege: the logged-in user lacks a privilege the statement needs. */
    public static final String INSUFFICIENT_PRIVILEGE = "42501";
    /** Duplicate object (a user that exists already). */
    public static final String DUPLICATE_OBJECT = "42710";
    /** Undefined object (a user that does not exist). */
    public static final String UNDEFINED_OBJECT = "42704";
    /** Object not in prerequisite state (e.g. dropping the last admin). */
    public static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";
    /** Base table or view already exists. */
    public static final String TABLE_ALREADY_EXISTS = "42S01";
    /** Base table or view not found. */
    public static final String TABLE_NOT_FOUND = "42S02";
    /** Column not found. */
    public static final String COLUMN_NOT_FOUND = "42S22";
    /** Disk full (PostgreSQL): nothing of the write was stored. */
    public static final String DISK_FULL = "53100";
    /** Program limit exceeded (PostgreSQL): a transaction too large for the store. */
    public static final String PROGRAM_LIMIT_EXCEEDED = "54000";
    /** Statement too complex (PostgreSQL). */
    public static final String STATEMENT_TOO_COMPLEX = "54001";
    /** I/O error (PostgreSQL). */
    public static final String IO_ERROR = "58030";
    /** General error: an internal failure. */
    public static final String GENERAL_ERROR = "HY000";
    /** Function sequence error: a statement used after it was closed. */
    public static final String FUNCTION_SEQUENCE_ERROR = "HY010";
    /** Invalid attribute value: a bad connection option. */
    public static final String INVALID_ATTRIBUTE_VALUE = "HY024";
    /** Timeout expired: the query timeout, or {@code cancel()}. */
    public static final String TIMEOUT_EXPIRED = "HYT00";

    private SqlState() {
    }
}
