package io.periscope.dataplane.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.dataplane.TestNamespace;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.link.VxlanDevice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 004's learning {@code vxlan-tunnel} in the kernel: the agents create it learning, change the
 * flag in place when the plan's differs (the device, its address and its routes stay), and never
 * touch the entries it learned, which are not permanent and so not theirs, while the all-zero
 * entries stay the plan's.
 */
class VxlanTunnelLearnsAndKeepsWhatItLearned {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A remote gateway's device MAC as the kernel learns it: the inner source MAC, at the outer source address. */
    private static final String LEARNED_MAC = "be:ef:00:00:00:09";

    private TestNamespace namespace;
    private Reconciler reconciler;

    @BeforeEach
    void programTheSeedGateway() {
        namespace = TestNamespace.create();
        SeedGateway.prepare(namespace);
        reconciler = new Reconciler(namespace.runner(), Ownership.submariner());
        reconciler.reconcile(SeedGateway.plan());
    }

    @AfterEach
    void deleteNamespace() {
        if (namespace != null) {
            namespace.close();
        }
    }

    @Test
    void theTunnelIsCreatedLearningAndTheClusterDeviceIsNot() {
        assertThat(learning("vxlan-tunnel")).isTrue();
        assertThat(learning("vx-submariner")).isFalse();
        assertThat(reconciler.reconcile(SeedGateway.plan()).changedAnything()).isFalse();
    }

    @Test
    void learnedEntriesSurviveAReconcile() {
        learn();

        ReconcileResult result = reconciler.reconcile(SeedGateway.plan());

        assertThat(result.changedAnything()).isFalse();
        assertThat(learnedEntry()).isNotEmpty();
        assertThat(namespace.run("bridge", "fdb", "show", "dev", "vxlan-tunnel")).contains("00:00:00:00:00:00 dst " + SeedGateway.REMOTE_GATEWAYS.get(0));
    }

    @Test
    void aDifferentFlagIsChangedInPlaceAndKeepsTheDeviceAndWhatItLearned() {
        int index = ifindex("vxlan-tunnel");
        learn();

        reconciler.reconcile(withTunnelLearning(SeedGateway.plan(), false));

        assertThat(learning("vxlan-tunnel")).isFalse();
        assertThat(ifindex("vxlan-tunnel")).as("the same device, not a new one").isEqualTo(index);
        assertThat(learnedEntry()).isNotEmpty();
        assertThat(namespace.run("ip", "route", "show", "table", "100")).contains("dev vxlan-tunnel");

        reconciler.reconcile(SeedGateway.plan());

        assertThat(learning("vxlan-tunnel")).isTrue();
        assertThat(ifindex("vxlan-tunnel")).isEqualTo(index);
    }

    /**
     * An entry in the state the kernel's learning gives one (vxlan_snoop: NUD_REACHABLE, {@code self},
     * not permanent), for the second remote gateway. A frame received from it would make the same.
     */
    private void learn() {
        namespace.run("bridge", "fdb", "add", LEARNED_MAC, "dev", "vxlan-tunnel", "dst", SeedGateway.REMOTE_GATEWAYS.get(1), "self", "dynamic");
        assertThat(learnedEntry()).as("the learned entry before the reconcile").isNotEmpty();
    }

    private List<String> learnedEntry() {
        return namespace.run("bridge", "fdb", "show", "dev", "vxlan-tunnel").lines()
                .filter(line -> line.startsWith(LEARNED_MAC + " dst " + SeedGateway.REMOTE_GATEWAYS.get(1)) && !line.contains("permanent"))
                .toList();
    }

    private boolean learning(String device) {
        return link(device).path("linkinfo").path("info_data").path("learning").asBoolean();
    }

    private int ifindex(String device) {
        return link(device).path("ifindex").asInt();
    }

    private JsonNode link(String device) {
        try {
            return JSON.readTree(namespace.run("ip", "-d", "-j", "link", "show", "dev", device)).get(0);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static DataplanePlan withTunnelLearning(DataplanePlan plan, boolean on) {
        List<VxlanDevice> devices = plan.vxlanDevices().stream()
                .map(d -> d.name().equals("vxlan-tunnel") ? d.withLearning(on) : d).toList();
        return new DataplanePlan(plan.netfilter(), plan.ipsets(), devices, plan.fdb(), plan.neighbours(), plan.nexthops(),
                plan.nexthopGroups(), plan.routes(), plan.rules(), plan.sysctls());
    }
}
