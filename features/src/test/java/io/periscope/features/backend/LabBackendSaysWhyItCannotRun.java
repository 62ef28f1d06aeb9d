package io.periscope.features.backend;

import io.periscope.features.lab.NamespaceLab;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LabBackendSaysWhyItCannotRun {

    @Test
    void theNamespaceLabIsTheOneLabDriverOnTheTestClasspath() {
        assertThat(ServiceLoader.load(LabDriver.class).stream().map(ServiceLoader.Provider::type).toList())
                .containsExactly(NamespaceLab.class);
    }

    @Test
    void theLabRunsExactlyWhenThisProcessIsRootAndOtherwiseRefusesToDeployNamingTheUser() throws Exception {
        boolean root = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Uid:"))
                .map(l -> l.substring(4).trim().split("\\s+")[1]).anyMatch("0"::equals);
        LabBackend lab = LabBackend.onThisMachine();

        if (root) {
            assertThat(lab.unavailable()).isEmpty();
        } else {
            assertThat(lab.unavailable()).hasValueSatisfying(reason -> assertThat(reason).startsWith(LabBackend.NEEDS).contains("uid"));
            ClusterSet empty = new ClusterSet("empty", GlobalnetConfig.DISABLED, CableDriver.VXLAN, List.of(), List.of(), List.of(), List.of());
            assertThatThrownBy(() -> lab.deploy(empty)).isInstanceOf(IllegalStateException.class).hasMessageStartingWith(LabBackend.NEEDS);
        }
    }
}
