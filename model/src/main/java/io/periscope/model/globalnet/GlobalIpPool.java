package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One cluster's pool of global IPs, following upstream Globalnet's IPAM: the pool is the cluster's
 * global CIDR without its network and broadcast addresses; a single address comes from the top of the
 * free space (so exported services get {@code x.y.z.254}, then {@code .253}, ...), a block of N > 1
 * is the lowest run of N contiguous free addresses; allocations are restored after a restart with
 * {@link #reserve}, all or nothing.
 *
 * <p>Occupancy is one bit per address, so a /8 (16M addresses) costs 2 MB and both searches skip
 * 64 addresses per step; owners are kept only for allocated addresses.
 *
 * <p>Mutable and not thread-safe by design: upstream runs exactly one allocator per cluster (seed
 * 004 makes Globalnet a single-replica Deployment for that reason), and Periscope's planner uses a
 * fresh pool per computation. Callers that share a pool between threads must lock around it.
 */
public final class GlobalIpPool {

    /** Larger pools than a /8 are never a sensible cluster global CIDR, and would not fit a BitSet. */
    public static final int SHORTEST_PREFIX = 8;

    private final Ipv4Prefix cidr;
    private final long firstAddress;
    private final int size;
    private final BitSet taken;
    private final Map<Integer, String> owners = new HashMap<>();
    private int free;

    public GlobalIpPool(Ipv4Prefix cidr) {
        if (cidr.length() < SHORTEST_PREFIX) {
            throw new IllegalArgumentException("global CIDR " + cidr + " is larger than a /" + SHORTEST_PREFIX + "; a cluster's pool cannot be that large");
        }
        this.cidr = cidr;
        this.firstAddress = cidr.first().unsigned() + 1;
        this.size = (int) Math.max(0, cidr.size() - 2);
        this.taken = new BitSet(size);
        this.free = size;
    }

    public Ipv4Prefix cidr() {
        return cidr;
    }

    /** Addresses in the pool: the CIDR's size minus network and broadcast. */
    public int size() {
        return size;
    }

    public int freeCount() {
        return free;
    }

    public int allocatedCount() {
        return size - free;
    }

    /** Whether the address belongs to the pool at all (inside the CIDR, neither network nor broadcast). */
    public boolean contains(Ipv4Address address) {
        long offset = address.unsigned() - firstAddress;
        return offset >= 0 && offset < size;
    }

    public boolean isAllocated(Ipv4Address address) {
        return contains(address) && taken.get(indexOf(address));
    }

    public Optional<String> ownerOf(Ipv4Address address) {
        return contains(address) ? Optional.ofNullable(owners.get(indexOf(address))) : Optional.empty();
    }

    /**
     * Allocates {@code n} addresses to {@code requester}: the highest free one for n == 1, the lowest
     * contiguous free run for n > 1, nothing for n == 0.
     */
    public AllocationResult allocate(String requester, int n) {
        if (n < 0) {
            return new AllocationResult.Failed(requester, "asked for " + n + " addresses; the number must not be negative");
        }
        if (n == 0) {
            return new AllocationResult.Allocated(List.of());
        }
        if (n > free) {
            return new AllocationResult.Failed(requester, "asked for " + n + (n == 1 ? " address" : " addresses")
                    + " but the pool " + cidr + " has only " + free + " free (" + (n - free) + " missing)");
        }
        int start = n == 1 ? taken.previousClearBit(size - 1) : lowestFreeRun(n);
        if (start < 0) {
            return new AllocationResult.Failed(requester, "asked for " + n + " contiguous addresses but the pool " + cidr
                    + " has " + free + " free and no free run that long");
        }
        List<Ipv4Address> addresses = new ArrayList<>(n);
        for (int i = start; i < start + n; i++) {
            owners.put(i, requester);
            addresses.add(addressAt(i));
        }
        taken.set(start, start + n);
        free -= n;
        return new AllocationResult.Allocated(addresses);
    }

    /**
     * Marks exactly these addresses as {@code requester}'s, as when restoring allocations from
     * objects' status after a restart. All or nothing: if any address is outside the pool, already
     * taken or listed twice, nothing changes and the failure names the first such address.
     */
    public AllocationResult reserve(String requester, List<Ipv4Address> addresses) {
        Set<Ipv4Address> seen = new HashSet<>();
        for (Ipv4Address address : addresses) {
            if (!contains(address)) {
                String why = cidr.contains(address) ? " is the network or broadcast address of " : " is outside ";
                return new AllocationResult.Failed(requester, "cannot reserve " + address + ": it" + why + "the pool " + cidr);
            }
            if (!seen.add(address)) {
                return new AllocationResult.Failed(requester, "cannot reserve " + address + ": it is listed twice");
            }
            int index = indexOf(address);
            if (taken.get(index)) {
                return new AllocationResult.Failed(requester, "cannot reserve " + address + ": it is already allocated to " + owners.get(index));
            }
        }
        for (Ipv4Address address : addresses) {
            int index = indexOf(address);
            taken.set(index);
            owners.put(index, requester);
        }
        free -= addresses.size();
        return new AllocationResult.Allocated(addresses);
    }

    /**
     * Returns addresses to the pool. Addresses that are free already or outside the pool are
     * ignored, because releasing is repeated when a deletion is retried.
     *
     * @return how many addresses became free
     */
    public int release(List<Ipv4Address> addresses) {
        int released = 0;
        for (Ipv4Address address : addresses) {
            if (contains(address)) {
                int index = indexOf(address);
                if (taken.get(index)) {
                    taken.clear(index);
                    owners.remove(index);
                    released++;
                }
            }
        }
        free += released;
        return released;
    }

    /** Start of the lowest run of {@code n} clear bits, or -1; each step jumps a whole taken and a whole free run. */
    private int lowestFreeRun(int n) {
        int from = 0;
        while (true) {
            int start = taken.nextClearBit(from);
            if (start > size - n) {
                return -1;
            }
            int nextTaken = taken.nextSetBit(start);
            if (nextTaken < 0 || nextTaken - start >= n) {
                return start;
            }
            from = nextTaken;
        }
    }

    private int indexOf(Ipv4Address address) {
        return (int) (address.unsigned() - firstAddress);
    }

    private Ipv4Address addressAt(int index) {
        return new Ipv4Address((int) (firstAddress + index));
    }

    @Override
    public String toString() {
        return "GlobalIpPool[" + cidr + ", " + free + " of " + size + " free]";
    }
}
