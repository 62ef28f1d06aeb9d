package io.periscope.dns;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.dns.TcpDnsQueryDecoder;
import io.netty.handler.codec.dns.TcpDnsResponseEncoder;
import io.netty.handler.timeout.IdleStateHandler;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A DNS server for {@code clusterset.local}, over UDP and TCP on the same address and port. Each
 * cluster runs one; it answers that cluster's pods from a {@link ClustersetZone}.
 */
public final class DnsServer implements AutoCloseable {

    /** RFC 7766 asks servers to close idle TCP connections after a few seconds, so clients cannot hold them all. */
    private static final int TCP_IDLE_SECONDS = 10;
    private static final int TCP_MAX_MESSAGE = 65535;

    private final EventLoopGroup group;
    private final Channel udp;
    private final Channel tcp;
    private final Counters counters;

    /** How many queries were answered, answered with FORMERR before decoding, and dropped unanswered. */
    public record Counters(LongAdder answered, LongAdder formatErrors, LongAdder dropped) {
        static Counters zero() {
            return new Counters(new LongAdder(), new LongAdder(), new LongAdder());
        }
    }

    private DnsServer(EventLoopGroup group, Channel udp, Channel tcp, Counters counters) {
        this.group = group;
        this.udp = udp;
        this.tcp = tcp;
        this.counters = counters;
    }

    /** How often a server asked for port 0 tries another port when TCP cannot have UDP's. */
    private static final int EPHEMERAL_PORT_ATTEMPTS = 20;

    /**
     * Binds UDP and TCP on {@code address}; port 0 takes an ephemeral port, the same for both.
     *
     * @param threads event loop threads (UDP is served by one of them; TCP connections spread over all)
     */
    public static DnsServer start(InetSocketAddress address, ClustersetZone zone, int threads) throws IOException, InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        Counters counters = Counters.zero();
        QueryHandler handler = new QueryHandler(new QueryResponder(zone), counters.answered());
        try {
            // Port 0: the UDP socket takes an ephemeral port and TCP must have the same number, which a
            // TCP socket of another process may already hold; then both are tried again on a new port.
            int attempts = address.getPort() == 0 ? EPHEMERAL_PORT_ATTEMPTS : 1;
            for (int attempt = 1; ; attempt++) {
                Channel udp = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                        .option(ChannelOption.SO_RCVBUF, 4 << 20)
                        .handler(new ChannelInitializer<NioDatagramChannel>() {
                            @Override
                            protected void initChannel(NioDatagramChannel ch) {
                                ch.pipeline().addLast(new MalformedQueryDecoder(counters.formatErrors(), counters.dropped()),
                                        new TruncatingResponseEncoder(), handler);
                            }
                        }).bind(address).sync().channel();
                InetSocketAddress bound = (InetSocketAddress) udp.localAddress();
                Channel tcp;
                try {
                    tcp = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                            .childHandler(new ChannelInitializer<SocketChannel>() {
                                @Override
                                protected void initChannel(SocketChannel ch) {
                                    ch.pipeline().addLast(new IdleStateHandler(0, 0, TCP_IDLE_SECONDS, TimeUnit.SECONDS) {
                                        @Override
                                        protected void channelIdle(io.netty.channel.ChannelHandlerContext ctx,
                                                                   io.netty.handler.timeout.IdleStateEvent evt) {
                                            ctx.close();
                                        }
                                    }, new TcpDnsQueryDecoder(io.netty.handler.codec.dns.DnsRecordDecoder.DEFAULT, TCP_MAX_MESSAGE),
                                            new TcpDnsResponseEncoder(), handler);
                                }
                            }).bind(bound).sync().channel();
                } catch (Exception e) {
                    udp.close().sync();
                    if (e instanceof java.net.BindException && attempt < attempts) {
                        continue;
                    }
                    throw e;
                }
                return new DnsServer(group, udp, tcp, counters);
            }
        } catch (Exception e) {
            // netty rethrows a failed bind (BindException, an IOException) without declaring it.
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            switch (e) {
                case IOException io -> throw io;
                case InterruptedException interrupted -> throw interrupted;
                case RuntimeException runtime -> throw runtime;
                default -> throw new IOException(e);
            }
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) udp.localAddress();
    }

    public Counters counters() {
        return counters;
    }

    /** Blocks until the server is closed (by {@link #close()} from another thread, or the JVM's end). */
    public void awaitClose() throws InterruptedException {
        udp.closeFuture().sync();
    }

    @Override
    public void close() {
        udp.close().syncUninterruptibly();
        tcp.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
