package io.periscope.plan.dns;

import io.periscope.model.net.Ipv4Address;

/** A resource record of an answer, in the class IN; owner names and targets are absolute, without the final dot. */
public sealed interface DnsRecord {

    int A = 1;
    int NS = 2;
    int SOA = 6;
    int AAAA = 28;
    int SRV = 33;
    int ANY = 255;

    String name();

    int ttl();

    int type();

    /** The record as one line of a zone file (RFC 1035 master file syntax). */
    String zoneLine();

    /** An A record. */
    record Address(String name, int ttl, Ipv4Address address) implements DnsRecord {
        @Override
        public int type() {
            return A;
        }

        @Override
        public String zoneLine() {
            return name + ". " + ttl + " IN A " + address;
        }
    }

    /** An SRV record (RFC 2782): where a named port of a service is served. */
    record Location(String name, int ttl, int priority, int weight, int port, String target) implements DnsRecord {
        @Override
        public int type() {
            return SRV;
        }

        @Override
        public String zoneLine() {
            return name + ". " + ttl + " IN SRV " + priority + " " + weight + " " + port + " " + target + ".";
        }
    }

    /**
     * The zone's SOA record. It goes in the authority section of negative answers so that resolvers
     * cache them no longer than {@code minimum} (RFC 2308), which is the same short TTL as positive answers.
     */
    record Authority(String name, int ttl, String primary, String mailbox, long serial, int refresh, int retry, int expire,
                     int minimum) implements DnsRecord {
        @Override
        public int type() {
            return SOA;
        }

        @Override
        public String zoneLine() {
            return name + ". " + ttl + " IN SOA " + primary + ". " + mailbox + ". " + serial + " " + refresh + " " + retry + " "
                    + expire + " " + minimum;
        }
    }
}
