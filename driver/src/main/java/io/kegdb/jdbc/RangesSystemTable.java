package io.kegdb.jdbc;

import io.kegdb.raft.RangeStatus;
import io.kegdb.raft.RangeView;
import io.kegdb.sql.SystemTableSource;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code SYS.RANGES}: one row per range the meta range describes (see {@link RangeView#ranges()}), its bounds
 * printable ({@code \xNN} for a byte that is not printable ASCII; START empty for the first range, END null
 * for the last), its replicas comma-separated and its leader as {@code host:port}.
 */
final class RangesSystemTable implements SystemTableSource {

    private final RangeView ranges;

    RangesSystemTable(RangeView ranges) {
        this.ranges = ranges;
    }

    @Override
    public String name() {
        return "RANGES";
    }

    @Override
    public List<Column> columns() {
        return List.of(
                new Column("ID", Kind.BIGINT, false),
                new Column("START_KEY", Kind.VARCHAR, false),
                new Column("END_KEY", Kind.VARCHAR, true),
                new Column("GENERATION", Kind.BIGINT, false),
                new Column("REPLICA_VERSION", Kind.BIGINT, false),
                new Column("REPLICAS", Kind.VARCHAR, false),
                new Column("LEADER", Kind.VARCHAR, true));
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (RangeStatus r : ranges.ranges()) {
            rows.add(new Object[] {r.id(), r.start(), r.end(), r.generation(), r.replicaVersion(),
                String.join(",", r.replicas()), r.leader()});
        }
        return rows;
    }
}
