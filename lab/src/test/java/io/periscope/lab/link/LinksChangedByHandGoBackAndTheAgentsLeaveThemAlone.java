package io.periscope.lab.link;

import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The link layer and the node agents each own their part of a node and leave the other's alone: the
 * agents reconciling a node with link chains change nothing, and the link reconciler finds nothing
 * different after them. What a person changes by hand (a rate, a loss rule gone, a qdisc deleted, a
 * rule appended after a link jump) the link reconciler reads back and puts back, keeping the
 * person's own rule; a second pass changes nothing. {@code lab down} leaves nothing of the links
 * outside the lab's namespaces.
 */
class LinksChangedByHandGoBackAndTheAgentsLeaveThemAlone {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    private final ProcessCommandRunner runner = ProcessCommandRunner.here();

    @Test
    void handChangesGoBackAgentsAndLinksLeaveEachOtherAlone() {
        String machineBefore = machine();
        ClusterSet set = LinkedTopologies.twoClusters("labtest-linkrec-" + ProcessHandle.current().pid(),
                "rate: 20mbit, delay: 5ms, loss: 1%", "rate: 50mbit", "rate: 10mbit, loss: 0.5%");
        RunningLab lab = labs.upWithoutSupervisor(set);
        LinkPlan plan = LinkPlan.of(set);
        LinkReconciler links = LinkReconciler.forRunningLab(runner);
        assertThat(links.differences(plan)).as("up read its links back").isEmpty();

        try (ReconcilingAgents agents = new ReconcilingAgents()) {
            for (HostNamespace node : lab.layout().nodes()) {
                assertThat(agents.submariner(node).reconcile()).as("Periscope's agent on " + node.host() + " finds nothing to do").isEmpty();
                assertThat(agents.kubeProxy(node).pendingChanges()).as("kube-proxy's on " + node.host()).isEmpty();
            }
        }
        assertThat(links.differences(plan)).as("the agents left the links alone").isEmpty();

        String worker = lab.layout().requireHost(HostId.node("east", "east-worker")).namespace();
        String underlay = lab.layout().switches().stream().filter(s -> s.segment().startsWith("east")).findFirst().orElseThrow().namespace();
        lab.inNamespace(worker, "tc", "class", "change", "dev", "eth0", "parent", "2:", "classid", "2:1", "htb", "rate", "5mbit", "ceil", "5mbit");
        lab.inNamespace(worker, "iptables", "-t", "mangle", "-D", "LAB-LINK-OUT", "1");
        lab.inNamespace(worker, "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "eth0", "-j", "MARK", "--set-mark", "7");
        lab.inNamespace(underlay, "tc", "qdisc", "del", "dev", "east-worker", "root");

        List<String> found = links.differences(plan);
        assertThat(found).hasSize(4).anySatisfy(d -> assertThat(d).contains(worker + ": eth0: shaped otherwise (wanted class htb 2:1 parent root"
                        + " leaf 11: quantum 1514 rate 20Mbit ceil 20Mbit; found class htb 2:1").contains("rate 5Mbit ceil 5Mbit"))
                .anySatisfy(d -> assertThat(d).contains(worker + ": chain LAB-LINK-OUT holds 1 rules, not the 2 wanted"))
                .anySatisfy(d -> assertThat(d).contains(worker + ": POSTROUTING does not end with one jump to LAB-LINK-OUT"))
                .anySatisfy(d -> assertThat(d).contains(underlay + ": east-worker: not shaped (root qdisc noqueue 0:)"));
        LinkReconciler.Result repaired = links.reconcile(plan);
        assertThat(repaired.differences()).isEqualTo(found);
        assertThat(repaired.programs()).isEqualTo(3);
        assertThat(links.reconcile(plan).changedNothing()).as("a second pass").isTrue();

        assertThat(lab.inNamespace(worker, "tc", "class", "show", "dev", "eth0")).contains("rate 20Mbit ceil 20Mbit");
        String mangle = lab.inNamespace(worker, "iptables-save", "-t", "mangle");
        assertThat(mangle).contains("-A POSTROUTING -o eth0 -j MARK --set-xmark 0x7/0xffffffff")
                .contains("-A LAB-LINK-OUT -o eth0 -m statistic --mode random --probability 0.00999999978 -j DROP");
        assertThat(mangle.indexOf("-A POSTROUTING -o eth0 -j MARK")).as("the jump is last again")
                .isLessThan(mangle.indexOf("-A POSTROUTING -j LAB-LINK-OUT"));
        try (ReconcilingAgents agents = new ReconcilingAgents()) {
            assertThat(agents.submariner(lab.layout().requireHost(HostId.node("east", "east-worker"))).pendingChanges()).isEmpty();
        }

        lab.down();
        assertThat(lab.namespacesOnTheMachine()).isEmpty();
        assertThat(machine()).as("the machine's own namespace, before up and after down").isEqualTo(machineBefore);
    }

    /** The machine's own qdiscs and mangle table (without iptables-save's dated comments). */
    private String machine() {
        String qdiscs = runner.run(Command.of("tc", "qdisc", "show")).stdout();
        String mangle = runner.run(Command.of("iptables-save", "-t", "mangle")).stdout().lines().filter(l -> !l.startsWith("#"))
                .reduce("", (a, b) -> a + b + "\n");
        return qdiscs + mangle;
    }
}
