package io.periscope.lab.layout;

import io.periscope.plan.HostId;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The names a lab gives its namespaces, derived from the topology's name so that two labs of
 * different topologies coexist on one machine and a lab can be found again by {@code down}:
 * {@code psc-<hash>-<cluster>-<node>}, {@code psc-<hash>-<cluster>-<namespace>-<pod>} and
 * {@code psc-<hash>-sw-<segment>} for the namespaces holding the bridges. The hash is six hex
 * digits of the topology name's SHA-256.
 */
public record LabNames(String topologyName, String hash) {

    /** Long enough to read, short enough for {@code ip netns list} to stay tidy. */
    public static final int MAX_NAMESPACE_NAME = 48;

    public static LabNames of(String topologyName) {
        return new LabNames(topologyName, digest(topologyName).substring(0, 6));
    }

    /** Every namespace of this lab starts with this. */
    public String prefix() {
        return "psc-" + hash + "-";
    }

    public String host(HostId host) {
        String base = host.namespace()
                .map(ns -> host.cluster() + "-" + ns + "-" + host.name())
                .orElse(host.cluster() + "-" + host.name());
        return fit(prefix() + sanitize(base), host.toString());
    }

    public String switchFor(String segment) {
        return fit(prefix() + "sw-" + sanitize(segment), "segment " + segment);
    }

    /**
     * A name that is too long keeps its readable start and ends with a hash of what it names, so it
     * stays unique and the same from one run to the next.
     */
    static String fit(String name, String identity) {
        if (name.length() <= MAX_NAMESPACE_NAME) {
            return name;
        }
        String tag = "-" + digest(identity).substring(0, 6);
        return name.substring(0, MAX_NAMESPACE_NAME - tag.length()) + tag;
    }

    /** Namespace names become file names under /var/run/netns: keep to letters, digits, '.', '_' and '-'. */
    static String sanitize(String text) {
        return text.replaceAll("[^A-Za-z0-9._-]", "-");
    }

    static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** Names distinct hosts to distinct namespaces even where sanitising made two names equal. */
    public String unique(String name, String identity, java.util.Set<String> taken) {
        if (!taken.contains(name)) {
            return name;
        }
        String tag = "-" + digest(identity).substring(0, 6);
        String base = name.length() + tag.length() > MAX_NAMESPACE_NAME ? name.substring(0, MAX_NAMESPACE_NAME - tag.length()) : name;
        return base + tag;
    }

    /** The longest name the kernel accepts for an interface (IFNAMSIZ - 1). */
    public static final int MAX_INTERFACE_NAME = 15;

    /** An interface name of at most 15 characters, unique among {@code taken}. */
    public static String interfaceName(String wanted, java.util.Set<String> taken) {
        String base = sanitize(wanted);
        String name = base.length() > MAX_INTERFACE_NAME ? base.substring(0, MAX_INTERFACE_NAME) : base;
        for (int i = 1; taken.contains(name); i++) {
            String suffix = "-" + i;
            name = (base.length() + suffix.length() > MAX_INTERFACE_NAME
                    ? base.substring(0, MAX_INTERFACE_NAME - suffix.length()) : base) + suffix;
        }
        taken.add(name);
        return name;
    }
}
