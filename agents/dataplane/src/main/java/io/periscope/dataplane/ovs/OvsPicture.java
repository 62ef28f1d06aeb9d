package io.periscope.dataplane.ovs;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a node's Open vSwitch and kernel hold of the bridges an agent looks after: the bridges (all
 * of them, so that the integration bridge's datapath type is known), the bridge mappings in order,
 * and the kernel side of the internal ports read.
 *
 * @param integrationBridge the bridge ovn-controller uses ({@code external_ids:ovn-bridge}, {@code br-int} by default)
 * @param mappings          {@code external_ids:ovn-bridge-mappings} split at the commas, in order
 */
public record OvsPicture(String integrationBridge, Map<String, Bridge> bridges, List<String> mappings, Map<String, PortKernel> kernel) {

    public OvsPicture {
        bridges = Map.copyOf(bridges);
        mappings = List.copyOf(mappings);
        kernel = Map.copyOf(kernel);
    }

    /** The datapath type new bridges must have: the integration bridge's, when there is one. */
    public Optional<String> integrationDatapath() {
        return Optional.ofNullable(bridges.get(integrationBridge)).map(Bridge::datapathType);
    }

    /**
     * @param datapathType {@code system} when the column is empty (OVS's default)
     * @param interfaces   the bridge's interfaces by name
     */
    public record Bridge(String name, String datapathType, Map<String, Port> interfaces) {
        public Bridge {
            interfaces = Map.copyOf(interfaces);
        }
    }

    /** @param mac empty when the column is unset */
    public record Port(String name, String type, Optional<String> mac, OptionalInt mtuRequest) {
    }

    /**
     * An internal port as the kernel shows it.
     *
     * @param cidrs       its IPv4 addresses, {@code A.B.C.D/L}
     * @param txChecksums whether the device leaves transmit checksums to "hardware" (empty when not read)
     */
    public record PortKernel(List<String> cidrs, boolean up, Optional<Boolean> txChecksums) {
        public PortKernel {
            cidrs = List.copyOf(cidrs);
        }
    }
}
