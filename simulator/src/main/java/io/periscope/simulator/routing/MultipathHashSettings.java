package io.periscope.simulator.routing;

import java.util.Map;

/**
 * A host's multipath hash settings as its plan writes them: {@code net.ipv4.fib_multipath_hash_policy}
 * (0 addresses, 1 addresses, protocol and ports, 2 the inner packet's addresses when there is one, 3
 * the fields {@code net.ipv4.fib_multipath_hash_fields} selects) and those fields. A key the plan does
 * not set keeps the kernel's default: policy 0, fields 0x0007 (source and destination address and
 * protocol). The simulator reads them from the plan, not from the topology file, so it keeps
 * simulating what the agents program and nothing else.
 */
public record MultipathHashSettings(int policy, int fields) {

    public static final String POLICY_KEY = "net.ipv4.fib_multipath_hash_policy";
    public static final String FIELDS_KEY = "net.ipv4.fib_multipath_hash_fields";

    /** {@code FIB_MULTIPATH_HASH_FIELD_*} of include/net/ip_fib.h: the outer header's fields. */
    public static final int SRC_IP = 0x0001;
    public static final int DST_IP = 0x0002;
    public static final int IP_PROTO = 0x0004;
    public static final int FLOWLABEL = 0x0008;
    public static final int SRC_PORT = 0x0010;
    public static final int DST_PORT = 0x0020;
    /** Every outer field (with IPv6's flow label, which an IPv4 packet does not have). */
    public static final int OUTER_MASK = 0x003f;
    /** The kernel's {@code FIB_MULTIPATH_HASH_FIELD_DEFAULT_MASK}. */
    public static final int DEFAULT_FIELDS = SRC_IP | DST_IP | IP_PROTO;

    /** What a namespace nobody configured hashes by. */
    public static final MultipathHashSettings KERNEL_DEFAULT = new MultipathHashSettings(0, DEFAULT_FIELDS);
    /** Policy 1, what Periscope programs unless a cluster says otherwise. */
    public static final MultipathHashSettings L4 = new MultipathHashSettings(1, DEFAULT_FIELDS);

    public MultipathHashSettings {
        if (policy < 0 || policy > 3) {
            // The kernel's sysctl takes 0 to 3 only (proc_dointvec_minmax), so a plan with another value cannot be programmed.
            throw new IllegalArgumentException(POLICY_KEY + " must be 0, 1, 2 or 3, not " + policy);
        }
    }

    /** The settings {@code sysctls} (a host's effective plan) give, the kernel's defaults for what it leaves out. */
    public static MultipathHashSettings of(Map<String, String> sysctls) {
        return new MultipathHashSettings(parse(sysctls.get(POLICY_KEY), 0, POLICY_KEY),
                parse(sysctls.get(FIELDS_KEY), DEFAULT_FIELDS, FIELDS_KEY));
    }

    private static int parse(String value, int unset, String key) {
        if (value == null) {
            return unset;
        }
        String text = value.trim();
        try {
            return text.startsWith("0x") || text.startsWith("0X") ? Integer.parseInt(text.substring(2), 16) : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, not '" + value + "'");
        }
    }

    /**
     * Whether the fields hashed for a packet without an encapsulation the kernel's flow dissector
     * follows (GRE, IP in IP; not VXLAN, WireGuard or ESP in UDP, which are UDP to it) are the
     * addresses alone: then every connection between the same two addresses takes the same path.
     */
    public boolean addressesOnly() {
        return switch (policy) {
            case 0, 2 -> true;
            case 1 -> false;
            default -> (fields & (IP_PROTO | SRC_PORT | DST_PORT)) == 0;
        };
    }

    /** The name the topology file gives the policy ({@code l3}, {@code l4}, {@code l3-inner}, {@code l4-inner}), else the numbers. */
    public String text() {
        return switch (policy) {
            case 0 -> "l3";
            case 1 -> "l4";
            case 2 -> "l3-inner";
            default -> fields == 0x0df7 ? "l4-inner" : "policy 3 fields 0x" + Integer.toHexString(fields);
        };
    }
}
