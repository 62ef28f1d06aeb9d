package io.periscope.lab.layout;

import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class LabNamesFitNamespacesAndInterfaces {

    @Test
    void namespacesCarryTheTopologysHashAndTheHostsName() {
        LabNames names = LabNames.of("mag-globalnet");

        assertThat(names.hash()).hasSize(6).matches("[0-9a-f]{6}");
        assertThat(names.host(HostId.node("cluster1", "gw-1"))).isEqualTo(names.prefix() + "cluster1-gw-1");
        assertThat(names.host(HostId.pod("cluster2", "default", "nginx-7d4f"))).isEqualTo(names.prefix() + "cluster2-default-nginx-7d4f");
        assertThat(names.switchFor("cluster1/underlay")).isEqualTo(names.prefix() + "sw-cluster1-underlay");
    }

    @Test
    void twoTopologiesGetDifferentPrefixesAndOneTopologyAlwaysTheSame() {
        assertThat(LabNames.of("a").prefix()).isNotEqualTo(LabNames.of("b").prefix());
        assertThat(LabNames.of("a").prefix()).isEqualTo(LabNames.of("a").prefix());
    }

    @Test
    void longNamesAreShortenedToTheSameUniqueNameEveryTime() {
        LabNames names = LabNames.of("t");
        HostId one = HostId.pod("a-cluster-with-a-long-name", "a-namespace-with-a-long-name", "a-pod-with-a-long-name-0");
        HostId two = HostId.pod("a-cluster-with-a-long-name", "a-namespace-with-a-long-name", "a-pod-with-a-long-name-1");

        assertThat(names.host(one)).hasSizeLessThanOrEqualTo(LabNames.MAX_NAMESPACE_NAME).startsWith(names.prefix())
                .isEqualTo(names.host(one)).isNotEqualTo(names.host(two));
    }

    @Test
    void hostsWhoseNamesSanitiseAlikeStillGetDistinctNamespaces() {
        LabNames names = LabNames.of("t");
        Set<String> taken = new HashSet<>();
        String first = names.unique(names.host(HostId.node("a-b", "c")), "a-b/c", taken);
        taken.add(first);
        String second = names.unique(names.host(HostId.node("a", "b-c")), "a/b-c", taken);

        assertThat(first).isEqualTo(names.prefix() + "a-b-c");
        assertThat(second).isNotEqualTo(first).startsWith(first);
    }

    @Test
    void interfaceNamesStayWithinFifteenCharactersAndUnique() {
        Set<String> taken = new HashSet<>();
        String first = LabNames.interfaceName("worker-with-a-long-name", taken);
        String second = LabNames.interfaceName("worker-with-a-long-name", taken);

        assertThat(first).hasSize(15);
        assertThat(second).hasSizeLessThanOrEqualTo(15).isNotEqualTo(first);
    }
}
