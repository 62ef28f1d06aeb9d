package io.periscope.features.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.periscope.agent.dns.ClustersetZone;
import io.periscope.agent.dns.DnsServer;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.topology.FlowSource;
import io.periscope.plan.dns.ServiceDiscovery;
import io.periscope.planner.Planner;

import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Optional;

/**
 * Asks a real DNS server, started for the asking pod's cluster on 127.0.0.1, with the JDK's DNS
 * client (JNDI's DNS provider): names starting with '_' for SRV records, others for A records.
 */
public final class DnsSteps {

    private final ClusterSetUnderTest world;
    /** The records' data, in answer order; empty when the name does not exist. */
    private Optional<List<String>> answer = Optional.empty();

    public DnsSteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    @When("{word} asks its cluster's DNS server for {word}")
    public void asks(String from, String name) throws Exception {
        FlowSource source = FlowEndpointSyntax.parseSource(from);
        ClustersetZone zone = new ClustersetZone(Optional.of(source.cluster()), ServiceDiscovery.of(Planner.plan(world.clusterSet())));
        try (DnsServer server = DnsServer.start(new InetSocketAddress("127.0.0.1", 0), zone, 1)) {
            answer = query(server.address(), name, name.startsWith("_") ? "SRV" : "A");
        }
    }

    private static Optional<List<String>> query(InetSocketAddress server, String name, String type) throws NamingException {
        Hashtable<String, String> env = new Hashtable<>();
        env.put("java.naming.factory.initial", "com.sun.jndi.dns.DnsContextFactory");
        env.put("java.naming.provider.url", "dns://127.0.0.1:" + server.getPort());
        env.put("com.sun.jndi.dns.timeout.initial", "2000");
        env.put("com.sun.jndi.dns.timeout.retries", "2");
        DirContext context = new InitialDirContext(env);
        try {
            Attribute records = context.getAttributes(name + ".", new String[] {type}).get(type);
            List<String> data = new ArrayList<>();
            if (records != null) {
                NamingEnumeration<?> values = records.getAll();
                while (values.hasMore()) {
                    data.add(values.next().toString());
                }
            }
            return Optional.of(data);
        } catch (NameNotFoundException nxdomain) {
            return Optional.empty();
        } finally {
            context.close();
        }
    }

    @Then("the answer is {word}")
    public void answerIs(String record) {
        answerIsAll(record);
    }

    /** Records separated by ", ", in any order (the server keeps its order; a client may not). */
    @Then("^the answer is (.+, .+)$")
    public void answerIsAll(String records) {
        List<String> expected = List.of(records.split(", "));
        List<String> actual = answer.orElseThrow(() -> new AssertionError("the name does not exist (NXDOMAIN), expected " + expected));
        if (actual.size() != expected.size() || !actual.containsAll(expected)) {
            throw new AssertionError("the answer is " + actual + ", not " + expected);
        }
    }

    @Then("the name does not exist")
    public void nameDoesNotExist() {
        answer.ifPresent(records -> {
            throw new AssertionError("the name exists, with the answer " + records + " (expected NXDOMAIN)");
        });
    }
}
