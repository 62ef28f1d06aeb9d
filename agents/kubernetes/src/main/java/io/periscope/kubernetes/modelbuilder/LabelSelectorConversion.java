package io.periscope.kubernetes.modelbuilder;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.selector.LabelSelectorRequirement;
import io.periscope.model.selector.SelectorOperator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Between fabric8's label selectors (what the API holds) and the model's (what the planner evaluates). */
public final class LabelSelectorConversion {

    private LabelSelectorConversion() {
    }

    /**
     * The model's selector; an absent selector matches everything, as Kubernetes reads it.
     *
     * @throws IllegalArgumentException naming the operator or values that Kubernetes would refuse
     */
    public static LabelSelector toModel(io.fabric8.kubernetes.api.model.LabelSelector selector) {
        if (selector == null) {
            return LabelSelector.EVERYTHING;
        }
        Map<String, String> labels = selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
        List<LabelSelectorRequirement> requirements = new ArrayList<>();
        if (selector.getMatchExpressions() != null) {
            for (io.fabric8.kubernetes.api.model.LabelSelectorRequirement expression : selector.getMatchExpressions()) {
                SelectorOperator operator = SelectorOperator.fromYaml(expression.getOperator()).orElseThrow(() ->
                        new IllegalArgumentException("matchExpressions operator '" + expression.getOperator()
                                + "' is not one of In, NotIn, Exists, DoesNotExist"));
                List<String> values = expression.getValues() == null ? List.of() : expression.getValues();
                requirements.add(new LabelSelectorRequirement(expression.getKey(), operator, values));
            }
        }
        return new LabelSelector(labels, requirements);
    }

    public static io.fabric8.kubernetes.api.model.LabelSelector toKubernetes(LabelSelector selector) {
        LabelSelectorBuilder builder = new LabelSelectorBuilder();
        if (!selector.matchLabels().isEmpty()) {
            builder.withMatchLabels(selector.matchLabels());
        }
        for (LabelSelectorRequirement requirement : selector.matchExpressions()) {
            builder.addToMatchExpressions(new LabelSelectorRequirementBuilder().withKey(requirement.key())
                    .withOperator(requirement.operator().yamlName()).withValues(requirement.values()).build());
        }
        return builder.build();
    }
}
