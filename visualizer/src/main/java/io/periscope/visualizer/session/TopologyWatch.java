package io.periscope.visualizer.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Looks at the topology file every {@link #PERIOD_MILLIS} ms and reloads the workspace when its time
 * or size changed. Polling rather than inotify: editors save by renaming a new file over the old one,
 * which a watch on the old inode would miss, and one stat per period costs nothing.
 */
public final class TopologyWatch implements AutoCloseable {

    public static final long PERIOD_MILLIS = 100;

    private final Workspace workspace;
    private final LongConsumer onRevision;
    private final ScheduledExecutorService timer;
    private Object lastSeen;

    /** @param onRevision told each new revision, from the watch's thread */
    public TopologyWatch(Workspace workspace, LongConsumer onRevision) {
        this.workspace = workspace;
        this.onRevision = onRevision;
        this.lastSeen = fingerprint(workspace.file());
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "periscope-watch");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::look, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void look() {
        try {
            Object seen = fingerprint(workspace.file());
            if (Objects.equals(seen, lastSeen)) {
                return;
            }
            lastSeen = seen;
            if (workspace.reload()) {
                onRevision.accept(workspace.state().revision());
            }
        } catch (RuntimeException e) {
            // A failure of one look must not stop the watch; the next save tries again.
            System.err.println("periscope serve: reloading " + workspace.file() + " failed: " + e);
        }
    }

    private static Object fingerprint(Path file) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return attributes.lastModifiedTime().toMillis() + ":" + attributes.size() + ":" + attributes.fileKey();
        } catch (IOException e) {
            return "missing";
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
