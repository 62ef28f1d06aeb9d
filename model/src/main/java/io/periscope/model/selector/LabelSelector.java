package io.periscope.model.selector;

import java.util.List;
import java.util.Map;

/**
 * A Kubernetes label selector: every {@code matchLabels} pair and every {@code matchExpressions}
 * requirement must hold. The empty selector matches everything, as in ClusterConnectivityPolicy
 * ("an empty selector indicates wildcard") and in a GlobalEgressIP without podSelector.
 */
public record LabelSelector(Map<String, String> matchLabels, List<LabelSelectorRequirement> matchExpressions) {

    public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

    public LabelSelector {
        matchLabels = Map.copyOf(matchLabels);
        matchExpressions = List.copyOf(matchExpressions);
    }

    public static LabelSelector ofLabels(Map<String, String> labels) {
        return new LabelSelector(labels, List.of());
    }

    public boolean isEmpty() {
        return matchLabels.isEmpty() && matchExpressions.isEmpty();
    }

    public boolean matches(Map<String, String> labels) {
        for (Map.Entry<String, String> wanted : matchLabels.entrySet()) {
            if (!wanted.getValue().equals(labels.get(wanted.getKey()))) {
                return false;
            }
        }
        for (LabelSelectorRequirement requirement : matchExpressions) {
            if (!requirement.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        if (isEmpty()) {
            return "{}";
        }
        StringBuilder text = new StringBuilder();
        matchLabels.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> text.append(text.isEmpty() ? "" : ",").append(e.getKey()).append('=').append(e.getValue()));
        matchExpressions.forEach(r -> text.append(text.isEmpty() ? "" : ",").append(r));
        return text.toString();
    }
}
