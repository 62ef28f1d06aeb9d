package io.periscope.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.periscope.dns.ClustersetZone;
import io.periscope.dns.DnsServer;
import io.periscope.model.load.TopologyException;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.dns.ClusterVerdict;
import io.periscope.plan.dns.DnsAnswer;
import io.periscope.plan.dns.DnsNameSyntax;
import io.periscope.plan.dns.DnsRecord;
import io.periscope.plan.dns.GatewayHealth;
import io.periscope.plan.dns.Rcode;
import io.periscope.plan.dns.Rotation;
import io.periscope.plan.dns.ServiceDiscovery;
import io.periscope.plan.dns.ZoneFile;
import io.periscope.planner.Planner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code periscope dns}: what a pod of one cluster gets when it asks the cluster set's DNS for a name,
 * and why; or the zone as a master file; or the DNS server itself, serving the file's cluster set.
 */
@Command(name = "dns",
        description = {"Answer a clusterset.local NAME as the cluster's DNS server would for a pod of --from, with the clusters "
                + "considered and why any was left out.",
                "With --zone instead of NAME, print the zone as a master file (the first turn of every rotation); with --serve, "
                        + "run the DNS server for that cluster on ADDRESS:PORT (UDP and TCP) until interrupted."})
public final class DnsCommand implements Callable<Integer> {

    private static final Map<String, Integer> TYPES = Map.of("A", DnsRecord.A, "NS", DnsRecord.NS, "SOA", DnsRecord.SOA,
            "AAAA", DnsRecord.AAAA, "SRV", DnsRecord.SRV, "ANY", DnsRecord.ANY, "TXT", 16, "CNAME", 5, "PTR", 12, "MX", 15);

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Parameters(index = "1", arity = "0..1", paramLabel = "NAME",
            description = "the name to ask, e.g. nginx.default.svc.clusterset.local or _http._tcp.nginx.default.svc.clusterset.local")
    private String name;

    @Option(names = "--from", paramLabel = "CLUSTER", description = "the asking pod's cluster (default: the file's first cluster)")
    private String from;

    @Option(names = "--type", paramLabel = "TYPE", defaultValue = "A",
            description = "the record type: A, SRV, AAAA, SOA, ANY, ... or a number (default: ${DEFAULT-VALUE})")
    private String type;

    @Option(names = "--fail", paramLabel = "CLUSTER/NODE", converter = NodeReference.Converter.class,
            description = "answer as if this node had failed (repeatable); a cluster left without gateways is left out")
    private List<NodeReference> failedNodes = List.of();

    @Option(names = "--json", description = "print the answer as JSON (docs/cli.md)")
    private boolean json;

    @Option(names = "--zone", description = "print the zone as an RFC 1035 master file instead of answering a name")
    private boolean zone;

