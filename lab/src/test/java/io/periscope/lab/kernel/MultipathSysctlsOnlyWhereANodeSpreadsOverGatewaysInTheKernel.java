package io.periscope.lab.kernel;

import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planner's {@code MultipathSysctlsOnlyWhereANodeSpreadsOverGateways}, in the kernel: in a lab
 * of one cluster with two active gateways and one with a single gateway, each node namespace holds
 * {@code fib_multipath_hash_policy} and {@code conf.all.ignore_routes_with_linkdown} as its plan
 * sets them where the plan spreads a destination over several nexthops, and as a fresh namespace
 * has them everywhere else. Both are the namespace's own: the hash policy starts at 0 in every new
 * namespace, {@code conf.all} starts as the machine's own (net.core.devconf_inherit_init_net 0).
 */
class MultipathSysctlsOnlyWhereANodeSpreadsOverGatewaysInTheKernel {

    private static final String POLICY = "net.ipv4.fib_multipath_hash_policy";
    private static final String LINKDOWN = "net.ipv4.conf.all.ignore_routes_with_linkdown";

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    private static String read(RunningLab lab, String namespace, String key) {
        return lab.inNamespace(namespace, "sysctl", "-n", key).strip();
    }

    @Test
    void setWhereTheNodesPlanSpreadsOverGatewaysUntouchedElsewhere() {
        String machineLinkdown = ProcessCommandRunner.here().run(Command.of("sysctl", "-n", LINKDOWN)).stdout().strip();
        Map<String, String> untouched = Map.of(POLICY, "0", LINKDOWN, machineLinkdown);
        RunningLab lab = labs.upWithoutSupervisor(RunningLab.forTest(LabTopologies.twoClusters("mp", true), "multipath"));

        List<HostId> spreading = new ArrayList<>();
        List<HostId> others = new ArrayList<>();
        for (HostNamespace node : lab.layout().nodes()) {
            Map<String, String> planned = node.plan().submariner().sysctls();
            for (String key : List.of(POLICY, LINKDOWN)) {
                String expected = planned.getOrDefault(key, untouched.get(key));
                assertThat(read(lab, node.namespace(), key)).as("%s: %s (%s)", node.host(), key,
                        planned.containsKey(key) ? "planned" : "not planned").isEqualTo(expected);
            }
            (planned.containsKey(POLICY) ? spreading : others).add(node.host());
        }

        assertThat(spreading).as("nodes whose plan spreads over several nexthops")
                .contains(HostId.node("east", "east-worker")).doesNotContain(HostId.node("west", "west-worker"));
        assertThat(others).as("nodes that keep the kernel's defaults").contains(HostId.node("west", "west-worker"));
        assertThat(lab.layout().requireHost(HostId.node("east", "east-worker")).plan().submariner().sysctls())
                .containsEntry(POLICY, "1").containsEntry(LINKDOWN, "1");
    }
}
