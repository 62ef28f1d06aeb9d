package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * {@code periscope snapshot} with a kubeconfig it cannot use (or that is no file to read: a directory, a
 * device, a FIFO, a huge or binary file), or a server it cannot reach: a clear message and exit 2, never
 * a NullPointerException or an IOException reported as a bug, and never a long silent wait.
 */
class SnapshotExplainsKubeconfigsAndServersItCannotUse {

    @TempDir
    Path dir;

    private Path kubeconfig(String server, boolean currentContext) throws Exception {
        return Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: c1
                    cluster: {server: "%s"}
                contexts:
                  - name: ctx1
                    context: {cluster: c1, user: u1}
                %s
                users:
                  - name: u1
                    user: {token: secret}
                """.formatted(server, currentContext ? "current-context: ctx1" : ""));
    }

    @Test
    void aKubeconfigWithoutCurrentContextAsksForContext() throws Exception {
        Path config = kubeconfig("https://127.0.0.1:1", false);

        PeriscopeRun run = PeriscopeRun.of("snapshot", "--kubeconfig", config.toString(), "-o", dir.resolve("out.yaml").toString());

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("sets no current-context").contains("--context").contains("[ctx1]")
                .doesNotContain("internal error").doesNotContain("NullPointer");
    }

    @Test
    void aServerThatRefusesConnectionsIsNamed() throws Exception {
        int closed;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = probe.getLocalPort();
        }
        Path config = kubeconfig("https://127.0.0.1:" + closed, true);
        long start = System.nanoTime();

        PeriscopeRun run = PeriscopeRun.of("snapshot", "--kubeconfig", config.toString(), "-o", dir.resolve("out.yaml").toString());

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("context ctx1: cannot connect to the API server https://127.0.0.1:" + closed)
                .doesNotContain("internal error");
        assertThat((System.nanoTime() - start) / 1_000_000_000).as("no retries with back-off").isLessThan(10);
        assertThat(dir.resolve("out.yaml")).doesNotExist();
    }

    @Test
    void aServerThatNeverAnswersIsGivenUpOnAfterTheStatedTimeout() throws Exception {
        // Connections complete in the kernel's backlog, but nothing ever reads or answers them.
        try (ServerSocket silent = new ServerSocket()) {
            silent.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            Path config = kubeconfig("https://127.0.0.1:" + silent.getLocalPort(), true);

            PeriscopeRun run = PeriscopeRun.of("snapshot", "--kubeconfig", config.toString(), "--timeout", "1",
                    "-o", dir.resolve("out.yaml").toString());

            assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
            assertThat(run.err()).contains("did not answer within 1 s (--timeout)").doesNotContain("internal error");
        }
    }

    private PeriscopeRun snapshotOf(Path config) {
        return assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                PeriscopeRun.of("snapshot", "--kubeconfig", config.toString(), "-o", dir.resolve("out.yaml").toString()));
    }

    @Test
    void aDirectoryIsNotAKubeconfig() {
        PeriscopeRun run = snapshotOf(dir);

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("--kubeconfig " + dir + ": a directory, not a kubeconfig").doesNotContain("internal error");
    }

    @Test
    void aDeviceOrFifoIsRefusedWithoutReadingIt() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

        for (Path device : List.of(Path.of("/dev/zero"), fifo)) {
            PeriscopeRun run = snapshotOf(device);

            assertThat(run.status()).as(device.toString()).isEqualTo(ExitStatus.BAD_INPUT);
            assertThat(run.err()).contains("--kubeconfig " + device + ": not a regular file").contains("write the kubeconfig to a file first")
                    .doesNotContain("internal error");
        }
    }

    @Test
    void aFileLargerThanTheLimitIsRefusedBeforeReading() throws Exception {
        for (long size : List.of(SnapshotCommand.MAX_KUBECONFIG_BYTES + 1, 4L << 30)) {
            Path big = dir.resolve("big-" + size);
            try (RandomAccessFile file = new RandomAccessFile(big.toFile(), "rw")) {
                file.setLength(size); // sparse: no disk, but the size a reader would have to hold
            }

            PeriscopeRun run = snapshotOf(big);

            assertThat(run.status()).as(size + " bytes").isEqualTo(ExitStatus.BAD_INPUT);
            assertThat(run.err()).contains("--kubeconfig " + big + ": the file is " + size + " bytes, more than the 3 MiB")
                    .doesNotContain("internal error").doesNotContain("OutOfMemory");
        }
    }

    @Test
    void aBinaryFileIsNamedWithTheByteAndPlace() throws Exception {
        Path binary = Files.write(dir.resolve("kubeconfig.gz"), new byte[] {'a', 'p', 'i', '\n', 'x', (byte) 0x8b, 0x08});

        PeriscopeRun run = snapshotOf(binary);

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("--kubeconfig " + binary + ": not UTF-8 text: byte 0x8B at line 2, column 2")
                .doesNotContain("internal error");
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nowhere");

        PeriscopeRun run = snapshotOf(missing);

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("--kubeconfig " + missing + ": no such file");
    }

    @Test
    void onlyTheMissingOptionIsNamed() throws Exception {
        Path config = kubeconfig("https://127.0.0.1:1", true);

        PeriscopeRun run = PeriscopeRun.of("snapshot", "--kubeconfig", config.toString());

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("Missing required option: -o FILE").doesNotContain("--kubeconfig=FILE");
    }
}