    @Option(names = "--serve", paramLabel = "ADDRESS:PORT", description = "run the DNS server on this address (e.g. 127.0.0.1:5353)")
    private String serve;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "event loop threads of --serve (default: ${DEFAULT-VALUE})")
    private int threads;

    @Override
    public Integer call() throws TopologyException, InterruptedException {
        ClusterSet set = topology.load();
        int modes = (name != null ? 1 : 0) + (zone ? 1 : 0) + (serve != null ? 1 : 0);
        if (modes != 1) {
            throw new ParameterException(spec.commandLine(), modes == 0
                    ? "give a NAME to answer, --zone or --serve ADDRESS:PORT"
                    : "give only one of NAME, --zone and --serve");
        }
        String asking = askingCluster(set);
        Simulation.survivors(spec.commandLine(), set, failedNodes);
        ServiceDiscovery discovery = ServiceDiscovery.of(Planner.planWithout(set, failedNodes.stream().map(NodeReference::toString).toList()),
                GatewayHealth.ALL_UP);
        PrintWriter out = spec.commandLine().getOut();
        if (zone) {
            out.print(ZoneFile.render(discovery, Optional.of(asking), Ipv4Address.parse("127.0.0.1")));
            out.flush();
            return ExitStatus.OK;
        }
        if (serve != null) {
            return serve(discovery, asking, out);
        }
        int code = recordType();
        Optional<String> malformed = DnsNameSyntax.problem(name);
        if (malformed.isPresent()) {
            throw new ParameterException(spec.commandLine(), "'" + name + "' is not a DNS name: " + malformed.get()
                    + "; ask e.g. nginx.default.svc." + ServiceDiscovery.ZONE);
        }
        DnsAnswer answer = discovery.answer(name, code, Optional.of(asking), Rotation.FIRST);
        if (answer.rcode() == Rcode.REFUSED) {
            throw new ParameterException(spec.commandLine(), "'" + name + "' is not in " + ServiceDiscovery.ZONE
                    + "; ask service.namespace.svc." + ServiceDiscovery.ZONE + " (or cluster., pod.cluster., _port._protocol. before it)");
        }
        if (json) {
            try {
                out.println(IndentedJson.write(json(answer, asking)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        } else {
            out.print(text(answer, asking));
        }
        out.flush();
        return ExitStatus.OK;
    }

    private String askingCluster(ClusterSet set) {
        if (from == null) {
            return set.clusters().getFirst().name();
        }
        if (set.cluster(from).isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--from " + from + ": the file has no cluster '" + from + "' (clusters: "
                    + set.clusters().stream().map(Cluster::name).collect(Collectors.joining(", ")) + ")");
        }
        return from;
    }

    private int recordType() {
        String upper = type.toUpperCase(Locale.ROOT);
        if (TYPES.containsKey(upper)) {
            return TYPES.get(upper);
        }
        try {
            int code = Integer.parseInt(type);
            if (code >= 1 && code <= 65535) {
                return code;
            }
        } catch (NumberFormatException notANumber) {
            // Reported below with the known names.
        }
        throw new ParameterException(spec.commandLine(), "--type " + type + ": not a record type; use one of "
                + TYPES.keySet().stream().sorted().collect(Collectors.joining(", ")) + " or a number from 1 to 65535");
    }

    private String typeName(int code) {
        return TYPES.entrySet().stream().filter(e -> e.getValue() == code).map(Map.Entry::getKey).findFirst().orElse("TYPE" + code);
    }

    private Integer serve(ServiceDiscovery discovery, String asking, PrintWriter out) throws InterruptedException {
        InetSocketAddress address = address();
        if (threads < 1) {
            throw new ParameterException(spec.commandLine(), "--threads " + threads + ": use 1 or more");
        }
        DnsServer server;
        try {
            server = DnsServer.start(address, new ClustersetZone(Optional.of(asking), discovery), threads);
        } catch (java.io.IOException e) {
            throw new ParameterException(spec.commandLine(), "--serve " + serve + ": cannot listen there (" + e.getMessage()
                    + "); choose a free port, or an address of this machine");
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "dns-server-stop"));
        out.println("serving " + ServiceDiscovery.ZONE + " for pods of cluster " + asking + " on " + server.address().getHostString() + ":"
                + server.address().getPort() + " (UDP and TCP); interrupt to stop");
        out.flush();
        server.awaitClose();
        return ExitStatus.OK;
    }

    private InetSocketAddress address() {
        int colon = serve.lastIndexOf(':');
        try {
            if (colon <= 0) {
                throw new IllegalArgumentException("no port");
            }
            int port = Integer.parseInt(serve.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port outside 0..65535");
            }
            return new InetSocketAddress(java.net.InetAddress.getByName(Ipv4Address.parse(serve.substring(0, colon)).toString()), port);
        } catch (IllegalArgumentException | java.net.UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), "--serve " + serve + ": not IPV4-ADDRESS:PORT (" + e.getMessage()
                    + "), e.g. 127.0.0.1:5353");
        }
    }

    private String text(DnsAnswer answer, String asking) {
        StringBuilder text = new StringBuilder();
        text.append(answer.name()).append(' ').append(typeName(answer.type())).append(", asked by a pod of cluster ").append(asking)
                .append(from == null ? " (the file's first cluster; --from to choose)" : "").append('\n');
        text.append(answer.rcode()).append(answer.nobodyLeft() ? " (empty: the service exists, but no cluster is left to answer)"
                        : answer.noData() ? " (NODATA: the name exists, without records of this type)" : "")
                .append(", TTL ").append(ServiceDiscovery.TTL).append('\n');
        section(text, "answer", answer.answers());
        section(text, "authority", answer.authority());
        section(text, "additional", answer.additionals());
        if (!answer.clusters().isEmpty()) {
            text.append("clusters considered:\n");
            int width = answer.clusters().stream().mapToInt(c -> c.cluster().length()).max().orElse(0);
            for (ClusterVerdict c : answer.clusters()) {
                text.append("  ").append(String.format("%-" + width + "s", c.cluster())).append("  ")
                        .append(c.answers() ? "answers" : c.verdict().eligible() ? "not chosen: " + c.verdict().reason()
                                : c.verdict().periscopesOwn() ? "left out by Periscope: " + c.verdict().reason()
                                : "left out: " + c.verdict().reason()).append('\n');
            }
            if (answer.clusters().stream().anyMatch(c -> c.verdict().periscopesOwn())) {
                text.append("(\"left out by Periscope\": Periscope's own check, from the plan's connectivity policy and gateway health;\n"
                        + " Lighthouse knows no connectivity policy, and skips only clusters its Gateway does not report connected,\n"
                        + " never for a cluster-qualified name. See docs/dns.md.)\n");
            }
        }
        answer.note().ifPresent(n -> text.append("why: ").append(n).append('\n'));
        return text.toString();
    }

    private static void section(StringBuilder text, String title, List<DnsRecord> records) {
        if (records.isEmpty()) {
            return;
        }
        text.append(title).append(":\n");
        records.forEach(r -> text.append("  ").append(r.zoneLine()).append('\n'));
    }

    private Map<String, Object> json(DnsAnswer answer, String asking) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", answer.name());
        m.put("type", typeName(answer.type()));
        m.put("from", asking);
        m.put("rcode", answer.rcode().name());
        m.put("noData", answer.noData());
        m.put("answers", records(answer.answers()));
        m.put("authority", records(answer.authority()));
        m.put("additionals", records(answer.additionals()));
        List<Map<String, Object>> clusters = new ArrayList<>();
        for (ClusterVerdict c : answer.clusters()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("cluster", c.cluster());
            v.put("verdict", c.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            v.put("answers", c.answers());
            v.put("leftOut", !c.verdict().eligible());
            v.put("periscopesOwn", c.verdict().periscopesOwn());
            v.put("reason", c.verdict().reason());
            clusters.add(v);
        }
        m.put("clusters", clusters);
        answer.note().ifPresent(n -> m.put("note", n));
        return m;
    }

    private static List<Map<String, Object>> records(List<DnsRecord> records) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (DnsRecord r : records) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", r.name());
            m.put("ttl", r.ttl());
            switch (r) {
                case DnsRecord.Address a -> {
                    m.put("type", "A");
                    m.put("address", a.address().toString());
                }
                case DnsRecord.Location l -> {
                    m.put("type", "SRV");
                    m.put("priority", l.priority());
                    m.put("weight", l.weight());
                    m.put("port", l.port());
                    m.put("target", l.target());
                }
                case DnsRecord.Authority s -> {
                    m.put("type", "SOA");
                    m.put("primary", s.primary());
                    m.put("serial", s.serial());
                }
            }
            list.add(m);
        }
        return list;
    }
}
