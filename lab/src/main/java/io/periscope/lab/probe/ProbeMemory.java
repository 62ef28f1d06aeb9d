package io.periscope.lab.probe;

import io.periscope.lab.capture.CaptureSession;
import io.periscope.lab.machine.MachineCapacity;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * The most memory {@code lab probe} holds, stated before anything is captured: the heap that holds
 * the plan of the whole lab (what the JVM has taken once the plan is built and every flow sized),
 * plus, for the flow that needs the most, its captures (each a kernel ring of
 * {@link CaptureSession#BUFFER_BYTES} and a thread), its echo servers (a thread per socket) and a
 * fixed allowance for one round's frames and observed paths. Flows are probed one after the other
 * and a round's captures are dropped once analysed, so the largest flow decides, not their sum.
 *
 * <p>The probe compares what it has not taken yet (the bound less the heap it holds) with the
 * share of the available memory a lab may take ({@link MachineCapacity#SHARE_OF_AVAILABLE}) and
 * refuses up front when it does not fit, with the numbers; a probe that captured on every interface
 * of a 4,000-pod lab had reached 10.6 GB before it was stopped.
 *
 * @param heapKib the heap the JVM had committed when the flows were sized (more than it uses: a bound)
 * @param largest the flow whose captures and servers need the most; empty when no flow sends packets
 */
public record ProbeMemory(long heapKib, Optional<FlowFootprint> largest) {

    /** The kernel's capture ring per captured interface. */
    public static final long KIB_PER_RING = CaptureSession.BUFFER_BYTES / 1024;
    /**
     * What a thread costs beside its work, taken high: the pages of its stack it touches (a capture
     * thread's or a server's stays far below its 1 MiB reservation) and its native bookkeeping.
     */
    public static final long KIB_PER_THREAD = 128;
    /** One round's sightings (a few dozen probes' frames on each captured interface) and observed paths. */
    public static final long KIB_PER_ROUND = 64 * 1024;

    /**
     * What one flow captures on and answers with.
     *
     * @param captures      interfaces captured, each with its ring and thread
     * @param hosts         hosts they belong to
     * @param serverSockets echo-server sockets, each with its thread
     */
    public record FlowFootprint(String flow, int captures, int hosts, int serverSockets) {

        public long kib() {
            return captures * (KIB_PER_RING + KIB_PER_THREAD) + serverSockets * KIB_PER_THREAD + KIB_PER_ROUND;
        }
    }

    public static ProbeMemory of(long heapKib, Collection<FlowFootprint> flows) {
        return new ProbeMemory(heapKib, flows.stream().max(Comparator.comparingLong(FlowFootprint::kib)));
    }

    /** The heap the JVM holds now: the plan, the simulator and the interfaces read so far. */
    public static long heapNowKib() {
        return Runtime.getRuntime().totalMemory() / 1024;
    }

    public long boundKib() {
        return heapKib + largest.map(FlowFootprint::kib).orElse(0L);
    }

    /** The bound and where it comes from, for the progress line. */
    public String describe() {
        return "memory bound " + mib(boundKib()) + ": heap committed (it holds the plan) " + mib(heapKib)
                + largest.map(f -> " + the largest flow, " + f.flow() + ", " + f.captures() + " captures x (" + KIB_PER_RING + " KiB ring + "
                        + KIB_PER_THREAD + " KiB thread) + " + f.serverSockets() + " echo sockets x " + KIB_PER_THREAD + " KiB + "
                        + mib(KIB_PER_ROUND) + " for a round's frames = " + mib(f.kib())).orElse(" (no flow sends packets)");
    }

    /** Why this machine cannot hold the probe, with the numbers; empty when it can or the kernel does not say. */
    public Optional<String> refusal(MachineCapacity machine) {
        if (machine.memAvailableKib().isEmpty()) {
            return Optional.empty();
        }
        long more = boundKib() - heapKib;
        long available = machine.memAvailableKib().getAsLong();
        long allowed = (long) (available * MachineCapacity.SHARE_OF_AVAILABLE);
        if (more <= allowed) {
            return Optional.empty();
        }
        return Optional.of("memory: the probe would hold up to " + mib(boundKib()) + " (" + describe().substring(describe().indexOf(": ") + 2)
                + "); the " + mib(more) + " beyond the heap it holds now exceed " + Math.round(MachineCapacity.SHARE_OF_AVAILABLE * 100)
                + "% of the " + mib(available) + " available (MemAvailable in /proc/meminfo), " + mib(allowed)
                + ". Free memory, or probe the other flows alone (--flow NAME)");
    }

    static String mib(long kib) {
        return kib >= 10 * 1024 * 1024 ? String.format(java.util.Locale.ROOT, "%.1f GiB", kib / 1024.0 / 1024.0)
                : String.format(java.util.Locale.ROOT, "%.1f MiB", kib / 1024.0);
    }
}
