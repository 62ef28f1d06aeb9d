package io.periscope.plan;

import io.periscope.model.load.TopologyLoader;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real gateway has one default interface where the lab gives it two: its agent renames the lab's
 * wan0 in the layer it programs. Over the shipped examples' gateways (VXLAN, WireGuard and Libreswan
 * cables, multiple active gateways), nothing in the renamed layer still says wan0, and nothing else
 * changed.
 */
class DeviceRenameLeavesNoTraceOfTheOldName {

    @Test
    void everyGatewayLayerOfTheExamplesLosesWan0AndKeepsTheRest() throws Exception {
        int renamed = 0;
        for (String example : new String[]{"mag-globalnet.yaml", "on-premise-vxlan-cloud-wireguard.yaml", "client-server.yaml",
                "mag-3-gateways.yaml"}) {
            ClusterSetPlan plan = Planner.plan(TopologyLoader.load(Path.of("..", "examples", example)));
            for (HostPlan host : plan.hosts().values()) {
                DataplanePlan layer = host.submariner();
                DataplanePlan bound = DeviceRename.rename(layer, "wan0", "ens5");
                assertThat(bound.toString()).as(example + " " + host.id()).doesNotContain("wan0");
                if (layer.toString().contains("wan0")) {
                    renamed++;
                    assertThat(bound).isNotEqualTo(layer);
                    assertThat(DeviceRename.rename(bound, "ens5", "wan0")).as("renaming back gives the layer").isEqualTo(layer);
                } else {
                    assertThat(bound).isEqualTo(layer);
                }
            }
        }
        // The Libreswan gateways of client-server.yaml, whose table 100 routes leave by wan0; the VXLAN
        // devices, like upstream's, are bound to no device, so the other gateways name it nowhere.
        assertThat(renamed).as("gateway layers that named wan0").isEqualTo(3);
    }
}
