package io.periscope.model.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Files whose reading alone would never end or would exhaust memory are refused before a byte is read.
 * The timeouts are generous bounds against hanging (a FIFO blocks forever when opened), not timings.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TopologyFilesAreBoundedBeforeTheyAreRead {

    @TempDir
    Path directory;

    @Test
    void aDeviceThatNeverEndsIsRefusedAsNotARegularFile() {
        Path zero = Path.of("/dev/zero");
        assumeTrue(Files.exists(zero), "needs /dev/zero");

        TopologyError error = onlyError(zero);

        assertThat(error.file()).isEqualTo("/dev/zero");
        assertThat(error.problem()).contains("not a regular file");
    }

    @Test
    void aFifoIsRefusedWithoutWaitingForAWriter() throws IOException, InterruptedException {
        Path fifo = directory.resolve("topology.yaml");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(mkfifo.waitFor() == 0, "needs mkfifo (coreutils)");

        assertThat(onlyError(fifo).problem()).contains("not a regular file");
    }

    @Test
    void aFileOverTheLimitIsRefusedNamingTheLimitWithoutBeingRead() throws IOException {
        Path huge = directory.resolve("huge.yaml");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            // Sparse: three gigabytes that take no disk, and would take all memory to read.
            file.setLength(3L * 1024 * 1024 * 1024);
        }

        TopologyError error = onlyError(huge);

        assertThat(error.file()).isEqualTo(huge.toString());
        assertThat(error.problem()).contains("3221225472 bytes", "16 MiB");
        assertThat(error.fix()).contains("Limits");
    }

    @Test
    void aFileJustUnderTheLimitIsReadAndReportedOnItsContent() throws IOException {
        Path big = directory.resolve("big.yaml");
        String comment = "#" + "x".repeat(1022) + "\n";
        StringBuilder text = new StringBuilder();
        while (text.length() + comment.length() < TopologyFileLimits.MAX_FILE_BYTES - 100) {
            text.append(comment);
        }
        text.append("name: [\n");
        Files.writeString(big, text);

        TopologyError error = onlyError(big);

        assertThat(error.problem()).doesNotContain("MiB").contains("not valid YAML");
        assertThat(error.line()).isPositive();
    }

    private static TopologyError onlyError(Path file) {
        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.load(file));
        assertThat(failure).as("loading %s must fail", file).isNotNull();
        assertThat(failure.errors()).hasSize(1);
        return failure.errors().getFirst();
    }
}
