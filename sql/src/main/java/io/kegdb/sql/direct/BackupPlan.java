package io.kegdb.sql.direct;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.plan.CountResult;
import io.kegdb.sql.plan.PlanSession;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code BACKUP TO 'dir'} (as in H2): a hot backup of the database's store into {@code dir}, a directory that
 * holds no store yet (created if missing; a relative path is relative to the process's working directory).
 * Other connections go on reading and writing meanwhile; the copy is the store as of the statement's start,
 * committed writes only. {@code jdbc:kegdb:DIR} opens the copy.
 */
public final class BackupPlan extends CommandPlan {

    private final Path target;

    private BackupPlan(Path target) {
        this.target = target;
    }

    /** True if {@code tokens} start a BACKUP statement. */
    public static boolean isBackup(List<Lexer.Token> tokens) {
        return tokens.get(0).is("BACKUP");
    }

    public static BackupPlan parse(List<Lexer.Token> tokens) throws SqlError {
        TokenCursor c = new TokenCursor(tokens);
        c.next(); // BACKUP
        if (!c.accept("TO")) {
            throw DdlPlan.syntax(c.peek(), "TO");
        }
        Lexer.Token dir = c.next();
        if (dir.kind() != Lexer.Kind.STRING || dir.text().isBlank()) {
            throw DdlPlan.syntax(dir, "the target directory as a string literal, e.g. BACKUP TO 'backup-1'");
        }
        if (!c.atEnd()) {
            throw DdlPlan.syntax(c.peek(), "end of statement");
        }
        try {
            return new BackupPlan(Path.of(dir.text()));
        } catch (InvalidPathException e) {
            throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, "BACKUP TO: not a directory path: " + e.getMessage());
        }
    }

    @Override
    public String explain() {
        return "BackupPlan(" + target + ")";
    }

    @Override
    public SqlResult execute(PlanSession session, List<?> params, long maxRows, Deadline deadline) throws SqlError {
        session.backup(target);
        return new CountResult(0);
    }
}
