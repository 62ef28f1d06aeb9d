package io.periscope.features.kubernetes;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.periscope.kubernetes.testing.AnsweringCrudDispatcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.stream.Stream;

/**
 * One API server of the control plane: fabric8's mock server in CRUD mode, with the CRDs Periscope
 * ships ({@code deploy/crds}) created in it so that status is a subresource as on a real server,
 * answering a patch that does not apply as a real one does ({@link AnsweringCrudDispatcher}).
 * It stores and watches objects; it does not authorize (see {@link Rbac}).
 */
final class MockApiServer implements AutoCloseable {

    static final Path DEPLOY = Path.of("..", "deploy");

    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final List<KubernetesClient> clients = new ArrayList<>();

    MockApiServer(List<CustomResourceDefinition> crds, String... namespaces) {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new AnsweringCrudDispatcher(), false);
        server.init();
        client = server.createClient();
        for (CustomResourceDefinition crd : crds) {
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
        for (String namespace : namespaces) {
            namespace(namespace);
        }
    }

    void namespace(String name) {
        if (client.namespaces().withName(name).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        }
    }

    /** The shipped CRDs, parsed once per control plane. */
    static List<CustomResourceDefinition> shippedCrds() {
        var parser = new io.fabric8.kubernetes.client.utils.KubernetesSerialization();
        Path dir = DEPLOY.resolve("crds");
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml")).sorted().map(f -> {
                try (InputStream in = Files.newInputStream(f)) {
                    return parser.unmarshal(in, CustomResourceDefinition.class);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CRDs in " + dir.toAbsolutePath().normalize(), e);
        }
    }

    /**
     * Where this JVM reaches the server (a port on loopback): the far end of the lab's relays
     * ({@link ApiRelay}), which listen on the same port inside the namespaces.
     */
    java.net.InetSocketAddress address() {
        String host = server.getHostName();
        java.net.InetAddress address;
        try {
            address = java.net.InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("the mock API server names an unknown host " + host, e);
        }
        return new java.net.InetSocketAddress(address.isAnyLocalAddress() ? java.net.InetAddress.getLoopbackAddress() : address, server.getPort());
    }

    /** The kubeconfig of a process that reaches this server through its namespace's relay: {@code http://127.0.0.1:PORT}. */
    String kubeconfig() {
        String server = "http://127.0.0.1:" + address().getPort();
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: lab
                  cluster: {server: "%s"}
                users:
                - name: agent
                  user: {token: lab}
                contexts:
                - name: lab
                  context: {cluster: lab, user: agent}
                current-context: lab
                """.formatted(server);
    }

    /** The client the scenario's steps use (they act as an admin would). */
    KubernetesClient client() {
        return client;
    }

    /** A client of its own for one controller, as each pod would have. */
    synchronized KubernetesClient newClient() {
        KubernetesClient created = server.createClient();
        clients.add(created);
        return created;
    }

    @Override
    public synchronized void close() {
        clients.forEach(KubernetesClient::close);
        client.close();
        server.destroy();
    }
}
