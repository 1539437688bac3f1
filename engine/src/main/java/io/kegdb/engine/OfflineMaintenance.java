package io.kegdb.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Check and repair of a store directory that no process has open, and the tests the maintenance tools make
 * before touching a directory. Behind {@link Bitcask#check}, {@link Bitcask#repair}, {@link Bitcask#isStore}
 * and {@link Bitcask#isOpenForWriting}; the work itself is {@link DirectoryCheck}'s and
 * {@link DirectoryRepair}'s, this class holds the directory lock around it.
 */
final class OfflineMaintenance {

    private OfflineMaintenance() {
    }

    /** A directory holding a LOCK file or a data segment. */
    static boolean isStore(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        if (Files.exists(dir.resolve(DirectoryLock.FILE_NAME))) {
            return true;
        }
        return !SegmentFiles.list(dir).isEmpty();
    }

    static boolean isOpenForWriting(Path dir) {
        return Files.exists(dir.resolve(DirectoryLock.FILE_NAME)) && !DirectoryLock.isFree(dir, true);
    }

    static void requireDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + ": no such store directory");
        }
    }

    /** Runs the check under a shared lock; a directory some writer holds is reported, not read. */
    static CheckReport check(Path dir, MaintenanceListener listener) throws IOException {
        requireDirectory(dir);
        DirectoryLock lock = null;
        String lockState = "no LOCK file: the store was never opened for writing";
        if (Files.exists(dir.resolve(DirectoryLock.FILE_NAME))) {
            // A shared lock is granted next to a read-only reader's: try the exclusive one first to tell them apart.
            boolean free = DirectoryLock.isFree(dir, false);
            try {
                lock = DirectoryLock.acquire(dir, true);
                lockState = free ? "LOCK is free: no process has the store open"
                        : "LOCK is held shared: a read-only reader has the store open (the files cannot change meanwhile)";
            } catch (IOException held) {
                CheckReport.Builder report = new CheckReport.Builder();
                report.problem(held.getMessage() + "; a store is checked while closed (an open store: verify())");
                return report.build();
            }
        }
        try {
            DirectoryCheck c = DirectoryCheck.run(dir, listener);
            c.report.note(lockState);
            return c.report.build();
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
    }

    /** Runs the repair under the exclusive lock. */
    static CheckReport repair(Path dir, MaintenanceListener listener) throws IOException {
        requireDirectory(dir);
        DirectoryLock lock = DirectoryLock.acquire(dir, false);
        try {
            return DirectoryRepair.run(dir, listener);
        } finally {
            lock.close();
        }
    }
}
