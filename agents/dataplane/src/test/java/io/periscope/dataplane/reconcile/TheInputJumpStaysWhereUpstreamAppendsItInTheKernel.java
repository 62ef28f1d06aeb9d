package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.TestNamespace;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.periscope.dataplane.reconcile.SeedGateway.cidr;
import static io.periscope.dataplane.reconcile.SeedGateway.ip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Upstream's kube-proxy handler hooks SUBMARINER-INPUT last ({@code AppendUnique}): in a namespace
 * whose INPUT already holds the node's own rules, the reconciler appends the jump below them, finds
 * nothing to do on the next passes even when someone appends a rule after the jump, appends it again
 * when it is deleted, replaces a jump without upstream's {@code -m udp}, and a reconcile that fails
 * leaves INPUT as it was.
 */
class TheInputJumpStaysWhereUpstreamAppendsItInTheKernel {

    private static final Rule TO_INPUT = Rule.of(Target.jump("SUBMARINER-INPUT"), new Match.ProtocolIs(Protocol.UDP),
            new Match.ProtocolModule());
    private static final String JUMP = "-A INPUT -p udp -m udp -j SUBMARINER-INPUT";
    private static final String LOOPBACK = "-A INPUT -i lo -j ACCEPT";
    private static final String ESTABLISHED = "-A INPUT -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT";
    private static final String REJECT = "-A INPUT -j REJECT --reject-with icmp-port-unreachable";

    private TestNamespace namespace;
    private Reconciler reconciler;

    @BeforeEach
    void createNamespaceWithTheNodesOwnInputRules() {
        namespace = TestNamespace.create();
        namespace.runWithInput("""
                *filter
                -A INPUT -i lo -j ACCEPT
                -A INPUT -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
                -A FORWARD -p icmp -j ACCEPT
                COMMIT
                """, "iptables-restore", "--noflush");
        reconciler = new Reconciler(namespace.runner(), Ownership.submariner());
    }

    @AfterEach
    void deleteNamespace() {
        if (namespace != null) {
            namespace.close();
        }
    }

    /** The route agent's filter table: the INPUT jump last, the FORWARD jump first. */
    private static DataplanePlan plan(List<Route> routes, Chain... more) {
        List<Chain> chains = new ArrayList<>(List.of(
                new Chain("INPUT", List.of(), List.of(TO_INPUT)),
                new Chain("FORWARD", List.of(Rule.of(Target.jump("SUBMARINER-FORWARD")))),
                new Chain("SUBMARINER-INPUT", List.of(Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.UDP), new Match.DestinationPort(4800)))),
                new Chain("SUBMARINER-FORWARD", List.of(Rule.of(Target.accept(), new Match.OutInterface("vx-submariner"))))));
        chains.addAll(List.of(more));
        return new DataplanePlan(List.of(new NetfilterTable(Table.FILTER, chains)), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), routes, List.of(), Map.of());
    }

    private List<String> chain(String name) {
        return namespace.run("iptables-save", "-t", "filter").lines().filter(line -> line.startsWith("-A " + name + " ")).toList();
    }

    @Test
    void theJumpIsAppendedBelowTheNodesRulesAndLeftThere() {
        reconciler.reconcile(plan(List.of()));

        assertThat(chain("INPUT")).containsExactly(LOOPBACK, ESTABLISHED, JUMP);
        assertThat(chain("FORWARD")).containsExactly("-A FORWARD -j SUBMARINER-FORWARD", "-A FORWARD -p icmp -j ACCEPT");
        assertThat(reconciler.reconcile(plan(List.of())).applied()).as("a second pass").isEmpty();

        namespace.run("iptables", "-A", "INPUT", "-j", "REJECT");
        assertThat(reconciler.reconcile(plan(List.of())).applied()).as("a rule appended after the jump").isEmpty();
        assertThat(chain("INPUT")).containsExactly(LOOPBACK, ESTABLISHED, JUMP, REJECT);

        namespace.run("iptables", "-D", "INPUT", "-p", "udp", "-m", "udp", "-j", "SUBMARINER-INPUT");
        assertThat(reconciler.reconcile(plan(List.of())).applied()).hasSize(1);
        assertThat(chain("INPUT")).as("appended again, as AppendUnique would").containsExactly(LOOPBACK, ESTABLISHED, REJECT, JUMP);
    }

    @Test
    void aJumpWithoutUpstreamsUdpModuleIsReplacedAndTheNodesOwnUdpRuleStays() {
        // A Periscope before the -m udp hooked the chain so; the node's rule is typed without -m udp,
        // and the kernel shows it with the module, as it shows the jump upstream's packet filter writes.
        namespace.run("iptables", "-N", "SUBMARINER-INPUT");
        namespace.run("iptables", "-A", "INPUT", "-p", "udp", "-j", "SUBMARINER-INPUT");
        namespace.run("iptables", "-A", "INPUT", "-p", "udp", "--dport", "53", "-j", "ACCEPT");

        assertThat(reconciler.reconcile(plan(List.of())).applied()).isNotEmpty();

        assertThat(chain("INPUT")).containsExactly(LOOPBACK, ESTABLISHED, "-A INPUT -p udp -m udp --dport 53 -j ACCEPT", JUMP);
        assertThat(chain("SUBMARINER-INPUT")).containsExactly("-A SUBMARINER-INPUT -p udp -m udp --dport 4800 -j ACCEPT");
        assertThat(reconciler.reconcile(plan(List.of())).applied()).as("a second pass").isEmpty();
        assertThat(chain("INPUT")).containsExactly(LOOPBACK, ESTABLISHED, "-A INPUT -p udp -m udp --dport 53 -j ACCEPT", JUMP);
    }

    @Test
    void aFailedReconcileLeavesInputAsItWas() {
        reconciler.reconcile(plan(List.of()));
        namespace.run("iptables", "-A", "INPUT", "-j", "REJECT");
        String before = namespace.run("iptables-save", "-t", "filter").lines().filter(line -> line.startsWith("-A") || line.startsWith(":SUB"))
                .reduce("", (a, b) -> a + b + "\n");

        Route broken = Route.unicast(Route.MAIN_TABLE, cidr("10.99.0.0/16"), List.of(Nexthop.via(ip("10.99.0.1"), "nosuch0")), RouteProtocol.STATIC);
        DataplanePlan failing = plan(List.of(broken), new Chain("SUBMARINER-NEW", List.of(Rule.of(new Target.Drop()))));
        List<Chain> withNewFirst = new ArrayList<>(failing.netfilter().getFirst().chains());
        withNewFirst.set(0, new Chain("INPUT", List.of(Rule.of(Target.jump("SUBMARINER-NEW"))), List.of(TO_INPUT)));
        DataplanePlan changed = new DataplanePlan(List.of(new NetfilterTable(Table.FILTER, withNewFirst)), List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of(), failing.routes(), List.of(), Map.of());

        assertThatThrownBy(() -> reconciler.reconcile(changed)).isInstanceOfSatisfying(ReconcileException.class, e -> {
            assertThat(e.rolledBack()).isTrue();
            assertThat(e.applied()).as("the filter transaction ran").isNotEmpty();
        });

        assertThat(namespace.run("iptables-save", "-t", "filter").lines().filter(line -> line.startsWith("-A") || line.startsWith(":SUB"))
                .reduce("", (a, b) -> a + b + "\n")).isEqualTo(before);
        assertThat(chain("INPUT")).containsExactly(LOOPBACK, ESTABLISHED, JUMP, REJECT);
    }
}
