package io.periscope.features.backend;

import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.policy.CableDriver;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class LabBackendSaysWhyItCannotRun {

    @Test
    void withoutALabDriverTheReasonNamesTheLabAndRefusesToDeploy() {
        assumeTrue(ServiceLoader.load(LabDriver.class).findFirst().isEmpty(), "a LabDriver is on the classpath");
        LabBackend lab = LabBackend.onThisMachine();

        assertThat(lab.unavailable()).hasValueSatisfying(reason -> assertThat(reason).startsWith(LabBackend.NEEDS));
        ClusterSet empty = new ClusterSet("empty", GlobalnetConfig.DISABLED, CableDriver.VXLAN, List.of(), List.of(), List.of(), List.of());
        assertThatThrownBy(() -> lab.deploy(empty)).isInstanceOf(IllegalStateException.class).hasMessageStartingWith(LabBackend.NEEDS);
    }
}
