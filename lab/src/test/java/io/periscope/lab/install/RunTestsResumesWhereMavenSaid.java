package io.periscope.lab.install;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.periscope.lab.install.RunTestsInstallsEveryProgramTheCodeRuns.REPOSITORY;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./run-tests -rf :MODULE}, the resume Maven suggests after a failure, and {@code -pl}: Maven 3
 * looks for the modules they leave out in ~/.m2, where run-tests installs nothing, so run-tests keeps
 * them in the reactor with their tests skipped. The command it would run is read with
 * {@code PERISCOPE_RUN_TESTS_SHOW=1}; that the pom's profile really skips the tests of the marked
 * modules, and only theirs, is checked by running Maven.
 */
class RunTestsResumesWhereMavenSaid {

    record Run(int exitCode, String output) {
    }

    private static Run runTests(String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("bash", REPOSITORY.resolve("run-tests").toString()));
        argv.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
        builder.environment().put("PERISCOPE_RUN_TESTS_SHOW", "1");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), output);
    }

    /** A module of the build: its directory below the root and its artifactId. */
    record Module(String directory, String artifactId, String pom) {
    }

    /** The modules of the root pom and theirs, depth first: the order Maven lists them in. */
    private static List<Module> modules() throws IOException {
        List<Module> modules = new ArrayList<>();
        collect("", modules);
        return modules;
    }

    private static void collect(String directory, List<Module> into) throws IOException {
        Path pom = REPOSITORY.resolve(directory).resolve("pom.xml");
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(pom));
        while (module.find()) {
            String child = directory.isEmpty() ? module.group(1) : directory + "/" + module.group(1);
            String text = Files.readString(REPOSITORY.resolve(child).resolve("pom.xml"));
            Matcher artifactId = Pattern.compile("(?m)^  <artifactId>([^<]+)</artifactId>").matcher(text);
            assertThat(artifactId.find()).as("%s/pom.xml names its artifactId", child).isTrue();
            into.add(new Module(child, artifactId.group(1), text));
            collect(child, into);
        }
    }

    private static List<String> directories(List<Module> modules) {
        return modules.stream().map(Module::directory).toList();
    }

    @Test
    void resumingFromAModuleBuildsTheOnesBeforeItWithoutTheirTests() throws Exception {
        Run run = runTests("-rf", ":periscope-visualizer", "-o");

        assertThat(run.exitCode()).as(run.output()).isZero();
        List<String> modules = directories(modules());
        List<String> before = modules.subList(0, modules.indexOf("visualizer"));
        assertThat(run.output()).contains("mvn -B verify -Dperiscope.upstream=MARKS -o\n")
                .contains("tests skipped in: " + String.join(" ", before) + "\n")
                .doesNotContain("-rf");
        assertThat(runTests("--resume-from=lab").output())
                .contains("tests skipped in: model plan planner simulator agents agents/dataplane agents/dns agents/kubernetes\n");
        // Maven names a failed submodule by its artifactId alone.
        assertThat(runTests("-rf", ":periscope-dns").output()).contains("tests skipped in: model plan planner simulator agents agents/dataplane\n");
    }

    @Test
    void pickingModulesAlsoMakesWhatTheyNeedWithoutItsTests() throws Exception {
        Run run = runTests("-pl", "lab,:periscope-cli");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("mvn -B verify -Dperiscope.upstream=MARKS -pl lab,cli -am\n");
        assertThat(run.output().lines().filter(l -> l.startsWith("tests skipped in: ")).findFirst().orElseThrow())
                .contains(" model ", " agents ").doesNotContain(" lab ", " cli ");
    }

    @Test
    void aPlainRunIsMavensVerifyAsBefore() throws Exception {
        assertThat(runTests("-Dfoo=bar").output()).contains("mvn -B verify -Dfoo=bar\ntests skipped in: none\n");
    }

    @Test
    void aModuleTheBuildDoesNotHaveIsRefusedNamingTheOnesItHas() throws Exception {
        Run run = runTests("-rf", ":periscope-nope");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("':periscope-nope' names no module of this build; name one as :ARTIFACT or by its directory: "
                        + String.join(" ", modules().stream().map(m -> ":" + m.artifactId()).toList()))
                .doesNotContain("mvn -B");
        assertThat(runTests("-rf").output()).contains("-rf needs a module, e.g. -rf :periscope-lab");
    }

    /** Resuming skips the modules before the named one in the poms' order: Maven's reactor must build them in that order. */
    @Test
    void everyModuleComesAfterTheModulesItDependsOn() throws IOException {
        List<Module> modules = modules();
        List<String> artifactIds = modules.stream().map(Module::artifactId).toList();
        Pattern uses = Pattern.compile("<artifactId>(periscope-[a-z0-9-]+)</artifactId>");
        for (Module module : modules) {
            // After the parent: the module's own artifactId (skipped) and the modules it uses.
            Matcher used = uses.matcher(module.pom().substring(module.pom().indexOf("</parent>")));
            while (used.find()) {
                int at = artifactIds.indexOf(used.group(1));
                if (at >= 0 && !used.group(1).equals(module.artifactId())) {
                    assertThat(at).as("%s uses %s, so the poms must list it first", module.directory(), used.group(1))
                            .isLessThan(modules.indexOf(module));
                }
            }
        }
    }

    @Test
    void mavenSkipsTheTestsOfTheMarkedModulesOnly() throws Exception {
        Path marks = Files.createTempDirectory("run-tests-upstream-test");
        try {
            Files.createDirectories(Path.of(marks + REPOSITORY.resolve("model").toString()));
            // The test phase, not the goal surefire:test alone: without a lifecycle phase that compiles, Maven 3
            // resolves plan's dependency on model from ~/.m2, which holds it only where someone ran install.
            ProcessBuilder builder = new ProcessBuilder("mvn", "-o", "-B", "-pl", "model,plan", "test",
                    "-Dtest=NoTestHasThisName", "-Dsurefire.failIfNoSpecifiedTests=false", "-Dperiscope.upstream=" + marks)
                    .directory(REPOSITORY.toFile()).redirectErrorStream(true);
            builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
            Process maven = builder.start();
            String output = new String(maven.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(maven.waitFor(5, TimeUnit.MINUTES)).isTrue();

            assertThat(maven.exitValue()).as(output).isZero();
            int model = output.indexOf("Building Periscope model");
            int plan = output.indexOf("Building Periscope plan");
            assertThat(model).as(output).isNotNegative().isLessThan(plan);
            assertThat(output.substring(model, plan)).as("model is marked").contains("Tests are skipped.");
            assertThat(output.substring(plan)).as("plan is not").doesNotContain("Tests are skipped.");
        } finally {
            try (Stream<Path> files = Files.walk(marks)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }
}
