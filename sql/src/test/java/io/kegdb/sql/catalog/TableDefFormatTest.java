package io.kegdb.sql.catalog;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Catalog entries: stores written before DECIMAL (format 1) open unchanged; scales need format 2. */
class TableDefFormatTest {

    @Test
    void readsEntriesWrittenBeforeScalesExisted() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(1);
        out.writeInt(7);
        out.writeUTF("ID");
        out.writeUTF("BIGINT");
        out.writeInt(0);
        out.writeUTF("NAME");
        out.writeUTF("VARCHAR");
        out.writeInt(20);
        out.flush();
        TableDef def = TableDef.deserialize("PUBLIC", "T", bytes.toByteArray());
        assertEquals(new TableDef("PUBLIC", "T", 7, "ID", ColumnType.BIGINT, 0, 0, "NAME", ColumnType.VARCHAR, 20, 0),
                def);
        // Written back unchanged, so an older KegDB still reads a table that uses only its types.
        assertEquals(bytes.toString(java.nio.charset.StandardCharsets.ISO_8859_1),
                new String(def.serialize(), java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    @Test
    void scalesRoundTripInFormatTwo() throws IOException {
        TableDef def = new TableDef("S", "D", 3, "K", ColumnType.DECIMAL, 10, 2, "V", ColumnType.DECIMAL, 19, 5);
        byte[] data = def.serialize();
        assertEquals(2, data[0]);
        assertEquals(def, TableDef.deserialize("S", "D", data));
        TableDef noScale = new TableDef("S", "E", 4, "K", ColumnType.DATE, 0, 0, "V", ColumnType.TIMESTAMP, 3, 0);
        assertEquals(noScale, TableDef.deserialize("S", "E", noScale.serialize()));
    }
}
