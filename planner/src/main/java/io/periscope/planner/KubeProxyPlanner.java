package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServicePort;
import io.periscope.plan.Names;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * kube-proxy's iptables mode, as far as the documented flows depend on it: KUBE-SERVICES matches a
 * service address and port, KUBE-SVC-* picks an endpoint with {@code statistic} probabilities
 * (1/n, 1/(n-1), ..., so each endpoint is equally likely), KUBE-SEP-* DNATs to it. Chain names are
 * kube-proxy's: a prefix and 16 characters of base32(sha256(service port name + protocol)).
 * KUBE-MARK-MASQ marks what kube-proxy wants masqueraded and KUBE-POSTROUTING masquerades it:
 * hairpin traffic (a pod reaching itself through its service, marked by KUBE-SEP), traffic to a
 * cluster IP from outside the cluster CIDR ({@code --cluster-cidr}, the first pod CIDR: marked
 * first thing in KUBE-SVC), and all traffic to an external IP (KUBE-EXT marks it, then jumps to the
 * KUBE-SVC chain). Cross-cluster traffic is marked too; Submariner's SUBMARINER-POSTROUTING
 * ACCEPTs, above KUBE-POSTROUTING, are what keeps it from being masqueraded.
 */
final class KubeProxyPlanner {

    static final String KUBE_MARK_MASQ = "KUBE-MARK-MASQ";
    static final String KUBE_POSTROUTING = "KUBE-POSTROUTING";
    /** kube-proxy's masquerade mark. */
    static final int MASQUERADE_MARK = 0x4000;

    private KubeProxyPlanner() {
    }

    /**
     * Adds kube-proxy's chains for every service of the cluster to a node's environment.
     * {@code externalIps} gives, per service, the extra address kube-proxy also answers on: the
     * global IP of an exported service, which upstream Globalnet realises as an internal service
     * {@code submariner-<hash>} with the global IP as external IP.
     */
    static void plan(Cluster cluster, ClusterIndex index, PlanBuilder environment, java.util.function.Function<Service, Optional<Ipv4Address>> externalIps) {
        List<Rule> services = environment.chain(Table.NAT, Names.KUBE_SERVICES);
        EndpointRuleParts parts = new EndpointRuleParts();
        boolean any = false;
        for (Service service : cluster.services()) {
            if (service.headless()) {
                continue;
            }
            List<Pod> endpoints = index.endpointsOf(service);
            for (ServicePort port : service.ports()) {
                // "ip:targetPort" of each endpoint, written once for the service's chains and the internal service's.
                String[] ipAndPorts = new String[endpoints.size()];
                for (int i = 0; i < ipAndPorts.length; i++) {
                    ipAndPorts[i] = endpoints.get(i).ip() + ":" + port.targetPort();
                }
                String portName = servicePortName(service.qualifiedName(), service, port);
                String svcChain = chainName("KUBE-SVC-", portName, port);
                services.add(new Rule(List.of(new Match.Destination(Ipv4Prefix.host(service.clusterIp().orElseThrow())),
                        new Match.ProtocolIs(port.protocol()), new Match.DestinationPort(port.port())),
                        Target.jump(svcChain), Optional.of(portName + " cluster IP")));
                if (!cluster.podCidrs().isEmpty()) {
                    environment.rule(Table.NAT, svcChain, new Rule(List.of(new Match.Source(cluster.podCidrs().getFirst(), true),
                            new Match.Destination(Ipv4Prefix.host(service.clusterIp().orElseThrow())), new Match.ProtocolIs(port.protocol()),
                            new Match.DestinationPort(port.port())), Target.jump(KUBE_MARK_MASQ), Optional.of(portName + " cluster IP")));
                }
                endpointChains(environment, svcChain, portName, port, endpoints, ipAndPorts, parts);
                any = true;
                Optional<Ipv4Address> external = externalIps.apply(service);
                if (external.isPresent()) {
                    String mirrored = servicePortName(service.namespace() + "/" + mirroredServiceName(service), service, port);
                    String mirroredChain = chainName("KUBE-SVC-", mirrored, port);
                    String extChain = chainName("KUBE-EXT-", mirrored, port);
                    services.add(new Rule(List.of(new Match.Destination(Ipv4Prefix.host(external.get())),
                            new Match.ProtocolIs(port.protocol()), new Match.DestinationPort(port.port())),
                            Target.jump(extChain), Optional.of(mirrored + " external IP")));
                    environment.rule(Table.NAT, extChain, new Rule(List.of(), Target.jump(KUBE_MARK_MASQ),
                            Optional.of("masquerade traffic for " + mirrored + " external destinations")));
                    environment.rule(Table.NAT, extChain, Rule.of(Target.jump(mirroredChain)));
                    endpointChains(environment, mirroredChain, mirrored, port, endpoints, ipAndPorts, parts);
                }
            }
        }
        if (any) {
            Rule portals = new Rule(List.of(), Target.jump(Names.KUBE_SERVICES), Optional.of("kubernetes service portals"));
            environment.rule(Table.NAT, "PREROUTING", portals);
            environment.rule(Table.NAT, "OUTPUT", portals);
            environment.rule(Table.NAT, "POSTROUTING", new Rule(List.of(), Target.jump(KUBE_POSTROUTING),
                    Optional.of("kubernetes postrouting rules")));
            environment.rule(Table.NAT, KUBE_MARK_MASQ, Rule.of(new Target.SetMark(MASQUERADE_MARK, MASQUERADE_MARK)));
            environment.rule(Table.NAT, KUBE_POSTROUTING, new Rule(List.of(new Match.MarkIs(MASQUERADE_MARK, MASQUERADE_MARK, false)),
                    new Target.Masquerade(), Optional.of("kubernetes service traffic requiring SNAT")));
        }
    }

