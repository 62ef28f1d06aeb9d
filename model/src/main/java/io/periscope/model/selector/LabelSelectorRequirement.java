package io.periscope.model.selector;

import java.util.List;
import java.util.Map;

/** One {@code matchExpressions} entry: a key, an operator and (for In / NotIn) a non-empty set of values. */
public record LabelSelectorRequirement(String key, SelectorOperator operator, List<String> values) {

    public LabelSelectorRequirement {
        values = List.copyOf(values);
        switch (operator) {
            case IN, NOT_IN -> {
                if (values.isEmpty()) {
                    throw new IllegalArgumentException("operator " + operator.yamlName() + " needs at least one value");
                }
            }
            case EXISTS, DOES_NOT_EXIST -> {
                if (!values.isEmpty()) {
                    throw new IllegalArgumentException("operator " + operator.yamlName() + " takes no values");
                }
            }
        }
    }

    /** Kubernetes semantics: NotIn and DoesNotExist match objects that lack the key. */
    public boolean matches(Map<String, String> labels) {
        String value = labels.get(key);
        return switch (operator) {
            case IN -> value != null && values.contains(value);
            case NOT_IN -> value == null || !values.contains(value);
            case EXISTS -> value != null;
            case DOES_NOT_EXIST -> value == null;
        };
    }

    @Override
    public String toString() {
        return switch (operator) {
            case IN -> key + " in (" + String.join(",", values) + ")";
            case NOT_IN -> key + " notin (" + String.join(",", values) + ")";
            case EXISTS -> key;
            case DOES_NOT_EXIST -> "!" + key;
        };
    }
}
