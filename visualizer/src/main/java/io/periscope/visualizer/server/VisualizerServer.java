package io.periscope.visualizer.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.periscope.visualizer.lab.Lab;
import io.periscope.visualizer.session.TopologyWatch;
import io.periscope.visualizer.session.Workspace;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@code periscope serve}: the page, its JSON API and its event stream over HTTP/1.1 on Netty's NIO
 * transport, for one topology file that it watches. Requests are answered off the event loop (a
 * trace of a large set takes a while), on two worker threads.
 */
public final class VisualizerServer implements AutoCloseable {

    /** The largest request body accepted (an API request is a few names); larger gets 413. */
    public static final int MAX_BODY_BYTES = 64 * 1024;

    private final Workspace workspace;
    private final EventLoopGroup loop;
    private final java.util.concurrent.ExecutorService workers;
    private final EventStream events = new EventStream();
    private final TopologyWatch watch;
    private final Channel channel;

    private VisualizerServer(Workspace workspace, InetAddress bind, int port, Lab lab) throws InterruptedException {
        this.workspace = workspace;
        this.loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.workers = java.util.concurrent.Executors.newFixedThreadPool(2, r -> {
            Thread thread = new Thread(r, "periscope-serve-worker");
            thread.setDaemon(true);
            return thread;
        });
        StaticAssets assets = new StaticAssets();
        // Read before the address is printed, so the first page costs no class-path lookups.
        for (String name : java.util.List.of("index.html", "overview.js", "app.js", "app.css")) {
            assets.find(name);
        }
        Set<String> allowedHosts = bind.isLoopbackAddress() ? loopbackNames(bind) : Set.of();
        LabRoutes labRoutes = new LabRoutes(workspace, lab);
        try {
            this.channel = new ServerBootstrap()
                    .group(loop)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(4096, 8192, 8192));
                            ch.pipeline().addLast(new HttpObjectAggregator(MAX_BODY_BYTES));
                            ch.pipeline().addLast(new RequestRouter(workspace, assets, events, allowedHosts, workers, labRoutes));
                        }
                    })
                    .bind(new InetSocketAddress(bind, port)).sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            loop.shutdownGracefully();
            workers.shutdownNow();
            throw e;
        }
        this.watch = new TopologyWatch(workspace, events::publish);
    }

    /**
     * Serves {@code file} on {@code bind}:{@code port} (port 0: a free one).
     *
     * @throws java.net.BindException (sneakily, from Netty) when the port is taken
     */
    public static VisualizerServer start(Path file, InetAddress bind, int port) throws InterruptedException {
        return start(file, bind, port, Lab.ABSENT);
    }

    /** The same, with the namespace lab the page's lab view probes (see {@link Lab}). */
    public static VisualizerServer start(Path file, InetAddress bind, int port, Lab lab) throws InterruptedException {
        // The page answers while the file's first plan, layout and traces are made; its document request waits for them.
        return new VisualizerServer(Workspace.loadingInBackground(file), bind, port, lab);
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** The page's address, as printed for the user. */
    public String url() {
        InetSocketAddress address = address();
        String host = address.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort() + "/";
    }

    public Workspace workspace() {
        return workspace;
    }

    /** Blocks until the server is closed. */
    public void awaitClose() throws InterruptedException {
        channel.closeFuture().sync();
    }

    private static Set<String> loopbackNames(InetAddress bind) {
        Set<String> names = new LinkedHashSet<>();
        names.add("localhost");
        names.add("127.0.0.1");
        names.add("[::1]");
        names.add(bind.getHostAddress());
        return names;
    }

    @Override
    public void close() {
        watch.close();
        events.close();
        channel.close().syncUninterruptibly();
        loop.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownNow();
    }
}
