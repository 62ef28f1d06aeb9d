package io.periscope.dns;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * netty's UDP query decoder, made safe for whatever arrives: a packet it cannot decode (truncated
 * sections, compression loops, bad label lengths, counts beyond the packet) gets FORMERR when it has
 * a whole header and claims to be a query, and is dropped otherwise. Responses are never answered, so
 * that two servers cannot be made to bounce packets at each other.
 */
final class MalformedQueryDecoder extends DatagramDnsQueryDecoder {

    static final int HEADER_LENGTH = 12;
    private static final int QR = 0x8000;
    private static final int OPCODE_AND_RD = 0x7900;
    private static final int FORMERR = 1;

    private final LongAdder formatErrors;
    private final LongAdder dropped;

    MalformedQueryDecoder(LongAdder formatErrors, LongAdder dropped) {
        this.formatErrors = formatErrors;
        this.dropped = dropped;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, DatagramPacket packet, List<Object> out) {
        ByteBuf in = packet.content();
        if (in.readableBytes() < HEADER_LENGTH || (in.getUnsignedShort(in.readerIndex() + 2) & QR) != 0) {
            dropped.increment();
            return;
        }
        int start = in.readerIndex();
        try {
            super.decode(ctx, packet, out);
        } catch (Exception | AssertionError malformed) {
            for (Object decoded : out) {
                io.netty.util.ReferenceCountUtil.release(decoded);
            }
            out.clear();
            formatErrors.increment();
            int id = in.getUnsignedShort(start);
            int flags = QR | (in.getUnsignedShort(start + 2) & OPCODE_AND_RD) | FORMERR;
            ByteBuf reply = ctx.alloc().buffer(HEADER_LENGTH).writeShort(id).writeShort(flags).writeZero(8);
            ctx.writeAndFlush(new DatagramPacket(reply, packet.sender(), packet.recipient()));
        }
    }
}
