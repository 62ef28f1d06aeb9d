package io.periscope.dns;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Debian's own DNS clients against the real server on loopback: BIND's {@code dig} (bind9-dnsutils)
 * and Knot's {@code kdig} (knot-dnsutils), over UDP and TCP. Each is skipped, saying what to
 * install, when it is missing; {@code ./run-tests} installs both when run as root.
 */
class DigAndKdigReadTheAnswers {

    @RegisterExtension
    static final ServedTopology served = new ServedTopology();

    static Stream<Arguments> clients() {
        return Stream.of(Arguments.of("dig", "bind9-dnsutils", "+notcp"), Arguments.of("dig", "bind9-dnsutils", "+tcp"),
                Arguments.of("kdig", "knot-dnsutils", "+notcp"), Arguments.of("kdig", "knot-dnsutils", "+tcp"));
    }

    private static List<String> ask(String client, String transport, String name, String type, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of(client, "@127.0.0.1", "-p", String.valueOf(served.server.address().getPort()),
                "+time=2", client.equals("dig") ? "+tries=1" : "+retry=0", name, type));
        if (!transport.isEmpty()) {
            command.add(transport);
        }
        command.addAll(List.of(more));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException missing) {
            Assumptions.abort(client + " is not installed (" + missing.getMessage() + "); install it: apt-get install "
                    + (client.equals("dig") ? "bind9-dnsutils" : "knot-dnsutils"));
            throw missing;
        }
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).as(client + " finished").isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isZero();
        return output.lines().map(String::strip).toList();
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("clients")
    void aServiceNameAndAHeadlessPodsAddresses(String client, String pkg, String transport) throws Exception {
        assertThat(ask(client, transport, "web.default.svc.clusterset.local", "A", "+short")).containsExactly("100.1.0.10");
        assertThat(ask(client, transport, "b.web.default.svc.clusterset.local", "A", "+short")).containsExactly("100.2.0.10");
        assertThat(ask(client, transport, "cache.store.svc.clusterset.local", "A", "+short", "+bufsize=1232")).hasSize(15)
                .contains("10.2.3.10", "10.2.3.24");
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("clients")
    void srvRecordsAndNegativeAnswers(String client, String pkg, String transport) throws Exception {
        assertThat(ask(client, transport, "_http._tcp.web.default.svc.clusterset.local", "SRV", "+short"))
                .containsExactly("0 50 80 a.web.default.svc.clusterset.local.");
        assertThat(String.join("\n", ask(client, transport, "nope.default.svc.clusterset.local", "A"))).contains("NXDOMAIN");
        List<String> noData = ask(client, transport, "web.default.svc.clusterset.local", "AAAA");
        assertThat(String.join("\n", noData)).contains("NOERROR").contains("SOA");
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"dig", "kdig"})
    void aTruncatedUdpAnswerIsRetriedOverTcpAndComesWhole(String client) throws Exception {
        // Without EDNS0 the 60 A records of kv cannot fit 512 bytes: the client gets TC over UDP (its default
        // transport; +notcp would forbid the retry) and asks again over TCP.
        List<String> lines = ask(client, "", "kv.store.svc.clusterset.local", "A", "+short", "+noedns");
        assertThat(lines).filteredOn(l -> l.startsWith("10.2.2.")).hasSize(60);
    }
}
