package io.periscope.plan.ovn;

import java.util.ArrayList;
import java.util.List;

/**
 * The nodes' {@code br-submariner} of an OVN topology as the {@code ovs-vsctl} and {@code ip}
 * commands that build it: the bridge, its internal port {@code ovn-k8s-sub0} with its address, and
 * the bridge mapping that ties it to the localnet port of {@code submariner_gateway}.
 */
public final class BridgeSyntax {

    private BridgeSyntax() {
    }

    /** One line per node, prefixed with {@code cluster/node:}. */
    public static List<String> commands(OvnTopology topology) {
        List<String> lines = new ArrayList<>();
        for (OvsBridge bridge : topology.bridges()) {
            lines.add(topology.cluster() + "/" + bridge.node() + ": ovs-vsctl add-br " + bridge.bridge() + " -- add-port " + bridge.bridge() + " "
                    + bridge.internalPort() + " -- set interface " + bridge.internalPort() + " type=internal"
                    + " -- set open . external_ids:ovn-bridge-mappings=" + bridge.logicalSwitch() + ":" + bridge.bridge()
                    + "; ip addr add " + bridge.address() + "/" + bridge.prefixLength() + " dev " + bridge.internalPort());
        }
        return lines;
    }
}
