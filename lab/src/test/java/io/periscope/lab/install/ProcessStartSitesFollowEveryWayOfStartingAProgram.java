package io.periscope.lab.install;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scan of {@link ProcessStartSites} on small sources, one per way the repository has started a
 * program (each once missed by a scan that matched only some call shapes), and on ways it cannot
 * follow, which it must report rather than pass over.
 */
class ProcessStartSitesFollowEveryWayOfStartingAProgram {

    @TempDir
    Path repository;

    private ProcessStartSites.Result scan(String className, String body) throws IOException {
        Path file = repository.resolve("m/src/test/java/p/" + className + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "package p;\nimport java.util.*;\nimport java.nio.file.Path;\n" + body);
        return ProcessStartSites.in(repository, List.of(file));
    }

    @Test
    void aHelperThatPrefixesIpNetnsExecIsFollowedToItsCallers() throws IOException {
        ProcessStartSites.Result result = scan("Rig", """
                class Rig {
                    void background(String name, String... argv) throws Exception {
                        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", name));
                        all.addAll(List.of(argv));
                        new ProcessBuilder(all).start();
                    }
                    void test() throws Exception {
                        background("s", "iperf3", "-s");
                    }
                }
                """);
        assertThat(result.unresolved()).isEmpty();
        assertThat(result.programs()).containsOnlyKeys("ip", "iperf3");
    }

    @Test
    void aListBuiltWithAddAndAWrapperNamesBoth() throws IOException {
        ProcessStartSites.Result result = scan("Launcher", """
                class Launcher {
                    static List<String> command() {
                        List<String> command = new ArrayList<>();
                        command.add("setsid");
                        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
                        return command;
                    }
                    void start() throws Exception {
                        new ProcessBuilder(command()).start();
                    }
                }
                """);
        assertThat(result.unresolved()).isEmpty();
        assertThat(result.programs()).containsOnlyKeys("setsid", "java");
    }

    @Test
    void shellTextIsReadForItsCommandsAndAProgramByPathForItsName() throws IOException {
        ProcessStartSites.Result result = scan("Shell", """
                class Shell {
                    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
                    int script(String ns, String text) throws Exception {
                        return new ProcessBuilder(List.of("ip", "netns", "exec", ns, "timeout", "10", "bash", "-c", text)).start().waitFor();
                    }
                    void test(Object builder) throws Exception {
                        script("s", "ss -ltn | grep -q 5201");
                        new org.openqa.Builder().usingDriverExecutable(DRIVER.toFile());
                    }
                }
                """);
        assertThat(result.unresolved()).isEmpty();
        assertThat(result.programs()).containsOnlyKeys("ip", "timeout", "bash", "ss", "grep", "chromedriver");
    }

    @Test
    void aProgramPassedInByAFrameworkIsReportedNotPassedOver() throws IOException {
        ProcessStartSites.Result result = scan("Client", """
                class Client {
                    @org.junit.jupiter.params.ParameterizedTest
                    void asks(String client) throws Exception {
                        List<String> command = new ArrayList<>(List.of(client, "@127.0.0.1"));
                        new ProcessBuilder(command).start();
                    }
                }
                """);
        assertThat(result.unresolved()).singleElement().asString()
                .startsWith("m/src/test/java/p/Client.java:7: `client`").contains("no call in the sources passes");
    }

    @Test
    void anArgvFromElsewhereOrACommandComputedInShellTextIsReported() throws IOException {
        ProcessStartSites.Result result = scan("Elsewhere", """
                class Elsewhere {
                    void run(Other other, String tool) throws Exception {
                        new ProcessBuilder(other.argv()).start();
                        new ProcessBuilder("sh", "-c", tool + " --version").start();
                    }
                }
                """);
        assertThat(result.unresolved()).hasSize(2);
        assertThat(result.unresolved().get(0)).contains("Elsewhere.java:6: `other.argv()`");
        assertThat(result.unresolved().get(1)).contains("Elsewhere.java:7: ").contains("computed at run time");
    }
}