    /**
     * What the endpoint rules of a cluster's services have in common, made once: kube-proxy's rules
     * are most of a large cluster set's plan (a service's endpoints twice with Globalnet, under the
     * service's and the internal service's chains), and the plan is what the garbage collector copies.
     */
    private static final class EndpointRuleParts {
        final Target markMasquerade = Target.jump(KUBE_MARK_MASQ);
        /** {@code -s <pod>/32}, by pod. */
        final Map<Pod, List<Match>> fromPod = new IdentityHashMap<>();
        /** {@code -m statistic --probability 1/n}, by n. */
        final Map<Integer, List<Match>> oneIn = new HashMap<>();

        List<Match> fromPod(Pod pod) {
            return fromPod.computeIfAbsent(pod, p -> List.of(new Match.Source(Ipv4Prefix.host(p.ip()))));
        }

        List<Match> oneIn(int remaining) {
            return remaining > 1 ? oneIn.computeIfAbsent(remaining, n -> List.of(new Match.RandomProbability(1.0 / n))) : List.of();
        }
    }

    private static void endpointChains(PlanBuilder environment, String svcChain, String portName, ServicePort port, List<Pod> endpoints,
                                       String[] ipAndPorts, EndpointRuleParts parts) {
        List<Rule> svc = environment.chain(Table.NAT, svcChain);
        // The endpoint rules of a port all carry the port name as comment: one Optional for all of them.
        Optional<String> comment = Optional.of(portName);
        List<Match> protocol = List.of(new Match.ProtocolIs(port.protocol()));
        OptionalInt targetPort = OptionalInt.of(port.targetPort());
        // kube-proxy's KUBE-SEP- chain: base32(sha256(port name + protocol + "ip:targetPort")).
        // The same first bytes for every endpoint of the port: encoded once, and hashed before each endpoint's own.
        byte[] hashedPrefix = (portName + port.protocol().lowerName()).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < endpoints.size(); i++) {
            Pod pod = endpoints.get(i);
            String ipAndPort = ipAndPorts[i];
            String sepChain = hashedChainName("KUBE-SEP-", sha256(hashedPrefix, ipAndPort));
            String description = portName + " -> " + ipAndPort;
            svc.add(new Rule(parts.oneIn(endpoints.size() - i), Target.jump(sepChain), Optional.of(description)));
            List<Rule> sep = environment.chain(Table.NAT, sepChain);
            sep.add(new Rule(parts.fromPod(pod), parts.markMasquerade, comment));
            sep.add(new Rule(protocol, new Target.Dnat(pod.ip(), targetPort), comment));
        }
    }

    /**
     * The internal service Globalnet creates to carry an exported service's global IP, named as
     * upstream's GetInternalSvcName does: {@code submariner-} and 32 characters of
     * base32(sha256(service name)), lower case. Upstream hashes the name alone (the internal service
     * lives in the exported service's namespace).
     */
    static String mirroredServiceName(Service service) {
        return "submariner-" + base32Sha256(service.name()).substring(0, 32).toLowerCase(Locale.ROOT);
    }

    /**
     * kube-proxy's service port name: {@code namespace/name:portName}, {@code namespace/name} for
     * an unnamed port. Kubernetes requires names on a service with several ports; a topology file
     * that leaves them out gets the port number instead, so that its chains still differ.
     */
    static String servicePortName(String qualifiedName, Service service, ServicePort port) {
        if (port.name().isPresent()) {
            return qualifiedName + ":" + port.name().get();
        }
        return qualifiedName + (service.ports().size() > 1 ? ":" + port.port() : "");
    }

    /** kube-proxy's {@code KUBE-SVC-}/{@code KUBE-EXT-} chain: 16 characters of base32(sha256(port name + protocol)). */
    static String chainName(String prefix, String portName, ServicePort port) {
        return hashedChainName(prefix, portName + port.protocol().lowerName());
    }

    /**
     * {@code prefix} and the first 16 characters of base32(sha256(text)), written straight into the
     * name: a large cluster set names hundreds of thousands of endpoint chains, and the whole
     * 52-character encoding cut down to 16 was most of what naming them allocated.
     */
    static String hashedChainName(String prefix, String text) {
        return hashedChainName(prefix, sha256(text));
    }

    private static String hashedChainName(String prefix, byte[] digest) {
        int length = prefix.length();
        byte[] name = new byte[length + 16];
        for (int i = 0; i < length; i++) {
            name[i] = (byte) prefix.charAt(i);
        }
        // 16 characters of 5 bits are the digest's first 10 bytes, two groups of 5 bytes = 40 bits.
        for (int group = 0; group < 2; group++) {
            long bits = 0;
            for (int b = 0; b < 5; b++) {
                bits = (bits << 8) | (digest[group * 5 + b] & 0xff);
            }
            for (int c = 0; c < 8; c++) {
                name[length + group * 8 + c] = (byte) BASE32_ALPHABET[(int) (bits >>> (35 - 5 * c)) & 31];
            }
        }
        return new String(name, StandardCharsets.ISO_8859_1);
    }

    /** Go's base32.StdEncoding of sha256(text), without padding: how Kubernetes and Submariner hash names. */
    static String base32Sha256(String text) {
        return base32(sha256(text));
    }

    private static byte[] sha256(String text) {
        return SHA_256.get().digest(text.getBytes(StandardCharsets.UTF_8));
    }

    /** sha256 of {@code head} followed by the UTF-8 of {@code tail}: that of the two texts joined, without joining them. */
    private static byte[] sha256(byte[] head, String tail) {
        MessageDigest digest = SHA_256.get();
        digest.update(head);
        return digest.digest(tail.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * One digest per thread, reset by each {@code digest}: a large cluster set names hundreds of
     * thousands of chains, and looking the algorithm up among the providers each time cost more
     * than hashing.
     */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    });

    private static String base32(byte[] bytes) {
        char[] text = new char[(bytes.length * 8 + 4) / 5];
        int length = 0;
        int buffer = 0;
        int bits = 0;
        for (byte b : bytes) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                text[length++] = BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
                bits -= 5;
            }
        }
        if (bits > 0) {
            text[length++] = BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
        }
        return new String(text, 0, length);
    }

    private static final char[] BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".toCharArray();

}
