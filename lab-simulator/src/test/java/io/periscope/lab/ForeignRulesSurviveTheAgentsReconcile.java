package io.periscope.lab;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.agent.LayerAgent;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rules someone else put on a node (here by hand, at the top of a built-in chain, in a chain of
 * their own, and a route) survive Periscope's agent reconciling the node, and the node still
 * carries the flows afterwards.
 */
class ForeignRulesSurviveTheAgentsReconcile {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    private RunningLab lab;

    @BeforeEach
    void up() {
        lab = labs.up(RunningLab.forTest(Examples.load(Examples.GLOBALNET_EGRESS), "foreign"));
    }

    @Test
    void handMadeRulesStayThroughReconcilesAndFlowsStillWork() {
        HostNamespace gateway = lab.layout().requireHost(HostId.node("east", "east-gw"));
        String ns = gateway.namespace();
        lab.inNamespace(ns, "iptables", "-t", "nat", "-I", "POSTROUTING", "1", "-s", "203.0.113.0/24", "-j", "RETURN");
        lab.inNamespace(ns, "iptables", "-t", "filter", "-N", "FOREIGN-AUDIT");
        lab.inNamespace(ns, "iptables", "-t", "filter", "-A", "FOREIGN-AUDIT", "-d", "198.51.100.7/32", "-j", "DROP");
        lab.inNamespace(ns, "iptables", "-t", "filter", "-A", "FORWARD", "-j", "FOREIGN-AUDIT");
        lab.inNamespace(ns, "ip", "route", "add", "198.51.100.0/24", "dev", "eth0", "proto", "boot");

        try (ReconcilingAgents agents = new ReconcilingAgents()) {
            LayerAgent agent = agents.submariner(gateway);
            // The hand-made rule pushed Periscope's jump off the top of POSTROUTING: the agent puts it back.
            assertThat(agent.reconcile()).isNotEmpty();
            assertThat(agent.reconcile()).as("a second reconcile has nothing left to do").isEmpty();
            assertThat(agent.pendingChanges()).isEmpty();
        }

        String nat = lab.inNamespace(ns, "iptables-save", "-t", "nat");
        String filter = lab.inNamespace(ns, "iptables-save", "-t", "filter");
        assertThat(nat).contains("-A POSTROUTING -s 203.0.113.0/24 -j RETURN");
        assertThat(nat.indexOf("-A POSTROUTING -j SUBMARINER-POSTROUTING")).as("Periscope's jump is first again")
                .isLessThan(nat.indexOf("-A POSTROUTING -s 203.0.113.0/24 -j RETURN"));
        assertThat(filter).contains(":FOREIGN-AUDIT", "-A FOREIGN-AUDIT -d 198.51.100.7/32 -j DROP", "-A FORWARD -j FOREIGN-AUDIT");
        assertThat(lab.inNamespace(ns, "ip", "route", "show", "198.51.100.0/24")).contains("198.51.100.0/24 dev eth0");

        assertThat(lab.probe(Optional.of("web-to-nginx"), SimulatorFlows::new).matchesSimulation()).isTrue();
    }
}
