package io.periscope.dataplane.iptables;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a real namespace: the table {@link IptablesRestoreRenderer#outcome} computes for a transaction
 * is, chain by chain and rule by rule (text included), the table {@code iptables-save} prints after
 * the kernel ran it, with foreign rules above, among and below Periscope's. The reconciler's
 * shortcut of not reading the table again rests on that.
 */
class TransactionOutcomeIsWhatTheKernelKeeps {

    private static final ChainOwnership OWNED = ChainOwnership.prefixes(List.of("SUBMARINER-"));

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

    private static Rule acceptFrom(String cidr) {
        return Rule.of(Target.accept(), new Match.Source(Ipv4Prefix.parse(cidr), false));
    }

    private static NetfilterTable filter(List<Rule> forwardJumps, Chain... chains) {
        List<Chain> all = new ArrayList<>(List.of(new Chain("FORWARD", forwardJumps)));
        all.addAll(List.of(chains));
        return new NetfilterTable(Table.FILTER, all);
    }

    private SavedTable saved() {
        return IptablesSaveParser.parse(namespace.run("iptables-save", "-t", "filter")).get(Table.FILTER);
    }

    private static Map<String, List<SavedRule>> byChain(SavedTable table) {
        return table.chains().stream().collect(Collectors.toMap(SavedChain::name, SavedChain::rules));
    }

    private void applyAndCompare(NetfilterTable desired) {
        SavedTable before = saved();
        List<DataplaneChange> changes = NetfilterDiff.between(before, desired, OWNED);
        IptablesRestoreRenderer.render(Table.FILTER, changes, before)
                .ifPresent(text -> namespace.runWithInput(text, "iptables-restore", "--noflush"));

        SavedTable computed = IptablesRestoreRenderer.outcome(Table.FILTER, changes, before).orElseThrow();

        assertThat(byChain(computed)).isEqualTo(byChain(saved()));
    }

    @Test
    void everyKindOfChangeLeavesTheComputedTable() {
        namespace.runWithInput("""
                *filter
                :FOREIGN - [0:0]
                -A FORWARD -p icmp -j ACCEPT
                -A FORWARD -m limit --limit 5/sec -j LOG
                -A FOREIGN -p tcp -m tcp --dport 22 -j ACCEPT
                COMMIT
                """, "iptables-restore", "--noflush");
        Rule toForward = Rule.of(Target.jump("SUBMARINER-FORWARD"));
        Rule toClamp = Rule.of(Target.jump("SUBMARINER-FWD-MSSCLAMP"));
        List<Rule> many = IntStream.range(1, 40).mapToObj(i -> acceptFrom("10.0.0." + i + "/32")).toList();

        applyAndCompare(filter(List.of(toForward), new Chain("SUBMARINER-FORWARD", many)));
        applyAndCompare(filter(List.of(toClamp, toForward), new Chain("SUBMARINER-FORWARD", many.subList(0, 38)),
                new Chain("SUBMARINER-FWD-MSSCLAMP", List.of(acceptFrom("10.9.0.0/16")))));
        namespace.run("iptables", "-I", "FORWARD", "1", "-s", "10.7.0.0/16", "-j", "DROP");
        applyAndCompare(filter(List.of(toForward, toClamp), new Chain("SUBMARINER-FORWARD", many.subList(5, 39)),
                new Chain("SUBMARINER-FWD-MSSCLAMP", List.of(acceptFrom("10.9.0.0/16")))));
        applyAndCompare(filter(List.of(toForward), new Chain("SUBMARINER-FORWARD", List.of(acceptFrom("10.1.0.0/16")))));
        applyAndCompare(filter(List.of()));

        assertThat(namespace.run("iptables-save", "-t", "filter")).contains("-A FORWARD -s 10.7.0.0/16 -j DROP",
                "-A FORWARD -p icmp -j ACCEPT", "-A FOREIGN -p tcp -m tcp --dport 22 -j ACCEPT");
    }
}
