package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A {@link FileLayer} over the real file system that also keeps, for every file and directory the engine
 * changes, what a power cut could leave of it (in the spirit of RocksDB's FaultInjectionTestFS and Pebble's
 * strict MemFS). The store runs on the real files; beside them this layer models each file as the bytes the
 * page cache holds and the bytes its last fsync made durable, with the 4 KiB pages written since, and each
 * directory as the entries its last fsync made durable, with the creations, renames and deletions since.
 *
 * <p>{@link #snapshot} freezes that model at a moment; {@link Snapshot#writeImage} then writes one disk image
 * a power cut at that moment could leave, chosen by a seeded {@link Random}:
 * <ul>
 * <li>everything fsynced stays;</li>
 * <li>each page written since its file's last fsync is independently kept, lost (the durable content, zeros
 *     where nothing was durable) or torn at a 512-byte boundary (its first sectors new, the rest old);</li>
 * <li>a file's size is the durable one or the current one;</li>
 * <li>each creation, rename or deletion since its directory's last fsync happened or not (in order; a rename
 *     whose source is not there does not happen).</li>
 * </ul>
 * Files the layer never saw written (the directory lock) are not part of an image. Thread-safe: the store's
 * background threads write through it too.
 */
final class PowerLossFiles implements FileLayer {

    static final int PAGE = 4096;
    static final int SECTOR = 512;

    /** What happened, for the cut points: data written, a file or directory fsync, a directory change. */
    enum Event { WRITE, FILE_SYNC, DIRECTORY_SYNC, DIRECTORY_CHANGE }

    /** How the pages written since the last fsync fare in an image. */
    enum Fate {
        /** Each page independently kept, lost or torn. */
        RANDOM,
        /** Every unsynced page, size change and directory change lost: only what was fsynced. */
        LOSE_ALL,
        /**
         * The first page of each file written since its fsync lost, every later one kept, at the current size:
         * the hole followed by valid records that writeback in no particular order leaves.
         */
        HOLE
    }

    /** One file: its bytes in the page cache, its durable bytes, and the pages written since its last fsync. */
    private static final class Inode {
        byte[] current = new byte[0];
        int size;
        byte[] durable = new byte[0];
        int durableSize;
        final BitSet dirty = new BitSet();

        Inode() {
        }

        Inode(Inode o) {
            current = Arrays.copyOf(o.current, o.size);
            size = o.size;
            durable = Arrays.copyOf(o.durable, o.durableSize);
            durableSize = o.durableSize;
            dirty.or(o.dirty);
        }

        void write(long position, ByteBuffer src) {
            int len = src.remaining();
            int at = Math.toIntExact(position);
            ensure(at + len);
            src.get(current, at, len);
            size = Math.max(size, at + len);
            markDirty(at, at + len);
        }

        void resize(long newSize) {
            int n = Math.toIntExact(newSize);
            ensure(n);
            if (n < size) {
                Arrays.fill(current, n, size, (byte) 0);
            }
            size = n;
        }

        void sync() {
            durable = Arrays.copyOf(current, size);
            durableSize = size;
            dirty.clear();
        }

        private void markDirty(int from, int to) {
            if (to > from) {
                dirty.set(from / PAGE, (to - 1) / PAGE + 1);
            }
        }

        private void ensure(int capacity) {
            if (current.length < capacity) {
                current = Arrays.copyOf(current, Math.max(capacity, current.length * 2));
            }
        }

        /** The bytes a power cut could leave of this file. */
        byte[] image(Random rnd, Fate fate) {
            int imageSize = fate == Fate.HOLE ? size
                    : size == durableSize || fate == Fate.LOSE_ALL || rnd.nextBoolean() ? durableSize : size;
            int hole = dirty.nextSetBit(0);
            byte[] out = new byte[imageSize];
            System.arraycopy(durable, 0, out, 0, Math.min(durableSize, imageSize));
            for (int page = 0; page * PAGE < imageSize; page++) {
                int from = page * PAGE;
                int to = Math.min(imageSize, from + PAGE);
                if (!dirty.get(page)) {
                    // Unchanged since the fsync, except for growth or shrinkage of the size alone.
                    copyCurrent(out, from, to);
                    continue;
                }
                if (fate == Fate.LOSE_ALL || (fate == Fate.HOLE && page == hole)) {
                    continue; // the durable content, already there (zeros past the durable size)
                }
                if (fate == Fate.HOLE) {
                    copyCurrent(out, from, to);
                    continue;
                }
                int choice = rnd.nextInt(3);
                if (choice == 0) {
                    copyCurrent(out, from, to);
                } else if (choice == 2) {
                    int sectors = 1 + rnd.nextInt(PAGE / SECTOR - 1);
                    copyCurrent(out, from, Math.min(to, from + sectors * SECTOR));
                }
            }
            return out;
        }

