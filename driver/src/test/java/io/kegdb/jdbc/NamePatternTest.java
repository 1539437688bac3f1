package io.kegdb.jdbc;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NamePatternTest {

    @Test
    void likeWildcardsAndEscapes() {
        assertTrue(NamePattern.of(null).matches("ANY"));
        assertTrue(NamePattern.of("%").matches("ANY"));
        assertTrue(NamePattern.of("US%").matches("USERS"));
        assertFalse(NamePattern.of("US%").matches("AUSERS"));
        assertTrue(NamePattern.of("A_C").matches("ABC"));
        assertFalse(NamePattern.of("A\\_C").matches("ABC"));
        assertTrue(NamePattern.of("A\\_C").matches("A_C"));
        assertFalse(NamePattern.of("KV").matches("kv"));
        assertTrue(NamePattern.of("a.b").matches("a.b"));
        assertFalse(NamePattern.of("a.b").matches("axb"));
    }

    @Test
    void exactNamesTreatOnlyNullAndPercentAsAll() {
        assertTrue(NamePattern.nameOrAll("%").matches("T"));
        assertTrue(NamePattern.nameOrAll(null).matches("T"));
        assertTrue(NamePattern.nameOrAll("MY_T").matches("MY_T"));
        assertFalse(NamePattern.nameOrAll("MY_T").matches("MYXT"));
    }
}
