package io.periscope.lab.kernel;

import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planner's {@code HostFirewallIsUpstreams} and {@code TheInputJumpGoesLastAsUpstreamAppendsIt},
 * in the kernel of a lab of two kube-proxy clusters joined by a VXLAN cable: on a gateway and on a
 * worker, filter INPUT ends with upstream's {@code -p udp -m udp -j SUBMARINER-INPUT}, the chain lets in
 * vx-submariner's UDP 4800 and nothing else, no rule of the agents opens a cable port and the raw
 * table holds no NOTRACK. Whatever the lab needs of its own is in its environment layer's chains
 * ({@code LAB-}); the lab's kernels need nothing there: they track the tunnels, as upstream's do.
 * The agents append the jump below the node's own INPUT rules, and a packet a worker sends its
 * gateway through vx-submariner is let in by SUBMARINER-INPUT.
 */
class HostFirewallIsUpstreamsInTheKernel {

    private static final String INPUT_JUMP = "-A INPUT -p udp -m udp -j SUBMARINER-INPUT";
    private static final String VX_SUBMARINER_ACCEPT = "-A SUBMARINER-INPUT -p udp -m udp --dport 4800 -j ACCEPT";
    private static final Pattern ACCEPTED_PORT = Pattern.compile("^-A (\\S+) .*--dport (\\d+)\\b.*-j ACCEPT");

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    /** The table's rules, without iptables-save's comments and counters. */
    private static List<String> rules(RunningLab lab, String namespace, String table) {
        return lab.inNamespace(namespace, "iptables-save", "-t", table).lines().filter(line -> line.startsWith("-A ")).toList();
    }

    private static boolean isTheLabsOwn(String rule) {
        return rule.split(" ")[1].startsWith("LAB-") || rule.contains(" -j LAB-");
    }

    @Test
    void gatewayAndWorkerHoldUpstreamsInputRulesAndNothingElseOfTheAgents() {
        RunningLab lab = labs.upWithoutSupervisor(RunningLab.forTest(LabTopologies.twoClusters("fw", false), "hostfw"));
        for (HostId id : List.of(HostId.node("east", "east-gw"), HostId.node("east", "east-worker"))) {
            String namespace = lab.layout().requireHost(id).namespace();
            List<String> filter = rules(lab, namespace, "filter");
            List<String> input = filter.stream().filter(rule -> rule.startsWith("-A INPUT ")).toList();

            assertThat(input).as("%s: INPUT", id).isNotEmpty().last().isEqualTo(INPUT_JUMP);
            assertThat(input.subList(0, input.size() - 1)).as("%s: INPUT before the jump is the lab's own", id)
                    .allMatch(HostFirewallIsUpstreamsInTheKernel::isTheLabsOwn);
            assertThat(filter.stream().filter(rule -> rule.startsWith("-A SUBMARINER-INPUT "))).as("%s: SUBMARINER-INPUT", id)
                    .containsExactly(VX_SUBMARINER_ACCEPT);
            for (String table : List.of("raw", "mangle", "nat", "filter")) {
                for (String rule : rules(lab, namespace, table)) {
                    Matcher port = ACCEPTED_PORT.matcher(rule);
                    if (port.find() && !isTheLabsOwn(rule)) {
                        assertThat(rule).as("%s: %s: the only port the agents open", id, table).isEqualTo(VX_SUBMARINER_ACCEPT);
                    }
                }
            }
            assertThat(rules(lab, namespace, "raw").stream().filter(rule -> !isTheLabsOwn(rule)))
                    .as("%s: raw table (no NOTRACK or anything else of the agents')", id).isEmpty();
        }
    }

    /**
     * The lab's nodes have no INPUT rules of their own, so the jump is last wherever the agents put
     * it; a rule the node has (put there by hand) shows where: the agents append the jump below it.
     */
    @Test
    void theAgentsAppendTheJumpBelowTheNodesOwnInputRules() {
        RunningLab lab = labs.upWithoutSupervisor(RunningLab.forTest(LabTopologies.twoClusters("fwpos", false), "hostfwpos"));
        HostNamespace worker = lab.layout().requireHost(HostId.node("east", "east-worker"));
        lab.inNamespace(worker.namespace(), "iptables", "-I", "INPUT", "1", "-i", "lo", "-j", "ACCEPT");
        lab.inNamespace(worker.namespace(), "iptables", "-D", "INPUT", "-p", "udp", "-m", "udp", "-j", "SUBMARINER-INPUT");

        try (ReconcilingAgents agents = new ReconcilingAgents()) {
            assertThat(agents.submariner(worker).reconcile()).as("the agent puts the jump back").isNotEmpty();
            assertThat(agents.submariner(worker).reconcile()).as("and finds it in place on the next pass").isEmpty();
        }

        assertThat(rules(lab, worker.namespace(), "filter").stream().filter(rule -> rule.startsWith("-A INPUT ")))
                .containsExactly("-A INPUT -i lo -j ACCEPT", INPUT_JUMP);
    }

    @Test
    void aPacketThroughVxSubmarinerIsLetInBySubmarinersChain() {
        RunningLab lab = labs.upWithoutSupervisor(RunningLab.forTest(LabTopologies.twoClusters("fwpkt", false), "hostfwpkt"));
        HostNamespace gateway = lab.layout().requireHost(HostId.node("east", "east-gw"));
        HostNamespace worker = lab.layout().requireHost(HostId.node("east", "east-worker"));
        long before = accepted(lab, gateway.namespace());

        // Host-network traffic of the worker to the remote cluster leaves by vx-submariner for its
        // gateway; whether the replies come back is not this test's question.
        try {
            lab.inNamespace(worker.namespace(), "ping", "-c", "2", "-W", "1", "10.52.1.10");
        } catch (CommandFailedException e) {
            // counted below
        }

        assertThat(accepted(lab, gateway.namespace()) - before).as("UDP 4800 packets SUBMARINER-INPUT accepted on the gateway")
                .isGreaterThanOrEqualTo(2);
    }

    /** The packets the 4800 accept has matched, from {@code iptables-save -c}. */
    private static long accepted(RunningLab lab, String namespace) {
        String line = lab.inNamespace(namespace, "iptables-save", "-c", "-t", "filter").lines()
                .filter(l -> l.endsWith(VX_SUBMARINER_ACCEPT)).findFirst().orElseThrow();
        return Long.parseLong(line.substring(1, line.indexOf(':')));
    }
}