        private void copyCurrent(byte[] out, int from, int to) {
            for (int i = from; i < to; i++) {
                out[i] = i < size ? current[i] : 0;
            }
        }
    }

    /** A creation, rename or deletion not yet made durable by a directory fsync. */
    private record Change(String name, String to, Inode inode) {
        static Change create(String name, Inode inode) {
            return new Change(name, null, inode);
        }

        static Change delete(String name) {
            return new Change(name, null, null);
        }

        static Change rename(String from, String to, Inode inode) {
            return new Change(from, to, inode);
        }

        void apply(Map<String, Inode> entries) {
            if (to != null) {
                if (entries.get(name) == inode) {
                    entries.remove(name);
                    entries.put(to, inode);
                }
            } else if (inode != null) {
                entries.put(name, inode);
            } else {
                entries.remove(name);
            }
        }
    }

    /** One directory: its entries now and as its last fsync left them, and the changes since. */
    private static final class Dir {
        final Map<String, Inode> current = new LinkedHashMap<>();
        final Map<String, Inode> durable = new LinkedHashMap<>();
        final List<Change> pending = new ArrayList<>();

        void change(Change c) {
            c.apply(current);
            pending.add(c);
        }

        void sync() {
            durable.clear();
            durable.putAll(current);
            pending.clear();
        }
    }

    private final Map<Path, Dir> dirs = new HashMap<>();
    private final Map<Event, Long> counts = new java.util.EnumMap<>(Event.class);
    private volatile Consumer<Event> listener = e -> { };

    /** Models {@code dir}, which must be empty or not yet exist (its files are then all written through here). */
    PowerLossFiles watch(Path dir) {
        synchronized (this) {
            dirs.put(dir.toAbsolutePath(), new Dir());
        }
        return this;
    }

    /** Called, outside the layer's lock, after each change the layer recorded. */
    void onEvent(Consumer<Event> listener) {
        this.listener = listener;
    }

    /** How many of each event were recorded so far. */
    synchronized Map<Event, Long> counts() {
        return Map.copyOf(counts);
    }

    private void recorded(Event e) {
        synchronized (this) {
            counts.merge(e, 1L, Long::sum);
        }
        listener.accept(e);
    }

    private Dir dirOf(Path file) {
        Dir d = dirs.get(file.toAbsolutePath().getParent());
        if (d == null) {
            throw new IllegalStateException(file + ": not in a directory this layer watches");
        }
        return d;
    }

    private static String nameOf(Path file) {
        return file.getFileName().toString();
    }

    // ---------------------------------------------------------------- FileLayer

    @Override
    public FileChannel open(Path file, OpenOption... options) throws IOException {
        FileChannel real = FileChannel.open(file, options);
        Inode inode;
        boolean created = false;
        synchronized (this) {
            Dir d = dirOf(file);
            inode = d.current.get(nameOf(file));
            if (inode == null) {
                inode = new Inode();
                d.change(Change.create(nameOf(file), inode));
                created = true;
            }
            if (Set.of(options).contains(StandardOpenOption.TRUNCATE_EXISTING)) {
                inode.resize(0);
            }
        }
        if (created) {
            recorded(Event.DIRECTORY_CHANGE);
        }
        return new RecordingChannel(real, inode);
    }

    @Override
    public void stored(FileChannel channel, ByteBuffer mapping, int offset, int length) {
        Inode inode = ((RecordingChannel) channel).inode;
        synchronized (this) {
            inode.write(offset, mapping.slice(offset, length));
        }
        recorded(Event.WRITE);
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        FileLayer.DISK.move(from, to);
        synchronized (this) {
            Dir d = dirOf(from);
            if (dirOf(to) != d) {
                throw new IllegalStateException(from + " -> " + to + ": the engine renames within a directory");
            }
            d.change(Change.rename(nameOf(from), nameOf(to), d.current.get(nameOf(from))));
        }
        recorded(Event.DIRECTORY_CHANGE);
    }

    @Override
    public boolean deleteIfExists(Path file) throws IOException {
        boolean existed = FileLayer.DISK.deleteIfExists(file);
        if (existed) {
            synchronized (this) {
                Dir d = dirOf(file);
                d.change(Change.delete(nameOf(file)));
            }
            recorded(Event.DIRECTORY_CHANGE);
        }
        return existed;
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        FileLayer.DISK.syncDirectory(dir);
        synchronized (this) {
            Dir d = dirs.get(dir.toAbsolutePath());
            if (d != null) { // the parent of a watched directory, synced when it was created, is not modeled
                d.sync();
            }
        }
        recorded(Event.DIRECTORY_SYNC);
    }

