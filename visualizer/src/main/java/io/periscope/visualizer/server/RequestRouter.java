package io.periscope.visualizer.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.periscope.visualizer.session.Workspace;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * Answers one request: the page ({@code /}, {@code /assets/NAME}), the JSON API ({@code /api/...}),
 * the event stream ({@code /events}). Every refusal is a status and a one-line reason; none closes
 * the server, and none shows a stack trace. A failure of the server itself is a 500 with its message.
 */
final class RequestRouter extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final String JSON = "application/json; charset=utf-8";
    private static final String TEXT = "text/plain; charset=utf-8";

    private final Workspace workspace;
    private final StaticAssets assets;
    private final EventStream events;
    private final Set<String> allowedHosts;
    private final java.util.concurrent.Executor workers;
    private final LabRoutes labRoutes;

    /**
     * @param workers      where requests are answered: off the event loop, since a trace of a large set takes a while
     * @param allowedHosts the Host header values accepted (empty: any), against DNS rebinding of a loopback server */
    RequestRouter(Workspace workspace, StaticAssets assets, EventStream events, Set<String> allowedHosts,
                  java.util.concurrent.Executor workers, LabRoutes labRoutes) {
        this.workers = workers;
        this.labRoutes = labRoutes;
        this.workspace = workspace;
        this.assets = assets;
        this.events = events;
        this.allowedHosts = allowedHosts;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, FullHttpRequest request) {
        request.retain();
        try {
            workers.execute(() -> {
                try {
                    answer(context, request);
                } finally {
                    request.release();
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            request.release(); // shutting down: the connection closes with the server
        }
    }

    private void answer(ChannelHandlerContext context, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            send(context, request, HttpResponseStatus.BAD_REQUEST, TEXT, "malformed HTTP request\n", false);
            return;
        }
        if (!allowedHosts.isEmpty() && !allowedHosts.contains(hostName(request.headers().get(HttpHeaderNames.HOST)))) {
            send(context, request, HttpResponseStatus.FORBIDDEN, TEXT,
                    "this server answers only to " + String.join(", ", allowedHosts) + " (it listens on loopback)\n", true);
            return;
        }
        QueryStringDecoder query = new QueryStringDecoder(request.uri());
        String path = query.rawPath();
        List<String> fail = query.parameters().getOrDefault("fail", List.of());
        try {
            route(context, request, path, fail);
        } catch (ApiRequest.BadRequest | IllegalArgumentException e) {
            send(context, request, HttpResponseStatus.BAD_REQUEST, JSON, error(e.getMessage()), true);
        } catch (IllegalStateException e) {
            send(context, request, HttpResponseStatus.CONFLICT, JSON, error(e.getMessage()), true);
        } catch (RuntimeException | Error e) {
            // Anything else is the server's fault, an Error too (a StackOverflowError of a deep trace, an
            // AssertionError): unanswered, the page would wait for its timeout and show nothing.
            send(context, request, HttpResponseStatus.INTERNAL_SERVER_ERROR, JSON, error(serverError(e)), true);
            if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
                throw (Error) e; // out of memory or broken: answered, but not swallowed
            }
        }
    }

    private void route(ChannelHandlerContext context, FullHttpRequest request, String path, List<String> fail) {
        HttpMethod method = request.method();
        switch (path) {
            case "/", "/index.html" -> {
                requireMethod(method, HttpMethod.GET);
                asset(context, request, "index.html");
            }
            case "/events" -> {
                requireMethod(method, HttpMethod.GET);
                events.open(context.channel(), workspace.state().revision());
            }
            case "/api/document" -> {
                requireMethod(method, HttpMethod.GET);
                send(context, request, HttpResponseStatus.OK, JSON, workspace.document(fail), true);
            }
            case "/api/reachability" -> {
                requireMethod(method, HttpMethod.GET);
                send(context, request, HttpResponseStatus.OK, JSON, workspace.reachability(fail), true);
            }
            case "/api/trace" -> {
                requireMethod(method, HttpMethod.POST);
                ApiRequest body = ApiRequest.parse(request.content().toString(StandardCharsets.UTF_8), true);
                send(context, request, HttpResponseStatus.OK, JSON, workspace.trace(body.from(), body.to(), body.protocol(), body.fail()), true);
            }
            case "/api/lab" -> {
                requireMethod(method, HttpMethod.GET);
                send(context, request, labRoutes.status());
            }
            case "/api/lab/probe" -> {
                requireMethod(method, HttpMethod.POST);
                send(context, request, labRoutes.probe(request.content().toString(StandardCharsets.UTF_8)));
            }
            case "/api/whatif" -> {
                requireMethod(method, HttpMethod.POST);
                ApiRequest body = ApiRequest.parse(request.content().toString(StandardCharsets.UTF_8), false);
                send(context, request, HttpResponseStatus.OK, JSON, workspace.whatIf(body.fail()), true);
            }
            default -> {
                if (path.startsWith("/assets/")) {
                    requireMethod(method, HttpMethod.GET);
                    asset(context, request, path.substring("/assets/".length()));
                } else {
                    send(context, request, HttpResponseStatus.NOT_FOUND, TEXT, "no such page: " + path + "\n", true);
                }
            }
        }
    }

    private void asset(ChannelHandlerContext context, FullHttpRequest request, String name) {
        assets.find(name).ifPresentOrElse(
                a -> send(context, request, HttpResponseStatus.OK, a.contentType(), a.content(), true),
                () -> send(context, request, HttpResponseStatus.NOT_FOUND, TEXT, "no such file: " + request.uri() + "\n", true));
    }

    private static void requireMethod(HttpMethod actual, HttpMethod expected) {
        if (!actual.equals(expected)) {
            throw new ApiRequest.BadRequest(actual + " is not accepted here; use " + expected);
        }
    }

    private static String hostName(String host) {
        if (host == null) {
            return "";
        }
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.lastIndexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    private static void send(ChannelHandlerContext context, FullHttpRequest request, LabRoutes.Answer answer) {
        send(context, request, answer.status(), JSON, answer.json(), true);
    }

    /** "internal error: java.util.NoSuchElementException: no gateway" (the class says what broke when the message is thin). */
    private static String serverError(Throwable e) {
        return "internal error: " + e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static String error(String message) {
        return "{\"error\":\"" + new String(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance().quoteAsString(message)) + "\"}";
    }

    private static void send(ChannelHandlerContext context, FullHttpRequest request, HttpResponseStatus status, String type,
                             String body, boolean keepAlive) {
        send(context, request, status, type, body.getBytes(StandardCharsets.UTF_8), keepAlive);
    }

    private static void send(ChannelHandlerContext context, FullHttpRequest request, HttpResponseStatus status, String type,
                             byte[] body, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        response.headers().set("X-Content-Type-Options", "nosniff");
        HttpUtil.setContentLength(response, body.length);
        boolean keep = keepAlive && HttpUtil.isKeepAlive(request);
        HttpUtil.setKeepAlive(response, keep);
        var future = context.writeAndFlush(response);
        if (!keep) {
            future.addListener(ChannelFutureListener.CLOSE);
        }
    }
}
