package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tables added to schema SYS through {@link DatabaseOptions}: columns, nulls, fresh rows, shape checks. */
class ExtraSystemTableTest {

    /** A source whose rows the test sets. */
    private static final class Peers implements SystemTableSource {
        volatile List<Object[]> rows = new ArrayList<>();

        @Override
        public String name() {
            return "PEERS";
        }

        @Override
        public List<Column> columns() {
            return List.of(new Column("NODE", Kind.VARCHAR, false), new Column("LEADER", Kind.VARCHAR, true),
                    new Column("TERM", Kind.BIGINT, false), new Column("UP", Kind.BOOLEAN, false));
        }

        @Override
        public List<Object[]> rows() {
            return rows;
        }
    }

    @Test
    void rowsAreReadAtEachScan() throws SqlError {
        Peers peers = new Peers();
        try (KvStore store = KvStore.inMemory();
             SqlDatabase db = SqlDatabase.open(store, new DatabaseOptions(false, List.of(peers)));
             SqlSession s = db.newSession()) {
            peers.rows = List.<Object[]>of(new Object[] {"a", null, 1L, true});
            assertEquals(List.of(row("a", null, 1L, true)), rows(s, "SELECT * FROM sys.peers"));
            peers.rows = List.<Object[]>of(new Object[] {"a", "b", 2L, true}, new Object[] {"b", "b", 2L, false});
            assertEquals(List.of(row("b")), rows(s, "SELECT node FROM sys.peers WHERE NOT up"));
            assertEquals(List.of(row(1L)), rows(s, "SELECT COUNT(DISTINCT term) FROM sys.peers"));

            TableInfo info = db.tables().stream().filter(t -> t.name().equals("PEERS")).findFirst().orElseThrow();
            assertTrue(info.system());
            assertEquals(List.of("NODE", "LEADER", "TERM", "UP"), info.columns().stream().map(ColumnInfo::name).toList());
            assertFalse(info.columns().get(0).nullable());
            assertTrue(info.columns().get(1).nullable());

            peers.rows = List.<Object[]>of(new Object[] {null, null, 1L, true});
            SqlError e = fails("HY000", s, "SELECT * FROM sys.peers");
            assertTrue(e.getMessage().contains("SYS.PEERS"), e.getMessage());
            peers.rows = List.<Object[]>of(new Object[] {"a", null, "one", true});
            fails("HY000", s, "SELECT * FROM sys.peers");
            fails("42000", s, "INSERT INTO sys.peers VALUES ('x', 'y', 1, true)");
        }
    }

    @Test
    void aNameTakenOrTooFewColumnsIsRefused() {
        SystemTableSource clash = new SystemTableSource() {
            @Override
            public String name() {
                return "TABLES";
            }

            @Override
            public List<Column> columns() {
                return new Peers().columns();
            }

            @Override
            public List<Object[]> rows() {
                return List.of();
            }
        };
        try (KvStore store = KvStore.inMemory()) {
            assertThrows(IllegalArgumentException.class,
                    () -> SqlDatabase.open(store, new DatabaseOptions(false, List.of(clash))));
            assertThrows(IllegalArgumentException.class,
                    () -> SqlDatabase.open(store, new DatabaseOptions(false, List.of(new Peers(), new Peers()))));
        }
    }
}
