package io.periscope.features.lab;

import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.features.backend.CableSecrecy;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab builds a Libreswan cable as VXLAN (no XFRM in this kernel), so it has no ESP on the wire to
 * show: asked whether the packets between the clusters are encrypted, it says "not shown" and why,
 * before it sends or captures anything, and never claims it shown.
 */
class ALibreswanCableIsNotShownEncryptedInTheLab {

    private static final String DEFAULT_LIBRESWAN = """
            name: default-libreswan
            clusters:
              - name: onprem-1
                podCIDRs: [10.10.0.0/16]
                serviceCIDRs: [10.110.0.0/16]
                nodes: [{name: onprem-1-gw, ip: 172.18.1.2, cniIP: 10.10.0.1, gateway: true}]
                pods: [{name: app, node: onprem-1-gw, ip: 10.10.0.10}]
              - name: cloud
                podCIDRs: [10.30.0.0/16]
                serviceCIDRs: [10.130.0.0/16]
                nodes: [{name: cloud-gw, ip: 172.18.3.2, cniIP: 10.30.0.1, gateway: true}]
                pods: [{name: app, node: cloud-gw, ip: 10.30.0.10}]
            """;

    @Test
    void theLabSaysItSubstitutesLibreswan(@TempDir Path state) throws Exception {
        ClusterSet set = TopologyLoader.parse(DEFAULT_LIBRESWAN, "default-libreswan.yaml");
        // The paths the lab's probes match: the simulator's over the cables as the lab builds them.
        List<PathTrace> followed = new Simulator(Planner.plan(LabCables.of(set).set())).trace(new Flow("f",
                FlowEndpointSyntax.parseSource("onprem-1/default/app"), FlowEndpointSyntax.parseTarget("cloud/default/app:8080"),
                Protocol.TCP, Optional.empty())).paths();
        ProbedDeployment lab = new ProbedDeployment(set, ProcessCommandRunner.here(), new LabStateFile(state), Path.of("default-libreswan.yaml"));

        CableSecrecy secrecy = lab.secrecy(followed);

        assertThat(secrecy).isInstanceOf(CableSecrecy.NotShown.class);
        assertThat(((CableSecrecy.NotShown) secrecy).why()).startsWith("the lab substitutes Libreswan")
                .contains("cloud and onprem-1").contains("VXLAN");
    }
}
