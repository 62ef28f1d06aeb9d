package io.periscope.model.selector;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LabelSelectorsFollowKubernetesSemantics {

    private static final Map<String, String> ON_PREMISE_SERVER = Map.of("location", "on-premise", "database-role", "server");
    private static final Map<String, String> CLOUD = Map.of("location", "cloud");
    private static final Map<String, String> NO_LABELS = Map.of();

    private static LabelSelector expression(String key, SelectorOperator operator, String... values) {
        return new LabelSelector(Map.of(), List.of(new LabelSelectorRequirement(key, operator, List.of(values))));
    }

    @Test
    void emptySelectorMatchesEveryClusterEvenWithoutLabels() {
        assertThat(LabelSelector.EVERYTHING.matches(ON_PREMISE_SERVER)).isTrue();
        assertThat(LabelSelector.EVERYTHING.matches(NO_LABELS)).isTrue();
    }

    @Test
    void matchLabelsNeedsEveryPair() {
        LabelSelector selector = LabelSelector.ofLabels(Map.of("location", "on-premise", "database-role", "server"));
        assertThat(selector.matches(ON_PREMISE_SERVER)).isTrue();
        assertThat(selector.matches(Map.of("location", "on-premise"))).isFalse();
    }

    @Test
    void inMatchesOnlyListedValuesOfAPresentKey() {
        LabelSelector selector = expression("location", SelectorOperator.IN, "on-premise", "edge");
        assertThat(selector.matches(ON_PREMISE_SERVER)).isTrue();
        assertThat(selector.matches(CLOUD)).isFalse();
        assertThat(selector.matches(NO_LABELS)).isFalse();
    }

    @Test
    void notInAlsoMatchesObjectsWithoutTheKey() {
        LabelSelector selector = expression("location", SelectorOperator.NOT_IN, "cloud");
        assertThat(selector.matches(ON_PREMISE_SERVER)).isTrue();
        assertThat(selector.matches(CLOUD)).isFalse();
        assertThat(selector.matches(NO_LABELS)).isTrue();
    }

    @Test
    void existsNeedsTheKeyWhateverItsValue() {
        LabelSelector selector = expression("database-role", SelectorOperator.EXISTS);
        assertThat(selector.matches(ON_PREMISE_SERVER)).isTrue();
        assertThat(selector.matches(CLOUD)).isFalse();
    }

    @Test
    void doesNotExistNeedsTheKeyAbsent() {
        LabelSelector selector = expression("database-role", SelectorOperator.DOES_NOT_EXIST);
        assertThat(selector.matches(ON_PREMISE_SERVER)).isFalse();
        assertThat(selector.matches(CLOUD)).isTrue();
        assertThat(selector.matches(NO_LABELS)).isTrue();
    }

    @Test
    void labelsAndExpressionsMustAllHold() {
        LabelSelector selector = new LabelSelector(Map.of("location", "on-premise"),
                List.of(new LabelSelectorRequirement("database-role", SelectorOperator.IN, List.of("client"))));
        assertThat(selector.matches(ON_PREMISE_SERVER)).isFalse();
        assertThat(selector.matches(Map.of("location", "on-premise", "database-role", "client"))).isTrue();
    }

    @Test
    void operatorsRefuseTheWrongNumberOfValues() {
        assertThatThrownBy(() -> expression("k", SelectorOperator.IN)).hasMessageContaining("needs at least one value");
        assertThatThrownBy(() -> expression("k", SelectorOperator.EXISTS, "v")).hasMessageContaining("takes no values");
    }
}
