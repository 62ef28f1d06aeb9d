package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CLI's build step src/build/java/UpgradeOldClassFiles.java (cli/pom.xml runs it on the shaded jar):
 * picocli's Java 5 class files, which the JVM's start-up cache cannot hold, come out as Java 6 ones
 * that the type-checking verifier accepts, and picocli still parses a command line from them. Run here
 * on a copy of picocli's own jar, as the build runs it on the CLI's.
 */
class BuildRewritesJava5ClassFilesAsJava6 {

    private static final Path PROGRAM = Path.of("src/build/java/UpgradeOldClassFiles.java").toAbsolutePath();

    @Test
    void picocliComesOutAsJava6AndStillParses(@TempDir Path directory) throws Exception {
        assumeTrue(Runtime.version().feature() >= 24,
                "the build step uses the JDK's class-file API, final in JDK 24; this JDK is " + Runtime.version());
        Path picocli = Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path jar = directory.resolve("picocli.jar");
        Files.copy(picocli, jar, StandardCopyOption.REPLACE_EXISTING);
        assertThat(majorVersions(jar)).as("picocli as published: Java 5 class files").contains(49);

        Process upgrade = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), PROGRAM.toString(), jar.toString())
                .redirectErrorStream(true).start();
        String said = new String(upgrade.getInputStream().readAllBytes());
        assertThat(upgrade.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(upgrade.exitValue()).as(said).isZero();

        assertThat(said).contains("rewritten as Java 6 with stack map frames");
        assertThat(majorVersions(jar)).as("no Java 5 class file left").doesNotContain(49);
        // A JVM of its own with only the rewritten jar on its class path verifies each class it links
        // (classes off the class path always are), and a command line still parses.
        Path program = directory.resolve("Hello.java");
        Files.writeString(program, """
                import picocli.CommandLine;
                import picocli.CommandLine.Command;
                import picocli.CommandLine.Option;

                @Command(name = "hello", mixinStandardHelpOptions = true)
                public class Hello implements Runnable {
                    @Option(names = "--name") String name;

                    public void run() {
                        System.out.println("hello " + name);
                    }

                    public static void main(String[] args) {
                        System.exit(new CommandLine(new Hello()).execute(args));
                    }
                }
                """);
        Process hello = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:off",
                "-cp", jar.toString(), program.toString(), "--name", "gw-1").redirectErrorStream(true).start();
        String out = new String(hello.getInputStream().readAllBytes());
        assertThat(hello.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(out).isEqualTo("hello gw-1\n");
        assertThat(hello.exitValue()).isZero();
    }

    private static List<Integer> majorVersions(Path jar) throws Exception {
        List<Integer> versions = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        byte[] head = in.readNBytes(8);
                        versions.add(((head[6] & 0xff) << 8) | (head[7] & 0xff));
                    }
                }
            }
        }
        return versions;
    }
}
