package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.TestNamespace;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agents program a VXLAN device's peers as upstream does, all-zero FDB entries only, and own them:
 * a peer that goes takes its entry with it, the others stay, and the fixed MACs' exact entries and
 * permanent neighbours an earlier Periscope wrote go, while what ARP learned is the kernel's and stays.
 */
class TunnelPeersAreAllZeroFdbEntriesTheAgentsOwn {

    private static final String GONE = SeedGateway.REMOTE_GATEWAYS.get(0);
    private static final String STAYS = SeedGateway.REMOTE_GATEWAYS.get(1);

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
    void aPeerIsAnAllZeroEntryAndNoPermanentNeighbour() {
        assertThat(fdb("vxlan-tunnel")).containsExactlyInAnyOrder("00:00:00:00:00:00 dst " + GONE, "00:00:00:00:00:00 dst " + STAYS);
        assertThat(namespace.run("ip", "neigh", "show", "nud", "permanent")).isBlank();
    }

    @Test
    void aPeerThatGoesLeavesNoFdbEntryAndTheOthersStay() {
        DataplanePlan plan = SeedGateway.plan();
        List<FdbEntry> fewer = plan.fdb().stream().filter(e -> !e.destination().equals(Ipv4Address.parse(GONE))).toList();

        reconciler.reconcile(withFdb(plan, fewer));

        assertThat(fdb("vxlan-tunnel")).containsExactly("00:00:00:00:00:00 dst " + STAYS);
        assertThat(fdb("vx-submariner")).containsExactlyInAnyOrder("00:00:00:00:00:00 dst 172.18.0.11", "00:00:00:00:00:00 dst 172.18.0.12");
    }

    @Test
    void fixedMacEntriesOfAnEarlierPeriscopeGoAndArpsNeighboursStay() {
        namespace.run("bridge", "fdb", "replace", "02:41:ac:12:00:04", "dev", "vxlan-tunnel", "dst", GONE, "self", "permanent");
        namespace.run("ip", "neigh", "replace", "241.18.0.4", "lladdr", "02:41:ac:12:00:04", "dev", "vxlan-tunnel", "nud", "permanent");
        // What ARP resolved: the kernel's entry, not the agents'.
        namespace.run("ip", "neigh", "replace", "241.18.0.9", "lladdr", "02:41:ac:12:00:09", "dev", "vxlan-tunnel", "nud", "stale");

        ReconcileResult result = reconciler.reconcile(SeedGateway.plan());

        assertThat(result.changedAnything()).isTrue();
        assertThat(fdb("vxlan-tunnel")).containsExactlyInAnyOrder("00:00:00:00:00:00 dst " + GONE, "00:00:00:00:00:00 dst " + STAYS);
        assertThat(namespace.run("ip", "neigh", "show", "dev", "vxlan-tunnel", "nud", "permanent")).isBlank();
        assertThat(namespace.run("ip", "neigh", "show", "dev", "vxlan-tunnel")).contains("241.18.0.9 lladdr 02:41:ac:12:00:09");
    }

    /** The device's entries that have a destination, as {@code MAC dst ADDRESS}. */
    private List<String> fdb(String device) {
        return namespace.run("bridge", "fdb", "show", "dev", device).lines()
                .filter(line -> line.contains(" dst "))
                .map(line -> line.split(" ")[0] + " dst " + line.split(" dst ")[1].split(" ")[0])
                .toList();
    }

    private static DataplanePlan withFdb(DataplanePlan plan, List<FdbEntry> fdb) {
        assertThat(fdb).allMatch(e -> e.mac().equals(MacAddress.ZERO));
        return new DataplanePlan(plan.netfilter(), plan.ipsets(), plan.vxlanDevices(), fdb, plan.neighbours(), plan.nexthops(),
                plan.nexthopGroups(), plan.routes(), plan.rules(), plan.sysctls());
    }
}
