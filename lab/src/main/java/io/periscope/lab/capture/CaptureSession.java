package io.periscope.lab.capture;

import io.periscope.lab.netns.NetworkNamespaces;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;

import java.io.EOFException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Captures on many interfaces of many namespaces at once: one platform thread per interface, which
 * enters the interface's namespace and opens the device by name (listing devices would read
 * {@code /sys}, which shows the machine's namespace, not the thread's). {@link #start} returns once
 * every capture is open; {@link #stop} waits for the last frames to be read and returns every
 * sighting. A session started by {@link #keepingWholeFrames} keeps every IPv4 frame's bytes
 * instead, whichever way it went ({@link #stopWithFrames}).
 */
public final class CaptureSession implements AutoCloseable {

    static {
        // pcap4j logs through SLF4J and the lab configures no logging: without a provider SLF4J
        // prints a warning on every run. Its no-op provider, quietly, unless someone chose one.
        if (System.getProperty("slf4j.provider") == null) {
            System.setProperty("slf4j.internal.verbosity", "WARN");
            System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
        }
    }

    /** Long enough for frames still in the kernel's capture buffers to be read before the captures end. */
    private static final long QUIET_MILLIS = 250;
    private static final int SIGHTING_SNAPLEN = 256;
    /**
     * The kernel's capture ring per interface. libpcap's default is 2 MiB, and a lab probe that
     * captured on every interface of a 4,000-pod lab held gigabytes in rings; a probe sends a few
     * dozen packets per round and reads them at once (immediate mode), so this holds hundreds of them.
     */
    public static final int BUFFER_BYTES = 256 * 1024;

    /** How long an interrupted command waits for its captures to close before it exits anyway. */
    private static final long CLOSE_ALL_MILLIS = 3_000;

    /** Every session still open in this JVM, for {@link #closeEveryOpenSession}. */
    private static final Set<CaptureSession> OPEN = ConcurrentHashMap.newKeySet();
    /**
     * Set once {@link #closeEveryOpenSession} ran: the command is ending, and a session its thread
     * starts afterwards would be left to the exit, whose kernel closes packet sockets one by one.
     */
    private static volatile boolean closingAll;

    private final List<Capture> captures = new ArrayList<>();
    private final List<Sighting> sightings = Collections.synchronizedList(new ArrayList<>());
    private final List<WholeFrame> wholeFrames = Collections.synchronizedList(new ArrayList<>());
    private final Set<Integer> vxlanPorts;
    /** Positive when the session keeps frames' bytes (up to this many each) rather than sightings. */
    private final int wholeFrameSnaplen;

    private CaptureSession(Set<Integer> vxlanPorts, int wholeFrameSnaplen) {
        this.vxlanPorts = Set.copyOf(vxlanPorts);
        this.wholeFrameSnaplen = wholeFrameSnaplen;
    }

    /**
     * @param vxlanPorts UDP ports whose packets are decoded as VXLAN
     * @throws CaptureException when a capture cannot be opened (the others are closed again), or
     *                          when the command is being interrupted ({@link #closeEveryOpenSession})
     */
    public static CaptureSession start(List<CaptureTarget> targets, Set<Integer> vxlanPorts) {
        return open(new CaptureSession(vxlanPorts, 0), targets);
    }

    /**
     * A session that keeps the first {@code snaplen} bytes of every IPv4 frame on the targets,
     * leaving and arriving alike (the targets' MACs are not looked at); read them with
     * {@link #stopWithFrames}.
     *
     * @throws CaptureException as {@link #start}
     */
    public static CaptureSession keepingWholeFrames(List<CaptureTarget> targets, int snaplen) {
        if (snaplen <= 0) {
            throw new IllegalArgumentException("a snap length must be positive: " + snaplen);
        }
        return open(new CaptureSession(Set.of(), snaplen), targets);
    }

    private static CaptureSession open(CaptureSession session, List<CaptureTarget> targets) {
        for (CaptureTarget target : targets) {
            session.captures.add(session.new Capture(target));
        }
        // Published with all its captures (closeEveryOpenSession walks them from another thread),
        // and only then checked: a signal either finds the session or is seen here.
        OPEN.add(session);
        if (closingAll) {
            OPEN.remove(session);
            throw new CaptureException("interrupted: no capture is opened any more");
        }
        session.captures.forEach(Capture::begin);
        Optional<String> failure = Optional.empty();
        for (Capture capture : session.captures) {
            Optional<String> problem = capture.awaitOpen();
            if (problem.isPresent() && failure.isEmpty()) {
                failure = problem;
            }
        }
        if (failure.isPresent()) {
            session.close();
            throw new CaptureException(failure.get());
        }
        return session;
    }

    /** Ends every capture and returns what was seen, in no particular order. */
    public List<Sighting> stop() {
        quietThenClose();
        synchronized (sightings) {
            return List.copyOf(sightings);
        }
    }

    /** Ends every capture of a {@link #keepingWholeFrames} session and returns its frames, in no particular order. */
    public List<WholeFrame> stopWithFrames() {
        if (wholeFrameSnaplen == 0) {
            throw new IllegalStateException("this session keeps sightings, not frames: start it with keepingWholeFrames");
        }
        quietThenClose();
        synchronized (wholeFrames) {
            return List.copyOf(wholeFrames);
        }
    }

    private void quietThenClose() {
        try {
            Thread.sleep(QUIET_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        close();
    }

    @Override
    public void close() {
        captures.forEach(Capture::interrupt);
        captures.forEach(Capture::join);
        OPEN.remove(this);
    }

    /**
     * Closes every capture of every open session at once, each by its own thread, for a command
     * that was interrupted. Left to the process's exit, the kernel closes the packet sockets one
     * after the other, each waiting for an RCU grace period: 4,268 captures took 176 s to go away
     * after SIGTERM. Closed in parallel, their grace periods overlap.
     *
     * @return how many captures were open
     */
    public static int closeEveryOpenSession() {
        closingAll = true;
        int open = 0;
        for (CaptureSession session : Set.copyOf(OPEN)) {
            open += session.captures.size();
            session.captures.forEach(Capture::interrupt);
        }
        long deadline = System.nanoTime() + CLOSE_ALL_MILLIS * 1_000_000;
        for (CaptureSession session : Set.copyOf(OPEN)) {
            session.captures.forEach(c -> c.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            OPEN.remove(session);
        }
        return open;
    }

    private final class Capture {

        private final CaptureTarget target;
        private final CountDownLatch opened = new CountDownLatch(1);
        private final AtomicReference<String> problem = new AtomicReference<>();
        private final AtomicReference<PcapHandle> handle = new AtomicReference<>();
        private volatile boolean stopping;
        private Thread thread;

        Capture(CaptureTarget target) {
            this.target = target;
        }

        void begin() {
            thread = Thread.ofPlatform().daemon().name("capture-" + target.namespace() + "-" + target.iface()).start(this::run);
        }

        Optional<String> awaitOpen() {
            try {
                if (!opened.await(10, TimeUnit.SECONDS)) {
                    return Optional.of("capture on " + target.iface() + " in " + target.namespace() + " did not open within 10 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted while opening captures");
            }
            return Optional.ofNullable(problem.get());
        }

        private void run() {
            PcapHandle pcap;
            try {
                NetworkNamespaces.enter(target.namespace());
                // Immediate mode hands every frame over at once instead of in blocks; the
                // capture then ends through breakLoop, since a blocked read has no timeout.
                pcap = new PcapHandle.Builder(target.iface()).snaplen(wholeFrameSnaplen > 0 ? wholeFrameSnaplen : SIGHTING_SNAPLEN).bufferSize(BUFFER_BYTES)
                        .promiscuousMode(PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS)
                        .timeoutMillis(20).immediateMode(true)
                        .timestampPrecision(PcapHandle.TimestampPrecision.NANO).build();
                if (target.layer3().isPresent()) {
                    pcap.setDirection(target.layer3().get() == Direction.LEAVING ? PcapHandle.PcapDirection.OUT : PcapHandle.PcapDirection.IN);
                    // A tun device carries bare IP: "ip" would look for an Ethernet type that is not there.
                } else {
                    pcap.setFilter("ip", BpfProgram.BpfCompileMode.OPTIMIZE);
                }
            } catch (PcapNativeException | NotOpenException | RuntimeException e) {
                problem.set("cannot capture on " + target.iface() + " in " + target.namespace() + ": " + e.getMessage());
                opened.countDown();
                return;
            }
            handle.set(pcap);
            opened.countDown();
            try {
                while (!stopping) {
                    try {
                        byte[] frame = pcap.getNextRawPacketEx();
                        record(frame, pcap.getTimestamp());
                    } catch (TimeoutException e) {
                        // no frame within the timeout: look at the stop flag again
                    } catch (EOFException e) {
                        break;
                    }
                }
            } catch (PcapNativeException | NotOpenException e) {
                problem.compareAndSet(null, "capture on " + target.iface() + " in " + target.namespace() + " failed: " + e.getMessage());
            } finally {
                pcap.close();
            }
        }

        private void record(byte[] frame, Timestamp timestamp) {
            if (wholeFrameSnaplen > 0) {
                wholeFrames.add(new WholeFrame(target.host(), target.iface(), frame));
                return;
            }
            long nanos = timestamp.getTime() / 1000 * 1_000_000_000L + timestamp.getNanos();
            if (target.layer3().isPresent()) {
                FrameParser.parseBareIp(frame, vxlanPorts).ifPresent(parsed ->
                        sightings.add(new Sighting(target.host(), target.iface(), target.layer3().get(), nanos, parsed)));
                return;
            }
            FrameParser.parse(frame, vxlanPorts).ifPresent(parsed -> {
                Direction direction;
                if (parsed.srcMac().equals(target.mac())) {
                    direction = Direction.LEAVING;
                } else if (parsed.dstMac().equals(target.mac())) {
                    direction = Direction.ARRIVING;
                } else {
                    return;
                }
                sightings.add(new Sighting(target.host(), target.iface(), direction, nanos, parsed));
            });
        }

        void interrupt() {
            stopping = true;
            PcapHandle pcap = handle.get();
            if (pcap != null) {
                try {
                    pcap.breakLoop();
                } catch (NotOpenException e) {
                    // already closed by its thread
                }
            }
        }

        void join() {
            join(5_000);
        }

        void join(long millis) {
            if (thread == null) {
                return;
            }
            try {
                thread.join(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
