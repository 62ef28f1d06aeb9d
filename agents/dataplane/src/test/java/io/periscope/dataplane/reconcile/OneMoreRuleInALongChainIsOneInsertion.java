package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a real namespace: a long owned chain that differs from the plan by one rule is changed by one
 * rule-number edit in the transaction, and the kernel's other rules of the chain stay the very same
 * rules (nft handles unchanged), not a refill of equal ones; a rule changed by hand is still undone.
 */
class OneMoreRuleInALongChainIsOneInsertion {

    private static final String CHAIN = "SUBMARINER-GN-INGRESS";

    private TestNamespace namespace;

    @BeforeEach
    void createNamespace() {
        namespace = TestNamespace.create();
    }

    @AfterEach
    void deleteNamespace() {
        if (namespace != null) {
            namespace.close();
        }
    }

    private static Rule ingress(int index) {
        return Rule.of(new Target.Dnat(Ipv4Address.parse("10.128." + index / 256 + "." + index % 256), OptionalInt.empty()),
                new Match.Destination(Ipv4Prefix.parse("243.0." + index / 256 + "." + index % 256 + "/32")));
    }

    private static DataplanePlan plan(List<Rule> ingress) {
        NetfilterTable nat = new NetfilterTable(Table.NAT, List.of(
                new Chain("PREROUTING", List.of(Rule.of(Target.jump(CHAIN)))), new Chain(CHAIN, ingress)));
        return new DataplanePlan(List.of(nat), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), Map.of());
    }

    /** The chain's rules as nft lists them, each with its handle: a rule rewritten gets a new one. */
    private List<String> rulesWithHandles() {
        return namespace.run("nft", "-a", "list", "chain", "ip", "nat", CHAIN).lines()
                .filter(l -> l.contains(" dnat to ")).map(String::strip).toList();
    }

    private List<String> savedChain() {
        return namespace.run("iptables-save", "-t", "nat").lines().filter(l -> l.startsWith("-A " + CHAIN + " ")).toList();
    }

    @Test
    void theTransactionInsertsTheNewRuleAndLeavesTheOthersAlone() {
        List<Rule> rules = new ArrayList<>(IntStream.range(0, 300).mapToObj(OneMoreRuleInALongChainIsOneInsertion::ingress).toList());
        Reconciler reconciler = new Reconciler(namespace.runner(), Ownership.submariner());
        reconciler.reconcile(plan(rules));
        List<String> before = rulesWithHandles();
        rules.add(120, ingress(1000));

        ReconcileResult result = reconciler.reconcile(plan(rules));

        assertThat(result.applied()).containsExactly(Command.of("iptables-restore", "--noflush").withStdin("""
                *nat
                -I SUBMARINER-GN-INGRESS 121 -d 243.0.3.232/32 -j DNAT --to-destination 10.128.3.232
                COMMIT
                """));
        List<String> after = rulesWithHandles();
        assertThat(after).hasSize(301);
        assertThat(after.get(120)).contains("243.0.3.232");
        List<String> others = new ArrayList<>(after);
        others.remove(120);
        assertThat(others).isEqualTo(before);
        assertThat(savedChain().get(120)).isEqualTo("-A SUBMARINER-GN-INGRESS -d 243.0.3.232/32 -j DNAT --to-destination 10.128.3.232");
    }

    @Test
    void aRuleRemovedAndOneChangedByHandAreRestoredByTheNextReconcile() {
        List<Rule> rules = IntStream.range(0, 300).mapToObj(OneMoreRuleInALongChainIsOneInsertion::ingress).toList();
        Reconciler reconciler = new Reconciler(namespace.runner(), Ownership.submariner());
        reconciler.reconcile(plan(rules));
        List<String> wanted = savedChain();
        namespace.run("iptables", "-t", "nat", "-R", CHAIN, "10", "-d", "243.9.9.9/32", "-j", "DNAT", "--to-destination", "10.9.9.9");
        namespace.run("iptables", "-t", "nat", "-D", CHAIN, "200");

        reconciler.reconcile(plan(rules));

        assertThat(savedChain()).isEqualTo(wanted);
        assertThat(reconciler.reconcile(plan(rules)).applied()).isEmpty();
    }

    @Test
    void aForeignRuleInsideTheChainIsRemovedByARefill() {
        List<Rule> rules = IntStream.range(0, 50).mapToObj(OneMoreRuleInALongChainIsOneInsertion::ingress).toList();
        Reconciler reconciler = new Reconciler(namespace.runner(), Ownership.submariner());
        reconciler.reconcile(plan(rules));
        List<String> wanted = savedChain();
        namespace.run("iptables", "-t", "nat", "-I", CHAIN, "5", "-p", "tcp", "-m", "comment", "--comment", "by hand", "-j", "RETURN");

        reconciler.reconcile(plan(rules));

        assertThat(savedChain()).isEqualTo(wanted);
    }
}
