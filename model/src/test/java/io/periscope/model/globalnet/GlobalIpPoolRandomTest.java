package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives a pool with seeded random allocate / release / reserve operations and checks it after every
 * one against a deliberately naive model: a map from address to owner, scanned address by address.
 * The model also decides which addresses a request must get (top-most single, lowest run), so the
 * rules are checked in every state the walk reaches, not only in hand-picked ones.
 */
class GlobalIpPoolRandomTest {

    private static final int OPERATIONS = 100_000;

    static Stream<Arguments> seedsAndPools() {
        return Stream.of(
                Arguments.of(11L, "242.254.1.0/24"),
                Arguments.of(23L, "242.254.2.0/26"),
                Arguments.of(37L, "10.8.0.0/23"),
                Arguments.of(41L, "242.0.0.0/29"),
                Arguments.of(53L, "242.254.3.0/24"));
    }

    @ParameterizedTest(name = "seed {0}, pool {1}")
    @MethodSource("seedsAndPools")
    void poolAgreesWithTheReferenceModelAfterEveryOperation(long seed, String cidrText) {
        Ipv4Prefix cidr = Ipv4Prefix.parse(cidrText);
        GlobalIpPool pool = new GlobalIpPool(cidr);
        ReferencePool reference = new ReferencePool(cidr);
        Random random = new Random(seed);
        int succeeded = 0;
        int failedOps = 0;

        for (int op = 0; op < OPERATIONS; op++) {
            String requester = "r" + op;
            int freeBefore = pool.freeCount();
            int dice = random.nextInt(100);
            if (dice < 40) {
                int n = chooseCount(random, reference.size());
                Optional<List<Ipv4Address>> expected = reference.expectedAllocation(n);
                AllocationResult result = pool.allocate(requester, n);
                String context = "op " + op + ": allocate(" + n + ") with " + freeBefore + " free";
                switch (result) {
                    case AllocationResult.Allocated allocated -> {
                        assertThat(expected).as(context).contains(allocated.addresses());
                        assertFreshAndInsidePool(reference, allocated.addresses(), context);
                        reference.take(requester, allocated.addresses());
                        succeeded++;
                    }
                    case AllocationResult.Failed failed -> {
                        assertThat(expected).as(context + " failed: " + failed.describe()).isEmpty();
                        assertThat(failed.requester()).isEqualTo(requester);
                        assertThat(pool.freeCount()).as(context).isEqualTo(freeBefore);
                        failedOps++;
                    }
                }
                assertAgreeOn(pool, reference, result instanceof AllocationResult.Allocated a ? a.addresses() : List.of(), context);
            } else if (dice < 75) {
                List<Ipv4Address> toRelease = chooseRelease(random, reference, cidr);
                int expectedReleased = reference.countAllocated(toRelease);
                int released = pool.release(toRelease);
                String context = "op " + op + ": release(" + toRelease + ")";
                assertThat(released).as(context).isEqualTo(expectedReleased);
                reference.free(toRelease);
                for (Ipv4Address address : toRelease) {
                    assertThat(pool.isAllocated(address)).as(context + " left " + address + " allocated").isFalse();
                }
                assertAgreeOn(pool, reference, toRelease, context);
            } else {
                List<Ipv4Address> toReserve = chooseReservation(random, reference, cidr);
                boolean valid = reference.canReserve(toReserve);
                AllocationResult result = pool.reserve(requester, toReserve);
                String context = "op " + op + ": reserve(" + toReserve + ")";
                switch (result) {
                    case AllocationResult.Allocated allocated -> {
                        assertThat(valid).as(context + " should have failed").isTrue();
                        assertThat(allocated.addresses()).as(context).isEqualTo(toReserve);
                        assertFreshAndInsidePool(reference, toReserve, context);
                        reference.take(requester, toReserve);
                        succeeded++;
                    }
                    case AllocationResult.Failed failed -> {
                        assertThat(valid).as(context + " should have succeeded, got: " + failed.describe()).isFalse();
                        assertThat(failed.requester()).isEqualTo(requester);
                        assertThat(pool.freeCount()).as(context).isEqualTo(freeBefore);
                        failedOps++;
                    }
                }
                assertAgreeOn(pool, reference, toReserve, context);
            }
            assertThat(pool.freeCount()).as("free count after op " + op).isEqualTo(reference.size() - reference.allocatedCount());
            if (op % 16 == 0) {
                assertAgreeEverywhere(pool, reference, cidr, "op " + op);
            }
        }
        assertAgreeEverywhere(pool, reference, cidr, "the end");
        // The walk must have exercised both outcomes, or the checks above proved little.
        assertThat(succeeded).isGreaterThan(OPERATIONS / 10);
        assertThat(failedOps).isGreaterThan(OPERATIONS / 100);
    }

    private static int chooseCount(Random random, int poolSize) {
        int dice = random.nextInt(100);
        if (dice < 30) {
            return 1;
        } else if (dice < 38) {
            return 0;
        } else if (dice < 40) {
            return -1 - random.nextInt(3);
        } else if (dice < 92) {
            return 2 + random.nextInt(9);
        }
        return 1 + random.nextInt(poolSize + 4);
    }

    private static List<Ipv4Address> chooseRelease(Random random, ReferencePool reference, Ipv4Prefix cidr) {
        List<Ipv4Address> addresses = new ArrayList<>();
        Ipv4Address probe = randomAddressInCidr(random, cidr);
        Optional<String> owner = reference.ownerOf(probe);
        if (owner.isPresent()) {
            List<Ipv4Address> owned = reference.addressesOf(owner.get());
            // Whole allocations most of the time, part of one sometimes.
            addresses.addAll(random.nextInt(4) == 0 ? owned.subList(0, 1 + random.nextInt(owned.size())) : owned);
        } else {
            addresses.add(probe);
        }
        int noise = random.nextInt(3);
        for (int i = 0; i < noise; i++) {
            addresses.add(random.nextBoolean() ? randomAddressInCidr(random, cidr) : outside(random, cidr));
        }
        if (random.nextInt(10) == 0 && !addresses.isEmpty()) {
            addresses.add(addresses.getFirst());
        }
        return addresses;
    }

