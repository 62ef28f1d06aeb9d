package io.periscope.lab;

import io.periscope.dataplane.TestNamespace;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.ProcessCommandRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client/server example over its default Libreswan cables, as the lab would run them with IPsec
 * in the kernel: built as planned (no {@code cables:} substitution) and matching the simulator's
 * ESP hops ({@code esp}, IP protocol 50, since the example's gateways have no publicIP). Libreswan needs the kernel's XFRM; where it is missing the test is skipped
 * with that reason and the lab runs those cables as vxlan instead, saying so.
 */
class LibreswanCablesRunInTheLab {

    /** The AEAD Libreswan negotiates for the lab's cables, as {@code ip xfrm} names it. */
    static final String AEAD = "rfc4106(gcm(aes))";

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    private RunningLab lab;

    @BeforeEach
    void needsRootAndXfrm() {
        Optional<String> refused = espRefusal();
        Assumptions.assumeTrue(refused.isEmpty(), () -> "Libreswan's cables need the kernel's XFRM to hold an ESP tunnel state with "
                + AEAD + " (kernel modules xfrm_user, esp4 and an AES-GCM implementation); this kernel refused one: " + refused.orElse(""));
    }

    /**
     * Why the kernel's XFRM cannot hold an ESP state with the AEAD Libreswan negotiates, or nothing
     * when it can: tried in a namespace of its own, since {@code /proc/net/xfrm_stat} exists even
     * where ESP does not.
     */
    static Optional<String> espRefusal() {
        ProcessCommandRunner runner = ProcessCommandRunner.here();
        String namespace = "psc-esp-probe-" + ProcessHandle.current().pid();
        runner.run(Command.of("ip", "netns", "add", TestNamespace.deletedOnExit(namespace)));
        try {
            CommandResult added = runner.execute(Command.of("ip", "xfrm", "state", "add", "src", "192.0.2.1", "dst", "192.0.2.2", "proto", "esp",
                    "spi", "0x100", "mode", "tunnel", "aead", AEAD, "0x0102030405060708090a0b0c0d0e0f1011121314", "128")
                    .inNamespace(namespace));
            return added.succeeded() ? Optional.empty()
                    : Optional.of("'ip xfrm state add ... proto esp ... aead " + AEAD + "' said: " + (added.stderr() + added.stdout()).strip());
        } finally {
            runner.run(Command.of("ip", "netns", "del", namespace));
        }
    }

    @Test
    void clientServerOverLibreswanIsBuiltAsPlannedAndMatchesTheSimulator() {
        lab = labs.up(RunningLab.forTest(Examples.load(Examples.CLIENT_SERVER), "libreswan"));

        assertThat(lab.progress()).noneMatch(line -> line.startsWith("cables:"));
        ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);
        for (FlowProbeResult flow : report.flows()) {
            assertThat(flow.matchesSimulation()).as("%s: %s", flow.name(), flow.firstDifference()).isTrue();
        }
    }
}
