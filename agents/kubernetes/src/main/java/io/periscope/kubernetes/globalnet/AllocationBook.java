package io.periscope.kubernetes.globalnet;

import io.periscope.model.globalnet.AllocationResult;
import io.periscope.model.globalnet.GlobalIpPool;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One leadership term's memory of who holds which global IPs: the pool and, per object, the uid it
 * had when it got them. It starts from the objects' status ({@link #restore}) and is then the
 * authority: status written later is a copy of it, and a lagging informer cache never makes an
 * address look free.
 */
public final class AllocationBook {

    /** What an object holds: its uid (a recreated object with the same name is another object) and addresses. */
    public record Holding(String uid, List<Ipv4Address> addresses) {
        public Holding {
            addresses = List.copyOf(addresses);
        }
    }

    private final GlobalIpPool pool;
    private final Map<ObjectKey, Holding> holdings = new HashMap<>();

    public AllocationBook(Ipv4Prefix globalCidr) {
        this.pool = new GlobalIpPool(globalCidr);
    }

    public Ipv4Prefix globalCidr() {
        return pool.cidr();
    }

    public int freeCount() {
        return pool.freeCount();
    }

    public Optional<Holding> holding(ObjectKey key) {
        return Optional.ofNullable(holdings.get(key));
    }

    public Set<ObjectKey> holders() {
        return Set.copyOf(holdings.keySet());
    }

    /** Takes back addresses found in an object's status after a restart: all of them or none. */
    public AllocationResult restore(ObjectKey key, String uid, List<Ipv4Address> addresses) {
        AllocationResult result = pool.reserve(key.requester(), addresses);
        if (result instanceof AllocationResult.Allocated) {
            holdings.put(key, new Holding(uid, addresses));
        }
        return result;
    }

    public AllocationResult allocate(ObjectKey key, String uid, int n) {
        release(key);
        AllocationResult result = pool.allocate(key.requester(), n);
        if (result instanceof AllocationResult.Allocated allocated && !allocated.addresses().isEmpty()) {
            holdings.put(key, new Holding(uid, allocated.addresses()));
        }
        return result;
    }

    /** Returns the object's addresses to the pool; nothing happens when it holds none. */
    public void release(ObjectKey key) {
        Holding holding = holdings.remove(key);
        if (holding != null) {
            pool.release(holding.addresses());
        }
    }
}
