package io.periscope.lab;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.machine.MachineCapacity;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code lab probe} sizes every flow before it captures anything: on a machine too small for the
 * largest flow's captures it is refused with the numbers and opens no capture; otherwise its first
 * line states the bound, counting exactly the interfaces the flow then captures on.
 */
class ProbeStatesItsMemoryBoundAndRefusesUpFrontWhatDoesNotFit {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void aMachineTooSmallIsRefusedBeforeAnyCaptureAndAFittingOneIsToldTheBound() {
        ClusterSet set = RunningLab.forTest(Examples.load(Examples.MAG_GLOBALNET), "probemem");
        RunningLab lab = labs.up(set);
        MachineCapacity small = new MachineCapacity(OptionalLong.of(50 * 1024), OptionalLong.empty(), 0, OptionalLong.empty(), 0);

        assertThatThrownBy(() -> lab.probe(Optional.empty(), SimulatorFlows::new, () -> small))
                .isInstanceOf(LabRefusal.class)
                .hasMessageContaining("nothing was captured")
                .hasMessageContaining("memory: the probe would hold up to")
                .hasMessageContaining("the largest flow, client-to-nginx,")
                .hasMessageContaining("of the 50.0 MiB available (MemAvailable in /proc/meminfo), 40.0 MiB");
        assertThat(lab.progress()).noneMatch(line -> line.contains("capturing on"));
        for (String namespace : lab.layout().namespaces()) {
            assertThat(lab.inNamespace(namespace, "cat", "/proc/net/packet").lines().skip(1).toList()).as("packet sockets in %s", namespace)
                    .isEmpty();
        }

        int before = lab.progress().size();
        lab.probe(Optional.empty(), SimulatorFlows::new, MachineCapacity::read);
        List<String> lines = lab.progress().subList(before, lab.progress().size());
        String sized = lines.stream().filter(l -> l.startsWith("probe: ")).findFirst().orElseThrow();
        Matcher bound = Pattern.compile("memory bound [0-9.]+ MiB: heap committed \\(it holds the plan\\) [0-9.]+ MiB \\+ the largest flow, client-to-nginx,"
                + " (\\d+) captures x \\(256 KiB ring \\+ 128 KiB thread\\)").matcher(sized);
        assertThat(bound.find()).as(sized).isTrue();
        Matcher captured = Pattern.compile("capturing on (\\d+) interfaces").matcher(String.join("\n", lines));
        assertThat(captured.find()).as("%s", lines).isTrue();
        assertThat(captured.group(1)).as("the bound counts the captures the flow opens").isEqualTo(bound.group(1));
    }
}
