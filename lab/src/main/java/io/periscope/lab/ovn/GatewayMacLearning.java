package io.periscope.lab.ovn;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.plan.Names;
import io.periscope.plan.ovn.OvnTopology;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Makes an OVN cluster's {@code submariner_router} learn the MAC of its gateway's {@code ovn-k8s-sub0}
 * (169.254.254.10) the way OVN learns it, from real packets, and waits until every chassis of the
 * cluster has installed what it learnt.
 *
 * <p>Why the lab does this before {@code up} returns: the gateway sits behind a localnet port, so OVN
 * knows its MAC only from a {@code MAC_Binding} learnt by ARP, and none exists when a cluster starts.
 * The first packet the router sends towards the gateway makes it ask by ARP instead. Here
 * {@code ovn-controller} holds that packet and sends it once the answer has come back (an unlearnt
 * lab answered the first ping in 35 ms). On a loaded machine that took longer than the probe's 400 ms
 * connect timeout: a probe's first connection timed out because its SYN-ACK was the first packet the
 * serving cluster sent to its gateway. A cluster that has carried traffic has the binding, and the
 * first connection of a new one is delayed once and hidden by TCP's retransmission. So the lab
 * teaches the binding up front. This is part of the lab's environment; the agents program nothing
 * for it.
 */
public final class GatewayMacLearning {

    /** How long the pings and the southbound database may take to show the binding. */
    static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Duration BETWEEN_PINGS = Duration.ofMillis(100);

    private final CommandRunner runner;
    private final Duration patience;

    public GatewayMacLearning(CommandRunner runner) {
        this(runner, PATIENCE);
    }

    GatewayMacLearning(CommandRunner runner, Duration patience) {
        this.runner = runner;
        this.patience = patience;
    }

    /**
     * The node of {@code nodes} whose {@code ovn-k8s-sub0} is on {@code submariner_gateway}'s segment
     * (the chassis {@code submariner_router} is bound to), or empty where the cluster has no such node:
     * every gateway failed, or an architecture without {@code submariner_router}.
     */
    public static Optional<HostNamespace> chassis(List<HostNamespace> nodes, String cluster) {
        return nodes.stream().filter(n -> n.host().cluster().equals(cluster))
                .filter(n -> n.plan().interfaces().stream()
                        .anyMatch(i -> i.name().equals(Names.OVN_K8S_SUB0) && OvnTopology.isSegment(i.segment())))
                .findFirst();
    }

    /**
     * Pings {@code submariner_router} from {@code chassis}'s {@code ovn-k8s-sub0} until the cluster's
     * southbound database (under {@code clusterDirectory}) holds the router's binding for the
     * gateway, then waits until every chassis has applied it ({@code ovn-nbctl --wait=hv sync}: each
     * {@code ovn-controller} reports the new configuration only once its flows for the southbound
     * state before it, the binding included, are installed).
     *
     * @return what was learnt, for {@code up}'s progress line; where the chassis has no
     *         {@code ovn-k8s-sub0} yet (its agents run after {@code up}), that nothing was
     * @throws IllegalStateException when no binding appears within {@link #PATIENCE}, naming the cluster, the port and the address
     */
    public String learn(HostNamespace chassis, Path clusterDirectory) {
        if (!runner.execute(Command.of("ip", "-o", "link", "show", "dev", Names.OVN_K8S_SUB0).inNamespace(chassis.namespace())).succeeded()) {
            // Agents that run after up (the Kubernetes agents on the lab) make it later; nothing to ping from yet.
            return chassis.host().cluster() + ": not learnt, " + chassis.host() + " has no " + Names.OVN_K8S_SUB0 + " yet (its agents have not run)";
        }
        String southbound = "--db=unix:" + clusterDirectory.resolve("central/sb.sock");
        long deadline = System.nanoTime() + patience.toNanos();
        int pings = 0;
        Optional<String> mac = Optional.empty();
        while (mac.isEmpty()) {
            if (pings > 0 && System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("ovn " + chassis.host().cluster() + ": " + Names.SUBMARINER_ROUTER + " learnt no MAC for "
                        + chassis.host() + "'s " + Names.OVN_K8S_SUB0 + " (" + Names.OVN_K8S_SUB0_IP + ") in " + patience.toMillis()
                        + " ms of pings to " + Names.SUBMARINER_UPSTREAM_IP + " (" + pings + " sent); its southbound database holds no "
                        + "MAC_Binding of " + Names.SUBMARINER_UPSTREAM_PORT);
            }
            if (pings > 0) {
                pause();
            }
            // The answer may be lost while OVN learns: only the binding tells.
            runner.execute(Command.of("ping", "-n", "-q", "-c", "1", "-W", "1", "-I", Names.OVN_K8S_SUB0,
                    Names.SUBMARINER_UPSTREAM_IP.toString()).inNamespace(chassis.namespace()));
            pings++;
            mac = binding(southbound);
        }
        runner.run(Command.of("ovn-nbctl", "--db=unix:" + clusterDirectory.resolve("central/nb.sock"), "--timeout=20", "--wait=hv", "sync"));
        return chassis.host().cluster() + ": " + Names.SUBMARINER_ROUTER + " learnt " + Names.OVN_K8S_SUB0_IP + " at " + mac.get()
                + " (" + chassis.host() + "'s " + Names.OVN_K8S_SUB0 + ") after " + pings + (pings == 1 ? " ping" : " pings")
                + ", applied on every chassis";
    }

    /** The MAC {@code submariner_router} has learnt for the gateway's {@code ovn-k8s-sub0}, if any. */
    private Optional<String> binding(String southbound) {
        String found = runner.run(Command.of("ovn-sbctl", southbound, "--bare", "--columns=mac", "find", "MAC_Binding",
                "logical_port=" + Names.SUBMARINER_UPSTREAM_PORT, "ip=\"" + Names.OVN_K8S_SUB0_IP + "\"")).stdout().strip();
        return found.isEmpty() ? Optional.empty() : Optional.of(found.lines().findFirst().orElseThrow());
    }

    private static void pause() {
        try {
            Thread.sleep(BETWEEN_PINGS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for OVN to learn a gateway's MAC", e);
        }
    }
}
