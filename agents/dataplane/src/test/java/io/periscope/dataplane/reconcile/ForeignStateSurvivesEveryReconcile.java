package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.TestNamespace;
import io.periscope.plan.DataplanePlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rules, chains, sets, routes, policy rules, neighbours and nexthops that are not Periscope's,
 * added by hand the way kube-proxy, the CNI or an operator would, stay untouched through a
 * reconcile that programs the seed gateway, one that changes it and one that removes it.
 */
class ForeignStateSurvivesEveryReconcile {

    private TestNamespace namespace;
    private Reconciler reconciler;

    @BeforeEach
    void createNamespaceWithForeignState() {
        namespace = TestNamespace.create();
        SeedGateway.prepare(namespace);
        namespace.runWithInput("""
                *filter
                :FOREIGN-CHAIN - [0:0]
                -A INPUT -j FOREIGN-CHAIN
                -A FORWARD -p icmp -j ACCEPT
                -A FORWARD -m physdev --physdev-is-bridged -j ACCEPT
                -A FOREIGN-CHAIN -p tcp -m tcp --dport 22 -j ACCEPT
                -A FOREIGN-CHAIN -m limit --limit 5/sec -j LOG
                COMMIT
                *nat
                :KUBE-SERVICES - [0:0]
                -A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
                -A POSTROUTING -s 10.0.0.0/16 ! -d 10.0.0.0/8 -j MASQUERADE
                -A KUBE-SERVICES -d 100.2.0.132/32 -p tcp -m comment --comment "default/nginx:http cluster IP" -m tcp --dport 80 -j RETURN
                COMMIT
                """, "iptables-restore", "--noflush");
        namespace.run("ipset", "create", "FOREIGN-SET", "hash:net");
        namespace.run("ipset", "add", "FOREIGN-SET", "10.0.0.0/8");
        namespace.run("ip", "route", "add", "10.44.0.0/16", "via", "172.18.0.1", "dev", "eth0");
        namespace.run("ip", "route", "add", "10.45.0.0/16", "via", "172.18.0.1", "dev", "eth0", "proto", "static");
        namespace.run("ip", "rule", "add", "pref", "500", "from", "10.5.0.0/16", "lookup", "main");
        namespace.run("ip", "neigh", "replace", "172.18.0.1", "lladdr", "02:00:00:00:00:01", "dev", "eth0", "nud", "permanent");
        namespace.run("ip", "nexthop", "add", "id", "50", "via", "172.18.0.1", "dev", "eth0");
        reconciler = new Reconciler(namespace.runner(), Ownership.submariner());
    }

    @AfterEach
    void deleteNamespace() {
        if (namespace != null) {
            namespace.close();
        }
    }

    /** Everything foreign, as the kernel prints it. */
    private List<String> foreign() {
        List<String> iptables = namespace.run("iptables-save").lines()
                .filter(line -> !line.contains("SUBMARINER"))
                .filter(line -> line.contains("FOREIGN-CHAIN") || line.contains("KUBE-SERVICES") || line.contains("icmp")
                        || line.contains("physdev") || line.contains("MASQUERADE") && line.contains("10.0.0.0/8"))
                .toList();
        return List.of(String.join("\n", iptables),
                namespace.run("ipset", "list", "FOREIGN-SET"),
                namespace.run("ip", "route", "show", "10.44.0.0/16"),
                namespace.run("ip", "route", "show", "10.45.0.0/16"),
                namespace.run("ip", "rule", "show", "pref", "500"),
                namespace.run("ip", "neigh", "show", "dev", "eth0", "nud", "permanent"),
                namespace.run("ip", "nexthop", "show", "id", "50"));
    }

    @Test
    void foreignStateIsUntouchedByProgrammingChangingAndRemovingTheGateway() {
        List<String> before = foreign();
        assertThat(before).allSatisfy(text -> assertThat(text).isNotBlank());
        DataplanePlan plan = SeedGateway.plan();

        reconciler.reconcile(plan);
        assertThat(foreign()).isEqualTo(before);
        reconciler.reconcile(SeedGatewayPlanRoundTripsThroughTheKernel.changed(plan));
        assertThat(foreign()).isEqualTo(before);
        reconciler.reconcile(DataplanePlan.EMPTY);
        assertThat(foreign()).isEqualTo(before);
    }

    @Test
    void periscopesRulesGoFirstInBuiltinChainsAboveForeignOnes() {
        reconciler.reconcile(SeedGateway.plan());

        List<String> forward = namespace.run("iptables-save", "-t", "filter").lines().filter(l -> l.startsWith("-A FORWARD")).toList();
        assertThat(forward).containsExactly(
                "-A FORWARD -j SUBMARINER-FWD-MSSCLAMP",
                "-A FORWARD -j SUBMARINER-FORWARD",
                "-A FORWARD -d 10.0.0.0/16 -i vxlan-tunnel -j ACCEPT",
                "-A FORWARD -p icmp -j ACCEPT",
                "-A FORWARD -m physdev --physdev-is-bridged -j ACCEPT");
    }

    @Test
    void aForeignRuleInsertedAboveOursIsOvertakenAndKept() {
        reconciler.reconcile(SeedGateway.plan());
        namespace.run("iptables", "-I", "FORWARD", "1", "-p", "udp", "-j", "ACCEPT");

        ReconcileResult result = reconciler.reconcile(SeedGateway.plan());

        assertThat(result.applied()).hasSize(1);
        List<String> forward = namespace.run("iptables-save", "-t", "filter").lines().filter(l -> l.startsWith("-A FORWARD")).toList();
        assertThat(forward).startsWith("-A FORWARD -j SUBMARINER-FWD-MSSCLAMP", "-A FORWARD -j SUBMARINER-FORWARD",
                "-A FORWARD -d 10.0.0.0/16 -i vxlan-tunnel -j ACCEPT", "-A FORWARD -p udp -j ACCEPT");
        assertThat(reconciler.reconcile(SeedGateway.plan()).applied()).isEmpty();
    }
}
