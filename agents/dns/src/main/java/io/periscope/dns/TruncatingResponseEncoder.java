package io.periscope.dns;

import io.netty.channel.AddressedEnvelope;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponse;
import io.netty.handler.codec.dns.DnsSection;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * Encodes UDP responses, and when one is larger than the client accepts (512 bytes, or its EDNS0
 * payload size) sends instead the header and question alone with the TC bit set, which makes the
 * client ask again over TCP (RFC 1035 section 4.2.1, RFC 7766).
 */
final class TruncatingResponseEncoder extends DatagramDnsResponseEncoder {

    /** A UDP response that knows how large it may be. */
    static final class SizedResponse extends DatagramDnsResponse {
        private int limit = ExtendedDns.CLASSIC_PAYLOAD_SIZE;

        SizedResponse(InetSocketAddress sender, InetSocketAddress recipient, int id) {
            super(sender, recipient, id);
        }

        void limit(int bytes) {
            limit = bytes;
        }
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, AddressedEnvelope<DnsResponse, InetSocketAddress> in, List<Object> out)
            throws Exception {
        super.encode(ctx, in, out);
        Object envelope = in;
        int limit = envelope instanceof SizedResponse sized ? sized.limit : ExtendedDns.CLASSIC_PAYLOAD_SIZE;
        DatagramPacket packet = (DatagramPacket) out.getLast();
        if (packet.content().readableBytes() <= limit) {
            return;
        }
        out.removeLast();
        packet.release();
        DnsResponse full = in.content();
        DatagramDnsResponse truncated = new DatagramDnsResponse(in.sender(), in.recipient(), full.id(), full.opCode(), full.code());
        truncated.setAuthoritativeAnswer(full.isAuthoritativeAnswer()).setRecursionDesired(full.isRecursionDesired())
                .setTruncated(true);
        if (full.count(DnsSection.QUESTION) > 0) {
            truncated.addRecord(DnsSection.QUESTION, full.recordAt(DnsSection.QUESTION));
        }
        for (int i = 0; i < full.count(DnsSection.ADDITIONAL); i++) {
            if (full.recordAt(DnsSection.ADDITIONAL, i).type() == DnsRecordType.OPT) {
                truncated.addRecord(DnsSection.ADDITIONAL, full.recordAt(DnsSection.ADDITIONAL, i));
            }
        }
        super.encode(ctx, envelope(truncated), out);
        truncated.release();
    }

    @SuppressWarnings("unchecked")
    private static AddressedEnvelope<DnsResponse, InetSocketAddress> envelope(DatagramDnsResponse response) {
        return (AddressedEnvelope<DnsResponse, InetSocketAddress>) (AddressedEnvelope<?, ?>) response;
    }
}
