package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The launcher's start-up cache is only as good as its training run: every command in it must really
 * run (a command that fails early trains nothing past its failure), and a failure must be reported
 * rather than hidden behind a cache that looks made.
 */
class StartupTrainingRunsTheCommandsUsersWaitFor {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();   // the module (cli/) is at the top level

    @Test
    void everyTrainingCommandSucceedsOnTheExampleTheLauncherPasses() throws Exception {
        Path example = REPOSITORY.resolve("examples/mag-globalnet.yaml");
        for (StartupTraining.Family family : StartupTraining.Family.values()) {
            assertThat(StartupTraining.train(example, family)).as("%s", family).isEmpty();
        }
    }

    @Test
    void commandsThatRefuseTheFileAreReported(@TempDir Path directory) throws Exception {
        Path broken = directory.resolve("broken.yaml");
        Files.writeString(broken, "name: broken\nclusters: [\n");

        assertThat(StartupTraining.train(broken, StartupTraining.Family.TRACE)).containsExactly("trace " + broken);
        assertThat(StartupTraining.train(broken, StartupTraining.Family.TEXT))
                .contains("trace " + broken + " --json", "plan " + broken, "check " + broken)
                .doesNotContain("--version");
        assertThat(StartupTraining.train(broken, StartupTraining.Family.PICTURE))
                .anySatisfy(command -> assertThat(command).startsWith("trace " + broken + " --html "));
    }
}
