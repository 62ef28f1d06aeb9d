package io.periscope.lab;

import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ctrl-C while {@code lab up} runs: the interrupt (SIGINT, as a terminal sends it) reaches a process
 * building a lab after its namespaces and links exist, and the process removes them before it ends,
 * state file included.
 */
class CtrlCDuringUpRemovesWhatWasCreated {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void anInterruptedUpLeavesNoNamespace() throws Exception {
        ClusterSet set = RunningLab.forTest(Examples.load(Examples.GLOBALNET_EGRESS), "interrupted");
        RunningLab lab = labs.planned(set);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // env --default-signal=INT: a shell without job control starts a background job ("./run-tests &",
        // nohup) with SIGINT ignored, its children inherit that, and a JVM leaves an ignored SIGINT
        // ignored, as POSIX asks. A user's Ctrl-C reaches a command whose SIGINT is at its default.
        Process up = new ProcessBuilder("env", "--default-signal=INT", java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                SlowUp.class.getName(), labs.state().toString(), set.name()).redirectErrorStream(true).start();
        List<String> output = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(up.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.add(line);
                if (line.startsWith("addresses and routes:")) {
                    assertThat(lab.layout().namespaces()).allMatch(NetworkNamespaces::exists);
                    new ProcessBuilder("kill", "-INT", Long.toString(up.pid())).start().waitFor();
                }
            }
        }
        assertThat(up.waitFor(60, TimeUnit.SECONDS)).as("the interrupted up ends").isTrue();

        assertThat(output).as("%s", output).anyMatch(l -> l.startsWith("addresses and routes:"));
        assertThat(output).noneMatch(l -> l.startsWith("up: "));
        // contains, not startsWith: the cleanup writes to stderr while up's thread may still be printing
        // its last progress line to stdout, and the two streams share this pipe.
        assertThat(output).anyMatch(l -> l.contains("lab up interrupted: removing"));
        assertThat(lab.namespacesOnTheMachine()).isEmpty();
        assertThat(lab.stateFile().read(lab.layout().names().hash())).isEmpty();
    }
}
