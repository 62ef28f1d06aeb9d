package io.periscope.kubernetes.broker;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The broker's {@code submariner-globalnet-info} as upstream's subctl writes it, and as an admin might by hand. */
class GlobalnetInfoReadsUpstreamsConfigMap {

    @Test
    void upstreamsKeysAndJsonEncodingAreRead() {
        GlobalnetInfo info = GlobalnetInfo.read(configMap(Map.of("globalnetEnabled", "true", "globalnetCidrRange", "\"242.0.0.0/8\"",
                "globalnetClusterSize", "65536",
                "clusterinfo", "[{\"cluster_id\":\"east\",\"global_cidr\":[\"242.0.0.0/16\"]},{\"cluster_id\":\"west\",\"global_cidr\":[\"242.1.0.0/16\"]}]")));

        assertThat(info.enabled()).isTrue();
        assertThat(info.cidr()).isEqualTo(Ipv4Prefix.parse("242.0.0.0/8"));
        assertThat(info.clusterSize()).isEqualTo(65536);
        assertThat(info.clusters()).containsExactly(Map.entry("east", Ipv4Prefix.parse("242.0.0.0/16")),
                Map.entry("west", Ipv4Prefix.parse("242.1.0.0/16")));
    }

    @Test
    void aNewBrokersDataReadsAsGlobalnetOnWithNoClusterYet() {
        GlobalnetInfo info = GlobalnetInfo.read(configMap(GlobalnetInfo.brokerData(Ipv4Prefix.parse("242.0.0.0/8"), 65536)));

        assertThat(info.enabled()).isTrue();
        assertThat(info.cidr()).isEqualTo(Ipv4Prefix.parse("242.0.0.0/8"));
        assertThat(info.clusterSize()).isEqualTo(65536);
        assertThat(info.clusters()).isEmpty();
        assertThat(GlobalnetInfo.brokerData(Ipv4Prefix.parse("242.0.0.0/8"), 65536)).as("upstream's JSON-encoded range")
                .containsEntry("globalnetCidrRange", "\"242.0.0.0/8\"");
    }

    @Test
    void aHandWrittenRangeWithoutQuotesIsReadToo() {
        assertThat(GlobalnetInfo.read(configMap(Map.of("globalnetEnabled", "true", "globalnetCidrRange", "169.254.0.0/16",
                "globalnetClusterSize", "256"))).cidr()).isEqualTo(Ipv4Prefix.parse("169.254.0.0/16"));
    }

    @Test
    void recordingAClusterReplacesItsEntryAndKeepsTheOtherKeys() {
        ConfigMap configMap = configMap(Map.of("globalnetEnabled", "true", "globalnetCidrRange", "\"242.0.0.0/8\"", "globalnetClusterSize", "65536",
                "clusterinfo", "[{\"cluster_id\":\"east\",\"global_cidr\":[\"242.7.0.0/16\"]}]"));
        GlobalnetInfo info = GlobalnetInfo.read(configMap);

        Map<String, String> data = info.dataRecording(configMap.getData(), "east", Ipv4Prefix.parse("242.0.0.0/16"));
        data = GlobalnetInfo.read(configMap(data)).dataRecording(data, "west", Ipv4Prefix.parse("242.1.0.0/16"));

        GlobalnetInfo recorded = GlobalnetInfo.read(configMap(data));
        assertThat(recorded.clusters()).containsExactly(Map.entry("east", Ipv4Prefix.parse("242.0.0.0/16")),
                Map.entry("west", Ipv4Prefix.parse("242.1.0.0/16")));
        assertThat(data).containsEntry("globalnetCidrRange", "\"242.0.0.0/8\"").containsEntry("globalnetClusterSize", "65536");
    }

    @Test
    void aClusterSizeThatCannotBeHandedOutIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> GlobalnetInfo.read(configMap(Map.of("globalnetEnabled", "true", "globalnetCidrRange", "\"242.0.0.0/8\"",
                "globalnetClusterSize", "1000"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("submariner-k8s-broker/submariner-globalnet-info").hasMessageContaining("globalnetClusterSize 1000")
                .hasMessageContaining("set globalnetClusterSize").hasMessageNotContaining("globalnet.clusterSize");
    }

    @Test
    void aBrokenClusterInfoIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> GlobalnetInfo.read(configMap(Map.of("globalnetEnabled", "true", "globalnetCidrRange", "\"242.0.0.0/8\"",
                "globalnetClusterSize", "65536", "clusterinfo", "{not json"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clusterinfo").hasMessageContaining("set it to []");
    }

    @Test
    void disabledGlobalnetNeedsNoRange() {
        assertThat(GlobalnetInfo.read(configMap(Map.of("globalnetEnabled", "false", "clusterinfo", "[]"))).enabled()).isFalse();
    }

    private static ConfigMap configMap(Map<String, String> data) {
        return new ConfigMapBuilder().withNewMetadata().withName(GlobalnetInfo.CONFIG_MAP_NAME).withNamespace("submariner-k8s-broker").endMetadata()
                .withData(data).build();
    }
}
