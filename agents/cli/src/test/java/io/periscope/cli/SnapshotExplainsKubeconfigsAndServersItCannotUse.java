package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code periscope snapshot} with a kubeconfig it cannot use, or a server it cannot reach: a clear
 * message and exit 2, never a NullPointerException reported as a bug, and never a long silent wait.
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

    @Test
    void onlyTheMissingOptionIsNamed() throws Exception {
        Path config = kubeconfig("https://127.0.0.1:1", true);

        PeriscopeRun run = PeriscopeRun.of("snapshot", "--kubeconfig", config.toString());

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("Missing required option: -o FILE").doesNotContain("--kubeconfig=FILE");
    }
}
