package io.periscope.visualizer.session;

import io.periscope.model.load.TopologyFileLimits;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Looks at the topology file every {@link #PERIOD_MILLIS} ms and reloads the workspace when its time,
 * size or inode changed. Polling rather than inotify: editors save by renaming a new file over the old
 * one, which a watch on the old inode would miss, and one stat per period costs nothing.
 *
 * <p>A file's time moves in steps of the file system's clock tick (a few milliseconds, a second on
 * some), so two saves of the same size into the same inode within one tick look alike. As git does
 * for its "racily clean" index entries, a file whose time is within {@link #RACY_MILLIS} of now is
 * compared by content too: its hash is taken at each look until its time is safely in the past.
 */
public final class TopologyWatch implements AutoCloseable {

    public static final long PERIOD_MILLIS = 100;
    /** Longer than any file system's time step (FAT's is two seconds). */
    static final long RACY_MILLIS = 2_500;

    private final Workspace workspace;
    private final LongConsumer onRevision;
    private final Consumer<String> say;
    private final ScheduledExecutorService timer;
    private Object lastSeen;
    private byte[] lastContent;

    /** @param onRevision told each new revision, from the watch's thread */
    public TopologyWatch(Workspace workspace, LongConsumer onRevision) {
        this(workspace, onRevision, System.err::print);
    }

    /**
     * @param say told, from the watch's thread, the errors of each save that cannot be drawn and when a
     *            save draws again: the terminal that runs {@code serve} learns what the page shows
     */
    public TopologyWatch(Workspace workspace, LongConsumer onRevision, Consumer<String> say) {
        this.workspace = workspace;
        this.onRevision = onRevision;
        this.say = say;
        this.lastSeen = fingerprint(workspace.file());
        this.lastContent = content(workspace.file());
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "periscope-watch");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::look, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void look() {
        try {
            Path file = workspace.file();
            Object seen = fingerprint(file);
            if (Objects.equals(seen, lastSeen)) {
                if (!racy(file)) {
                    return;
                }
                byte[] content = content(file);
                if (Arrays.equals(content, lastContent)) {
                    return;
                }
                lastContent = content;
            } else {
                lastSeen = seen;
                lastContent = content(file);
            }
            boolean wasInvalid = workspace.state() instanceof Workspace.Invalid;
            if (workspace.reload()) {
                Workspace.State state = workspace.state();
                switch (state) {
                    case Workspace.Invalid invalid -> {
                        StringBuilder text = new StringBuilder();
                        invalid.errors().forEach(error -> text.append(error.format()).append('\n'));
                        say.accept(text + "revision " + state.revision() + ": the page shows these errors until a save fixes them\n");
                    }
                    case Workspace.Ready ready when wasInvalid -> say.accept(workspace.file() + " loads again; the page draws revision "
                            + ready.revision() + "\n");
                    case Workspace.Ready ready -> {
                    }
                }
                onRevision.accept(state.revision());
            }
        } catch (RuntimeException | Error e) {
            // A failure of one look must not stop the watch: a scheduled task that throws is never run
            // again, and no later save would be drawn. The next look tries again.
            say.accept("periscope serve: reloading " + workspace.file() + " failed: " + e + "\n");
        }
    }

    private static Object fingerprint(Path file) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS) + ":" + attributes.size() + ":" + attributes.fileKey();
        } catch (IOException e) {
            return "missing";
        }
    }

    /** Whether the file changed so recently that a same-size save in the same clock tick would not show in its time. */
    private static boolean racy(Path file) {
        try {
            return System.currentTimeMillis() - Files.getLastModifiedTime(file).toMillis() < RACY_MILLIS;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The SHA-256 of the file's bytes, read only from a regular file and no further than the topology
     * size limit (anything else the workspace refuses anyway); empty when there is nothing to read.
     */
    private static byte[] content(Path file) {
        if (!Files.isRegularFile(file)) {
            return new byte[0];
        }
        try (InputStream in = Files.newInputStream(file)) {
            return MessageDigest.getInstance("SHA-256").digest(in.readNBytes((int) TopologyFileLimits.MAX_FILE_BYTES + 1));
        } catch (IOException e) {
            return new byte[0];
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
