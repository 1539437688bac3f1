package io.kegdb.jdbc;

import io.kegdb.raft.RaftGroupView;
import io.kegdb.raft.RaftStatus;
import io.kegdb.sql.SystemTableSource;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code SYS.RAFT}: one row per node of the Raft group, each as that node answers for itself (see
 * {@link RaftGroupView#members()}). A node that did not answer has role {@link RaftStatus#UNREACHABLE} and
 * nulls in the other columns.
 */
final class RaftSystemTable implements SystemTableSource {

    private final RaftGroupView group;

    RaftSystemTable(RaftGroupView group) {
        this.group = group;
    }

    @Override
    public String name() {
        return "RAFT";
    }

    @Override
    public List<Column> columns() {
        return List.of(
                new Column("NODE", Kind.VARCHAR, false),
                new Column("ROLE", Kind.VARCHAR, false),
                new Column("TERM", Kind.BIGINT, true),
                new Column("LEADER", Kind.VARCHAR, true),
                new Column("COMMIT_INDEX", Kind.BIGINT, true),
                new Column("APPLIED_INDEX", Kind.BIGINT, true),
                new Column("FIRST_LOG_INDEX", Kind.BIGINT, true),
                new Column("LAST_LOG_INDEX", Kind.BIGINT, true));
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (RaftStatus s : group.members()) {
            boolean known = s.answered();
            rows.add(new Object[] {s.node(), s.role(), known ? s.term() : null, s.leader(),
                known ? s.commitIndex() : null, known ? s.appliedIndex() : null,
                known ? s.firstLogIndex() : null, known ? s.lastLogIndex() : null});
        }
        return rows;
    }
}
