package io.kegdb.raft.tool;

import io.kegdb.raft.security.CertificateFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * {@code kegdb cert}: a cluster's CA and certificates as PEM files, one command each (see
 * {@link CertificateFiles} for what they contain):
 * {@code cert ca --dir DIR}, {@code cert node --dir DIR --name NAME [--host H,H...]},
 * {@code cert client --dir DIR --name USER}.
 */
public final class CertMain {

    static final String USAGE = """
            Usage: kegdb cert ca --dir DIR
                   kegdb cert node --dir DIR --name NAME [--host H[,H...]]
                   kegdb cert client --dir DIR --name USER

            Makes the certificates of a TLS cluster, EC P-256, as PEM files in DIR (created if missing).
              ca      a new certificate authority: DIR/ca.crt and DIR/ca.key (refused if DIR has one already)
              node    DIR/NAME.crt and DIR/NAME.key for a node, signed by the CA in DIR; --host lists the
                      host names and IP addresses peers and clients reach it by (default 127.0.0.1,localhost);
                      the certificate is marked as a node's (URI name kegdb:node, serverAuth and clientAuth)
              client  DIR/USER.crt and DIR/USER.key for a client (clientAuth only; never accepted as a node)
            Running node or client again for the same name replaces its files (a rotation: nodes pick up
            new files for new connections without a restart). Keys are readable by their owner only.
            Keep ca.key off the nodes. See docs/SECURITY.md.
            """;

    private static final Set<String> OPTIONS = Set.of("dir", "name", "host");

    private CertMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs one command; returns the exit status (0 done, 1 failed, 2 usage error). */
    static int run(String[] args) {
        if (args.length == 0 || Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")
                || args[0].equals("help")) {
            System.out.print(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String command = args[0];
        CommandLine cl;
        try {
            cl = CommandLine.parse(Arrays.copyOfRange(args, 1, args.length), OPTIONS);
            if (!cl.words.isEmpty()) {
                throw new IllegalArgumentException("unexpected " + cl.words);
            }
            Path dir = Path.of(cl.required("dir"));
            Path written = switch (command) {
                case "ca" -> {
                    noOption(cl, "name");
                    noOption(cl, "host");
                    yield CertificateFiles.writeCa(dir);
                }
                case "node" -> CertificateFiles.writeNode(dir, cl.required("name"), hosts(cl));
                case "client" -> {
                    noOption(cl, "host");
                    yield CertificateFiles.writeClient(dir, cl.required("name"));
                }
                default -> throw new IllegalArgumentException("unknown cert command '" + command
                        + "' (ca, node or client)");
            };
            String name = written.getFileName().toString();
            String key = name.substring(0, name.length() - ".crt".length()) + ".key";
            System.out.println("wrote " + written + " and " + written.resolveSibling(key));
            return 0;
        } catch (IllegalArgumentException e) {
            System.err.println("kegdb cert: " + e.getMessage());
            System.err.print(USAGE);
            return 2;
        } catch (IOException e) {
            System.err.println("kegdb cert: " + e.getMessage());
            return 1;
        }
    }

    private static List<String> hosts(CommandLine cl) {
        String hosts = cl.optional("host", null);
        if (hosts == null) {
            return CertificateFiles.DEFAULT_HOSTS;
        }
        return Arrays.stream(hosts.split(",")).map(String::trim).filter(h -> !h.isEmpty()).toList();
    }

    private static void noOption(CommandLine cl, String name) {
        if (cl.optional(name, null) != null) {
            throw new IllegalArgumentException("--" + name + " does not apply here");
        }
    }
}
