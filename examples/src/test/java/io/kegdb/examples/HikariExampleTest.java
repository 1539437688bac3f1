package io.kegdb.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HikariExampleTest {

    @TempDir
    Path tmp;

    @Test
    void recordsEveryOrderAndTotal() throws Exception {
        List<String> report = HikariExample.run(tmp.resolve("orders").toString());
        assertEquals("orders: 1000", report.get(0));
        assertEquals(1 + 4 * 5, report.size(), report.toString());
        long sum = 0;
        for (String line : report.subList(1, report.size())) {
            sum += Long.parseLong(line.substring(line.indexOf(": ") + 2));
        }
        long expected = 0;
        for (int i = 0; i < 250; i++) {
            expected += 1 + i % 7;
        }
        assertEquals(4 * expected, sum, "no lost update");
    }
}
