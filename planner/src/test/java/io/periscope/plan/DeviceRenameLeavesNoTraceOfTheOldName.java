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
                // Every active gateway routes the remote subnets in table 150 out of its default
                // interface, wan0 (and a Libreswan gateway its table 100 too), except one whose cables
                // are all WireGuard: its table 150 goes through WireGuard's device, as upstream's does.
                // No other host names it.
                boolean wireGuardOnly = host.id().toString().equals("cloud/cloud-gw");
                assertThat(layer.toString().contains("wan0")).as(example + " " + host.id() + " names wan0")
                        .isEqualTo(host.role() == HostPlan.HostRole.GATEWAY && !wireGuardOnly);
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
        // The active gateways of the four examples; the VXLAN devices, like upstream's, are bound to no
        // device, so the rename touches routes alone.
        assertThat(renamed).as("gateway layers that named wan0").isEqualTo(13);
    }
}
