package io.periscope.kubernetes.testing;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.stream.Stream;

/**
 * A fabric8 mock API server in CRUD mode with the CRDs the build generated created in it, so that
 * status is a subresource as on a real API server (an update of the object leaves its status alone),
 * and a patch that does not apply refused as a real one refuses it ({@link AnsweringCrudDispatcher}).
 */
public final class MockCluster implements AutoCloseable {

    public static final String SUBMARINER_NAMESPACE = "submariner-operator";

    private final KubernetesMockServer server;
    private final KubernetesClient client;

    public MockCluster() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new AnsweringCrudDispatcher(), false);
        server.init();
        client = server.createClient();
        for (CustomResourceDefinition crd : generatedCrds(client)) {
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(SUBMARINER_NAMESPACE).endMetadata().build()).create();
    }

    /** The CRDs crd-generator wrote into target/classes at build time. */
    public static List<CustomResourceDefinition> generatedCrds(KubernetesClient parser) {
        Path dir = generatedCrdDirectory();
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith("-v1.yml")).sorted().map(f -> {
                try (InputStream in = Files.newInputStream(f)) {
                    return parser.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("no generated CRDs in " + dir + "; build with mvn so that crd-generator runs", e);
        }
    }

    public static Path generatedCrdDirectory() {
        return Path.of("target", "classes", "META-INF", "fabric8");
    }

    public KubernetesClient client() {
        return client;
    }

    /** Another client of the same server, as a second process (a restarted controller) would have. */
    public KubernetesClient newClient() {
        return server.createClient();
    }

    /** Another client that names itself {@code userAgent} in every request, so that its requests can be told from the test's. */
    public KubernetesClient newClient(String userAgent) {
        KubernetesClient base = server.createClient();
        io.fabric8.kubernetes.client.Config config = new io.fabric8.kubernetes.client.ConfigBuilder(base.getConfiguration())
                .withUserAgent(userAgent).build();
        base.close();
        return new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build();
    }

    /** Every request the server received since the last call (all of them, the first time). */
    public List<io.fabric8.mockwebserver.http.RecordedRequest> takeRequests() {
        List<io.fabric8.mockwebserver.http.RecordedRequest> requests = new java.util.ArrayList<>();
        try {
            for (var r = server.takeRequest(1, java.util.concurrent.TimeUnit.MILLISECONDS); r != null;
                 r = server.takeRequest(1, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                requests.add(r);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return requests;
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
