package io.periscope.model.net;

/**
 * An IP address. Only IPv4 exists today; the sealed family is where IPv6 will join, so code that
 * switches over addresses is told by the compiler when that happens.
 */
public sealed interface IpAddress extends Comparable<IpAddress> permits Ipv4Address {

    /** Parses a textual address, for now only dotted-quad IPv4. */
    static IpAddress parse(String text) {
        return Ipv4Address.parse(text);
    }
}
