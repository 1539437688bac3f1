package io.kegdb.tests;

import io.kegdb.engine.Bitcask;

import java.io.IOException;
import java.nio.file.Path;

/** Opens a store and holds it until killed (prints OPEN), or reports that it was refused (prints REFUSED msg). */
public final class HolderProcess {

    private HolderProcess() {
    }

    public static void main(String[] args) throws Exception {
        try (Bitcask db = Bitcask.open(Path.of(args[0]))) {
            System.out.println("OPEN");
            System.out.flush();
            Thread.sleep(120_000);
        } catch (IOException e) {
            System.out.println("REFUSED " + e.getMessage());
            System.out.flush();
        }
    }
}
