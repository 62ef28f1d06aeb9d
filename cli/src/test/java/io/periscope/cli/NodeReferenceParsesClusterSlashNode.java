package io.periscope.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeReferenceParsesClusterSlashNode {

    @Test
    void splitsAtTheSlash() {
        assertThat(NodeReference.parse("cluster1/gw-1")).isEqualTo(new NodeReference("cluster1", "gw-1"));
        assertThat(NodeReference.parse("cluster1/gw-1")).hasToString("cluster1/gw-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gw-1", "/gw-1", "cluster1/", "cluster1/default/client", ""})
    void refusesAnythingElseNamingTheValue(String text) {
        assertThatThrownBy(() -> NodeReference.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "' is not CLUSTER/NODE");
    }
}
