package io.kegdb.sql.direct;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.UserAdministration;
import io.kegdb.sql.UserAdministration.Privilege;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.CountResult;
import io.kegdb.sql.plan.PlanSession;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The user statements, as H2 spells them, parsed by hand and run through {@link UserAdministration}:
 * <pre>
 * CREATE USER [IF NOT EXISTS] name PASSWORD 'pw' [ADMIN]
 * ALTER USER name SET PASSWORD 'pw'
 * DROP USER name
 * GRANT {SELECT | INSERT | UPDATE | DELETE | ALL} [, ...] ON {[schema.]table | ALL TABLES} TO name
 * REVOKE {SELECT | INSERT | UPDATE | DELETE | ALL} [, ...] ON {[schema.]table | ALL TABLES} FROM name
 * </pre>
 * Names follow SQL's identifier rules (upper case unless quoted). The password is a string literal; it is
 * never part of an error message, and the normalized text the statement statistics keep shows it as {@code ?}.
 * Like DDL a user statement is not part of a transaction: it takes effect at once.
 */
public final class UserPlan extends CommandPlan {

    /** What the statement does, given where users are kept. */
    private interface Action {
        void run(UserAdministration users, PlanSession session) throws SqlError;
    }

    private final String summary;
    private final Action action;
    private final UserAdministration users;

    private UserPlan(String summary, Action action, UserAdministration users) {
        this.summary = summary;
        this.action = action;
        this.users = users;
    }

    /** True if {@code tokens} start a user statement. */
    public static boolean isUserStatement(List<Lexer.Token> tokens) {
        Lexer.Token first = tokens.get(0);
        boolean user = tokens.size() > 1 && tokens.get(1).is("USER");
        return first.is("GRANT") || first.is("REVOKE")
                || (user && (first.is("CREATE") || first.is("ALTER") || first.is("DROP")));
    }

    /**
     * @param users null where there are no users (an embedded store): the statement then fails when run
     */
    public static UserPlan parse(List<Lexer.Token> tokens, String defaultSchema, UserAdministration users)
            throws SqlError {
        TokenCursor c = new TokenCursor(tokens);
        if (c.accept("CREATE")) {
            c.next(); // USER
            boolean ifNotExists = false;
            if (c.accept("IF")) {
                expect(c, "NOT");
                expect(c, "EXISTS");
                ifNotExists = true;
            }
            String name = name(c);
            expect(c, "PASSWORD");
            String password = password(c);
            boolean admin = c.accept("ADMIN");
            end(c);
            boolean ine = ifNotExists;
            return new UserPlan("CREATE USER " + name, (u, s) -> u.createUser(name, password, admin, ine), users);
        }
        if (c.accept("ALTER")) {
            c.next(); // USER
            String name = name(c);
            expect(c, "SET");
            expect(c, "PASSWORD");
            String password = password(c);
            end(c);
            return new UserPlan("ALTER USER " + name, (u, s) -> u.alterPassword(name, password), users);
        }
        if (c.accept("DROP")) {
            c.next(); // USER
            String name = name(c);
            end(c);
            return new UserPlan("DROP USER " + name, (u, s) -> u.dropUser(name), users);
        }
        boolean grant = c.accept("GRANT");
        if (!grant) {
            expect(c, "REVOKE");
        }
        Set<Privilege> privileges = privileges(c);
        expect(c, "ON");
        String[] table = null;
        if (c.accept("ALL")) { // a table named ALL is written quoted
            expect(c, "TABLES");
        } else {
            table = qualifiedName(c, defaultSchema);
        }
        expect(c, grant ? "TO" : "FROM");
        String name = name(c);
        end(c);
        String[] t = table;
        String on = t == null ? "ALL TABLES" : t[0] + "." + t[1];
        return new UserPlan((grant ? "GRANT " : "REVOKE ") + privileges + " ON " + on + (grant ? " TO " : " FROM ")
                + name, (u, s) -> {
                    if (t == null) {
                        u.grant(grant, privileges, null, -1, name);
                        return;
                    }
                    TableDef def = s.catalog().snapshot().find(t[0], t[1]);
                    if (def == null) {
                        throw new SqlError(SqlState.TABLE_NOT_FOUND, "table " + on + " does not exist");
                    }
                    u.grant(grant, privileges, def.qualifiedName(), def.id(), name);
                }, users);
    }

    private static Set<Privilege> privileges(TokenCursor c) throws SqlError {
        Set<Privilege> privileges = EnumSet.noneOf(Privilege.class);
        do {
            Lexer.Token t = c.next();
            if (t.is("ALL")) {
                c.accept("PRIVILEGES");
                privileges.addAll(EnumSet.allOf(Privilege.class));
                continue;
            }
            Privilege p = null;
            for (Privilege candidate : Privilege.values()) {
                if (t.is(candidate.name())) {
                    p = candidate;
                }
            }
            if (p == null) {
                throw syntax(t, "SELECT, INSERT, UPDATE, DELETE or ALL");
            }
            privileges.add(p);
        } while (c.accept(','));
        return privileges;
    }

    private static String password(TokenCursor c) throws SqlError {
        Lexer.Token t = c.next();
        if (t.kind() != Lexer.Kind.STRING) {
            throw syntax(t, "the password as a string literal, e.g. PASSWORD 'secret'");
        }
        if (t.text().isEmpty()) {
            throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, "a password must not be empty");
        }
        return t.text();
    }

    private static String name(TokenCursor c) throws SqlError {
        Lexer.Token t = c.next();
        if (!t.isName() || t.text().isEmpty()) {
            throw syntax(t, "a name");
        }
        return t.text();
    }

    private static String[] qualifiedName(TokenCursor c, String defaultSchema) throws SqlError {
        String first = name(c);
        if (c.accept('.')) {
            return new String[] {first, name(c)};
        }
        return new String[] {defaultSchema, first};
    }

    private static void expect(TokenCursor c, String word) throws SqlError {
        if (!c.accept(word)) {
            throw syntax(c.peek(), word);
        }
    }

    private static void end(TokenCursor c) throws SqlError {
        if (!c.atEnd()) {
            throw syntax(c.peek(), "end of statement");
        }
    }

    /** As {@link DdlPlan#syntax}, but a string literal (a password, maybe) is never shown. */
    private static SqlError syntax(Lexer.Token at, String expected) {
        String found = at.kind() == Lexer.Kind.END ? "end of statement"
                : at.kind() == Lexer.Kind.STRING ? "a string literal" : "'" + at.text() + "'";
        return new SqlError(SqlState.SYNTAX_ERROR, "syntax error at position " + (at.position() + 1) + ": expected "
                + expected + ", found " + found);
    }

    @Override
    public String explain() {
        return "UserPlan(" + summary + ")";
    }

    @Override
    public SqlResult execute(PlanSession session, List<?> params, long maxRows, Deadline deadline) throws SqlError {
        if (!params.isEmpty()) {
            throw new SqlError(SqlState.PARAMETER_MISSING, "user statements take no parameters");
        }
        if (users == null) {
            // Not a missing feature (0A000) but a statement this kind of database does not run, as BACKUP on a
            // cluster: 42000, saying what would run it.
            throw new SqlError(SqlState.SYNTAX_ERROR, "users need a cluster (a jdbc:kegdb:raft:// connection to"
                    + " nodes started with TLS and --admin-password-file): an embedded store has no users, the file"
                    + " system's permissions on its directory protect it");
        }
        session.checkWritable();
        action.run(users, session);
        return new CountResult(0);
    }
}
