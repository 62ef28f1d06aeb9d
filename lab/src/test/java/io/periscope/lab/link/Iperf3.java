package io.periscope.lab.link;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One iperf3 TCP measurement between two namespaces: a server for one test, a client reporting what the receiver got. */
final class Iperf3 {

    private static int nextPort = 5300 + (int) (ProcessHandle.current().pid() % 500);

    private Iperf3() {
    }

    /**
     * @param reverse the server sends (iperf3 {@code -R}): the measurement is of the other direction
     * @return the receiver's goodput in bits per second, the first second (slow start) left out
     */
    static double goodput(String clientNamespace, String serverNamespace, String serverAddress, int seconds, boolean reverse) {
        int port = nextPort++;
        Process server = start(List.of("ip", "netns", "exec", serverNamespace, "iperf3", "-s", "-1", "-p", String.valueOf(port)));
        try {
            String json = "";
            for (int attempt = 0; attempt < 20; attempt++) {
                sleep(150);
                List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", clientNamespace, "timeout", String.valueOf(seconds + 15),
                        "iperf3", "-c", serverAddress, "-p", String.valueOf(port), "-t", String.valueOf(seconds + 1), "-O", "1", "-J"));
                if (reverse) {
                    argv.add("-R");
                }
                json = run(argv);
                JsonNode result = new ObjectMapper().readTree(json);
                if (result.has("error") && result.path("error").asText().contains("connect")) {
                    continue;    // the server is not listening yet
                }
                if (result.has("error")) {
                    throw new IllegalStateException("iperf3 failed: " + result.path("error").asText());
                }
                return result.path("end").path("sum_received").path("bits_per_second").asDouble();
            }
            throw new IllegalStateException("iperf3 never connected: " + json);
        } catch (IOException e) {
            throw new IllegalStateException("iperf3 printed no JSON", e);
        } finally {
            server.destroy();
        }
    }

    private static Process start(List<String> argv) {
        try {
            return new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + argv, e);
        }
    }

    private static String run(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            p.waitFor(60, TimeUnit.SECONDS);
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + argv, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
