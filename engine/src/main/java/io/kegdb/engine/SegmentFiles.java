package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The data segment files of a store directory, as open, check and repair find them. */
final class SegmentFiles {

    private static final Pattern DATA = Pattern.compile("(\\d{9})\\.data");

    private SegmentFiles() {
    }

    /** Every {@code NNNNNNNNN.data} file in {@code dir}, ascending id. */
    static List<Path> list(Path dir) throws IOException {
        List<Path> paths = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.data")) {
            for (Path f : files) {
                if (DATA.matcher(f.getFileName().toString()).matches()) {
                    paths.add(f);
                }
            }
        }
        paths.sort(null);
        return paths;
    }

    /** The id in a name {@link #list} returned. */
    static int id(Path file) {
        Matcher m = DATA.matcher(file.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalArgumentException(file + " is not a segment file name");
        }
        return Integer.parseInt(m.group(1));
    }

    /** The file's first {@link SegmentHeader#SIZE} bytes (fewer if it is shorter), flipped for reading. */
    static ByteBuffer headerBytes(Path file) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(SegmentHeader.SIZE);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (head.hasRemaining() && ch.read(head) >= 0) {
                // read the header fully
            }
        }
        return head.flip();
    }

    /** The file's size, checked against the most a segment can hold. */
    static long size(Path file) throws IOException {
        long size = Files.size(file);
        if (size > BitcaskOptions.MAX_SEGMENT_SIZE) {
            throw new IOException(file + ": segment of " + size + " bytes exceeds the limit of "
                    + BitcaskOptions.MAX_SEGMENT_SIZE + " bytes");
        }
        return size;
    }

    /** True if every byte is zero: a header created but never written before a crash. */
    static boolean isBlank(ByteBuffer head) {
        for (int i = 0; i < head.limit(); i++) {
            if (head.get(i) != 0) {
                return false;
            }
        }
        return true;
    }
}
