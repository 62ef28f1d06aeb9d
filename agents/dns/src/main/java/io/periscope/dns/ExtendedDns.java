package io.periscope.dns;

import io.netty.handler.codec.dns.AbstractDnsOptPseudoRrRecord;

/** The OPT pseudo-record (EDNS0, RFC 6891) of a response: the UDP payload this server accepts, and an extended code. */
final class ExtendedDns extends AbstractDnsOptPseudoRrRecord {

    /** What a response over UDP may carry without fragmenting on common paths (the DNS flag day 2020 value). */
    static final int PAYLOAD_SIZE = 1232;
    /** Without EDNS0 a UDP response carries at most 512 bytes (RFC 1035). */
    static final int CLASSIC_PAYLOAD_SIZE = 512;

    ExtendedDns(int extendedRcode) {
        super(PAYLOAD_SIZE, extendedRcode, 0);
    }
}
