package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two launches at once: the second waits on the first one's build lock and must say so, or it looks
 * hung. The launcher runs from a copy of the repository's layout whose jar is older than a source
 * file; another process holds the build lock for a moment and then leaves a fresh jar behind, as a
 * finished build would.
 */
class LauncherSaysWhenItWaitsForAnotherBuild {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();   // the module (cli/) is at the top level

    @Test
    void aSecondLaunchSaysItWaitsForTheBuildLock(@TempDir Path root) throws Exception {
        assumeTrue(onPath("flock"), "flock (util-linux) is not installed; the launcher then does not lock at all");
        Files.copy(REPOSITORY.resolve("periscope"), root.resolve("periscope"));
        Files.createDirectories(root.resolve("scripts"));
        Files.copy(REPOSITORY.resolve("scripts/find-jdk.sh"), root.resolve("scripts/find-jdk.sh"));
        Path jar = Files.createDirectories(root.resolve("cli/target")).resolve("periscope.jar");
        Files.writeString(jar, "not a jar: the test only reads what the launcher says while it waits");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(3600)));
        Path source = Files.createDirectories(root.resolve("model/src")).resolve("Changed.java");
        Files.writeString(source, "// newer than the jar");
        Path lock = Files.createDirectories(root.resolve(".periscope")).resolve("build.lock");

        Process holder = new ProcessBuilder("flock", lock.toString(), "sh", "-c", "echo locked; sleep 2; touch '" + jar + "'")
                .redirectErrorStream(true).start();
        assertThat(new String(holder.getInputStream().readNBytes(7), StandardCharsets.UTF_8)).isEqualTo("locked\n");

        Process launcher = new ProcessBuilder("bash", root.resolve("periscope").toString(), "--version")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(launcher.waitFor(30, TimeUnit.SECONDS)).as("the launcher ends once the lock is released").isTrue();
        holder.waitFor(10, TimeUnit.SECONDS);
        String err = new String(launcher.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(err).contains("waiting for another periscope launch to finish building the jar")
                .contains(lock.toString())
                .as("the jar was fresh after the wait, so no second build").doesNotContain("rebuilding periscope");
    }

    private static boolean onPath(String program) throws IOException, InterruptedException {
        return new ProcessBuilder("sh", "-c", "command -v " + program).start().waitFor() == 0;
    }
}
