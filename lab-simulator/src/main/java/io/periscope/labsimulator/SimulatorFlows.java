package io.periscope.labsimulator;

import io.periscope.lab.probe.FlowSimulation;
import io.periscope.lab.probe.ProbeTarget;
import io.periscope.lab.trace.TraceJsonReader;
import io.periscope.lab.trace.TracePath;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowTarget;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.dns.DnsRecord;
import io.periscope.plan.dns.ServiceDiscovery;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.NameNotAnswered;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.TraceJson;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The simulator as the probe's reference: flows resolved and traced with every branch followed, each
 * path handed over as the trace JSON of spec section 3 and read back by {@link TraceJsonReader}, so
 * that what is compared is exactly what {@code trace --json} prints.
 */
public final class SimulatorFlows implements FlowSimulation {

    private final Simulator simulator;
    private final ServiceDiscovery discovery;

    public SimulatorFlows(ClusterSetPlan plan) {
        this.simulator = new Simulator(plan);
        this.discovery = ServiceDiscovery.of(plan);
    }

    @Override
    public List<List<Ipv4Address>> answers(Flow flow) {
        if (!(flow.to() instanceof FlowTarget.DnsTarget dns)) {
            return List.of();
        }
        Optional<String> asking = Optional.of(flow.from().cluster());
        // A first question tells how many clusters take turns; then one question per turn.
        int[] turns = {1};
        discovery.answer(dns.name(), DnsRecord.A, asking, (service, candidates) -> {
            turns[0] = Math.max(1, candidates);
            return 0;
        });
        List<List<Ipv4Address>> answers = new ArrayList<>();
        for (int turn = 0; turn < turns[0]; turn++) {
            int chosen = turn;
            List<Ipv4Address> addresses = discovery.answer(dns.name(), DnsRecord.A, asking, (service, candidates) -> chosen).addresses();
            if (!addresses.isEmpty() && !answers.contains(addresses)) {
                answers.add(addresses);
            }
        }
        return List.copyOf(answers);
    }

    @Override
    public ProbeTarget resolve(Flow flow) {
        try {
            ResolvedFlow resolved = simulator.resolver().resolve(flow);
            return new ProbeTarget(resolved.source(), resolved.sourceIp(), resolved.destination(), resolved.port(), resolved.protocol(),
                    resolved.resolvedText(), resolved.size());
        } catch (NameNotAnswered e) {
            throw new FlowSimulation.UnansweredName(e.answerMissing());
        } catch (FlowResolutionException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public List<TracePath> paths(ProbeTarget target, int sourcePort) {
        ResolvedFlow flow = new ResolvedFlow(target.source(), target.sourceIp(), target.destination(), target.port(), target.protocol(),
                sourcePort, target.size());
        List<TracePath> paths = new ArrayList<>();
        for (PathTrace path : simulator.trace(flow)) {
            paths.add(TraceJsonReader.path(TraceJson.path(path)));
        }
        return paths;
    }
}
