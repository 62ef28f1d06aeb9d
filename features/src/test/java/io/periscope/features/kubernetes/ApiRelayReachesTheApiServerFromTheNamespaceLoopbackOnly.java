package io.periscope.features.kubernetes;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.netns.NamespaceThread;
import io.periscope.lab.netns.NetworkNamespaces;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The agents' way to their API server: from a lab namespace, the server in this JVM answers at
 * 127.0.0.1 of the namespace while a relay listens there, and not otherwise; the relay adds no
 * interface, address or route to the namespace. Needs root (a namespace of its own); run under the
 * lab lock.
 */
class ApiRelayReachesTheApiServerFromTheNamespaceLoopbackOnly {

    private final ProcessCommandRunner runner = ProcessCommandRunner.here();

    @Test
    void aNamespaceReachesTheServerWhileTheRelayListensAndHoldsNothingMoreForIt() {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create a network namespace");
        String namespace = "pk8s-relay-" + ProcessHandle.current().pid();
        runner.run(Command.of("ip", "netns", "add", TestNamespace.deletedOnExit(namespace)));
        try (MockApiServer api = new MockApiServer(List.of(), KubernetesControlPlane.NAMESPACE);
             NamespaceThread inside = NamespaceThread.enter(namespace)) {
            runner.run(Command.of("ip", "-n", namespace, "link", "set", "lo", "up"));
            int port = api.address().getPort();
            String before = kernel(namespace);
            assertThatThrownBy(() -> inside.call(() -> get(port))).as("the server from the namespace without a relay")
                    .hasMessageContaining("Connection refused");

            try (ApiRelay relay = ApiRelay.open(namespace).reach(List.of(api.address()))) {
                assertThat(relay.namespace()).isEqualTo(namespace);
                String answer = inside.call(() -> get(port));
                assertThat(answer).startsWith("HTTP/1.1 200").contains("\"name\":\"" + KubernetesControlPlane.NAMESPACE + "\"");
                assertThat(kernel(namespace)).as("the namespace's interfaces, addresses and routes with the relay").isEqualTo(before);
                assertThat(relay.carried()).as("connections carried").isEqualTo(1);
            }
            assertThatThrownBy(() -> inside.call(() -> get(port))).as("the server from the namespace after the relay closed")
                    .hasMessageContaining("Connection refused");
        } finally {
            runner.execute(Command.of("ip", "netns", "del", namespace));
        }
    }

    /** One request from the calling thread's namespace, as an agent's client sends it. */
    private static String get(int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/v1/namespaces/" + KubernetesControlPlane.NAMESPACE + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private String kernel(String namespace) {
        return runner.run(Command.of("ip", "-n", namespace, "-o", "address")).stdout()
                + runner.run(Command.of("ip", "-n", namespace, "route", "show", "table", "all")).stdout()
                + runner.run(Command.of("ip", "-n", namespace, "rule")).stdout();
    }
}
