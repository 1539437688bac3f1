package io.kegdb.jdbc;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The shaded jar's {@code raft.desc} (src/shade/raft.desc). SOFAJRaft finds its protobuf message classes by
 * reading {@code /raft.desc} and calling {@code Class.forName(java_package + "." + outer class + "$" + message)};
 * the shade plugin moves those classes under {@value #PREFIX} but cannot rewrite a binary descriptor, so the jar
 * carries a copy of jraft-core's whose {@code java_package} options carry the prefix. This test fails when
 * jraft-core's descriptor changes (an upgrade); regenerate the copy with
 * {@code java -cp driver/target/test-classes:<jraft-core, protobuf-java jars> io.kegdb.jdbc.ShadedRaftDescriptorTest driver/src/shade/raft.desc}.
 */
class ShadedRaftDescriptorTest {

    /** The shade plugin's io.kegdb.shaded prefix (driver/pom.xml, shaded.prefix) plus the dot. */
    private static final String PREFIX = "io.kegdb.shaded.";
    private static final Path COPY = Path.of("src/shade/raft.desc");

    static FileDescriptorSet jraftDescriptor() throws IOException {
        try (InputStream in = com.alipay.sofa.jraft.rpc.ProtobufMsgFactory.class.getResourceAsStream("/raft.desc")) {
            if (in == null) {
                throw new IOException("jraft-core has no /raft.desc");
            }
            return FileDescriptorSet.parseFrom(in);
        }
    }

    static FileDescriptorSet relocated(FileDescriptorSet original) {
        FileDescriptorSet.Builder relocated = original.toBuilder();
        for (FileDescriptorProto.Builder file : relocated.getFileBuilderList()) {
            String javaPackage = file.getOptions().getJavaPackage();
            if (javaPackage.isEmpty()) {
                throw new IllegalStateException(file.getName() + " in raft.desc names no java_package to relocate");
            }
            file.getOptionsBuilder().setJavaPackage(PREFIX + javaPackage);
        }
        return relocated.build();
    }

    @Test
    void shadedCopyIsJraftsDescriptorWithRelocatedPackages() throws IOException {
        FileDescriptorSet original = jraftDescriptor();
        assertFalse(original.getFileList().isEmpty());
        FileDescriptorSet copy = FileDescriptorSet.parseFrom(Files.readAllBytes(COPY));
        assertEquals(relocated(original), copy, COPY + " is stale: regenerate it (see this class's comment)");
        for (FileDescriptorProto file : copy.getFileList()) {
            assertEquals(PREFIX, file.getOptions().getJavaPackage().substring(0, PREFIX.length()), file.getName());
        }
    }

    /** Writes the relocated copy to args[0]. */
    public static void main(String[] args) throws IOException {
        Files.write(Path.of(args[0]), relocated(jraftDescriptor()).toByteArray());
    }
}
