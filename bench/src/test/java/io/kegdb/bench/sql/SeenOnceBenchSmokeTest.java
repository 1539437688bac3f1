package io.kegdb.bench.sql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmark of statements seen once on a small script: both stores, every item kind, planning by phase. */
class SeenOnceBenchSmokeTest {

    @TempDir
    Path tmp;

    @Test
    void aScriptReplaysOnBothDatabasesAndKegDbsPlanningIsTakenApartByPhase() throws Exception {
        Path script = tmp.resolve("script.tsv");
        String tables = "table\tCREATE TABLE T0 (k INTEGER PRIMARY KEY, v VARCHAR(20))\t"
                + "INSERT INTO T0 VALUES (1, 'a'), (2, 'b\\tc'), (3, NULL)\n"
                + "table\tCREATE TABLE T1 (k VARCHAR(10) PRIMARY KEY, v INTEGER)\t\n";
        Files.writeString(script, "round\tMEMORY\n" + tables
                + "case\tAUTOCOMMIT\n"
                + "query\tSELECT k, v FROM T0 WHERE v IS NOT NULL ORDER BY k\tSELECT k, v FROM T0 WHERE v IS NOT NULL ORDER BY k\n"
                + "case\tCOMMIT\n"
                + "write\tINSERT INTO T1 VALUES ('x', 7)\tINSERT INTO T1 VALUES ('x', 7)\n"
                + "query\tSELECT COUNT(*) FROM T0 JOIN T1 ON T0.k = T1.v\tSELECT COUNT(*) FROM T0 JOIN T1 ON T0.k = T1.v\n"
                + "round\tFILE\n" + tables
                + "case\tROLLBACK\n"
                + "write\tDELETE FROM T0 WHERE k IN (SELECT v FROM T1)\tDELETE FROM T0 WHERE k IN (SELECT v FROM T1)\n"
                + "case\tAUTOCOMMIT\n"
                + "query\tSELECT nothing FROM T0\tSELECT nothing FROM T0\n");

        List<SeenOnceBench.Round> rounds = SeenOnceBench.read(script);
        assertEquals(2, rounds.size());
        assertTrue(rounds.get(0).tables().get(0)[1].contains("'b\tc'"), "escapes read back");
        SeenOnceBench.Report report = SeenOnceBench.run(rounds, 0, tmp);

        assertEquals(4, report.cases());
        assertEquals(5, report.kegdb().statements);
        assertEquals(5, report.h2().statements);
        assertEquals(1, report.kegdb().errors, "the unknown column, nothing else");
        assertEquals(1, report.h2().errors);
        assertTrue(report.plannings() >= 4, "every statement but the insert is planned: " + report.plannings());
        assertTrue(report.phaseSeconds().get("parse") > 0 && report.phaseSeconds().get("compile") > 0,
                report.phaseSeconds().toString());
        String table = SeenOnceBench.table(report);
        assertTrue(table.contains("KegDB / H2"), table);
        assertTrue(table.contains("volcano"), table);
    }
}
