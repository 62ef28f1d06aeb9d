package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cluster.service.namespace.svc.clusterset.local:port}, one cluster's export of a service (the
 * name the reachability matrix asks), reads the same in a file's flow as after {@code --to}: one
 * parser for both, and a cluster the file lacks is named as such.
 */
class AFlowsToTakesTheClusterSpecificNameAsToDoes {

    private static final String NAME = "cluster2.nginx.default.svc.clusterset.local:80";

    @TempDir
    Path dir;

    private Path exampleFlowingTo(String to) throws Exception {
        String text = Files.readString(Path.of("../examples/mag-globalnet.yaml"))
                .replace("to: nginx.default.svc.clusterset.local:80", "to: " + to);
        Path file = dir.resolve("cluster-specific.yaml");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void theFilesFlowIsTracedAsTheSameFlowTypedWithTo() throws Exception {
        Path file = exampleFlowingTo(NAME);
        PeriscopeRun fromFile = PeriscopeRun.of("trace", file.toString());
        PeriscopeRun typed = PeriscopeRun.of("trace", file.toString(), "--from", "cluster1/default/client", "--to", NAME);

        assertThat(fromFile.status()).as(fromFile.err()).isEqualTo(ExitStatus.OK);
        assertThat(fromFile.out()).contains("flow client-to-nginx: cluster1/default/client -> " + NAME + " (242.254.2.254:80)",
                "4 paths, 4 delivered");
        assertThat(fromFile.out().replace("flow client-to-nginx:", "flow ad-hoc:")).isEqualTo(typed.out());
    }

    @Test
    void aClusterTheFileLacksIsNamedInTheFileAndAfterTo() throws Exception {
        Path file = exampleFlowingTo("cluster9.nginx.default.svc.clusterset.local:80");
        PeriscopeRun fromFile = PeriscopeRun.of("check", file.toString());

        assertThat(fromFile.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(fromFile.err()).contains("flows[0].to", "cluster9").doesNotContain("Exception");
        PeriscopeRun typed = PeriscopeRun.of("trace", "../examples/mag-globalnet.yaml", "--from", "cluster1/default/client",
                "--to", "cluster9.nginx.default.svc.clusterset.local:80");
        assertThat(typed.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(typed.err()).contains("cluster9");
    }
}
