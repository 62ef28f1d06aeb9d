package io.periscope.model.selector;

import java.util.Arrays;
import java.util.Optional;

/** The operators of a Kubernetes label selector requirement, spelled as in YAML. */
public enum SelectorOperator {
    IN("In"), NOT_IN("NotIn"), EXISTS("Exists"), DOES_NOT_EXIST("DoesNotExist");

    private final String yamlName;

    SelectorOperator(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }

    public static Optional<SelectorOperator> fromYaml(String text) {
        return Arrays.stream(values()).filter(o -> o.yamlName.equals(text)).findFirst();
    }
}
