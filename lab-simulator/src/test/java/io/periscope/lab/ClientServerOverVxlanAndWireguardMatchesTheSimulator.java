package io.periscope.lab;

import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.SwitchNamespace;
import io.periscope.lab.netns.NamespaceThread;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ObservedAttempt;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.WireGuardProcess;
import io.periscope.lab.trace.TraceEncap;
import io.periscope.lab.trace.TraceHop;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.plan.cable.WireGuardDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's two policy examples in one lab: a client/server connectivity policy, vxlan between the
 * on-premise server and client, WireGuard (wireguard-go in each gateway's namespace) between the
 * server and the cloud client, and no cable at all between the two clients.
 */
public class ClientServerOverVxlanAndWireguardMatchesTheSimulator {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    private RunningLab lab;

    @Test
    void allowedFlowsAreDeliveredAsSimulatedAndForbiddenOnesGetNothingThrough() {
        lab = labs.up(RunningLab.forTest(TestTopologies.clientServerOverVxlanAndWireguard(), "cswg"));
        LabState up = lab.stateFile().read(lab.layout().names().hash()).orElseThrow();
        assertThat(up.wireGuard()).extracting(WireGuardProcess::namespace)
                .containsExactlyInAnyOrder(namespaceOf("onprem2/onprem2-gw"), namespaceOf("cloud/cloud-gw"));
        assertThat(lab.progress()).noneMatch(line -> line.startsWith("cables:"));

        ProbeReport report = lab.probe(Optional.empty(), SimulatorFlows::new);

        assertThat(report.flows()).hasSameSizeAs(lab.set().flows());
        for (FlowProbeResult flow : report.flows()) {
            Flow declared = lab.set().flows().stream().filter(f -> f.name().equals(flow.name())).findFirst().orElseThrow();
            String expected = declared.expect().orElseThrow().equals(Disposition.DELIVERED) ? "delivered" : "unreachable";
            assertThat(flow.problem()).as(flow.name()).isEmpty();
            assertThat(flow.attempts()).as(flow.name()).isNotEmpty();
            for (ObservedAttempt attempt : flow.attempts()) {
                assertThat(attempt.simulated()).as("%s simulated", flow.name()).isNotEmpty()
                        .allSatisfy(path -> assertThat(path.disposition()).isEqualTo(expected));
                assertThat(attempt.match().matches()).as("%s from port %d: %s", flow.name(), attempt.outcome().sourcePort(),
                        attempt.match().firstDifference()).isTrue();
                if (expected.equals("delivered")) {
                    assertThat(attempt.outcome().disposition()).as(flow.name()).isEqualTo("delivered");
                } else {
                    assertThat(attempt.outcome().disposition()).as(flow.name()).isNotEqualTo("delivered");
                    // Not a single packet reached a gateway, so none crossed the WAN.
                    assertThat(attempt.observed().forward()).as(flow.name()).noneMatch(hop -> hop.node().endsWith("-gw"));
                }
            }
        }
        assertThat(encapsulations(report, "analytics-to-inventory")).contains(TraceEncap.WIREGUARD)
                .doesNotContain(TraceEncap.VXLAN + "/wan0");
        assertThat(encapsulations(report, "frontend-to-inventory")).contains(TraceEncap.VXLAN + "/wan0")
                .doesNotContain(TraceEncap.WIREGUARD);
        assertThat(report.matchesSimulation()).isTrue();
        // Upstream's driver gives every peer a preshared key; the flows above crossed the cable, so
        // the handshake mixed in the same key at both ends. wg shows it from the daemon's own mount
        // namespace, where its control socket is.
        List<List<String>> presharedKeys = up.wireGuard().stream().map(p -> presharedKeys(p.pid())).toList();
        assertThat(presharedKeys).hasSize(2).allSatisfy(keys -> assertThat(keys).singleElement().asString().matches("[A-Za-z0-9+/]{43}="));
        assertThat(presharedKeys.get(0)).isEqualTo(presharedKeys.get(1));

        List<String> removed = lab.down();

        assertThat(removed).containsExactlyInAnyOrderElementsOf(lab.layout().namespaces());
        assertThat(lab.progress()).as("down says what it waits for").anyMatch(line ->
                line.startsWith("down: stopping 2 wireguard-go daemons of the WireGuard cables (waiting up to 5 s each"));
        assertThat(up.wireGuard()).allSatisfy(p -> assertThat(ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true)));
    }

    @Test
    void theWanCarriesThePayloadInClearOverVxlanAndEncryptedOverWireguard() throws Exception {
        lab = labs.up(RunningLab.forTest(TestTopologies.clientServerOverVxlanAndWireguard(), "cswgwan"));
        String overVxlan = "PERISCOPE-CLEAR-" + ProcessHandle.current().pid() + "-vxlan";
        String overWireGuard = "PERISCOPE-SECRET-" + ProcessHandle.current().pid() + "-wireguard";
        WireGuardDevice cloud = lab.plan().hosts().values().stream().filter(h -> h.id().toString().equals("cloud/cloud-gw"))
                .findFirst().orElseThrow().submariner().wireGuardDevices().getFirst();
        String wan = lab.layout().switches().stream().filter(s -> s.segment().equals("wan")).map(SwitchNamespace::namespace)
                .findFirst().orElseThrow();

        String captured;
        try (NamespaceThread server = NamespaceThread.enter(namespaceOf("onprem2/stock/inventory-0"))) {
            ServerSocket listening = server.call(() -> {
                ServerSocket socket = new ServerSocket();
                socket.bind(new InetSocketAddress("10.22.1.10", 8080));
                return socket;
            });
            CompletableFuture<List<String>> received = CompletableFuture.supplyAsync(() -> receive(listening, 2));
            Path capture = labs.state().resolve("wan.txt");
            Process tcpdump = new ProcessBuilder("ip", "netns", "exec", wan, "tcpdump", "-i", "any", "-n", "-l", "-A", "-U", "-s", "0", "udp")
                    .redirectOutput(capture.toFile()).start();
            try {
                awaitListening(tcpdump.getErrorStream());
                send(namespaceOf("onprem1/web/frontend"), overVxlan);
                send(namespaceOf("cloud/data/analytics-0"), overWireGuard);
                assertThat(received.get(10, TimeUnit.SECONDS)).as("what the server received").containsExactlyInAnyOrder(overVxlan, overWireGuard);
                Thread.sleep(300);
            } finally {
                tcpdump.destroy();
                tcpdump.waitFor(5, TimeUnit.SECONDS);
                listening.close();
            }
            captured = Files.readString(capture, StandardCharsets.ISO_8859_1);
        }

        assertThat(captured).as("the vxlan cable carries the payload in clear").contains(overVxlan);
        assertThat(captured).as("the WireGuard cable's packets crossed the WAN")
                .contains(".%d > %s.%d: UDP".formatted(cloud.listenPort(), cloud.peers().getFirst().endpointAddress(),
                        cloud.peers().getFirst().endpointPort()));
        assertThat(captured).as("the WireGuard cable encrypts the payload").doesNotContain(overWireGuard);
    }

    private String namespaceOf(String host) {
        return lab.layout().hosts().stream().filter(h -> h.host().toString().equals(host)).map(HostNamespace::namespace).findFirst()
                .orElseThrow();
    }

    /** Each hop's encapsulation as {@code kind/underlay}, over every attempt of the flow. */
    private static List<String> encapsulations(ProbeReport report, String flow) {
        return report.flows().stream().filter(f -> f.name().equals(flow)).flatMap(f -> f.attempts().stream())
                .flatMap(a -> a.observed().forward().stream()).map(TraceHop::encap).flatMap(Optional::stream)
                .map(e -> e.encapsulation().equals(TraceEncap.WIREGUARD) ? TraceEncap.WIREGUARD : e.encapsulation() + "/" + e.underlay())
                .toList();
    }

    private static List<String> receive(ServerSocket listening, int connections) {
        try {
            List<String> texts = new java.util.ArrayList<>();
            for (int i = 0; i < connections; i++) {
                try (Socket accepted = listening.accept()) {
                    texts.add(new String(accepted.getInputStream().readAllBytes(), StandardCharsets.US_ASCII));
                }
            }
            return texts;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The preshared keys {@code wg show} gives the peers of the device of the wireguard-go with this pid. */
    private static List<String> presharedKeys(long pid) {
        try {
            Process wg = new ProcessBuilder("nsenter", "-t", Long.toString(pid), "-m", "-n", "wg", "show", "submariner", "preshared-keys")
                    .redirectErrorStream(true).start();
            String out = new String(wg.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(wg.waitFor()).as(out).isZero();
            // "<peer public key>\t<preshared key>" per peer
            return out.lines().map(line -> line.split("\t")[1]).toList();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void send(String namespace, String text) {
        try (NamespaceThread client = NamespaceThread.enter(namespace)) {
            client.call(() -> {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress("10.22.1.10", 8080), 5_000);
                    socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
                    socket.shutdownOutput();
                }
                return null;
            });
        }
    }

    private static void awaitListening(InputStream stderr) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(stderr, StandardCharsets.US_ASCII));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.contains("listening on")) {
                return;
            }
        }
        throw new IllegalStateException("tcpdump ended before it listened");
    }
}
