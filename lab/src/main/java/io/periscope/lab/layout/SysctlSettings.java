package io.periscope.lab.layout;

import io.periscope.plan.HostId;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sysctls of a lab namespace, in two rounds. A new namespace starts with forwarding off and
 * copies {@code conf.default} into every interface created later, so the namespace-wide settings
 * are written before any interface exists; settings of one named interface can only be written
 * after it does.
 */
public final class SysctlSettings {

    private SysctlSettings() {
    }

    /**
     * IPv6 off, so that no router solicitation or neighbour discovery shows up in captures; ICMP
     * errors without rate limit; then the host's environment sysctls, among them reverse-path
     * filtering as the plan says (the cluster's {@code rpFilter}). Where the plan says nothing, the
     * kernel's own default (0), which the simulator assumes too: a new namespace would otherwise
     * copy the machine's setting.
     */
    public static Map<String, String> beforeInterfaces(HostNamespace host) {
        Map<String, String> settings = new LinkedHashMap<>(common());
        settings.put("net.ipv4.conf.default.rp_filter", "0");
        settings.put("net.ipv4.conf.all.rp_filter", "0");
        // Every packet a host cannot route gets its ICMP error (not one a second per destination):
        // the probe reads from them why a packet ended there.
        settings.put("net.ipv4.icmp_ratelimit", "0");
        host.plan().environment().sysctls().forEach((key, value) -> {
            if (!namesInterface(key)) {
                settings.put(key, value);
            }
        });
        return settings;
    }

    public static Map<String, String> afterInterfaces(HostNamespace host) {
        Map<String, String> settings = new LinkedHashMap<>();
        host.plan().environment().sysctls().forEach((key, value) -> {
            if (namesInterface(key)) {
                settings.put(key, value);
            }
        });
        return settings;
    }

    /**
     * The sysctl that gives a namespace a multipath hash seed of its own (kernel 6.11 and later).
     * Real nodes are separate machines, each hashing flows with its own random seed; namespaces of
     * one kernel share one seed, and then a worker and a gateway that hash the same 5-tuple pick the
     * same position in their nexthop lists, so of two gateways times two remote gateways only two
     * pairs would ever carry traffic.
     */
    public static final String MULTIPATH_HASH_SEED = "net.ipv4.fib_multipath_hash_seed";

    /** A seed of the node's own, derived from its namespace name so that every run hashes alike. */
    public static Map<String, String> multipathSeed(HostNamespace node) {
        int seed = (LabNames.digest(node.namespace()).hashCode() & 0x7fffffff) | 1;
        return Map.of(MULTIPATH_HASH_SEED, Integer.toString(seed));
    }

    /**
     * The seed {@code lab up} gives each node of {@code layout}, as a number: what a prediction of the
     * lab's multipath choices hashes with ({@code check --spread}, {@code lab failover}, {@code lab bench}).
     */
    public static Map<HostId, Integer> multipathSeeds(LabLayout layout) {
        Map<HostId, Integer> seeds = new HashMap<>();
        for (HostNamespace node : layout.nodes()) {
            seeds.put(node.host(), Integer.parseInt(multipathSeed(node).get(MULTIPATH_HASH_SEED)));
        }
        return seeds;
    }

    /** A switch only bridges, so no reverse-path filter ever sees its frames; off, whatever the machine's. */
    public static Map<String, String> forSwitch() {
        Map<String, String> settings = common();
        settings.put("net.ipv4.conf.default.rp_filter", "0");
        settings.put("net.ipv4.conf.all.rp_filter", "0");
        return settings;
    }

    private static Map<String, String> common() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("net.ipv6.conf.default.disable_ipv6", "1");
        settings.put("net.ipv6.conf.all.disable_ipv6", "1");
        return settings;
    }

    /** {@code net.ipv4.conf.eth0.rp_filter} names an interface; {@code conf.all} and {@code conf.default} do not. */
    static boolean namesInterface(String key) {
        String[] parts = key.split("\\.");
        return parts.length >= 5 && parts[2].equals("conf") && !parts[3].equals("all") && !parts[3].equals("default");
    }
}
