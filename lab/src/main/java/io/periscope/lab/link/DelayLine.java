package io.periscope.lab.link;

import com.sun.jna.Memory;
import io.periscope.lab.netns.NamespaceException;
import io.periscope.lab.netns.NetworkNamespaces;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A link's delay without netem (which this kernel lacks): an iptables rule sends the link's packets
 * to a netfilter queue ({@code -j NFQUEUE --queue-num N}), the kernel holds each one, and this
 * delay line, serving the queue over netlink, accepts each at its arrival plus {@link LinkDelay}.
 * Nothing of a packet but its id leaves the kernel ({@code NFQNL_COPY_META}), so the cost per packet
 * is two small netlink messages at most, and one for a run of packets released together.
 *
 * <p>Both threads run as real-time threads ({@code SCHED_FIFO} priority {@value #REALTIME_PRIORITY})
 * when the kernel lets them. netem does its work in the kernel's softirq and timer context, ahead
 * of every user task; a delay line's threads must likewise run ahead of the lab's own programs and
 * whatever else shares the machine, or its timing measures the machine's load. Measured at load
 * average 7.8 on 2 cores: verdicts late by 29 ms at the 99th percentile (mean 4.4 ms) as ordinary
 * threads, 0.3 ms as real-time ones. They sleep in {@code poll} and {@code parkNanos} when there
 * is nothing to do, and the kernel keeps 5% of each second for ordinary tasks
 * ({@code kernel.sched_rt_runtime_us}) even under a flood.
 *
 * <p>Two platform threads of its own, both ended by {@link #close}: the receiver enters the
 * namespace, opens and binds the socket there (the socket stays in that namespace), then reads the
 * kernel's packet messages and stamps each with its due time; the scheduler holds them ordered by
 * due time, sleeps until the first is due ({@link LockSupport#parkNanos}, with the thread's timer
 * slack set to 1 ns so that the kernel wakes it on time rather than up to 50 us late) and sends the
 * verdicts. Without jitter packets are due in the order they came, so whatever is due is a prefix of
 * the kernel's queue and one {@code NFQNL_MSG_VERDICT_BATCH} releases it; with jitter each packet
 * gets its own {@code NFQNL_MSG_VERDICT}, many per {@code send}.
 *
 * <p>When the queue is full ({@link #QUEUE_MAX_LENGTH} packets held, unless {@link QueueSizes} say
 * otherwise) the kernel drops what comes next, as a full link would, and counts it ({@code droppedQueueFull}); the alternative, fail-open
 * ({@code NFQA_CFG_F_FAIL_OPEN}), would let the excess through undelayed, a link that gets faster
 * under load. A socket whose receive buffer overflows loses packets too (ENOBUFS): counted, and the
 * line goes on. The kernel's own counters come from {@code /proc/net/netfilter/nfnetlink_queue} of
 * the namespace, read by the receiver (which is in it) once a second.
 *
 * <p>GSO packets are queued whole ({@code NFQA_CFG_F_GSO}): a TCP sender's 64 KB super-packet is one
 * verdict rather than forty-odd segments the kernel would cut first, which is what lets the line
 * carry gigabits. All segments of one would arrive at the same time anyway.
 */
public final class DelayLine implements AutoCloseable {

    /**
     * The most packets the kernel holds for a line. It must hold a link's bandwidth-delay product:
     * 10,000 packets of 1,500 bytes are 15 MB in flight, 1.2 Gbit/s for 100 ms or 6 Gbit/s for 20 ms
     * (GSO packets hold up to 64 KB each, so TCP gets much more). The kernel's default is 1,024.
     */
    public static final int QUEUE_MAX_LENGTH = 10_000;
    /** 16 MB: a packet message takes about 1 KB of the socket's buffer, so the whole queue's messages fit while the receiver is away. */
    public static final int RECEIVE_BUFFER = 16 << 20;

    /**
     * The kernel-side sizes of a line: the queue's maximum length and the socket's receive buffer.
     * {@link #DEFAULT} is what the lab uses; others are for a link whose bandwidth-delay product is
     * larger, and for tests that overflow one on purpose.
     */
    public record QueueSizes(int maxLength, int receiveBufferBytes) {

        public static final QueueSizes DEFAULT = new QueueSizes(QUEUE_MAX_LENGTH, RECEIVE_BUFFER);

        public QueueSizes {
            if (maxLength < 1 || receiveBufferBytes < 1) {
                throw new IllegalArgumentException("queue sizes must be positive: " + maxLength + " packets, " + receiveBufferBytes + " bytes");
            }
        }
    }

    private static final int VERDICTS_PER_SEND = 512;
    private static final long COUNTERS_EVERY_NANOS = 1_000_000_000L;
    private static final long STOP_MILLIS = 5_000;
    /** SCHED_FIFO priority of both threads: above every ordinary task, below the kernel's threaded interrupts (50). */
    static final int REALTIME_PRIORITY = 10;

    private record Held(long packetId, long arrival, long due, long order, boolean jittered) {
    }

    private static final Comparator<Held> BY_DUE = Comparator.comparingLong(Held::due).thenComparingLong(Held::order);

    private final int queue;
    private final QueueSizes sizes;
    private volatile DelayLineSpec spec;
    private final Thread receiver;
    private volatile Thread scheduler;
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private final ConcurrentLinkedQueue<Held> arrivals = new ConcurrentLinkedQueue<>();
    private final SplittableRandom random = new SplittableRandom();
    /** Guards the socket's closing against {@link #close}'s wake (a closed fd's number may be reused). */
    private final Object socketLock = new Object();
    private NfqueueSocket socket;
    private volatile boolean stopping;
    /** When the scheduler will wake by itself: the receiver wakes it only for a packet due before that. */
    private volatile long wakeAt = Long.MAX_VALUE;

    // The receiver's own state.
    private long lastDue = Long.MIN_VALUE;
    private long order;
    private long earliestArrivalDue = Long.MAX_VALUE;

    private final AtomicLong delayed = new AtomicLong();
    private final AtomicLong heldNow = new AtomicLong();
    private final AtomicLong receiveOverruns = new AtomicLong();
    private final AtomicLong verdictErrors = new AtomicLong();
    private volatile KernelQueueCounters kernel = KernelQueueCounters.NONE;
    private volatile boolean realtimeReceiver;
    private volatile boolean realtimeScheduler;
    /** CPU time of this line's threads that have ended, each adding its own as it ends. */
    private volatile long cpuOfEnded;
    private volatile String error = "";
    private final Object statsLock = new Object();
    private final HoldingTimes holding = new HoldingTimes();
    private final HoldingTimes lateness = new HoldingTimes();

    private DelayLine(DelayLineSpec spec, QueueSizes sizes) {
        this.spec = spec;
        this.sizes = sizes;
        this.queue = spec.queueNumber();
        this.receiver = Thread.ofPlatform().daemon().name("delay-line-" + spec.key()).unstarted(this::receive);
    }

    /**
     * Starts serving {@code spec}'s queue and returns once the kernel has accepted the binding.
     *
     * @throws DelayLineException when the namespace does not exist, the socket cannot be opened, or
     *                            the kernel refuses the queue (another socket serves it)
     */
    public static DelayLine start(DelayLineSpec spec) {
        return start(spec, QueueSizes.DEFAULT);
    }

    /** {@link #start(DelayLineSpec)} with other queue sizes than the lab's. */
    public static DelayLine start(DelayLineSpec spec, QueueSizes sizes) {
        DelayLine line = new DelayLine(spec, sizes);
        line.receiver.start();
        try {
            line.started.get(STOP_MILLIS, TimeUnit.MILLISECONDS);
            return line;
        } catch (ExecutionException e) {
            line.close();
            throw e.getCause() instanceof DelayLineException d ? d
                    : new DelayLineException("delay line " + spec.key() + ": " + e.getCause().getMessage());
        } catch (TimeoutException e) {
            line.close();
            throw new DelayLineException("delay line " + spec.key() + " did not start within " + STOP_MILLIS + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            line.close();
            throw new DelayLineException("interrupted while starting delay line " + spec.key());
        }
    }

    public DelayLineSpec spec() {
        return spec;
    }

    /**
     * Holds packets that come from now on for {@code next}'s delay and jitter, without a gap in
     * service: packets already held keep their due time. Without jitter, a packet is never due
     * before the one ahead of it, so a smaller delay does not reorder the packets in flight.
     */
    public void retune(DelayLineSpec next) {
        if (!next.key().equals(spec.key())) {
            throw new IllegalArgumentException("delay line " + spec.key() + " cannot serve " + next.key());
        }
        spec = next;
    }

    /** Whether both threads still run. */
    public boolean running() {
        Thread s = scheduler;
        return receiver.isAlive() && s != null && s.isAlive() && !stopping;
    }

    public DelayLineStatus status() {
        DelayLineSpec now = spec;
        KernelQueueCounters counters = kernel;
        HoldingSummary held;
        HoldingSummary late;
        synchronized (statsLock) {
            held = holding.summary();
            late = lateness.summary();
        }
        return new DelayLineStatus(now.namespace(), queue, DelayLineStatus.millis(now.delay().toNanos()),
                DelayLineStatus.millis(now.jitter().toNanos()), running(), error, delayed.get(), heldNow.get(), counters.droppedFull(),
                counters.droppedUndelivered(), receiveOverruns.get(), verdictErrors.get(), realtimeReceiver && realtimeScheduler,
                Math.round(cpuNanos() / 100_000.0) / 10.0, held, late);
    }

    /** The CPU time both threads have used, kept once they end (the JVM forgets an ended thread's). */
    private long cpuNanos() {
        return cpu(receiver) + cpu(scheduler) + cpuOfEnded;
    }

    private static long cpu(Thread thread) {
        if (thread == null || !thread.isAlive()) {
            return 0;
        }
        long nanos = java.lang.management.ManagementFactory.getThreadMXBean().getThreadCpuTime(thread.threadId());
        return Math.max(0, nanos);
    }

    /**
     * Stops serving the queue: the packets held are accepted at once (early, rather than lost), the
     * queue is unbound and the socket closed, and both threads have ended when this returns. From
     * then on, packets the rule queues find no one serving the queue and are dropped, unless the rule
     * says {@code --queue-bypass}.
     */
    @Override
    public void close() {
        stopping = true;
        synchronized (socketLock) {
            if (socket != null) {
                socket.wake();
            }
        }
        if (Thread.currentThread() != receiver) {
            join(receiver);
        }
    }

    // ---------------------------------------------------------------- receiver thread

    private void receive() {
        try {
            realtimeReceiver = realtime();
            NetworkNamespaces.enter(spec.namespace());
            NfqueueSocket opened = NfqueueSocket.open(queue, sizes.receiveBufferBytes());
            synchronized (socketLock) {
                socket = opened;
            }
            opened.request("bind queue " + queue, (out, seq) -> NfqueueCodec.bind(out, seq, queue), this::onEvent);
            opened.request("configure queue " + queue, (out, seq) -> NfqueueCodec.configure(out, seq, queue,
                    NfqueueCodec.CopyMode.META, 0, sizes.maxLength(), NfqueueCodec.FLAG_GSO), this::onEvent);
            readKernelCounters();
        } catch (DelayLineException | NamespaceException e) {
            closeSocket();
            started.completeExceptionally(e instanceof DelayLineException ? e
                    : new DelayLineException("delay line " + spec.key() + ": " + e.getMessage()));
            return;
        }
        Thread s = Thread.ofPlatform().daemon().name("delay-line-" + spec.key() + "-scheduler").unstarted(this::schedule);
        scheduler = s;
        s.start();
        started.complete(null);
        long countersRead = System.nanoTime();
        try {
            while (!stopping) {
                int ready = socket.poll(1000);
                if ((ready & NfqueueSocket.READABLE) != 0) {
                    drain();
                }
                if (System.nanoTime() - countersRead > COUNTERS_EVERY_NANOS) {
                    readKernelCounters();
                    countersRead = System.nanoTime();
                }
            }
        } catch (RuntimeException e) {
            error = e.getMessage() == null ? e.toString() : e.getMessage();
        } finally {
            shutDown();
        }
    }

    /** Reads every datagram waiting, then wakes the scheduler if one of them is due before it would wake. */
    private void drain() {
        for (int datagrams = 0; datagrams < 4096; datagrams++) {
            int length = socket.receive();
            if (length == -QueueSyscalls.EAGAIN || length == 0) {
                break;
            }
            if (length == -QueueSyscalls.ENOBUFS) {
                receiveOverruns.incrementAndGet();
                continue;
            }
            if (length < 0) {
                throw new DelayLineException("delay line " + spec.key() + ": recv failed, errno " + -length);
            }
            try {
                NfqueueCodec.parse(socket.received(length), this::onEvent);
            } catch (IllegalArgumentException e) {
                error = "a message the delay line cannot read: " + e.getMessage();
            }
        }
        if (earliestArrivalDue < wakeAt) {
            LockSupport.unpark(scheduler);
        }
        earliestArrivalDue = Long.MAX_VALUE;
    }

    private void onEvent(QueueEvent event) {
        switch (event) {
            case QueueEvent.PacketQueued packet when packet.queueNumber() == queue -> {
                long now = System.nanoTime();
                LinkDelay delay = spec.linkDelay();
                long due = now + delay.holdNanos(random);
                if (!delay.jittered()) {
                    due = Math.max(due, lastDue);
                }
                lastDue = Math.max(lastDue, due);
                earliestArrivalDue = Math.min(earliestArrivalDue, due);
                heldNow.incrementAndGet();
                arrivals.add(new Held(packet.packetId(), now, due, order++, delay.jittered()));
            }
            case QueueEvent.Answer answer when answer.failed() -> {
                verdictErrors.incrementAndGet();
                error = "the kernel refused a verdict: errno " + answer.error();
            }
            default -> {
            }
        }
    }

    private void readKernelCounters() {
        try {
            String text = Files.readString(Path.of("/proc/thread-self/net/netfilter/nfnetlink_queue"));
            kernel = KernelQueueCounters.of(text, queue).orElse(kernel);
        } catch (IOException e) {
            // no nfnetlink_queue file: the counters stay as they were
        }
    }

    /** On the receiver: stop the scheduler (it accepts what it holds), accept what is still unread, unbind, close. */
    private void shutDown() {
        stopping = true;
        Thread s = scheduler;
        if (s != null) {
            LockSupport.unpark(s);
            join(s);
        }
        try {
            acceptWaitingNow();
            socket.request("unbind queue " + queue, (out, seq) -> NfqueueCodec.unbind(out, seq, queue), event -> {
                if (event instanceof QueueEvent.PacketQueued packet && packet.queueNumber() == queue) {
                    acceptNow(packet.packetId());
                }
            });
        } catch (RuntimeException e) {
            // The socket's close unbinds the queue anyway.
        }
        closeSocket();
        heldNow.set(0);
        addOwnCpu();
    }

    /** The messages still unread when the scheduler stopped: their packets go at once. */
    private void acceptWaitingNow() {
        while (true) {
            int length = socket.receive();
            if (length == -QueueSyscalls.ENOBUFS) {
                continue;
            }
            if (length <= 0) {
                return;
            }
            NfqueueCodec.parse(socket.received(length), event -> {
                if (event instanceof QueueEvent.PacketQueued packet && packet.queueNumber() == queue) {
                    acceptNow(packet.packetId());
                }
            });
        }
    }

    private void acceptNow(long packetId) {
        Memory one = new Memory(NfqueueCodec.VERDICT_LENGTH);
        ByteBuffer out = one.getByteBuffer(0, one.size()).order(ByteOrder.nativeOrder());
        NfqueueCodec.verdict(out, 0, queue, packetId, NfqueueCodec.NF_ACCEPT);
        if (socket.send(one, out.position()) < 0) {
            verdictErrors.incrementAndGet();
        } else {
            delayed.incrementAndGet();
        }
    }

    private void closeSocket() {
        synchronized (socketLock) {
            if (socket != null) {
                socket.close();
                socket = null;
            }
        }
    }

    // ---------------------------------------------------------------- scheduler thread

    private void schedule() {
        // The kernel may wake a timed sleep up to its thread's timer slack late, 50 us by default: measured here,
        // the median verdict went out 130-160 us after its due time with it and 70-95 us with 1 ns.
        QueueSyscalls.prctl(QueueSyscalls.PR_SET_TIMERSLACK, 1, 0, 0, 0);
        realtimeScheduler = realtime();
        PriorityQueue<Held> held = new PriorityQueue<>(BY_DUE);
        Memory out = new Memory((long) VERDICTS_PER_SEND * NfqueueCodec.VERDICT_LENGTH);
        ByteBuffer verdicts = out.getByteBuffer(0, out.size()).order(ByteOrder.nativeOrder());
        List<Held> released = new ArrayList<>();
        int[] jittered = {0};
        int sequence = 1 << 30;
        while (true) {
            take(held, jittered);
            if (stopping) {
                break;
            }
            sequence = release(held, jittered, System.nanoTime(), false, out, verdicts, released, sequence);
            long next = held.isEmpty() ? Long.MAX_VALUE : held.peek().due();
            wakeAt = next;
            if (!arrivals.isEmpty()) {
                continue;    // came after take(): the receiver may have seen the old wakeAt
            }
            long wait = next == Long.MAX_VALUE ? COUNTERS_EVERY_NANOS : next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
            }
        }
        take(held, jittered);
        release(held, jittered, System.nanoTime(), true, out, verdicts, released, sequence);
        addOwnCpu();
    }

    private synchronized void addOwnCpu() {
        long nanos = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        cpuOfEnded += Math.max(0, nanos);
    }

    /**
     * Makes the calling thread a real-time one (SCHED_FIFO), so that it runs as soon as it wakes
     * whatever else the machine is doing; false when the kernel refuses (no CAP_SYS_NICE, or a
     * cgroup without real-time time), and the thread stays an ordinary one.
     */
    private static boolean realtime() {
        return QueueSyscalls.sched_setscheduler(0, QueueSyscalls.SCHED_FIFO, new int[] {REALTIME_PRIORITY}) == 0;
    }

    private void take(PriorityQueue<Held> held, int[] jittered) {
        Held h;
        while ((h = arrivals.poll()) != null) {
            held.add(h);
            if (h.jittered()) {
                jittered[0]++;
            }
        }
    }

    /**
     * Sends the verdicts of every held packet due by {@code now} ({@code all}: of every held packet),
     * then records how long each was held and how late it went.
     */
    private int release(PriorityQueue<Held> held, int[] jittered, long now, boolean all, Memory out, ByteBuffer verdicts,
                        List<Held> released, int sequence) {
        // Only unjittered packets held: what is due is a prefix of the kernel's queue (see class comment).
        boolean batch = jittered[0] == 0;
        long batchMax = -1;
        int seq = sequence;
        released.clear();
        verdicts.clear();
        while (!held.isEmpty() && (all || held.peek().due() <= now)) {
            Held h = held.poll();
            released.add(h);
            if (h.jittered()) {
                jittered[0]--;
            }
            if (batch) {
                batchMax = h.packetId();
            } else {
                if (verdicts.remaining() < NfqueueCodec.VERDICT_LENGTH) {
                    send(out, verdicts);
                }
                NfqueueCodec.verdict(verdicts, seq++, queue, h.packetId(), NfqueueCodec.NF_ACCEPT);
            }
        }
        if (batchMax >= 0) {
            NfqueueCodec.verdictBatch(verdicts, seq++, queue, batchMax, NfqueueCodec.NF_ACCEPT);
        }
        if (verdicts.position() > 0) {
            send(out, verdicts);
        }
        if (!released.isEmpty()) {
            long sent = System.nanoTime();
            synchronized (statsLock) {
                for (Held h : released) {
                    holding.record(sent - h.arrival());
                    lateness.record(sent - h.due());
                }
            }
            delayed.addAndGet(released.size());
            heldNow.addAndGet(-released.size());
        }
        return seq;
    }

    private void send(Memory out, ByteBuffer verdicts) {
        if (socket.send(out, verdicts.position()) < 0) {
            verdictErrors.incrementAndGet();
            error = "cannot send verdicts: errno " + com.sun.jna.Native.getLastError();
        }
        verdicts.clear();
    }

    private static void join(Thread thread) {
        try {
            if (!thread.join(java.time.Duration.ofMillis(STOP_MILLIS))) {
                throw new IllegalStateException(thread.getName() + " did not stop within " + STOP_MILLIS + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