    private static List<Ipv4Address> chooseReservation(Random random, ReferencePool reference, Ipv4Prefix cidr) {
        List<Ipv4Address> addresses = new ArrayList<>();
        int count = random.nextInt(6);
        for (int i = 0; i < count; i++) {
            addresses.add(randomAddressInCidr(random, cidr));
        }
        switch (random.nextInt(12)) {
            case 0 -> addresses.add(cidr.first());
            case 1 -> addresses.add(cidr.last());
            case 2 -> addresses.add(outside(random, cidr));
            case 3 -> {
                if (!addresses.isEmpty()) {
                    addresses.add(addresses.get(random.nextInt(addresses.size())));
                }
            }
            default -> addresses.removeIf(a -> !reference.isFree(a));
        }
        return addresses;
    }

    /** Any address of the CIDR, network and broadcast included, so that the walk tries them. */
    private static Ipv4Address randomAddressInCidr(Random random, Ipv4Prefix cidr) {
        return cidr.first().plus(random.nextLong(cidr.size()));
    }

    private static Ipv4Address outside(Random random, Ipv4Prefix cidr) {
        return random.nextBoolean() ? cidr.first().plus(-1 - random.nextInt(50)) : cidr.last().plus(1 + random.nextInt(50));
    }

    private static void assertFreshAndInsidePool(ReferencePool reference, List<Ipv4Address> addresses, String context) {
        assertThat(new HashSet<>(addresses)).as(context + ": handed out twice in one answer").hasSameSizeAs(addresses);
        for (Ipv4Address address : addresses) {
            assertThat(reference.inPool(address)).as(context + ": " + address + " is not a pool address").isTrue();
            assertThat(reference.ownerOf(address)).as(context + ": " + address + " was already handed out").isEmpty();
        }
    }

    private static void assertAgreeOn(GlobalIpPool pool, ReferencePool reference, List<Ipv4Address> addresses, String context) {
        for (Ipv4Address address : addresses) {
            assertThat(pool.ownerOf(address)).as(context + ": owner of " + address).isEqualTo(reference.ownerOf(address));
            assertThat(pool.isAllocated(address)).as(context + ": " + address + " allocated").isEqualTo(reference.ownerOf(address).isPresent());
        }
    }

    private static void assertAgreeEverywhere(GlobalIpPool pool, ReferencePool reference, Ipv4Prefix cidr, String context) {
        for (long i = -2; i < cidr.size() + 2; i++) {
            Ipv4Address address = cidr.first().plus(i);
            assertThat(pool.contains(address)).as(context + ": " + address + " in pool").isEqualTo(reference.inPool(address));
            assertThat(pool.ownerOf(address)).as(context + ": owner of " + address).isEqualTo(reference.ownerOf(address));
        }
    }

    /** The naive model: pool membership by definition, ownership in a HashMap, searches by linear scan. */
    private static final class ReferencePool {
        private final Ipv4Prefix cidr;
        private final Map<Ipv4Address, String> owners = new HashMap<>();

        ReferencePool(Ipv4Prefix cidr) {
            this.cidr = cidr;
        }

        boolean inPool(Ipv4Address address) {
            return cidr.contains(address) && !address.equals(cidr.first()) && !address.equals(cidr.last());
        }

        int size() {
            return (int) Math.max(0, cidr.size() - 2);
        }

        int allocatedCount() {
            return owners.size();
        }

        boolean isFree(Ipv4Address address) {
            return inPool(address) && !owners.containsKey(address);
        }

        Optional<String> ownerOf(Ipv4Address address) {
            return Optional.ofNullable(owners.get(address));
        }

        List<Ipv4Address> addressesOf(String owner) {
            return owners.entrySet().stream().filter(e -> e.getValue().equals(owner)).map(Map.Entry::getKey).sorted().toList();
        }

        Optional<List<Ipv4Address>> expectedAllocation(int n) {
            if (n < 0) {
                return Optional.empty();
            }
            if (n == 0) {
                return Optional.of(List.of());
            }
            if (n == 1) {
                for (Ipv4Address a = cidr.last().plus(-1); inPool(a); a = a.plus(-1)) {
                    if (isFree(a)) {
                        return Optional.of(List.of(a));
                    }
                }
                return Optional.empty();
            }
            List<Ipv4Address> run = new ArrayList<>();
            for (Ipv4Address a = cidr.first().plus(1); inPool(a); a = a.plus(1)) {
                if (isFree(a)) {
                    run.add(a);
                    if (run.size() == n) {
                        return Optional.of(run);
                    }
                } else {
                    run.clear();
                }
            }
            return Optional.empty();
        }

        boolean canReserve(List<Ipv4Address> addresses) {
            return addresses.stream().allMatch(this::isFree) && new LinkedHashSet<>(addresses).size() == addresses.size();
        }

        int countAllocated(List<Ipv4Address> addresses) {
            Set<Ipv4Address> distinct = new HashSet<>(addresses);
            return (int) distinct.stream().filter(owners::containsKey).count();
        }

        void take(String owner, List<Ipv4Address> addresses) {
            addresses.forEach(a -> owners.put(a, owner));
        }

        void free(List<Ipv4Address> addresses) {
            addresses.forEach(owners::remove);
        }
    }
}
