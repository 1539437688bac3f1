package io.kegdb.jdbc.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A seeded source of SQL statements for the fuzz test: valid statements over the fuzz schema (queries with
 * filters, joins, aggregates, sub-queries, ORDER BY and LIMIT; INSERT, UPSERT, UPDATE, DELETE; CREATE and DROP
 * TABLE; prepared statements bound with right or wrong values), token-level mutations of them, random tokens
 * and characters, huge literals, deep nesting and odd Unicode. The same seed gives the same statements.
 */
final class SqlFuzzGenerator {

    /** A table of the fuzz schema: name and column types. */
    record Table(String name, String keyType, String valueType) {
    }

    /** How a prepared statement's parameter is bound. */
    enum Binding { STRING, LONG, INT, DOUBLE, NAN, BIG_DECIMAL, HUGE_DECIMAL, BYTES, BOOLEAN, NULL, OBJECT, DATE,
        HUGE_STRING, SKIP, INDEX_TOO_HIGH, INDEX_ZERO }

    /** A prepared parameter: the binding and its value. */
    record Parameter(Binding binding, Object value) {
    }

    /** One statement to run: plain text, or prepared text with parameters to bind. */
    record Case(String kind, String sql, List<Parameter> parameters) {
        boolean prepared() {
            return parameters != null;
        }
    }

    static final List<Table> TABLES = List.of(
            new Table("KV", "VARCHAR", "VARCHAR"),
            new Table("NUMS", "BIGINT", "BIGINT"),
            new Table("BINS", "VARBINARY", "VARCHAR(20)"),
            new Table("SHORTS", "VARCHAR(8)", "VARBINARY(16)"));

    private static final String[] VOCABULARY = {
        "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "NULL", "IN", "LIKE", "BETWEEN", "ORDER", "BY", "GROUP",
        "HAVING", "LIMIT", "OFFSET", "JOIN", "ON", "LEFT", "UNION", "ALL", "EXISTS", "CASE", "WHEN", "THEN", "ELSE",
        "END", "INSERT", "INTO", "VALUES", "UPSERT", "UPDATE", "SET", "DELETE", "CREATE", "DROP", "TABLE", "PRIMARY",
        "KEY", "IF", "AS", "CAST", "COUNT", "MAX", "MIN", "SUM", "DISTINCT", "K", "V", "KV", "NUMS", "BINS",
        "SHORTS", "SYS.TABLES", "SYS.STATS", "(", ")", ",", "*", "=", "<>", "<", ">", "<=", ">=", "+", "-", "/",
        "||", ";", "?", ".", "'", "\"", "0", "1", "-1", "1.5", "1e308", "9223372036854775807", "'a'", "''",
        "X'00ff'", "X'0'", "TRUE", "FALSE", "DATE '2020-01-01'", "INTERVAL '1' DAY", "ARRAY[1]", "ROW(1, 2)",
        "EXPLAIN PLAN FOR", "WITH", "VARCHAR", "BIGINT", "VARBINARY", "FETCH", "FIRST", "ROWS", "ONLY", "DESC",
        "ASC", "NULLS", "LAST", "ESCAPE", "SIMILAR", "TO", "OVER", "PARTITION", "--", "/*", "*/", "\u00e9", "\uD83D\uDE00",
    };

    private static final String[] ODD_TEXT = {
        "\u0000", "\u00ff", "\u00e9\u0301", "\u202e", "\u200b", "\uFEFF", "\uD83D\uDE00", "\uD800", "\uDC00",
        "\uFFFF", "\u4e2d\u6587", "\u0627\u0644", "'", "''", "\\", "%", "_", "\n", "\t", "\r\n",
    };

    private static final Pattern TOKEN = Pattern.compile(
            "'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|[A-Za-z_][A-Za-z0-9_$.]*|\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?"
                    + "|<>|<=|>=|\\|\\||\\S");

    private final Random random;
    private final int hugeBytes;
    /** Per-mille weights of the kinds, in {@link #KINDS} order. */
    private final int[] weights;

