package io.periscope.model.load;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A fix's example is something the user can copy: built from the bad input only when the result is
 * valid ({@code 10.1.0.0} becomes {@code 10.1.0.0/24}), a fixed valid example otherwise, never
 * {@code banana/24}.
 */
class FixHintsShowValidExamplesNeverTheBadInput {

    private static List<String> fixesFor(String podCidr, String nodeIp, String export) {
        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.parse("""
                clusters:
                  - name: east
                    podCIDRs: [%s]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes: [{name: gw, ip: %s, cniIP: 10.1.0.1, gateway: true}]
                    exports: [%s]
                """.formatted(podCidr, nodeIp, export), "topology.yaml"));
        assertThat(failure).as("the topology must be refused").isNotNull();
        return failure.errors().stream().map(TopologyError::fix).toList();
    }

    @Test
    void aCidrWithoutLengthThatIsNoAddressGetsAFixedExample() {
        assertThat(fixesFor("banana", "172.20.1.2", "default/web"))
                .contains("write network/length with a dotted-quad network, e.g. 10.244.0.0/16")
                .noneSatisfy(fix -> assertThat(fix).contains("banana"));
    }

    @Test
    void aCidrWithoutLengthThatIsAnAddressGetsItsOwnExample() {
        assertThat(fixesFor("10.1.0.0", "172.20.1.2", "default/web")).anySatisfy(fix -> assertThat(fix).contains("e.g. 10.1.0.0/24"));
    }

    @Test
    void anAddressWithALengthWhoseNetworkIsNoAddressGetsAFixedExample() {
        assertThat(fixesFor("10.1.0.0/16", "banana/24", "default/web"))
                .contains("write the address without a prefix length, e.g. 10.0.1.5")
                .noneSatisfy(fix -> assertThat(fix).contains("banana"));
        assertThat(fixesFor("10.1.0.0/16", "172.20.1.2/24", "default/web"))
                .anySatisfy(fix -> assertThat(fix).endsWith("e.g. 172.20.1.2"));
    }

    @Test
    void anExportWithoutNamespaceThatIsNoNameGetsAFixedExample() {
        assertThat(fixesFor("10.1.0.0/16", "172.20.1.2", "'Web Server!'"))
                .contains("write namespace/name of a service of this cluster, e.g. default/nginx")
                .noneSatisfy(fix -> assertThat(fix).contains("Web Server!"));
        assertThat(fixesFor("10.1.0.0/16", "172.20.1.2", "web")).anySatisfy(fix -> assertThat(fix).contains("e.g. default/web"));
    }
}
