package io.periscope.model.topology;

/**
 * Which headers the kernel hashes to pick one path of a multipath route or nexthop group
 * ({@code net.ipv4.fib_multipath_hash_policy}): which of a cluster's active gateways a flow leaves
 * by, and which remote gateway it goes to. Periscope programs it on every node of the cluster.
 */
public enum MultipathHashPolicy {
    /** Policy 0, the kernel's own default: source and destination address only. */
    L3("l3", 0, 0),
    /** Policy 1: addresses, protocol and ports, so one pod pair's connections spread (seed 004's choice). */
    L4("l4", 1, 0),
    /** Policy 2: the inner packet's addresses when the packet is encapsulated, else the outer ones. */
    L3_INNER("l3-inner", 2, 0),
    /**
     * Policy 3 with {@code fib_multipath_hash_fields} selecting the outer and the inner five-tuple
     * (outer source and destination address, protocol, ports: 0x0037; inner ones: 0x0dc0).
     */
    L4_INNER("l4-inner", 3, 0x0037 | 0x0dc0);

    /** What Periscope programs when a cluster says nothing: L4, so several gateways share one pod pair's flows. */
    public static final MultipathHashPolicy DEFAULT = L4;

    private final String yamlName;
    private final int kernelValue;
    private final int hashFields;

    MultipathHashPolicy(String yamlName, int kernelValue, int hashFields) {
        this.yamlName = yamlName;
        this.kernelValue = kernelValue;
        this.hashFields = hashFields;
    }

    public String yamlName() {
        return yamlName;
    }

    /** The value of {@code net.ipv4.fib_multipath_hash_policy}. */
    public int kernelValue() {
        return kernelValue;
    }

    /** The value of {@code net.ipv4.fib_multipath_hash_fields}, which only policy 3 reads; 0 for the others. */
    public int hashFields() {
        return hashFields;
    }

    /** Whether the ports take part in the hash of a packet that is not encapsulated. */
    public boolean hashesPorts() {
        return this == L4 || this == L4_INNER;
    }
}
