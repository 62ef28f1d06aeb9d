package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.diff.CanonicalForm;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.periscope.dataplane.reconcile.SeedGateway.cidr;
import static io.periscope.dataplane.reconcile.SeedGateway.ip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A plan whose last route goes through a device that does not exist: ipset, sysctl, iptables and
 * the first ip batch lines succeed before {@code ip} refuses that route; afterwards the namespace
 * must be exactly as before.
 */
class FailedReconcileLeavesTheNamespaceAsItWas {

    private TestNamespace namespace;
    private Reconciler reconciler;

    @BeforeEach
    void createNamespace() {
        namespace = TestNamespace.create();
        SeedGateway.prepare(namespace);
        reconciler = new Reconciler(namespace.runner(), Ownership.submariner());
    }

    @AfterEach
    void deleteNamespace() {
        if (namespace != null) {
            namespace.close();
        }
    }

    /**
     * The namespace as the kernel prints it, minus what cannot be restored and means nothing: the
     * hash seeds of ipsets, the interface index of a device that was deleted and made again and the
     * MAC the kernel gave it (VXLAN devices have the kernel's, as upstream's), and iptables tables that
     * hold nothing (iptables-nft creates a table on first use).
     */
    private List<Object> snapshot() {
        return List.of(
                rulesAndUserChains(namespace.run("iptables-save")),
                namespace.run("ipset", "save").replaceAll(" initval 0x[0-9a-f]+", ""),
                CanonicalForm.of(new DataplaneReader(namespace.runner()).readAll().plan()),
                namespace.run("sysctl", "net.ipv4.ip_forward", "net.ipv4.fib_multipath_hash_policy",
                        "net.ipv4.conf.all.ignore_routes_with_linkdown"),
                namespace.run("ip", "-d", "-o", "link", "show").replaceAll("(?m)^\\d+: ", "")
                        .replaceAll("(?m)^(vx[^:]*: .*?link/ether )\\S+", "$1<the kernel's>"));
    }

    private static List<String> rulesAndUserChains(String iptablesSave) {
        List<String> lines = new ArrayList<>();
        String table = "";
        for (String line : iptablesSave.lines().toList()) {
            if (line.startsWith("*")) {
                table = line;
            } else if (line.startsWith("-A") || line.startsWith(":") && line.contains(" - [")) {
                lines.add(table + " " + line);
            }
        }
        return lines;
    }

    /** The seed gateway changed everywhere, with one route through a missing device last. */
    private static DataplanePlan brokenChange(DataplanePlan plan) {
        DataplanePlan changed = SeedGatewayPlanRoundTripsThroughTheKernel.changed(plan);
        List<NetfilterTable> netfilter = new ArrayList<>();
        for (NetfilterTable table : changed.netfilter()) {
            List<Chain> chains = new ArrayList<>(table.chains());
            if (table.table() == Table.FILTER) {
                chains.add(new Chain("SUBMARINER-NEW", List.of(Rule.of(new Target.Drop()))));
                chains.replaceAll(c -> c.name().equals("INPUT")
                        ? new Chain("INPUT", List.of(Rule.of(Target.jump("SUBMARINER-NEW")), Rule.of(Target.jump("SUBMARINER-INPUT"))))
                        : c);
            }
            netfilter.add(new NetfilterTable(table.table(), chains));
        }
        List<IpSet> ipsets = new ArrayList<>(changed.ipsets());
        ipsets.add(new IpSet("SM-GN-NEW", IpSetType.HASH_NET, List.of(cidr("10.7.0.0/16"))));
        List<NexthopObject> nexthops = new ArrayList<>(changed.nexthops());
        nexthops.add(new NexthopObject(7, ip("241.18.0.7"), "vxlan-tunnel", false));
        List<Route> routes = new ArrayList<>(changed.routes().subList(1, changed.routes().size()));
        routes.add(Route.unicast(100, cidr("10.66.0.0/16"), List.of(Nexthop.via(ip("241.18.0.4"), "vxlan-tunnel")), RouteProtocol.STATIC));
        routes.add(Route.unicast(100, cidr("10.99.0.0/16"), List.of(Nexthop.via(ip("10.99.0.1"), "nosuch0")), RouteProtocol.STATIC));
        Map<String, String> sysctls = new HashMap<>(changed.sysctls());
        sysctls.put("net.ipv4.fib_multipath_hash_policy", "0");
        return new DataplanePlan(netfilter, ipsets, changed.vxlanDevices(), changed.fdb(), changed.neighbours(), nexthops,
                changed.nexthopGroups(), routes, changed.rules(), sysctls);
    }

    @Test
    void aRouteOnAMissingDeviceRollsBackEverythingAppliedBeforeIt() {
        DataplanePlan plan = SeedGateway.plan();
        reconciler.reconcile(plan);
        List<Object> before = snapshot();

        assertThatThrownBy(() -> reconciler.reconcile(brokenChange(plan)))
                .isInstanceOfSatisfying(ReconcileException.class, e -> {
                    assertThat(e.rolledBack()).isTrue();
                    assertThat(e.applied()).isNotEmpty();
                    assertThat(e.restore().isEmpty()).isFalse();
                    assertThat(e.getMessage()).contains("nosuch0").contains("restored");
                });

        assertThat(snapshot()).isEqualTo(before);
        assertThat(reconciler.reconcile(plan).applied()).isEmpty();
    }

    @Test
    void aFailedFirstReconcileLeavesAFreshNamespaceFresh() {
        List<Object> before = snapshot();

        assertThatThrownBy(() -> reconciler.reconcile(brokenChange(SeedGateway.plan())))
                .isInstanceOfSatisfying(ReconcileException.class, e -> assertThat(e.rolledBack()).isTrue());

        assertThat(snapshot()).isEqualTo(before);
    }
}
