package io.periscope.visualizer.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/** A real server on 127.0.0.1 and a real HTTP client for it. */
public final class RunningServer implements AutoCloseable {

    public final VisualizerServer server;
    public final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public RunningServer(Path file) throws InterruptedException, IOException {
        this(file, io.periscope.visualizer.lab.Lab.ABSENT);
    }

    /** With the lab the page's lab view probes. */
    public RunningServer(Path file, io.periscope.visualizer.lab.Lab lab) throws InterruptedException, IOException {
        this.server = VisualizerServer.start(file, InetAddress.getByName("127.0.0.1"), 0, lab);
    }

    public URI uri(String path) {
        return URI.create(server.url()).resolve(path);
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        server.close();
        client.close();
    }
}