    private static final String[] KINDS = {"valid", "mutated", "prepared", "random-tokens", "random-chars", "unicode",
        "deep", "ddl", "huge"};
    /** A normal build favours what is cheap to run; deep and huge statements cost Calcite up to seconds each. */
    private static final int[] BUILD_WEIGHTS = {100, 430, 300, 60, 50, 46, 6, 6, 2};
    private static final int[] STRESS_WEIGHTS = {200, 400, 250, 50, 40, 40, 12, 6, 2};

    /**
     * @param seed   the seed of every choice
     * @param stress the long run's mix (more valid, deep and huge statements; huge literals of 1-2 MB, not 128-256 KB)
     */
    SqlFuzzGenerator(long seed, boolean stress) {
        this.random = new Random(seed);
        this.hugeBytes = stress ? 2 << 20 : 256 << 10;
        this.weights = stress ? STRESS_WEIGHTS : BUILD_WEIGHTS;
    }

    /** The next statement: mostly valid or mutated, some random, huge, deep, Unicode or prepared ones. */
    Case next() {
        int dice = random.nextInt(1000);
        int kind = 0;
        while (kind < weights.length - 1 && dice >= weights[kind]) {
            dice -= weights[kind];
            kind++;
        }
        return switch (KINDS[kind]) {
            case "valid" -> text("valid", validStatement());
            case "mutated" -> text("mutated", mutate(validStatement(), 1 + random.nextInt(3)));
            case "prepared" -> prepared();
            case "random-tokens" -> text("random-tokens", randomTokens());
            case "random-chars" -> text("random-chars", randomChars());
            case "unicode" -> text("unicode", unicodeStatement());
            case "deep" -> text("deep", deepStatement());
            case "ddl" -> text("ddl", ddl());
            default -> text("huge", hugeStatement());
        };
    }

    private static Case text(String kind, String sql) {
        return new Case(kind, sql, null);
    }

    // ---------------------------------------------------------------- valid statements

    String validStatement() {
        int dice = random.nextInt(100);
        if (dice < 45) {
            return select();
        }
        if (dice < 60) {
            return insert();
        }
        if (dice < 70) {
            return upsert();
        }
        if (dice < 82) {
            return update();
        }
        if (dice < 94) {
            return delete();
        }
        return ddl();
    }

    private Table table() {
        return TABLES.get(random.nextInt(TABLES.size()));
    }

    private String select() {
        Table t = table();
        switch (random.nextInt(9)) {
            case 0:
                return "SELECT " + projection(t) + " FROM " + t.name() + where(t) + orderAndLimit();
            case 1: {
                Table u = sameKeyTable(t);
                return "SELECT a.K, a.V, b.V FROM " + t.name() + " a " + pick("JOIN", "LEFT JOIN", "INNER JOIN")
                        + " " + u.name() + " b ON a.K = b.K" + where(t).replace(" K", " a.K") + " ORDER BY a.K"
                        + (random.nextBoolean() ? " LIMIT " + random.nextInt(20) : "");
            }
            case 2:
                return "SELECT COUNT(*), MIN(K), MAX(K)" + (t.valueType().equals("BIGINT") ? ", SUM(V), AVG(V)" : "")
                        + " FROM " + t.name() + where(t);
            case 3:
                return "SELECT V, COUNT(*) AS N FROM " + t.name() + " GROUP BY V"
                        + (random.nextBoolean() ? " HAVING COUNT(*) > " + random.nextInt(3) : "") + " ORDER BY 2 DESC, 1";
            case 4: {
                Table u = sameKeyTable(t);
                return "SELECT K FROM " + t.name() + " WHERE K " + pick("IN", "NOT IN") + " (SELECT K FROM "
                        + u.name() + where(u) + ")" + orderAndLimit();
            }
            case 5:
                return "SELECT K, (SELECT COUNT(*) FROM " + t.name() + " x WHERE x.K <= t.K) FROM " + t.name()
                        + " t" + where(t).replace(" K", " t.K") + " ORDER BY 1";
            case 6: {
                Table u = sameKeyTable(t);
                return "SELECT K FROM " + t.name() + " " + pick("UNION", "UNION ALL", "INTERSECT", "EXCEPT")
                        + " SELECT K FROM " + u.name() + where(u);
            }
            case 7:
                return "SELECT CASE WHEN " + condition(t) + " THEN 'yes' ELSE 'no' END, " + valueExpression(t)
                        + " FROM " + t.name() + " WHERE EXISTS (SELECT 1 FROM " + t.name() + where(t) + ")"
                        + orderAndLimit();
            default:
                return "SELECT * FROM " + t.name() + " WHERE K = " + literal(t.keyType());
        }
    }

