package io.periscope.model.topology;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * A node's default interface as the topology file states it: the device's name and its MTU. Plans
 * name the node's underlay device after it and derive the tunnels' MTUs from it, as upstream's route
 * agent does from the interface that holds the default route. Unstated, the lab's {@value #LAB_INTERFACE}
 * with Ethernet's {@value #DEFAULT_MTU}; on a real node the Kubernetes agent discovers both.
 * {@code uplink} is what the node's access link does to packets (rate, delay, loss): in the lab,
 * every device the node has on a switch, both ways.
 */
public record NodeLink(Optional<String> interfaceName, OptionalInt mtu, LinkProperties uplink) {

    /** The name the lab gives a node's interface on its cluster's network when the file names none. */
    public static final String LAB_INTERFACE = "eth0";
    public static final int DEFAULT_MTU = 1500;
    /** The smallest MTU a node may state: IPv4's minimum datagram every host must accept (RFC 791). */
    public static final int MIN_MTU = 576;
    /** The largest: the most a veth (and Linux's IPv4 total length) carries. */
    public static final int MAX_MTU = 65535;
    /** Linux's IFNAMSIZ less the terminating NUL. */
    public static final int MAX_NAME_LENGTH = 15;

    public static final NodeLink UNSTATED = new NodeLink(Optional.empty(), OptionalInt.empty());

    public NodeLink {
        java.util.Objects.requireNonNull(uplink, "uplink");
    }

    /** A link whose uplink is unshaped. */
    public NodeLink(Optional<String> interfaceName, OptionalInt mtu) {
        this(interfaceName, mtu, LinkProperties.NONE);
    }

    public static NodeLink of(String interfaceName, int mtu) {
        return new NodeLink(Optional.of(interfaceName), OptionalInt.of(mtu));
    }

    public NodeLink withUplink(LinkProperties properties) {
        return new NodeLink(interfaceName, mtu, properties);
    }

    /** The device plans use for the node's own address. */
    public String device() {
        return interfaceName.orElse(LAB_INTERFACE);
    }

    /** The MTU of that device (and, in the lab, of a gateway's second device towards the WAN). */
    public int effectiveMtu() {
        return mtu.orElse(DEFAULT_MTU);
    }

    /**
     * Why a device name is not one Linux accepts, or empty when it is: at most 15 bytes, no
     * {@code /}, {@code :} or white space, not {@code .} or {@code ..} (the kernel's
     * {@code dev_valid_name}, plus {@code :}, which ip takes for an alias).
     */
    public static Optional<String> nameProblem(String name) {
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            return Optional.of("has " + name.length() + " characters; Linux takes 1 to " + MAX_NAME_LENGTH);
        }
        if (name.equals(".") || name.equals("..")) {
            return Optional.of("is '" + name + "', which Linux refuses as a device name");
        }
        for (char c : name.toCharArray()) {
            if (c == '/' || c == ':' || Character.isWhitespace(c) || c < 0x21 || c > 0x7e) {
                return Optional.of("contains '" + c + "', which a Linux device name cannot hold");
            }
        }
        return Optional.empty();
    }
}
