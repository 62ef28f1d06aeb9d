package io.periscope.model.load;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NameSuggestionOffersOnlyCloseNames {

    private static final List<String> CLUSTER_FIELDS = TopologyReader.CLUSTER_FIELDS;

    @Test
    void aMissingLetterOrWrongCaseFindsTheField() {
        assertThat(NameSuggestion.closest("podCIDR", CLUSTER_FIELDS)).contains("podCIDRs");
        assertThat(NameSuggestion.closest("podcidrs", CLUSTER_FIELDS)).contains("podCIDRs");
        assertThat(NameSuggestion.closest("multiActiveGateway", CLUSTER_FIELDS)).contains("multiActiveGateways");
    }

    @Test
    void swappedLettersCountAsOneEdit() {
        assertThat(NameSuggestion.editDistance("wroker", "worker")).isEqualTo(1);
        assertThat(NameSuggestion.closest("wroker", List.of("gw", "worker"))).contains("worker");
    }

    @Test
    void theOnlyNameStartingWithWhatWasTypedIsOffered() {
        assertThat(NameSuggestion.closest("ovn", List.of("kube-proxy", "ovn-kubernetes"))).contains("ovn-kubernetes");
    }

    @Test
    void unrelatedWordsGetNoSuggestion() {
        assertThat(NameSuggestion.closest("colour", TopologyReader.TOPOLOGY_FIELDS)).isEmpty();
        assertThat(NameSuggestion.closest("x", List.of("ip", "name"))).isEmpty();
    }
}
