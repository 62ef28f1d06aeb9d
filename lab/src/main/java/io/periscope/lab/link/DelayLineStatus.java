package io.periscope.lab.link;

/**
 * What a delay line reports (the supervisor writes it in its status file, by {@link DelayLineSpec#key}).
 *
 * @param namespace          the network namespace whose queue it serves
 * @param queue              the netfilter queue number
 * @param delayMillis        the delay it holds packets for now
 * @param jitterMillis       the jitter it adds now
 * @param running            whether it serves its queue (false after it failed or before it could start)
 * @param error              why it is not running, or the last error it kept running through; empty when none
 * @param delayed            packets it held and accepted
 * @param held               packets it holds now
 * @param droppedQueueFull   packets the kernel dropped because the queue was full ({@link DelayLine#QUEUE_MAX_LENGTH} held)
 * @param droppedUndelivered packets the kernel dropped because the socket's receive buffer was full
 * @param receiveOverruns    how many times a receive reported ENOBUFS (each time, one or more packets were dropped)
 * @param verdictErrors      verdicts the kernel refused (a packet it no longer held)
 * @param realtime           whether both its threads run as real-time threads (SCHED_FIFO); its timing suffers from the
 *                           machine's load when not
 * @param cpuMillis          the CPU time its two threads have used (the kernel's part of queueing is not in it)
 * @param holding            how long packets were held, from receipt to verdict
 * @param lateness           how late each verdict went out after its packet was due: the scheduler's precision
 */
public record DelayLineStatus(String namespace, int queue, double delayMillis, double jitterMillis, boolean running, String error,
                              long delayed, long held, long droppedQueueFull, long droppedUndelivered, long receiveOverruns,
                              long verdictErrors, boolean realtime, double cpuMillis, HoldingSummary holding,
                              HoldingSummary lateness) {

    public DelayLineStatus {
        error = error == null ? "" : error;
        holding = holding == null ? HoldingSummary.EMPTY : holding;
        lateness = lateness == null ? HoldingSummary.EMPTY : lateness;
    }

    /** The status of a line that is not running, for the reason {@code error}. */
    static DelayLineStatus notRunning(DelayLineSpec spec, String error) {
        return new DelayLineStatus(spec.namespace(), spec.queueNumber(), millis(spec.delay().toNanos()), millis(spec.jitter().toNanos()),
                false, error, 0, 0, 0, 0, 0, 0, false, 0, HoldingSummary.EMPTY, HoldingSummary.EMPTY);
    }

    static double millis(long nanos) {
        return nanos / 1_000_000.0;
    }
}
