package io.periscope.kubernetes.modelbuilder;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.model.topology.Cluster;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's {@code submariner.io/tcp-clamp-mss} annotation becomes its {@code tcpClampMss}, as
 * upstream's route agent reads it ({@code strconv.Atoi}; 0 or nothing forces nothing; text that is no
 * number is an error and forces nothing). Values iptables would refuse are reported too.
 */
class TcpClampMssAnnotationIsReadAsUpstreamReadsIt {

    private static io.fabric8.kubernetes.api.model.Node node(String name, String ip, boolean gateway, String mss) {
        return new NodeBuilder().withNewMetadata().withName(name)
                .withAnnotations(mss == null ? Map.of() : Map.of("submariner.io/tcp-clamp-mss", mss))
                .withLabels(gateway ? Map.of(SubmarinerApi.GATEWAY_LABEL, "true") : Map.of()).endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress(ip).endAddress().endStatus().build();
    }

    private static LiveModel build() {
        SubmarinerCluster cluster = new SubmarinerCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName("c1").withNamespace("submariner-operator").build());
        cluster.setSpec(new ClusterSpec("c1", null, List.of("10.0.0.0/16"), List.of("100.0.0.0/16"), List.of(), "generic", false,
                null, null, null));
        LiveObjects live = new LiveObjects("c1",
                List.of(node("gw", "172.18.0.2", true, "1200"), node("plain", "172.18.0.3", false, null),
                        node("zero", "172.18.0.4", false, "0"), node("words", "172.18.0.5", false, "twelve hundred"),
                        node("huge", "172.18.0.6", false, "70000")),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(cluster),
                List.of(), List.of(), List.of(), Optional.empty(), List.of());
        return ClusterModelBuilder.build("s", List.of(live));
    }

    @Test
    void aNumberIsTheForcedMssAndNothingOrZeroForcesNone() {
        Cluster cluster = build().clusterSet().requireCluster("c1");

        assertThat(cluster.requireNode("gw").tcpClampMss()).hasValue(1200);
        assertThat(cluster.requireNode("plain").tcpClampMss()).isEmpty();
        assertThat(cluster.requireNode("zero").tcpClampMss()).isEmpty();
    }

    @Test
    void textOrAValueIptablesRefusesIsAProblemAndForcesNone() {
        LiveModel model = build();
        Cluster cluster = model.clusterSet().requireCluster("c1");

        assertThat(cluster.requireNode("words").tcpClampMss()).isEmpty();
        assertThat(cluster.requireNode("huge").tcpClampMss()).isEmpty();
        assertThat(model.problems()).extracting(ModelProblem::toString)
                .anySatisfy(p -> assertThat(p).contains("Node words", "submariner.io/tcp-clamp-mss", "not a whole number"))
                .anySatisfy(p -> assertThat(p).contains("Node huge", "70000", "1..65515"));
    }
}