    // ---------------------------------------------------------------- images

    /** The model at one moment, from which images are drawn. */
    static final class Snapshot {
        private final Map<Path, Map<String, Inode>> durable = new LinkedHashMap<>();
        private final Map<Path, List<Change>> pending = new LinkedHashMap<>();

        /**
         * Writes into {@code target} (created; one subdirectory per watched directory, named as it) one disk
         * image a power cut at this moment could leave; returns the subdirectory of each watched directory.
         */
        Map<Path, Path> writeImage(Path target, Random rnd, Fate fate) throws IOException {
            Map<Path, Path> where = new LinkedHashMap<>();
            for (Map.Entry<Path, Map<String, Inode>> e : durable.entrySet()) {
                Map<String, Inode> entries = new LinkedHashMap<>(e.getValue());
                if (fate != Fate.LOSE_ALL) {
                    for (Change c : pending.get(e.getKey())) {
                        if (fate == Fate.HOLE || rnd.nextBoolean()) {
                            c.apply(entries);
                        }
                    }
                }
                Path out = target.resolve(e.getKey().getFileName());
                Files.createDirectories(out);
                for (Map.Entry<String, Inode> f : entries.entrySet()) {
                    Files.write(out.resolve(f.getKey()), f.getValue().image(rnd, fate));
                }
                where.put(e.getKey(), out);
            }
            return where;
        }
    }

    /** Freezes the model as it is now. */
    synchronized Snapshot snapshot() {
        Snapshot s = new Snapshot();
        Map<Inode, Inode> copies = new HashMap<>();
        for (Map.Entry<Path, Dir> e : dirs.entrySet()) {
            Dir d = e.getValue();
            Map<String, Inode> durable = new LinkedHashMap<>();
            d.durable.forEach((name, inode) -> durable.put(name, copies.computeIfAbsent(inode, Inode::new)));
            List<Change> pending = new ArrayList<>();
            for (Change c : d.pending) {
                pending.add(new Change(c.name(), c.to(), c.inode() == null ? null : copies.computeIfAbsent(c.inode(), Inode::new)));
            }
            s.durable.put(e.getKey(), durable);
            s.pending.put(e.getKey(), pending);
        }
        return s;
    }

    // ---------------------------------------------------------------- the channel

    /** A channel whose writes, size changes and fsyncs the layer records before they count. */
    private final class RecordingChannel extends FileChannel {
        private final FileChannel real;
        final Inode inode;

        RecordingChannel(FileChannel real, Inode inode) {
            this.real = real;
            this.inode = inode;
        }

        private int recordWrite(ByteBuffer src, long position, int written) {
            if (written > 0) {
                ByteBuffer bytes = src.duplicate();
                bytes.position(src.position() - written).limit(src.position());
                synchronized (PowerLossFiles.this) {
                    inode.write(position, bytes);
                }
                recorded(Event.WRITE);
            }
            return written;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            long at = real.position();
            return recordWrite(src, at, real.write(src));
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            return recordWrite(src, position, real.write(src, position));
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                total += write(srcs[i]);
            }
            return total;
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            real.truncate(size);
            synchronized (PowerLossFiles.this) {
                if (size < inode.size) {
                    inode.resize(size);
                }
            }
            recorded(Event.WRITE);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            real.force(metaData);
            synchronized (PowerLossFiles.this) {
                inode.sync(); // fdatasync too makes the size durable: it is needed to read the data back
            }
            recorded(Event.FILE_SYNC);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            MappedByteBuffer m = real.map(mode, position, size);
            if (mode == MapMode.READ_WRITE) {
                synchronized (PowerLossFiles.this) {
                    if (position + size > inode.size) {
                        inode.resize(position + size); // a writable mapping past the end grows the file
                    }
                }
                recorded(Event.WRITE);
            }
            return m;
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(count, 1 << 16));
            long done = 0;
            while (done < count) {
                buf.clear().limit((int) Math.min(buf.capacity(), count - done));
                int n = src.read(buf);
                if (n <= 0) {
                    break;
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    done += write(buf, position + done);
                }
            }
            return done;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return real.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return real.read(dsts, offset, length);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return real.read(dst, position);
        }

        @Override
        public long position() throws IOException {
            return real.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            real.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return real.size();
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return real.transferTo(position, count, target);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return real.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return real.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            real.close();
        }
    }
}
