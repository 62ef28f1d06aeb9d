package io.periscope.visualizer.session;

import io.periscope.visualizer.ExampleFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code serve} reads the file the way every command does: a file of gigabytes or a device is refused
 * with the loader's reason, shown on the page like a validation error, and never read into memory; the
 * next good save draws again.
 */
class TheWorkspaceReadsOnlyWhatTheLoaderReads {

    @TempDir
    Path dir;

    @Test
    void aThreeGigabyteFileIsRefusedUnreadAndAGoodSaveDrawsAgain() throws Exception {
        Path file = dir.resolve("huge.yaml");
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(3L << 30);
        }
        Workspace workspace = new Workspace(file);

        assertThat(workspace.state()).isInstanceOf(Workspace.Invalid.class);
        assertThat(((Workspace.Invalid) workspace.state()).errors().getFirst().problem())
                .contains("the file is " + (3L << 30) + " bytes, more than");
        assertThat(workspace.document(java.util.List.of())).contains("\"errors\"").contains("so it is not read")
                .doesNotContain("\"topology\"");

        Files.copy(ExampleFiles.example("mag-globalnet.yaml"), file, StandardCopyOption.REPLACE_EXISTING);
        assertThat(workspace.reload()).isTrue();
        assertThat(workspace.state()).isInstanceOf(Workspace.Ready.class);
    }

    @Test
    void aDeviceInTheFilesPlaceIsRefusedUnread() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        Workspace workspace = new Workspace(file);
        assertThat(workspace.state()).isInstanceOf(Workspace.Ready.class);

        Files.delete(file);
        Files.createSymbolicLink(file, Path.of("/dev/zero"));

        assertThat(workspace.reload()).isTrue();
        assertThat(workspace.document(java.util.List.of())).contains("not a regular file");
        assertThat(workspace.reload()).as("the same refusal again is no new revision").isFalse();
    }
}
