package io.periscope.features.backend;

/**
 * Where a backend's answer to a step came from. The lab answers most steps from what it observes,
 * but some only from the plan it was built from (the plain interfaces, the parts of an allocation or
 * an Endpoint that no kernel holds): a scenario whose checks are all answered that way shows the model,
 * not the lab, and is reported "model only" rather than "passes". Declared from strongest to weakest.
 */
public enum Evidence {

    /** Packets sent and captured, or measured, in the lab's namespaces (probes, pings, iperf3, dig). */
    REAL_PACKETS("real packets"),

    /** State read back from the kernel: iptables-save, ipset save, ip -j, bridge fdb, sysctl, rule counters. */
    KERNEL_STATE("kernel state"),

    /** Rows read back from OVN's and Open vSwitch's own databases ({@code ovn-nbctl}, {@code ovs-vsctl}) of a cluster running on OVN. */
    OVN_DATABASES("OVN databases"),

    /** Objects in the Kubernetes API servers, written and read by Periscope's real controllers. */
    API_OBJECTS("API objects"),

    /** The planner's or the simulator's own answer: nothing observed outside the model. */
    MODEL_ONLY("model");

    private final String label;

    Evidence(String label) {
        this.label = label;
    }

    /** As the reports and docs/acceptance.md print it. */
    public String label() {
        return label;
    }

    public static Evidence fromLabel(String label) {
        for (Evidence evidence : values()) {
            if (evidence.label.equals(label)) {
                return evidence;
            }
        }
        throw new IllegalArgumentException("no evidence kind '" + label + "'");
    }
}
