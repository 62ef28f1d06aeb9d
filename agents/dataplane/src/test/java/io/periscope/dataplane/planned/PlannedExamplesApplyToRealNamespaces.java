package io.periscope.dataplane.planned;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.diff.CanonicalForm;
import io.periscope.dataplane.reconcile.DataplaneReader;
import io.periscope.dataplane.reconcile.Ownership;
import io.periscope.dataplane.reconcile.ReconcileResult;
import io.periscope.dataplane.reconcile.Reconciler;
import io.periscope.model.load.TopologyLoader;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every node plan of both shipped examples, rendered by the agents' renderers, applies cleanly to a
 * real throwaway namespace with the real iptables-restore, ipset restore and ip/bridge batches;
 * reads back as planned; and applying it a second time changes nothing.
 */
class PlannedExamplesApplyToRealNamespaces {

    private TestNamespace namespace;

    static Stream<Arguments> nodePlans() throws Exception {
        List<Arguments> plans = new ArrayList<>();
        for (String example : List.of("mag-globalnet.yaml", "globalnet-egress.yaml")) {
            ClusterSetPlan plan = Planner.plan(TopologyLoader.load(Path.of("..", "..", "examples", example)));
            for (HostPlan host : plan.hosts().values()) {
                if (host.role() != HostPlan.HostRole.POD) {
                    plans.add(Arguments.of(example + " " + host.id(), host));
                }
            }
        }
        return plans.stream();
    }

    @AfterEach
    void deleteNamespace() {
        if (namespace != null) {
            namespace.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodePlans")
    void appliesCleanlyAndTwiceChangesNothing(String name, HostPlan host) {
        namespace = TestNamespace.create();
        // The interfaces the CNI and the lab would have made: the plan's VXLAN devices sit on them.
        for (Interface device : host.interfaces()) {
            if (device.segment().isEmpty()) {
                namespace.run("ip", "link", "add", device.name(), "type", "bridge");
            } else {
                namespace.run("ip", "link", "add", device.name(), "type", "veth", "peer", "name", "x" + Integer.toHexString(device.name().hashCode()));
            }
            for (var address : device.addresses()) {
                namespace.run("ip", "addr", "add", address + "/32", "dev", device.name());
            }
            namespace.run("ip", "link", "set", device.name(), "up");
        }
        Ownership ownership = Ownership.submariner();
        Reconciler reconciler = new Reconciler(namespace.runner(), ownership);

        ReconcileResult first = reconciler.reconcile(host.submariner());
        assertThat(first.diff().isEmpty()).as("a fresh node needs programming").isFalse();

        assertThat(CanonicalForm.of(new DataplaneReader(namespace.runner()).read(ownership.scopeFor(host.submariner())).plan()))
                .isEqualTo(CanonicalForm.of(host.submariner()));

        Reconciler restarted = new Reconciler(namespace.runner(), ownership);
        assertThat(restarted.diff(host.submariner()).isEmpty()).as("a second apply changes nothing").isTrue();
    }
}
