package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class CheckReportsAnUnusableFileWithoutAStackTrace {

    @TempDir
    Path directory;

    @Test
    void aMissingFileExitsTwoNamingTheFile() {
        String missing = directory.resolve("no-such-topology.yaml").toString();

        PeriscopeRun run = PeriscopeRun.of("check", missing);

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).startsWith(missing + ": no such file").contains("fix:");
        assertThat(run.err()).doesNotContain("Exception", "\tat ");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aMissingFileGivenAsJsonStillReportsOnStandardError() {
        String missing = directory.resolve("no-such-topology.yaml").toString();

        PeriscopeRun run = PeriscopeRun.of("check", missing, "--json");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains(missing);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aRelativeMissingFileSaysWhereItWasLookedFor() {
        PeriscopeRun run = PeriscopeRun.of("check", "no-such-dir/topology.yaml");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("no-such-dir/topology.yaml: no such file", Path.of("").toAbsolutePath().toString());
    }

    @Test
    void aDirectoryIsNotATopologyFile() {
        PeriscopeRun run = PeriscopeRun.of("check", directory.toString());

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).startsWith(directory + ": is a directory");
    }
}
