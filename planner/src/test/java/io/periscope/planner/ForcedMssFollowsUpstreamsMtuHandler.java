package io.periscope.planner;

import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.netfilter.Table;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import static io.periscope.planner.PlannedExamples.rules;
import static io.periscope.planner.PlannedExamples.submariner;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's MTU handler (route agent, every node): where the MSS is forced (Globalnet on, or the
 * node's {@code submariner.io/tcp-clamp-mss} annotation) its two mangle SUBMARINER-POSTROUTING rules
 * say {@code --set-mss N} instead of {@code --clamp-mss-to-pmtu}, on the same sets. N is the
 * annotation's value, else the default interface's MTU less 50 with the vxlan cable driver and less
 * 120 with any other; SUBMARINER-LOCALCIDRS holds the cluster's pod CIDRs besides its Endpoint's subnets.
 */
class ForcedMssFollowsUpstreamsMtuHandler {

    // As iptables-save prints them: -p first, then the modules.
    private static final String FROM_LOCAL = "-p tcp -m set --match-set SUBMARINER-LOCALCIDRS src -m set --match-set SUBMARINER-REMOTECIDRS dst"
            + " -m tcp --tcp-flags SYN,RST SYN -j TCPMSS ";
    private static final String TO_LOCAL = "-p tcp -m set --match-set SUBMARINER-REMOTECIDRS src -m set --match-set SUBMARINER-LOCALCIDRS dst"
            + " -m tcp --tcp-flags SYN,RST SYN -j TCPMSS ";

    private static List<String> clamp(ClusterSetPlan plan, String cluster, String node) {
        return rules(submariner(plan, cluster, node), Table.MANGLE, "SUBMARINER-POSTROUTING");
    }

    private static List<String> both(String action) {
        return List.of(FROM_LOCAL + action, TO_LOCAL + action);
    }

    private static List<String> members(DataplanePlan plan, String set) {
        return plan.ipset(set).map(IpSet::members).orElseThrow().stream().map(Object::toString).toList();
    }

    /** mag-vanilla with {@code tcpClampMss} on one of its nodes. */
    private static ClusterSet vanillaWithAnnotation(String node, int mss) throws IOException {
        String yaml = Files.readString(PlannedExamples.example("mag-vanilla.yaml"));
        String line = "{name: " + node + ",";
        assertThat(yaml).contains(line);
        return PlannedExamples.parse(yaml.replace(line, "{name: " + node + ", tcpClampMss: " + mss + ","));
    }

    @Test
    void withoutGlobalnetOrAnnotationEveryNodeClampsToThePathMtu() {
        ClusterSetPlan plan = PlannedExamples.plan("mag-vanilla.yaml");
        for (String node : List.of("gw-1", "gw-2", "worker-1")) {
            assertThat(clamp(plan, "cluster1", node)).as(node).isEqualTo(both("--clamp-mss-to-pmtu"));
        }
    }

    @Test
    void globalnetWithTheVxlanDriverSetsTheUnderlayMtuLess50OnEveryNode() {
        ClusterSetPlan plan = PlannedExamples.plan("mag-globalnet.yaml");
        for (String node : List.of("gw-1", "gw-2", "worker-1")) {
            assertThat(clamp(plan, "cluster1", node)).as(node).isEqualTo(both("--set-mss 1450"));
        }
    }

    @Test
    void globalnetWithLibreswanOrWireGuardSetsTheUnderlayMtuLess120() {
        for (CableDriver driver : List.of(CableDriver.LIBRESWAN, CableDriver.WIREGUARD)) {
            ClusterSetPlan plan = Planner.plan(PlannedExamples.withDefaultDriver(PlannedExamples.load("mag-globalnet.yaml"), driver));
            assertThat(clamp(plan, "cluster2", "worker-2")).as(driver.yamlName()).isEqualTo(both("--set-mss 1380"));
        }
    }

    @Test
    void theAnnotationForcesItsValueOnItsNodeAlone() throws IOException {
        ClusterSetPlan plan = Planner.plan(vanillaWithAnnotation("worker-1", 1200));
        assertThat(clamp(plan, "cluster1", "worker-1")).isEqualTo(both("--set-mss 1200"));
        assertThat(clamp(plan, "cluster1", "gw-1")).isEqualTo(both("--clamp-mss-to-pmtu"));
    }

    @Test
    void theAnnotationWinsOverGlobalnetsDerivedValue() throws IOException {
        String yaml = Files.readString(PlannedExamples.example("mag-globalnet.yaml"));
        ClusterSetPlan plan = Planner.plan(PlannedExamples.parse(yaml.replace("{name: gw-1,", "{name: gw-1, tcpClampMss: 1300,")));
        assertThat(clamp(plan, "cluster1", "gw-1")).isEqualTo(both("--set-mss 1300"));
        assertThat(clamp(plan, "cluster1", "gw-2")).isEqualTo(both("--set-mss 1450"));
    }

    @Test
    void theLocalSetAddsThePodCidrsToTheGlobalCidrThatTheEndpointOffers() {
        // mangle POSTROUTING sees a pod's SYN before Globalnet's SNAT and a remote SYN after the DNAT
        // to a pod: with the global CIDR alone neither would meet the clamp.
        DataplanePlan worker = submariner(PlannedExamples.plan("mag-globalnet.yaml"), "cluster1", "worker-1");
        assertThat(members(worker, "SUBMARINER-LOCALCIDRS")).containsExactly("242.254.1.0/24", "10.0.0.0/16");
        assertThat(members(worker, "SUBMARINER-REMOTECIDRS")).containsExactly("242.254.2.0/24");
    }

    @Test
    void withoutGlobalnetThePodCidrsAreInTheLocalSetOnce() {
        DataplanePlan worker = submariner(PlannedExamples.plan("mag-vanilla.yaml"), "cluster1", "worker-1");
        List<String> local = members(worker, "SUBMARINER-LOCALCIDRS");
        assertThat(local).doesNotHaveDuplicates().contains("10.1.0.0/16");
    }
}
