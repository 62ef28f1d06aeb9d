package io.periscope.cli;

import io.periscope.lab.capture.CaptureSession;
import io.periscope.lab.probe.EchoServers;
import io.periscope.dataplane.command.ProcessCommandRunner;
import sun.misc.Signal;

import java.io.PrintWriter;
import java.util.List;

/**
 * Ctrl-C (SIGINT) or SIGTERM while a command runs. Without this, the JVM's own handler starts the
 * shutdown while the command's thread carries on: the thread then fails in whatever it was doing
 * (a lab up whose namespaces its cleanup is removing) and that failure was reported as an internal
 * error. Here the signal is recorded first, so the failure that follows is known to be its
 * consequence; the programs the command started are stopped (a child process outlives the JVM) and
 * the lab probe's captures and echo servers closed;
 * then the JVM exits through its shutdown hooks (lab up's cleanup) with 130 for SIGINT or 143 for
 * SIGTERM, as a shell reports a command a signal ended.
 */
final class Interruption {

    private static volatile String signal;
    /** The thread the command runs on: it starts no program once a signal came. */
    private static volatile Thread command;

    private Interruption() {
    }

    /** Installs the handlers; {@code err} receives the one line that says what happened. */
    static void handleSignals(PrintWriter err) {
        command = Thread.currentThread();
        for (String name : List.of("INT", "TERM")) {
            try {
                Signal.handle(new Signal(name), received -> stop(received, err));
            } catch (IllegalArgumentException unavailable) {
                // a JVM started with -Xrs, or a platform without the signal: keep the JVM's default
            }
        }
    }

    private static void stop(Signal received, PrintWriter err) {
        if (signal != null) {
            return;
        }
        signal = received.getName();
        err.println("periscope: " + (signal.equals("INT") ? "interrupted" : "terminated") + " (SIG" + signal + ")");
        err.flush();
        ProcessCommandRunner.stopRunning(command);
        // Closed here, in parallel: left to the exit, thousands of packet sockets close one by one.
        CaptureSession.closeEveryOpenSession();
        // The echo servers' threads wait in accept/receive, in native code, and the JVM's exit waits
        // up to 300 ms for threads in native code: their sockets closed, they leave it at once.
        EchoServers.closeEveryOpenServer();
        // Runs the shutdown hooks (lab up removes what it created), then ends the JVM.
        System.exit(exitStatus());
    }

    /** Whether a signal ended the command: what it throws from then on is the signal's doing, not a bug. */
    static boolean happened() {
        return signal != null;
    }

    static int exitStatus() {
        return "TERM".equals(signal) ? ExitStatus.TERMINATED : ExitStatus.INTERRUPTED;
    }
}
