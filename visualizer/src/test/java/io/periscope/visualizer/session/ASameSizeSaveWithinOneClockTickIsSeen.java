package io.periscope.visualizer.session;

import io.periscope.visualizer.ExampleFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two saves of the same size into the same file within one tick of the file system's clock leave its
 * time, size and inode as they were; the watch still sees the second one.
 */
class ASameSizeSaveWithinOneClockTickIsSeen {

    @TempDir
    Path dir;

    @Test
    void theSecondSaveIsDrawn() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        String first = Files.readString(file);
        String second = first.replace("name: client-to-nginx", "name: client-to-nginy");
        assertThat(second).hasSameSizeAs(first).isNotEqualTo(first);
        Workspace workspace = new Workspace(file);
        BlockingQueue<Long> revisions = new LinkedBlockingQueue<>();
        try (TopologyWatch watch = new TopologyWatch(workspace, revisions::add)) {
            FileTime tick = Files.getLastModifiedTime(file);
            Object inode = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            Files.writeString(file, second);
            Files.setLastModifiedTime(file, tick);
            assertThat(Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey()).isEqualTo(inode);

            assertThat(revisions.poll(5, TimeUnit.SECONDS)).isEqualTo(2L);
            assertThat(workspace.document(List.of())).contains("\"name\":\"client-to-nginy\"");
        }
    }
}
