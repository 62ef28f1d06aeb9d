package io.periscope.plan.netfilter;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A table's chains found by name through {@link ChainList}'s index, as a walk of the list finds
 * them: the first of a name, nothing for a name not there; the table equal to one built from any
 * other list of the same chains, and unmodifiable.
 */
class ChainListFindsChainsByNameAsAWalkWould {

    private static Chain chain(String name, int rules) {
        return new Chain(name, IntStream.range(0, rules).mapToObj(i -> Rule.of(new Target.Jump("KUBE-SEP-" + i))).toList());
    }

    @Test
    void everyChainOfAThousandIsFoundAndAMissingOneIsNot() {
        List<Chain> chains = IntStream.range(0, 1000).mapToObj(i -> chain("KUBE-SVC-" + i, 0)).toList();
        NetfilterTable table = new NetfilterTable(Table.NAT, chains);

        for (Chain chain : chains) {
            assertThat(table.chain(chain.name())).containsSame(chain);
        }
        assertThat(table.chain("KUBE-SVC-1000")).isEmpty();
    }

    @Test
    void theFirstOfTwoChainsOfOneNameIsFound() {
        List<Chain> chains = List.of(chain("KUBE-A", 1), chain("KUBE-A", 2));

        assertThat(ChainList.find(ChainList.of(chains, Chain::name), "KUBE-A", Chain::name)).containsSame(chains.getFirst());
        assertThat(ChainList.find(chains, "KUBE-A", Chain::name)).containsSame(chains.getFirst());
    }

    @Test
    void aTableEqualsOneOfTheSameChainsInAnyListAndCannotBeChanged() {
        List<Chain> plain = new ArrayList<>(List.of(chain("KUBE-A", 1), chain("KUBE-B", 0)));
        NetfilterTable table = new NetfilterTable(Table.FILTER, plain);

        assertThat(table.chains()).isEqualTo(plain).hasSameHashCodeAs(plain);
        assertThat(table).isEqualTo(new NetfilterTable(Table.FILTER, List.copyOf(plain)));
        assertThatThrownBy(() -> table.chains().add(chain("KUBE-C", 0))).isInstanceOf(UnsupportedOperationException.class);
        plain.clear();
        assertThat(table.chain("KUBE-B")).isPresent();
    }
}
