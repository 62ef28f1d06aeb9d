package io.periscope.model.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a file a user names (a topology file, a kubeconfig) as UTF-8 text, only when it is a regular
 * file of at most a given size, and decides that before reading: a device such as {@code /dev/zero}
 * never ends, a FIFO blocks until someone writes to it, and a file of gigabytes would exhaust memory
 * long before it could be parsed. Each caller words the {@link Refusal} for its own kind of file.
 */
public final class BoundedTextFile {

    /** Why a file was not read. */
    public sealed interface Refusal {
    }

    public record Directory() implements Refusal {
    }

    /** A device, FIFO or socket. */
    public record NotRegular() implements Refusal {
    }

    public record TooLarge(long bytes, long limit) implements Refusal {
    }

    public record Missing() implements Refusal {
    }

    public record PermissionDenied() implements Refusal {
    }

    /** The first byte that is not UTF-8, by line and column (1-based), so a stray byte can be found. */
    public record NotUtf8(int line, int column, int value) implements Refusal {
    }

    public record Unreadable(String reason) implements Refusal {
    }

    /** Thrown with the reason the file was not read. */
    public static final class RefusedException extends Exception {

        private final transient Refusal refusal;

        RefusedException(Refusal refusal) {
            super(refusal.toString(), null, false, false);
            this.refusal = refusal;
        }

        public Refusal refusal() {
            return refusal;
        }
    }

    private BoundedTextFile() {
    }

    /** The file's text. @throws RefusedException when it is not a regular, readable UTF-8 file of at most {@code limit} bytes */
    public static String read(Path file, long limit) throws RefusedException {
        if (Files.isDirectory(file)) {
            throw new RefusedException(new Directory());
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new RefusedException(new NotRegular());
        }
        try {
            long size = Files.size(file);
            if (size > limit) {
                throw new RefusedException(new TooLarge(size, limit));
            }
            return decode(readAtMost(file, limit));
        } catch (NoSuchFileException e) {
            throw new RefusedException(new Missing());
        } catch (AccessDeniedException e) {
            throw new RefusedException(new PermissionDenied());
        } catch (IOException e) {
            throw new RefusedException(new Unreadable(e.getMessage()));
        }
    }

    /** Reads no more than {@code limit} bytes, so a file that grows after its size was checked is still bounded. */
    private static byte[] readAtMost(Path file, long limit) throws IOException, RefusedException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
        }
        if (bytes.length > limit) {
            throw new RefusedException(new TooLarge(bytes.length, limit));
        }
        return bytes;
    }

    private static String decode(byte[] bytes) throws RefusedException {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            throw new RefusedException(notUtf8(bytes, in.position()));
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    private static NotUtf8 notUtf8(byte[] bytes, int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset; i++) {
            if (bytes[i] == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        int column = new String(bytes, lineStart, offset - lineStart, StandardCharsets.UTF_8).length() + 1;
        return new NotUtf8(line, column, bytes[offset] & 0xff);
    }
}
