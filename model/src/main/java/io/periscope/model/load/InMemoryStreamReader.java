package io.periscope.model.load;

import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.Constant;

import java.io.Reader;

/**
 * SnakeYAML's character source for a text that is already in memory, in linear time. SnakeYAML's own
 * {@link StreamReader} reads 1,024 characters at a time and copies everything not yet consumed into a
 * new array on each read; its scanner looks ahead over a whole comment or word before consuming it, so
 * one long comment or scalar is copied again for every 1,024 of its characters (a one-line file of
 * 16 MiB took minutes and more than a gigabyte). The topology is read whole and size-checked before
 * parsing anyway ({@link BoundedTextFile}), so this reader holds its code points once and only moves
 * a pointer. It keeps {@link StreamReader}'s counting of index, line and column, which marks report.
 */
final class InMemoryStreamReader extends StreamReader {

    private final int[] codePoints;
    private int pointer;
    private int index;
    private int documentIndex;
    private int line;
    private int column;

    /** @throws ReaderException at the first character YAML does not allow, its position counted in chars of {@code text} */
    InMemoryStreamReader(String text) {
        super(Reader.nullReader());
        this.codePoints = text.codePoints().toArray();
        int chars = 0;
        for (int codePoint : codePoints) {
            if (!isPrintable(codePoint)) {
                throw new ReaderException("'reader'", chars, codePoint, "special characters are not allowed");
            }
            chars += Character.charCount(codePoint);
        }
    }

    @Override
    public Mark getMark() {
        return new Mark("'reader'", index, line, column, codePoints, pointer);
    }

    @Override
    public void forward() {
        forward(1);
    }

    @Override
    public void forward(int length) {
        for (int i = 0; i < length && pointer < codePoints.length; i++) {
            int codePoint = codePoints[pointer++];
            index++;
            documentIndex++;
            // As StreamReader: \r\n is one line break, counted at its \n; a BOM takes no column.
            boolean lineBreak = Constant.LINEBR.has(codePoint)
                    || (codePoint == '\r' && pointer < codePoints.length && codePoints[pointer] != '\n');
            if (lineBreak) {
                line++;
                column = 0;
            } else if (codePoint != '\uFEFF') {
                column++;
            }
        }
    }

    @Override
    public int peek() {
        return peek(0);
    }

    @Override
    public int peek(int offset) {
        int at = pointer + offset;
        return at < codePoints.length ? codePoints[at] : '\0';
    }

    @Override
    public String prefix(int length) {
        int available = Math.min(length, codePoints.length - pointer);
        return available <= 0 ? "" : new String(codePoints, pointer, available);
    }

    @Override
    public String prefixForward(int length) {
        // As StreamReader: the scanner only calls this over characters that are not line breaks.
        String prefix = prefix(length);
        int moved = Math.max(0, Math.min(length, codePoints.length - pointer));
        pointer += moved;
        index += moved;
        documentIndex += moved;
        column += moved;
        return prefix;
    }

    @Override
    public int getColumn() {
        return column;
    }

    @Override
    public int getDocumentIndex() {
        return documentIndex;
    }

    @Override
    public void resetDocumentIndex() {
        documentIndex = 0;
    }

    @Override
    public int getIndex() {
        return index;
    }

    @Override
    public int getLine() {
        return line;
    }
}
