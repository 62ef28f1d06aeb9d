package io.periscope.kinde2e;

import com.dajudge.kindcontainer.KindContainer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.utility.MountableFile;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A kind cluster in a container, with Periscope's image loaded into its containerd and deploy/
 * applied. kindcontainer has no image loading of its own, so the image is built from
 * deploy/Containerfile, saved with the Docker API and imported with {@code ctr} inside the node.
 */
final class KindCluster implements AutoCloseable {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String IMAGE = "periscope-agent:0.1.0";
    static final String POD_SUBNET = "10.244.0.0/16";
    static final String SERVICE_SUBNET = "10.96.0.0/16";

    private final KindContainer<?> kind;
    private final KubernetesClient client;

    KindCluster() throws IOException, InterruptedException {
        kind = new KindContainer<>().withPodSubnet(POD_SUBNET).withServiceSubnet(SERVICE_SUBNET);
        kind.start();
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kind.getKubeconfig())).build();
        loadAgentImage();
    }

    KubernetesClient client() {
        return client;
    }

    /** A client acting as {@code user} (cluster-admin impersonates), for the RBAC scenarios. */
    KubernetesClient as(String user, String... groups) {
        Config config = Config.fromKubeconfig(kind.getKubeconfig());
        config.setImpersonateUsername(user);
        config.setImpersonateGroups(groups);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private void loadAgentImage() throws IOException, InterruptedException {
        Path jar = ROOT.resolve("agents/kubernetes/target/periscope-agent.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing; build with mvn -pl kind-e2e -am verify so that agents/kubernetes is packaged first");
        }
        String built = new ImageFromDockerfile(IMAGE, false)
                .withFileFromPath("agents/kubernetes/target/periscope-agent.jar", jar)
                .withFileFromPath("Containerfile", ROOT.resolve("deploy/Containerfile"))
                .withDockerfilePath("Containerfile").get();
        Path tar = Files.createTempFile("periscope-agent", ".tar");
        try (InputStream image = DockerClientFactory.instance().client().saveImageCmd(built).exec()) {
            Files.copy(image, tar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        kind.copyFileToContainer(MountableFile.forHostPath(tar), "/tmp/periscope-agent.tar");
        var result = kind.execInContainer("ctr", "-n", "k8s.io", "images", "import", "/tmp/periscope-agent.tar");
        if (result.getExitCode() != 0) {
            throw new IllegalStateException("importing the image into kind failed: " + result.getStderr());
        }
        Files.delete(tar);
    }

    /** Applies a manifest from deploy/, with {@code replacements} (pairs of text) made first. */
    void apply(String manifest, String... replacements) throws IOException {
        String text = Files.readString(ROOT.resolve("deploy").resolve(manifest));
        for (int i = 0; i + 1 < replacements.length; i += 2) {
            text = text.replace(replacements[i], replacements[i + 1]);
        }
        List<HasMetadata> items = client.load(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))).items();
        for (HasMetadata item : items) {
            client.resource(item).createOr(NonDeletingOperation::update);
        }
    }

    @Override
    public void close() {
        client.close();
        kind.stop();
    }
}
