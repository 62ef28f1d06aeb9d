package io.periscope.features.steps;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.globalnet.ClusterGlobalnetAllocations;
import io.periscope.model.globalnet.GlobalIpAllocation;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.simulator.FlowResolutionException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Globalnet's addresses: global CIDRs, every object's global IPs and status, Endpoints, Lighthouse's answers. */
public final class GlobalnetSteps {

    private final ClusterSetUnderTest world;

    public GlobalnetSteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    private ClusterGlobalnetAllocations cluster(String name) {
        return world.deployment().allocations().cluster(name)
                .orElseThrow(() -> new AssertionError("cluster " + name + " has no Globalnet allocations (is Globalnet on?)"));
    }

    @Then("cluster {word} has the global CIDR {word}")
    public void globalCidr(String cluster, String cidr) {
        Ipv4Prefix actual = cluster(cluster).globalCidr();
        if (!actual.equals(Ipv4Prefix.parse(cidr))) {
            throw new AssertionError("cluster " + cluster + " has the global CIDR " + actual + ", not " + cidr);
        }
    }

    @Then("the global IPs of cluster {word} are:")
    public void globalIpsAre(String cluster, DataTable table) {
        List<String> expected = table.asMaps().stream().map(row -> line(row, row.containsKey("status"))).sorted().toList();
        boolean withStatus = table.asMaps().stream().anyMatch(r -> r.containsKey("status"));
        if (withStatus) {
            world.deployment().readsAllocationStatuses();
        }
        List<String> actual = cluster(cluster).allocations().stream().map(a -> line(a, withStatus)).sorted().toList();
        if (!actual.equals(expected)) {
            throw new AssertionError("cluster " + cluster + "'s global IPs are\n  " + String.join("\n  ", actual)
                    + "\nnot\n  " + String.join("\n  ", expected));
        }
        apiAgrees(cluster, table);
    }

    /** When this scenario runs a Kubernetes control plane, its objects' status must say the same. */
    private void apiAgrees(String cluster, DataTable table) {
        for (Map<String, String> row : table.asMaps()) {
            String addresses = row.get("addresses") == null || row.get("addresses").isBlank() ? "none" : row.get("addresses").trim();
            KubernetesSteps.checkApiAgrees(world, cluster, row.get("object").trim(), addresses,
                    java.util.Optional.ofNullable(row.get("status")).map(String::trim));
        }
    }

    @Then("the global IPs of cluster {word} include:")
    public void globalIpsInclude(String cluster, DataTable table) {
        boolean withStatus = table.asMaps().stream().anyMatch(r -> r.containsKey("status"));
        if (withStatus) {
            world.deployment().readsAllocationStatuses();
        }
        List<String> actual = cluster(cluster).allocations().stream().map(a -> line(a, withStatus)).toList();
        for (Map<String, String> row : table.asMaps()) {
            String expected = line(row, withStatus);
            if (!actual.contains(expected)) {
                throw new AssertionError("cluster " + cluster + " has no " + expected + "; its global IPs:\n  " + String.join("\n  ", actual));
            }
        }
        apiAgrees(cluster, table);
    }

    @Then("the status message of {string} in cluster {word} says {string}")
    public void statusMessage(String object, String cluster, String text) {
        world.deployment().readsAllocationStatuses();
        GlobalIpAllocation allocation = cluster(cluster).allocations().stream().filter(a -> a.requester().equals(object)).findFirst()
                .orElseThrow(() -> new AssertionError("cluster " + cluster + " has no " + object));
        if (!TextPattern.parse(text).foundIn(allocation.condition().message())) {
            throw new AssertionError(object + "'s status message is '" + allocation.condition().message() + "', which does not say '" + text + "'");
        }
    }

    @Then("every global IP of cluster {word} lies inside its global CIDR but is neither its network nor its broadcast address")
    public void insideThePool(String cluster) {
        ClusterGlobalnetAllocations allocations = cluster(cluster);
        Ipv4Prefix cidr = allocations.globalCidr();
        for (GlobalIpAllocation allocation : allocations.allocations()) {
            for (Ipv4Address address : allocation.addresses()) {
                if (!cidr.contains(address) || address.equals(cidr.first()) || address.equals(cidr.last())) {
                    throw new AssertionError(allocation.requester() + " holds " + address + ", which is not a usable address of " + cidr);
                }
            }
        }
    }

    @Then("no global IP of cluster {word} is held twice")
    public void noAddressTwice(String cluster) {
        Set<Ipv4Address> seen = new HashSet<>();
        for (GlobalIpAllocation allocation : cluster(cluster).allocations()) {
            for (Ipv4Address address : allocation.addresses()) {
                if (!seen.add(address)) {
                    throw new AssertionError(address + " is held twice; the second holder is " + allocation.requester());
                }
            }
        }
    }

