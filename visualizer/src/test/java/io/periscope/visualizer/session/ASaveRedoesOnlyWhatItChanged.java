package io.periscope.visualizer.session;

import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.scene.SceneLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under {@code serve}, a save is drawn again from what it changed: a save that touches only the flows
 * keeps the previous revision's plan, simulator and placement (it costs the traces alone), and a save
 * inside one cluster lays out that cluster's interior again and reuses every other cluster's; the
 * document it gives is the one a fresh load of the same file gives.
 */
class ASaveRedoesOnlyWhatItChanged {

    @TempDir
    Path dir;

    @Test
    void renamingAFlowKeepsThePlanAndThePlacementAndTracesTheNewName() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        Workspace workspace = new Workspace(file);
        Workspace.Ready before = (Workspace.Ready) workspace.state();

        Files.writeString(file, Files.readString(file).replace("name: client-to-nginx", "name: client-calls-nginx"));
        assertThat(workspace.reload()).isTrue();
        Workspace.Ready after = (Workspace.Ready) workspace.state();

        assertThat(after.healthy().plan()).as("the plan").isSameAs(before.healthy().plan());
        assertThat(after.healthy().simulator()).as("the simulator").isSameAs(before.healthy().simulator());
        assertThat(after.placement()).as("the placement").isSameAs(before.placement());
        assertThat(after.document()).contains("\"name\":\"client-calls-nginx\"").doesNotContain("\"name\":\"client-to-nginx\"");
        assertThat(withoutRevision(after.document())).as("the same document as a fresh load of the saved file")
                .isEqualTo(withoutRevision(((Workspace.Ready) new Workspace(file).state()).document()));
    }

    @Test
    void addingAPodToOneClusterPlansAgainAndLaysOutOnlyThatClustersInterior() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        String pod = "      - {name: client, namespace: default, node: worker-1, ip: 10.0.128.4, labels: {app: client}}\n";
        String original = Files.readString(file);
        assertThat(original).contains(pod);
        Workspace workspace = new Workspace(file);
        Workspace.Ready before = (Workspace.Ready) workspace.state();

        Files.writeString(file, original.replace(pod, pod
                + "      - {name: batch-0, namespace: default, node: worker-1, ip: 10.0.128.40, labels: {app: batch}}\n"));
        assertThat(workspace.reload()).isTrue();
        Workspace.Ready after = (Workspace.Ready) workspace.state();

        assertThat(after.healthy().plan()).as("a new pod is planned").isNotSameAs(before.healthy().plan());
        SceneLayout.ClusterInput cluster1 = interiorOf(after, "cluster1");
        SceneLayout.ClusterInput cluster2 = interiorOf(after, "cluster2");
        assertThat(before.placement().interiors()).as("cluster1's interior changed").doesNotContainKey(cluster1);
        assertThat(after.placement().interiors().get(cluster2)).as("cluster2's interior, reused")
                .isSameAs(before.placement().interiors().get(cluster2));
        assertThat(after.placement().hosts()).containsKey("cluster1/default/batch-0");
    }

    private static SceneLayout.ClusterInput interiorOf(Workspace.Ready ready, String cluster) {
        return ready.placement().input().clusters().stream().filter(c -> c.name().equals(cluster)).findFirst().orElseThrow();
    }

    private static String withoutRevision(String document) {
        return document.replaceAll("\"revision\":\\d+", "");
    }
}