    private Table sameKeyTable(Table t) {
        String base = baseType(t.keyType());
        List<Table> same = new ArrayList<>();
        for (Table u : TABLES) {
            if (baseType(u.keyType()).equals(base)) {
                same.add(u);
            }
        }
        return same.get(random.nextInt(same.size()));
    }

    private static String baseType(String type) {
        int paren = type.indexOf('(');
        return paren < 0 ? type : type.substring(0, paren);
    }

    private String projection(Table t) {
        return switch (random.nextInt(5)) {
            case 0 -> "*";
            case 1 -> "K";
            case 2 -> "V, K";
            case 3 -> "K, " + valueExpression(t) + " AS E";
            default -> "DISTINCT V";
        };
    }

    private String valueExpression(Table t) {
        return switch (baseType(t.valueType())) {
            case "BIGINT" -> pick("V + 1", "V * 2", "ABS(V)", "MOD(V, 3)", "V / 2", "-V", "COALESCE(V, 0)",
                    "CAST(V AS VARCHAR)");
            case "VARCHAR" -> pick("V || 'x'", "UPPER(V)", "SUBSTRING(V FROM 2)", "TRIM(V)", "CHAR_LENGTH(V)",
                    "COALESCE(V, 'none')", "LOWER(V)", "POSITION('a' IN V)");
            default -> pick("V", "CHAR_LENGTH(V)", "V IS NULL");
        };
    }

    private String where(Table t) {
        return random.nextInt(4) == 0 ? "" : " WHERE " + condition(t);
    }

    private String condition(Table t) {
        String c = switch (random.nextInt(10)) {
            case 0 -> "K = " + literal(t.keyType());
            case 1 -> "K " + pick("<", ">", "<=", ">=", "<>") + " " + literal(t.keyType());
            case 2 -> "K BETWEEN " + literal(t.keyType()) + " AND " + literal(t.keyType());
            case 3 -> "K IN (" + literal(t.keyType()) + ", " + literal(t.keyType()) + ", " + literal(t.keyType()) + ")";
            case 4 -> baseType(t.keyType()).equals("VARCHAR") ? "K LIKE '" + letters(1) + "%'" : "K > " + literal(t.keyType());
            case 5 -> "V IS " + pick("NULL", "NOT NULL");
            case 6 -> "V = " + literal(t.valueType());
            case 7 -> "NOT (K = " + literal(t.keyType()) + ")";
            case 8 -> "(K = " + literal(t.keyType()) + " OR V = " + literal(t.valueType()) + ")";
            default -> "K >= " + literal(t.keyType()) + " AND K < " + literal(t.keyType());
        };
        return random.nextInt(5) == 0 ? c + pick(" AND ", " OR ") + condition(t) : c;
    }

    private String orderAndLimit() {
        StringBuilder b = new StringBuilder();
        if (random.nextBoolean()) {
            b.append(" ORDER BY 1").append(random.nextBoolean() ? " DESC" : "");
        }
        if (random.nextBoolean()) {
            b.append(" LIMIT ").append(random.nextInt(15));
            if (random.nextBoolean()) {
                b.append(" OFFSET ").append(random.nextInt(15));
            }
        }
        return b.toString();
    }

    private String insert() {
        Table t = table();
        StringBuilder b = new StringBuilder("INSERT INTO ").append(t.name());
        if (random.nextInt(3) == 0) {
            b.append(" (K, V)");
        }
        if (random.nextInt(5) == 0) {
            Table u = sameKeyTable(t);
            return b.append(" SELECT ").append(keyShift(t)).append(", ")
                    .append(u.valueType().equals(t.valueType()) ? "V" : "NULL").append(" FROM ").append(u.name())
                    .append(where(u)).toString();
        }
        return b.append(" VALUES ").append(rows(t)).toString();
    }

