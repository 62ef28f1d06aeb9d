package io.periscope.dataplane;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test JVM stopped by SIGTERM (Ctrl-C, a build's timeout) while a {@link TestNamespace} is open
 * deletes the namespace on its way out: the namespace is created in a JVM of its own, which is
 * then terminated before it closes it.
 */
class ATestNamespaceLeftByASignalIsDeleted {

    /** The JVM that is stopped: creates a namespace, says its name, and waits to be terminated. */
    public static final class CreatesANamespaceAndWaits {
        public static void main(String[] args) throws InterruptedException {
            TestNamespace namespace = TestNamespace.create();
            System.out.println(namespace.name());
            System.out.flush();
            Thread.sleep(TimeUnit.MINUTES.toMillis(2));
        }
    }

    @Test
    void theNamespaceIsGoneAfterTheJvmIsTerminated() throws Exception {
        TestNamespace.assumeKernelAvailable();
        String classpath = Optional.ofNullable(System.getProperty("surefire.test.class.path")).filter(p -> !p.isBlank())
                .orElse(System.getProperty("java.class.path"));
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                CreatesANamespaceAndWaits.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String name;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
            name = out.readLine();
            assertThat(name).as("the child JVM's namespace").startsWith("psc-t-");
            assertThat(Files.exists(Path.of("/run/netns", name))).as("%s exists while the JVM runs", name).isTrue();
            jvm.destroy();   // SIGTERM
            assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).as("the JVM ends on SIGTERM").isTrue();
        } finally {
            jvm.destroyForcibly();
        }
        assertThat(Files.exists(Path.of("/run/netns", name))).as("%s after the JVM was terminated", name).isFalse();
        assertThat(List.of(new ProcessBuilder("ip", "netns", "list").start().inputReader().lines().toArray()))
                .noneMatch(line -> line.toString().startsWith(name));
    }
}
