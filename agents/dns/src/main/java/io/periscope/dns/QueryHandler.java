package io.periscope.dns;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DefaultDnsResponse;
import io.netty.handler.codec.dns.DnsQuery;

import java.util.concurrent.atomic.LongAdder;

/** Answers decoded queries on either transport; stateless apart from counters, so one instance serves every channel. */
@ChannelHandler.Sharable
final class QueryHandler extends SimpleChannelInboundHandler<DnsQuery> {

    private final QueryResponder responder;
    private final LongAdder answered;

    QueryHandler(QueryResponder responder, LongAdder answered) {
        this.responder = responder;
        this.answered = answered;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DnsQuery query) {
        answered.increment();
        if (query instanceof DatagramDnsQuery datagram) {
            TruncatingResponseEncoder.SizedResponse response =
                    new TruncatingResponseEncoder.SizedResponse(datagram.recipient(), datagram.sender(), query.id());
            response.limit(responder.respond(query, response));
            ctx.write(response);
        } else {
            DefaultDnsResponse response = new DefaultDnsResponse(query.id());
            responder.respond(query, response);
            ctx.write(response);
        }
    }

    /** One flush per batch of reads (netty reads up to 16 datagrams per wake-up), not one per response. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A TCP stream that cannot be decoded has lost its framing: close it (RFC 7766 lets the client retry).
        // A UDP channel must stay open whatever one packet did.
        if (!(ctx.channel() instanceof io.netty.channel.socket.DatagramChannel)) {
            ctx.close();
        }
    }
}