    @Then("cluster {word} holds no global IP for {string}")
    public void holdsNothingFor(String cluster, String object) {
        cluster(cluster).allocations().stream().filter(a -> a.requester().equals(object)).findFirst().ifPresent(a -> {
            throw new AssertionError("cluster " + cluster + " still holds " + line(a, true));
        });
    }

    @Then("cluster {word} has {int} free global IPs")
    public void freeCount(String cluster, int free) {
        world.deployment().readsAllocationStatuses();
        int actual = cluster(cluster).freeCount();
        if (actual != free) {
            throw new AssertionError("cluster " + cluster + " has " + actual + " free global IPs, not " + free);
        }
    }

    /** With a {@code healthCheckIP} column, the address remote health checks ping is compared too. */
    @Then("the Endpoints are:")
    public void endpointsAre(DataTable table) {
        boolean healthCheck = table.asMaps().stream().anyMatch(r -> r.containsKey("healthCheckIP"));
        Set<String> expected = new TreeSet<>();
        for (Map<String, String> row : table.asMaps()) {
            expected.add(row.get("cluster").trim() + " " + row.get("gateway").trim() + " subnets [" + normalise(row.get("subnets"))
                    + "] allocatedIPs [" + normalise(row.get("allocatedIPs")) + "]"
                    + (healthCheck ? " healthCheckIP [" + normalise(row.get("healthCheckIP")) + "]" : ""));
        }
        Set<String> actual = new TreeSet<>();
        for (Endpoint endpoint : world.deployment().endpoints()) {
            actual.add(endpoint.clusterId() + " " + endpoint.hostname() + " subnets ["
                    + endpoint.subnets().stream().map(Ipv4Prefix::toString).collect(Collectors.joining(", "))
                    + "] allocatedIPs [" + AddressText.of(endpoint.allocatedIPs()) + "]"
                    + (healthCheck ? " healthCheckIP [" + endpoint.healthCheckIp().map(Object::toString).orElse("") + "]" : ""));
        }
        if (!actual.equals(expected)) {
            throw new AssertionError("the Endpoints are\n  " + String.join("\n  ", actual) + "\nnot\n  " + String.join("\n  ", expected));
        }
    }

    /** {@code nothing} when Lighthouse has no answer (nobody exports the service). */
    @Then("{word} resolves {word} to {word}")
    public void resolves(String from, String name, String address) {
        Ipv4Address actual;
        try {
            actual = world.deployment().resolve(FlowEndpointSyntax.parseSource(from), name);
        } catch (FlowResolutionException e) {
            if (address.equals("nothing")) {
                return;
            }
            throw new AssertionError(from + " cannot resolve " + name + ": " + e.getMessage(), e);
        }
        if (address.equals("nothing") || !actual.equals(Ipv4Address.parse(address))) {
            throw new AssertionError(from + " resolves " + name + " to " + actual + ", not " + address);
        }
    }

    private static String normalise(String cell) {
        return cell == null ? "" : String.join(", ", HostNames.words(cell));
    }

    private static String line(Map<String, String> row, boolean withStatus) {
        String addresses = row.get("addresses") == null ? "" : row.get("addresses").trim();
        return row.get("object").trim() + " = " + (addresses.isEmpty() ? "none" : addresses)
                + (withStatus ? " (" + (row.get("status") == null ? "" : row.get("status").trim()) + ")" : "");
    }

    private static String line(GlobalIpAllocation allocation, boolean withStatus) {
        String addresses = allocation.addresses().isEmpty() ? "none" : AddressText.of(allocation.addresses());
        return allocation.requester() + " = " + addresses + (withStatus ? " (" + allocation.condition().reason().upstreamName() + ")" : "");
    }

    /** Addresses as the documents write them: one address, a contiguous range {@code a-b}, or a list. */
    static final class AddressText {

        private AddressText() {
        }

        static String of(List<Ipv4Address> addresses) {
            if (addresses.size() > 1 && contiguous(addresses)) {
                return addresses.getFirst() + "-" + addresses.getLast();
            }
            List<String> parts = new ArrayList<>();
            addresses.forEach(a -> parts.add(a.toString()));
            return String.join(", ", parts);
        }

        private static boolean contiguous(List<Ipv4Address> addresses) {
            for (int i = 1; i < addresses.size(); i++) {
                if (!addresses.get(i).equals(addresses.get(i - 1).plus(1))) {
                    return false;
                }
            }
            return true;
        }
    }
}