    /** A key expression that maps a table's keys to (mostly) other keys of the same type. */
    private String keyShift(Table t) {
        return switch (baseType(t.keyType())) {
            case "BIGINT" -> "K + " + (1 + random.nextInt(40));
            case "VARCHAR" -> "K || '" + letters(1) + "'";
            default -> "K";
        };
    }

    private String rows(Table t) {
        int n = 1 + (random.nextInt(4) == 0 ? random.nextInt(5) : 0);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ", ").append('(').append(literal(t.keyType())).append(", ")
                    .append(random.nextInt(8) == 0 ? "NULL" : literal(t.valueType())).append(')');
        }
        return b.toString();
    }

    private String upsert() {
        Table t = table();
        if (random.nextInt(4) == 0) {
            return "UPSERT INTO " + t.name() + " SELECT K, " + (baseType(t.valueType()).equals("VARBINARY") ? "V"
                    : valueExpression(t)) + " FROM " + t.name() + where(t);
        }
        return "UPSERT INTO " + t.name() + " VALUES " + rows(t);
    }

    private String update() {
        Table t = table();
        if (random.nextInt(6) == 0) {
            return "UPDATE " + t.name() + " SET K = " + keyShift(t) + " WHERE K = " + literal(t.keyType());
        }
        return "UPDATE " + t.name() + " SET V = " + (random.nextBoolean() ? literal(t.valueType()) : valueExpression(t))
                + where(t);
    }

    private String delete() {
        Table t = table();
        // Deletes are narrow, so the tables keep rows to work on.
        return "DELETE FROM " + t.name() + " WHERE " + (random.nextBoolean() ? "K = " + literal(t.keyType())
                : "K IN (" + literal(t.keyType()) + ", " + literal(t.keyType()) + ")");
    }

    private String ddl() {
        String name = "FZ" + random.nextInt(6);
        if (random.nextInt(3) == 0) {
            return "DROP TABLE " + (random.nextBoolean() ? "IF EXISTS " : "") + name;
        }
        String[] keys = {"VARCHAR", "BIGINT", "VARBINARY", "VARCHAR(4)", "INTEGER", "DOUBLE"};
        String[] values = {"VARCHAR", "BIGINT", "VARBINARY", "VARCHAR(3)", "VARBINARY(2)", "DATE"};
        return "CREATE TABLE " + (random.nextBoolean() ? "IF NOT EXISTS " : "") + name + " (K "
                + keys[random.nextInt(keys.length)] + " PRIMARY KEY, V " + values[random.nextInt(values.length)] + ")";
    }

    String literal(String type) {
        switch (baseType(type)) {
            case "BIGINT":
                return switch (random.nextInt(20)) {
                    case 0 -> "9223372036854775807";
                    case 1 -> "-9223372036854775808";
                    case 2 -> "NULL";
                    default -> String.valueOf(random.nextInt(45) - 5);
                };
            case "VARBINARY":
                return random.nextInt(20) == 0 ? "X''" : "X'" + String.format("%02x", random.nextInt(40))
                        + (random.nextBoolean() ? String.format("%02x", random.nextInt(256)) : "") + "'";
            default:
                return random.nextInt(15) == 0 ? "'" + oddText().replace("'", "''") + "'" : "'" + letters(random.nextInt(4)) + "'";
        }
    }

    private String letters(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append((char) ('a' + random.nextInt(5)));
        }
        return b.toString();
    }

    private String oddText() {
        return ODD_TEXT[random.nextInt(ODD_TEXT.length)] + letters(random.nextInt(3));
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }

    // ---------------------------------------------------------------- mutations and noise

    static List<String> tokens(String sql) {
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(sql);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    String mutate(String sql, int times) {
        List<String> tokens = tokens(sql);
        for (int i = 0; i < times && !tokens.isEmpty(); i++) {
            int at = random.nextInt(tokens.size());
            switch (random.nextInt(10)) {
                case 0 -> tokens.remove(at);
                case 1 -> tokens.add(at, tokens.get(at));
                case 2 -> {
                    int other = random.nextInt(tokens.size());
                    String s = tokens.get(at);
                    tokens.set(at, tokens.get(other));
                    tokens.set(other, s);
                }
                case 3, 4 -> tokens.set(at, VOCABULARY[random.nextInt(VOCABULARY.length)]);
                case 5 -> tokens.add(at, VOCABULARY[random.nextInt(VOCABULARY.length)]);
                case 6 -> tokens.subList(at, tokens.size()).clear();
                case 7 -> tokens.set(at, swapLiteralType(tokens.get(at)));
                case 8 -> tokens.set(at, random.nextBoolean() ? "\"" + oddText().replace("\"", "\"\"") + "\""
                        : "'" + oddText().replace("'", "''") + "'");
                default -> {
                    int depth = 1 + random.nextInt(40);
                    tokens.set(at, "(".repeat(depth) + tokens.get(at) + ")".repeat(depth));
                }
            }
        }
        return String.join(" ", tokens);
    }

    private String swapLiteralType(String token) {
        return pick("NULL", "'x'", "42", "-7", "1.5", "X'ab'", "TRUE", "DATE '2024-02-30'", "1e400",
                "99999999999999999999999", "''", "?", token + token);
    }

    private String randomTokens() {
        int n = 1 + random.nextInt(25);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(VOCABULARY[random.nextInt(VOCABULARY.length)]).append(' ');
        }
        return b.toString();
    }

    private String randomChars() {
        int n = random.nextInt(120);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int dice = random.nextInt(10);
            if (dice < 6) {
                b.append((char) (32 + random.nextInt(95)));
            } else if (dice < 8) {
                b.append((char) random.nextInt(32));
            } else {
                b.append((char) random.nextInt(0x10000)); // any UTF-16 unit, lone surrogates included
            }
        }
        return b.toString();
    }

    private String unicodeStatement() {
        String odd = oddText();
        return switch (random.nextInt(6)) {
            case 0 -> "UPSERT INTO KV VALUES ('" + odd.replace("'", "''") + "', '" + oddText().replace("'", "''") + "')";
            case 1 -> "SELECT K, V FROM KV WHERE K = '" + odd.replace("'", "''") + "'";
            case 2 -> "SELECT \"" + odd.replace("\"", "\"\"") + "\" FROM KV";
            case 3 -> "CREATE TABLE \"" + odd.replace("\"", "\"\"") + "\" (K VARCHAR PRIMARY KEY, V VARCHAR)";
            case 4 -> "SELECT UPPER('" + odd.replace("'", "''") + "'), CHAR_LENGTH('" + odd.replace("'", "''")
                    + "') FROM KV LIMIT 1";
            default -> "SELECT K FROM KV WHERE K LIKE '" + odd.replace("'", "''") + "%' ORDER BY K";
        };
    }

    private String deepStatement() {
        int depth = 50 + random.nextInt(random.nextInt(10) == 0 ? 20_000 : 3_000);
        return switch (random.nextInt(7)) {
            case 0 -> "SELECT " + "(".repeat(depth) + "1" + ")".repeat(depth) + " FROM KV";
            case 1 -> "SELECT * FROM " + "(SELECT * FROM ".repeat(depth / 4) + "KV" + ")".repeat(depth / 4);
            case 2 -> "SELECT 1" + "+1".repeat(depth) + " FROM KV";
            case 3 -> "SELECT * FROM KV WHERE K = 'a'" + " OR K = 'b'".repeat(depth);
            case 4 -> "SELECT " + "ABS(".repeat(depth) + "-1" + ")".repeat(depth) + " FROM NUMS";
            case 5 -> "SELECT " + "CASE WHEN 1 = 1 THEN ".repeat(depth / 4) + "1" + " END".repeat(depth / 4)
                    + " FROM KV";
            default -> "UPDATE NUMS SET V = " + "(".repeat(depth) + "V" + " + 1)".repeat(depth) + " WHERE K = 1";
        };
    }

    private String hugeStatement() {
        String big = "x".repeat(hugeBytes / 2 + random.nextInt(hugeBytes / 2));
        return switch (random.nextInt(7)) {
            case 0 -> "UPSERT INTO KV VALUES ('huge', '" + big + "')";
            case 1 -> "INSERT INTO KV VALUES ('" + big + "', 'v')";
            case 2 -> "SELECT K FROM KV WHERE V = '" + big + "'";
            case 3 -> "SELECT " + "9".repeat(Math.min(big.length(), 200_000)) + " FROM KV";
            case 4 -> "SELECT \"" + big + "\" FROM KV";
            case 5 -> "UPSERT INTO SHORTS VALUES ('k', X'" + "ab".repeat(big.length() / 2) + "')";
            default -> "SELECT * FROM KV WHERE K IN ('a'" + ", 'b'".repeat(Math.min(big.length() / 8, 50_000)) + ")";
        };
    }

    // ---------------------------------------------------------------- prepared statements

    private Case prepared() {
        Table t = table();
        String sql;
        List<String> types = new ArrayList<>();
        switch (random.nextInt(7)) {
            case 0 -> {
                sql = "SELECT V FROM " + t.name() + " WHERE K = ?";
                types.add(t.keyType());
            }
            case 1 -> {
                sql = "SELECT K, V FROM " + t.name() + " WHERE K > ? ORDER BY K LIMIT ?";
                types.add(t.keyType());
                types.add("INTEGER");
            }
            case 2 -> {
                sql = "INSERT INTO " + t.name() + " VALUES (?, ?)";
                types.add(t.keyType());
                types.add(t.valueType());
            }
            case 3 -> {
                sql = "UPSERT INTO " + t.name() + " (K, V) VALUES (?, ?)";
                types.add(t.keyType());
                types.add(t.valueType());
            }
            case 4 -> {
                sql = "UPDATE " + t.name() + " SET V = ? WHERE K = ?";
                types.add(t.valueType());
                types.add(t.keyType());
            }
            case 5 -> {
                sql = "DELETE FROM " + t.name() + " WHERE K = ?";
                types.add(t.keyType());
            }
            default -> {
                sql = "SELECT COUNT(*) FROM " + t.name() + " WHERE K >= ? AND CHAR_LENGTH(CAST(V AS VARCHAR)) < ?";
                types.add(t.keyType());
                types.add("INTEGER");
            }
        }
        List<Parameter> params = new ArrayList<>();
        boolean wrong = random.nextInt(3) == 0;
        for (String type : types) {
            params.add(wrong && random.nextInt(2) == 0 ? wrongParameter() : rightParameter(type));
        }
        return new Case("prepared", sql, params);
    }

    private Parameter rightParameter(String type) {
        return switch (baseType(type)) {
            case "BIGINT" -> new Parameter(Binding.LONG, (long) (random.nextInt(45) - 5));
            case "INTEGER" -> new Parameter(Binding.INT, random.nextInt(20));
            case "VARBINARY" -> new Parameter(Binding.BYTES, new byte[] {(byte) random.nextInt(40)});
            default -> new Parameter(Binding.STRING, letters(random.nextInt(4)));
        };
    }

    private Parameter wrongParameter() {
        Binding b = Binding.values()[random.nextInt(Binding.values().length)];
        Object value = switch (b) {
            case STRING -> pick("abc", "", "12x", " 7 ", "1e5", oddText());
            case LONG -> random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
            case INT -> random.nextInt();
            case DOUBLE -> random.nextBoolean() ? 1.5 : -0.0;
            case BIG_DECIMAL -> new java.math.BigDecimal("12345678901234567890.5");
            case HUGE_DECIMAL -> new java.math.BigDecimal("1e400");
            case BYTES -> new byte[] {(byte) 0xff, 0};
            case BOOLEAN -> random.nextBoolean();
            case HUGE_STRING -> "y".repeat(hugeBytes / 4);
            default -> null;
        };
        return new Parameter(b, value);
    }
}
