package io.periscope.features.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.periscope.model.load.FlowEndpointSyntax;

import java.util.List;
import java.util.Optional;

/**
 * Asks the asking pod's cluster DNS server, through the backend: the simulator's starts a real server
 * on 127.0.0.1 and asks it with the JDK's DNS client; the lab asks the server running inside the
 * cluster with {@code dig} from the pod's own namespace. Names starting with '_' ask for SRV records,
 * others for A records.
 */
public final class DnsSteps {

    private final ClusterSetUnderTest world;
    /** The records' data, in answer order; empty when the name does not exist. */
    private Optional<List<String>> answer = Optional.empty();

    public DnsSteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    @When("{word} asks its cluster's DNS server for {word}")
    public void asks(String from, String name) {
        answer = world.deployment().askDns(FlowEndpointSyntax.parseSource(from), name, name.startsWith("_") ? "SRV" : "A");
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

    /** NOERROR without records: what Lighthouse answers for a service it knows when no cluster is left to answer. */
    @Then("the name exists with no records")
    public void answerIsEmpty() {
        List<String> actual = answer.orElseThrow(() -> new AssertionError("the name does not exist (NXDOMAIN), expected an empty NOERROR"));
        if (!actual.isEmpty()) {
            throw new AssertionError("the answer is " + actual + ", expected an empty NOERROR");
        }
    }

    @Then("the name does not exist")
    public void nameDoesNotExist() {
        answer.ifPresent(records -> {
            throw new AssertionError("the name exists, with the answer " + records + " (expected NXDOMAIN)");
        });
    }
}
