package io.periscope.lab;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.agent.LayerAgent;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStatus;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rules someone else put on a node (here by hand, at the top of a built-in chain, in a chain of
 * their own, and a route) survive Periscope's agent reconciling the node, and the node still
 * carries the flows afterwards.
 *
 * <p>The lab's supervisor runs the node's agent too, every couple of seconds: left running, it could
 * put the jump back before the test's agent looks, and the test would see nothing to do. So the
 * test stops the supervisor's agent on the node first, as {@code lab fail --mode agent-stop} does,
 * waits until the supervisor reports it stopped, and resumes it afterwards, waiting for a pass of it:
 * the hand-made rules survive that agent too.
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
        String node = gateway.host().toString();
        SupervisorFiles files = new SupervisorFiles(lab.stateFile().directoryFor(lab.layout().names().hash()));
        files.writeStoppedNodes(Set.of(node));
        long passesBefore = awaitAgent(files, node, agent -> !agent.running()).passes();
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

        files.writeStoppedNodes(Set.of());
        awaitAgent(files, node, agent -> agent.running() && agent.passes() > passesBefore);
        assertThat(lab.inNamespace(ns, "iptables-save", "-t", "nat")).as("the supervisor's agent kept them too")
                .contains("-A POSTROUTING -s 203.0.113.0/24 -j RETURN");
        assertThat(lab.inNamespace(ns, "iptables-save", "-t", "filter")).contains("-A FORWARD -j FOREIGN-AUDIT");

        assertThat(lab.probe(Optional.of("web-to-nginx"), SimulatorFlows::new).matchesSimulation()).isTrue();
    }

    /** The supervisor's report on {@code node}'s agent once {@code condition} holds; fails after a minute. */
    private static SupervisorStatus.NodeAgentStatus awaitAgent(SupervisorFiles files, String node,
            Predicate<SupervisorStatus.NodeAgentStatus> condition) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
        Optional<SupervisorStatus.NodeAgentStatus> last = Optional.empty();
        while (System.nanoTime() < deadline) {
            last = files.readStatus().map(status -> status.nodes().get(node));
            if (last.isPresent() && condition.test(last.get())) {
                return last.get();
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("the supervisor's agent on " + node + " did not get there within a minute; last reported: " + last);
    }
}
