package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scripts/generate-topology --help} prints its usage; an unknown option or a malformed size is
 * refused with exit 2 before anything is built, and no file named after an option is ever written.
 */
class GenerateTopologyAnswersHelpAndRefusesUnknownOptions {

    private static final Path SCRIPT = Path.of("").toAbsolutePath().getParent().resolve("scripts/generate-topology");

    @TempDir
    Path dir;

    private record Run(int status, String out, String err) {
    }

    private Run run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the script answers without building").isTrue();
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void helpPrintsTheUsageAndWritesNoFile() throws Exception {
        for (String help : List.of("--help", "-h")) {
            Run run = run(help);

            assertThat(run.status()).isZero();
            assertThat(run.out()).startsWith("Usage: scripts/generate-topology FILE [CLUSTERS NODES GATEWAYS");
            assertThat(dir.resolve(help)).doesNotExist();
        }
    }

    @Test
    void anUnknownOptionAndAMalformedSizeExitTwoNamingTheMistake() throws Exception {
        Run option = run("--clusters", "5");
        assertThat(option.status()).isEqualTo(2);
        assertThat(option.err()).startsWith("generate-topology: unknown option '--clusters'");
        assertThat(dir.resolve("--clusters")).doesNotExist();

        Run size = run("big.yaml", "20", "10", "two", "500", "10", "2", "v2", "100");
        assertThat(size.status()).isEqualTo(2);
        assertThat(size.err()).startsWith("generate-topology: GATEWAYS 'two' is not a whole number");

        Run count = run("big.yaml", "20");
        assertThat(count.status()).isEqualTo(2);
        assertThat(count.err()).contains("give FILE alone or FILE and the eight sizes");
        assertThat(dir.resolve("big.yaml")).doesNotExist();
    }
}
