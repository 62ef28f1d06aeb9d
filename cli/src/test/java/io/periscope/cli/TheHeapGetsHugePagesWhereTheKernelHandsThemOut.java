package io.periscope.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The launcher asks the JVM for transparent huge pages when the kernel hands them out, on request or
 * always, and never where they are off: there the JVM would print a warning into the command's own
 * output. The launcher's copy reads the kernel's setting from a file of the test's instead of
 * {@code /sys/kernel/mm/transparent_hugepage/enabled}.
 */
class TheHeapGetsHugePagesWhereTheKernelHandsThemOut {

    private static final String KERNEL_SETTING = "/sys/kernel/mm/transparent_hugepage/enabled";
    private static final String HUGE_PAGES = "-XX:+UseTransparentHugePages";

    @TempDir
    Path root;

    private Path setting;

    @BeforeEach
    void launcherReadingTheTestsSetting() throws Exception {
        LauncherLayout.printingJvmOptions(root);
        Path launcher = root.resolve("periscope");
        String script = Files.readString(launcher);
        assertThat(script).as("the launcher reads the kernel's setting").contains(KERNEL_SETTING);
        setting = root.resolve("transparent_hugepage-enabled");
        Files.writeString(launcher, script.replace(KERNEL_SETTING, setting.toString()));
    }

    @Test
    void onRequestEveryCommandGetsThem() throws Exception {
        kernelSays("always [madvise] never");
        for (String[] command : List.of(new String[] {"trace", "set.yaml"}, new String[] {"check", "set.yaml"},
                new String[] {"serve", "set.yaml"}, new String[] {"lab", "up", "set.yaml"}, new String[] {"--version"})) {
            assertThat(launch(Map.of(), command)).as(String.join(" ", command)).contains(HUGE_PAGES);
        }
    }

    @Test
    void alwaysOnTheyAreAskedForToo() throws Exception {
        kernelSays("[always] madvise never");
        assertThat(launch(Map.of(), "trace", "set.yaml")).contains(HUGE_PAGES);
    }

    @Test
    void offOrUnknownTheJvmIsNotAskedForThem() throws Exception {
        kernelSays("always madvise [never]");
        assertThat(launch(Map.of(), "trace", "set.yaml")).doesNotContain(HUGE_PAGES);
        Files.delete(setting);
        assertThat(launch(Map.of(), "trace", "set.yaml")).as("a kernel without the setting").doesNotContain(HUGE_PAGES);
    }

    @Test
    void theUserCanLeaveThemOff() throws Exception {
        kernelSays("always [madvise] never");
        assertThat(launch(Map.of("PERISCOPE_HUGE_PAGES", "off"), "check", "set.yaml")).doesNotContain(HUGE_PAGES);
    }

    private void kernelSays(String modes) throws Exception {
        Files.writeString(setting, modes + "\n");
    }

    private List<String> launch(Map<String, String> environment, String... arguments) throws Exception {
        return LauncherLayout.jvmOptions(root, false, environment, arguments);
    }
}
