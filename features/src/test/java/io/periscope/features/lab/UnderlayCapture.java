package io.periscope.features.lab;

import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.plan.HostId;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;

import java.io.EOFException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whole frames (up to {@link #SNAPLEN} bytes) captured on underlay interfaces of lab hosts, to look
 * inside what crossed the wire. The probe's own captures keep only the fields that identify a packet
 * ({@code FrameParser}); showing that a payload is not in clear needs the bytes. One platform thread
 * per interface enters the host's namespace and opens the device by name, as the probe's captures do.
 */
final class UnderlayCapture implements AutoCloseable {

    /** Ethernet, outer IP and UDP, a WireGuard header and the inner packet's headers and marker fit. */
    static final int SNAPLEN = 512;
    private static final long QUIET_MILLIS = 250;

    /** A frame as it was seen on {@code iface} of {@code host}. */
    record Frame(HostId host, String iface, byte[] bytes) {
    }

    /** Where to capture: the host, its namespace and the interface's name there. */
    record Target(HostId host, String namespace, String iface) {
    }

    private final List<Frame> frames = Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> threads = new ArrayList<>();
    private final List<AtomicReference<PcapHandle>> handles = new ArrayList<>();
    private volatile boolean stopping;

    private UnderlayCapture() {
    }

    /** Returns once every capture is open. */
    static UnderlayCapture start(List<Target> targets) {
        UnderlayCapture capture = new UnderlayCapture();
        CountDownLatch opened = new CountDownLatch(targets.size());
        AtomicReference<String> problem = new AtomicReference<>();
        for (Target target : targets) {
            AtomicReference<PcapHandle> handle = new AtomicReference<>();
            capture.handles.add(handle);
            capture.threads.add(Thread.ofPlatform().daemon().name("underlay-" + target.namespace() + "-" + target.iface())
                    .start(() -> capture.run(target, handle, opened, problem)));
        }
        try {
            if (!opened.await(10, TimeUnit.SECONDS)) {
                problem.compareAndSet(null, "the underlay captures did not open within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problem.compareAndSet(null, "interrupted while opening the underlay captures");
        }
        if (problem.get() != null) {
            capture.close();
            throw new IllegalStateException(problem.get());
        }
        return capture;
    }

    private void run(Target target, AtomicReference<PcapHandle> handle, CountDownLatch opened, AtomicReference<String> problem) {
        PcapHandle pcap;
        try {
            NetworkNamespaces.enter(target.namespace());
            pcap = new PcapHandle.Builder(target.iface()).snaplen(SNAPLEN).bufferSize(1 << 20)
                    .promiscuousMode(PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS)
                    .timeoutMillis(20).immediateMode(true).build();
            pcap.setFilter("ip", BpfProgram.BpfCompileMode.OPTIMIZE);
        } catch (PcapNativeException | NotOpenException | RuntimeException e) {
            problem.compareAndSet(null, "cannot capture on " + target.iface() + " in " + target.namespace() + ": " + e.getMessage());
            opened.countDown();
            return;
        }
        handle.set(pcap);
        opened.countDown();
        try {
            while (!stopping) {
                try {
                    frames.add(new Frame(target.host(), target.iface(), pcap.getNextRawPacketEx()));
                } catch (TimeoutException e) {
                    // nothing within the timeout: look at the stop flag again
                } catch (EOFException e) {
                    break;
                }
            }
        } catch (PcapNativeException | NotOpenException e) {
            // the capture ended under us; what was seen stays
        } finally {
            pcap.close();
        }
    }

    /** Ends the captures once the last frames had time to be read, and returns every frame seen. */
    List<Frame> stop() {
        try {
            Thread.sleep(QUIET_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        close();
        synchronized (frames) {
            return List.copyOf(frames);
        }
    }

    @Override
    public void close() {
        stopping = true;
        for (AtomicReference<PcapHandle> handle : handles) {
            PcapHandle pcap = handle.get();
            if (pcap != null) {
                try {
                    pcap.breakLoop();
                } catch (NotOpenException e) {
                    // already closed by its thread
                }
            }
        }
        for (Thread thread : threads) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
