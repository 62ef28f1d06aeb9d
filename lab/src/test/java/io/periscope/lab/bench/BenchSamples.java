package io.periscope.lab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Output captured from real programs on this machine, in a lab of examples/mag-globalnet.yaml: an
 * iperf3 client's {@code -J} report of 8 streams from ports 21000-21007 to nginx's global IP
 * (242.254.2.254:80) for 3 s, one of a client that found no server, and each gateway's
 * {@code conntrack -L -p tcp} after that test and {@code ip -j -s link show dev wan0} before and after.
 */
final class BenchSamples {

    private BenchSamples() {
    }

    static String read(String name) {
        try (InputStream in = BenchSamples.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no sample " + name + " next to " + BenchSamples.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String conntrack(String gateway) {
        return read("conntrack-" + gateway.replace('/', '-') + ".txt");
    }

    static String wan(String when, String gateway) {
        return read("wan0-" + when + "-" + gateway.replace('/', '-') + ".json");
    }
}
