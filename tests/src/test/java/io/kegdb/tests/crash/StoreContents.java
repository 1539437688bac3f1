package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;

import java.nio.charset.StandardCharsets;
import java.util.TreeMap;

/** A store's pairs as UTF-8 strings, read through a full scan (each record's CRC is checked on the way). */
final class StoreContents {

    private StoreContents() {
    }

    static TreeMap<String, String> of(Bitcask db) {
        TreeMap<String, String> out = new TreeMap<>();
        try (KvIterator it = db.scan(null, null)) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                out.put(new String(kv.key(), StandardCharsets.UTF_8), new String(kv.value(), StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}
