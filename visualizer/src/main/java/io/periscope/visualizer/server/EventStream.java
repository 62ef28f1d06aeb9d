package io.periscope.visualizer.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.nio.charset.StandardCharsets;

/**
 * Server-sent events: each open page holds one {@code GET /events} response open, and hears the
 * revision number whenever the file changes (the page then fetches the new document). One way,
 * text only, reconnecting by itself in the browser: all a redraw needs, without WebSocket framing.
 */
final class EventStream {

    private final ChannelGroup listeners = new DefaultChannelGroup("periscope-events", GlobalEventExecutor.INSTANCE);

    void open(Channel channel, long revision) {
        DefaultHttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
        response.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        channel.write(response);
        channel.writeAndFlush(event(revision));
        listeners.add(channel);
    }

    void publish(long revision) {
        listeners.writeAndFlush(event(revision));
    }

    private static DefaultHttpContent event(long revision) {
        return new DefaultHttpContent(Unpooled.copiedBuffer("event: revision\ndata: " + revision + "\n\n", StandardCharsets.UTF_8));
    }

    void close() {
        listeners.close();
    }
}
