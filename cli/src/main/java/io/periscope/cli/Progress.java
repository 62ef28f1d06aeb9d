package io.periscope.cli;

import java.io.PrintWriter;

/**
 * Progress of long work on standard error: a bar redrawn in place on a terminal, a line every 10%
 * otherwise, nothing for work too short to notice.
 */
final class Progress {

    private static final int WORTH_SHOWING = 500;

    private final PrintWriter err;
    private final boolean terminal;
    private String task = "";
    private long total;
    private int lastShown = -1;

    private Progress(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    static Progress onStandardError(PrintWriter err) {
        return new Progress(err, System.console() != null);
    }

    void start(String taskName, long totalUnits) {
        task = taskName;
        total = totalUnits;
        lastShown = -1;
    }

    void advance(long done) {
        if (total < WORTH_SHOWING) {
            return;
        }
        int percent = (int) (100 * done / total);
        if (terminal) {
            if (percent != lastShown) {
                int filled = percent / 4;
                err.print("\r" + task + " [" + "#".repeat(filled) + " ".repeat(25 - filled) + "] " + done + "/" + total);
                err.flush();
                lastShown = percent;
            }
        } else if (percent / 10 != lastShown / 10 || lastShown < 0) {
            err.println(task + ": " + done + "/" + total + " (" + percent + "%)");
            err.flush();
            lastShown = percent;
        }
    }

    void finish() {
        if (total >= WORTH_SHOWING && terminal) {
            err.print("\r" + " ".repeat(task.length() + 40) + "\r");
            err.flush();
        }
    }
}
