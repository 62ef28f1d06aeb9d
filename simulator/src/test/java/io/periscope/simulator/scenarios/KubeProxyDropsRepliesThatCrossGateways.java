package io.periscope.simulator.scenarios;

import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.FlowTarget;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kube-proxy's KUBE-FORWARD drops what conntrack marks INVALID (unless kube-proxy runs liberal), and
 * the simulator runs it as the node's environment, below Submariner's own FORWARD rules. With
 * several active gateways a pod-to-pod connection's SYN-ACK may leave the server's cluster by
 * another gateway than its SYN came in by; that gateway has no connection for it, so it is INVALID
 * there, and nothing of Submariner's accepts it first (seed 004's {@code -i vxlan-tunnel} ACCEPT is
 * for replies coming in): kube-proxy's rule drops it, and the trace says so. With kube-proxy liberal
 * the same SYN-ACK goes on untranslated and is delivered. Seed 004's own flow, to an exported
 * service, is delivered on every path either way: the gateway's SNAT (step 3b) brings the reply
 * back through the gateway that DNATed it, and the client's gateways accept it from the cable.
 */
class KubeProxyDropsRepliesThatCrossGateways {

    private static final String INVALID_DROP = "filter/KUBE-FORWARD: -m conntrack --ctstate INVALID -j DROP";

    private static FlowTrace clientToNginxPod(ClusterSet set) throws Exception {
        return new Simulator(Planner.plan(set)).trace(SubmarinersAcceptsKeepCrossClusterTrafficFromTheCniMasquerade.tcp("client-to-nginx-pod",
                "cluster1/default/client", new FlowTarget.PodTarget("cluster2", "default", "nginx-7d4f", 80)));
    }

    /** The gateway of cluster2 the hops pass, by name. */
    private static String cluster2Gateway(List<Hop> hops) {
        return hops.stream().map(h -> h.node().toString()).filter(n -> n.startsWith("cluster2/gw-")).findFirst()
                .orElseThrow(() -> new AssertionError("no gateway of cluster2 among " + hops.stream().map(Hop::node).toList()));
    }

    private static boolean crosses(PathTrace path) {
        return !cluster2Gateway(path.forward()).equals(cluster2Gateway(path.reply()));
    }

    @Test
    void aSynAckLeavingByAnotherGatewayIsDroppedThereByKubeProxysForwardRule() throws Exception {
        FlowTrace trace = clientToNginxPod(DocumentedSteps.load("mag-vanilla.yaml"));

        assertThat(trace.paths()).filteredOn(KubeProxyDropsRepliesThatCrossGateways::crosses).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
            Hop last = path.reply().getLast();
            assertThat(last.node().toString()).isEqualTo(cluster2Gateway(path.reply()));
            assertThat(last.steps()).last().isInstanceOfSatisfying(Step.Filter.class, f -> {
                assertThat(f.accepted()).isFalse();
                assertThat(f.rule().table() + "/" + f.rule().chain() + ": " + f.rule().rule()).isEqualTo(INVALID_DROP);
            });
            assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains(INVALID_DROP).contains("INVALID"));
        });
        assertThat(trace.paths()).filteredOn(p -> !crosses(p)).isNotEmpty()
                .allSatisfy(path -> assertThat(path.disposition()).as(path.reason().orElse("")).isEqualTo(Disposition.DELIVERED));
    }

    @Test
    void withKubeProxyLiberalTheSameSynAckGoesOnUntranslatedAndIsDelivered() throws Exception {
        FlowTrace trace = clientToNginxPod(DocumentedSteps.liberalKubeProxy(DocumentedSteps.load("mag-vanilla.yaml")));

        assertThat(trace.paths()).filteredOn(KubeProxyDropsRepliesThatCrossGateways::crosses).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).as(path.reason().orElse("")).isEqualTo(Disposition.DELIVERED);
            assertThat(path.reply().stream().flatMap(h -> h.steps().stream())
                    .filter(s -> s instanceof Step.Filter f && !f.accepted() && f.rule().chain().equals("KUBE-FORWARD"))).isEmpty();
        });
    }

    @Test
    void seed004sServiceFlowIsDeliveredOnEveryPathWithKubeProxysDrop() throws Exception {
        ClusterSet set = DocumentedSteps.load("mag-vanilla.yaml");
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(set.flows().stream().filter(f -> f.name().equals("client-to-nginx")).findFirst()
                .orElseThrow());

        assertThat(trace.paths()).hasSizeGreaterThan(1)
                .allSatisfy(path -> assertThat(path.disposition()).as(path.reason().orElse("")).isEqualTo(Disposition.DELIVERED));
    }
}
