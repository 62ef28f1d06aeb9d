package io.periscope.dataplane.ovs;

import java.util.List;
import java.util.Optional;

/**
 * One difference between a node and its bridges: the OVS ones go into one {@code ovs-vsctl}
 * transaction ({@link #vsctl}), the kernel ones run after it, once ovs-vswitchd made the devices.
 */
public sealed interface BridgeChange {

    /** The change as {@code ovs-vsctl} commands (each list one command, to be joined with {@code --}); empty for a kernel change. */
    default List<List<String>> vsctl() {
        return List.of();
    }

    /** The change as a kernel program's arguments; empty for an OVS change. */
    default Optional<List<String>> kernel() {
        return Optional.empty();
    }

    record AddBridge(String bridge, String datapathType) implements BridgeChange {
        public List<List<String>> vsctl() {
            return List.of(List.of("--may-exist", "add-br", bridge), List.of("set", "bridge", bridge, "datapath_type=" + datapathType));
        }
    }

    record SetDatapath(String bridge, String datapathType) implements BridgeChange {
        public List<List<String>> vsctl() {
            return List.of(List.of("set", "bridge", bridge, "datapath_type=" + datapathType));
        }
    }

    /** Adds the internal port, or sets its columns when it is there with others. */
    record InternalPort(String bridge, String port, Optional<String> mac, int mtu, boolean exists) implements BridgeChange {
        public List<List<String>> vsctl() {
            List<String> set = new java.util.ArrayList<>(List.of("set", "interface", port, "type=internal", "mtu_request=" + mtu));
            // ovs-vsctl reads a colon as a key separator unless the value is quoted.
            mac.ifPresent(m -> set.add("mac=\"" + m + "\""));
            return exists ? List.of(set) : List.of(List.of("--may-exist", "add-port", bridge, port), set);
        }
    }

    /** @param after empty removes the key */
    record SetMappings(List<String> before, List<String> after) implements BridgeChange {
        public List<List<String>> vsctl() {
            return after.isEmpty() ? List.of(List.of("remove", "open_vswitch", ".", "external_ids", "ovn-bridge-mappings"))
                    : List.of(List.of("set", "open_vswitch", ".", "external_ids:ovn-bridge-mappings=\"" + String.join(",", after) + "\""));
        }
    }

    record DeleteBridge(String bridge) implements BridgeChange {
        public List<List<String>> vsctl() {
            return List.of(List.of("--if-exists", "del-br", bridge));
        }
    }

    record AddAddress(String port, String cidr) implements BridgeChange {
        public Optional<List<String>> kernel() {
            return Optional.of(List.of("ip", "addr", "add", cidr, "dev", port));
        }
    }

    record RemoveAddress(String port, String cidr) implements BridgeChange {
        public Optional<List<String>> kernel() {
            return Optional.of(List.of("ip", "addr", "del", cidr, "dev", port));
        }
    }

    record LinkUp(String port) implements BridgeChange {
        public Optional<List<String>> kernel() {
            return Optional.of(List.of("ip", "link", "set", port, "up"));
        }
    }

    /**
     * OVS's userspace datapath does not fill in checksums a tap device left to "hardware": with
     * offload on, TCP through the port would be dropped by the receiver.
     */
    record TxChecksumsOff(String port) implements BridgeChange {
        public Optional<List<String>> kernel() {
            return Optional.of(List.of("ethtool", "-K", port, "tx", "off"));
        }
    }

    /** Undo only: a port added to a bridge that was there before. */
    record DeletePort(String bridge, String port) implements BridgeChange {
        public List<List<String>> vsctl() {
            return List.of(List.of("--if-exists", "del-port", bridge, port));
        }
    }

    /** Undo only. */
    record LinkDown(String port) implements BridgeChange {
        public Optional<List<String>> kernel() {
            return Optional.of(List.of("ip", "link", "set", port, "down"));
        }
    }

    /** Undo only. */
    record TxChecksumsOn(String port) implements BridgeChange {
        public Optional<List<String>> kernel() {
            return Optional.of(List.of("ethtool", "-K", port, "tx", "on"));
        }
    }
}
