package io.periscope.dns;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsRecordType;
import io.periscope.plan.dns.DnsRecord;

import java.nio.charset.StandardCharsets;

/** The resolver's records in wire form (RFC 1035 section 3.3), as netty raw records. */
final class WireRecords {

    private WireRecords() {
    }

    static DefaultDnsRawRecord of(DnsRecord record) {
        ByteBuf data = Unpooled.buffer(32);
        switch (record) {
            case DnsRecord.Address a -> data.writeInt(a.address().bits());
            case DnsRecord.Location l -> {
                data.writeShort(l.priority()).writeShort(l.weight()).writeShort(l.port());
                // RFC 2782: the target is never compressed.
                writeName(data, l.target());
            }
            case DnsRecord.Authority s -> {
                writeName(data, s.primary());
                writeName(data, s.mailbox());
                data.writeInt((int) s.serial()).writeInt(s.refresh()).writeInt(s.retry()).writeInt(s.expire()).writeInt(s.minimum());
            }
        }
        return new DefaultDnsRawRecord(record.name() + ".", DnsRecordType.valueOf(record.type()), record.ttl(), data);
    }

    /** A name as length-prefixed labels ending with the root label. */
    static void writeName(ByteBuf out, String name) {
        if (!name.isEmpty()) {
            for (String label : name.split("\\.")) {
                byte[] bytes = label.getBytes(StandardCharsets.US_ASCII);
                out.writeByte(bytes.length).writeBytes(bytes);
            }
        }
        out.writeByte(0);
    }
}
