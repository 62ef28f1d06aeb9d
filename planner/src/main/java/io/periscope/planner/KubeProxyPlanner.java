package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServicePort;
import io.periscope.plan.Names;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

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
     * {@code submariner-<hash>} with the global IP as external IP. {@code shared} holds the chains
     * made for the clusters planned before, which this cluster takes where its own would be equal.
     */
    static void plan(Cluster cluster, ClusterIndex index, PlanBuilder environment, Function<Service, Optional<Ipv4Address>> externalIps,
                     SharedChains shared) {
        environment.chainCapacity(Table.NAT, chainCount(cluster, index));
        List<Rule> services = environment.chain(Table.NAT, Names.KUBE_SERVICES);
        // kube-proxy's --cluster-cidr: the first pod CIDR, when the cluster has one.
        Optional<Ipv4Prefix> clusterCidr = cluster.podCidrs().isEmpty() ? Optional.empty() : Optional.of(cluster.podCidrs().getFirst());
        boolean any = false;
        for (Service service : cluster.services()) {
            if (!service.headless()) {
                any |= planService(service, index, environment, services, externalIps.apply(service), clusterCidr, shared);
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
     * At most KUBE-EXT, KUBE-SVC and a KUBE-SEP per endpoint twice (the internal service's) per
     * port, and the few chains {@link #plan} adds: a cluster of a large set has thousands. A method
     * of its own, as each loop here over a large set's services or endpoints: in a method that goes
     * on after the loop, a loop of many turns has the JIT compile that whole method on the stack.
     */
    private static int chainCount(Cluster cluster, ClusterIndex index) {
        int chainCount = 8;
        for (Service service : cluster.services()) {
            if (!service.headless()) {
                chainCount += service.ports().size() * (3 + 2 * index.endpointsOf(service).size());
            }
        }
        return chainCount;
    }

    private static List<Ipv4Address> addressesOf(List<Pod> pods) {
        List<Ipv4Address> addresses = new ArrayList<>(pods.size());
        for (Pod pod : pods) {
            addresses.add(pod.ip());
        }
        return addresses;
    }

    /**
     * The chains of one service's ports and their KUBE-SERVICES rules; whether it has a port. A
     * method of its own: a large set plans 10,000 services, and inside the loop over a cluster's
     * services this was compiled twice (on the stack and whole) at some 70 KB of code each.
     */
    private static boolean planService(Service service, ClusterIndex index, PlanBuilder environment, List<Rule> services,
                                       Optional<Ipv4Address> external, Optional<Ipv4Prefix> clusterCidr, SharedChains shared) {
        List<Ipv4Address> endpointIps = addressesOf(index.endpointsOf(service));
        Ipv4Address clusterIp = service.clusterIp().orElseThrow();
        PortNames names = shared.portNames(service);
        boolean any = false;
        List<ServicePort> ports = service.ports();
        for (int i = 0; i < ports.size(); i++) {
            ServicePort port = ports.get(i);
            String portName = names.own(i);
            PortChains chains = shared.chains(new PortKey(portName, false, Optional.of(clusterIp), clusterCidr, port, endpointIps));
            services.add(chains.entryRule(clusterIp, port));
            chains.addTo(environment);
            any = true;
            if (external.isPresent()) {
                String mirrored = names.mirrored(i);
                // The internal service has no cluster IP of its own to mark: its chains depend on the name, port and endpoints only.
                PortChains mirroredChains = shared.chains(new PortKey(mirrored, true, Optional.empty(), Optional.empty(), port, endpointIps));
                services.add(mirroredChains.entryRule(external.get(), port));
                mirroredChains.addTo(environment);
            }
        }
        return any;
    }

    /**
     * What kube-proxy's chains of one service port are made of, and nothing else: its port name
     * (the mirrored internal service's for {@code external}), the cluster IP and cluster CIDR its
     * KUBE-SVC chain marks traffic from outside the pods for (none for the internal service, whose
     * KUBE-EXT chain marks everything), the port and its endpoints' addresses in order. Two ports
     * with equal keys get equal chains: every chain name is a hash of the port name, protocol and
     * endpoint, and every rule is made of these fields.
     */
    record PortKey(String portName, boolean external, Optional<Ipv4Address> clusterIp, Optional<Ipv4Prefix> clusterCidr, ServicePort port,
                   List<Ipv4Address> endpoints) {

        // Written out: the derived methods dispatch through a method handle the JIT does not inline,
        // and a large set looks up 20,000 keys, each with its endpoints.
        @Override
        public boolean equals(Object other) {
            return other instanceof PortKey key && external == key.external && portName.equals(key.portName)
                    && endpoints.equals(key.endpoints) && clusterIp.equals(key.clusterIp) && clusterCidr.equals(key.clusterCidr)
                    && port.equals(key.port);
        }

        @Override
        public int hashCode() {
            return (portName.hashCode() * 31 + endpoints.hashCode()) * 31 + clusterIp.hashCode();
        }
    }

    /**
     * kube-proxy's port names of one service ({@link #servicePortName}), and with Globalnet those of
     * its internal service, by the port's position. They depend on the service's namespace, name
     * and ports only, and clusters repeat those: a large set plans 10,000 services, and writing the
     * names out again for each (and the internal service's SHA-256) made thousands of strings that
     * were then hashed as fresh keys.
     */
    static final class PortNames {
        private final Service service;
        private final String[] own;
        /** The internal service's, made when first asked: only exported services with a global IP have one. */
        private String[] mirrored;

        PortNames(Service service) {
            this.service = service;
            String qualified = service.qualifiedName();
            List<ServicePort> ports = service.ports();
            own = new String[ports.size()];
            for (int i = 0; i < own.length; i++) {
                own[i] = servicePortName(qualified, service, ports.get(i));
            }
        }

        /** Whether {@code other}'s port names are these: the same namespace, name and ports. */
        boolean namesPortsOf(Service other) {
            return other == service || other.namespace().equals(service.namespace()) && other.name().equals(service.name())
                    && other.ports().equals(service.ports());
        }

        String own(int port) {
            return own[port];
        }

        /** The port name of the internal service Globalnet makes for the service ({@link #mirroredServiceName}). */
        String mirrored(int port) {
            if (mirrored == null) {
                String qualified = service.namespace() + "/" + mirroredServiceName(service);
                List<ServicePort> ports = service.ports();
                mirrored = new String[ports.size()];
                for (int i = 0; i < mirrored.length; i++) {
                    mirrored[i] = servicePortName(qualified, service, ports.get(i));
                }
            }
            return mirrored[port];
        }
    }

    /**
     * One service port's chains, in the order kube-proxy's layer names them (KUBE-EXT for the
     * internal service, KUBE-SVC, then a KUBE-SEP per endpoint), and the chain and comment of the
     * port's KUBE-SERVICES rule. The chains are immutable records: the same object serves every
     * node of every cluster whose port has the same {@link PortKey}.
     */
    record PortChains(String entryChain, Optional<String> entryComment, List<Chain> chains) {

        /** The KUBE-SERVICES rule sending the port's {@code destination} (cluster IP or external IP) to the port's chains. */
        Rule entryRule(Ipv4Address destination, ServicePort port) {
            return new Rule(List.of(new Match.Destination(Ipv4Prefix.host(destination)), new Match.ProtocolIs(port.protocol()),
                    new Match.DestinationPort(port.port())), Target.jump(entryChain), entryComment);
        }

        void addTo(PlanBuilder environment) {
            for (Chain chain : chains) {
                environment.chain(Table.NAT, chain);
            }
        }
    }

    /**
     * kube-proxy's chains of one planning, by {@link PortKey}, shared between clusters. kube-proxy's
     * rules are most of a large cluster set's plan (a service's endpoints twice with Globalnet, under
     * the service's and the internal service's chains), and the live plan is what the garbage
     * collector copies. Clusters behind Globalnet often have the same pod and service CIDRs, and
     * deployments repeated across clusters give the same namespaces, names and addresses: their
     * chains are equal, so one set of records (named once, hashing a SHA-256 per endpoint once)
     * serves them all. A cluster whose port differs in any part of its key gets chains of its own.
     */
    static final class SharedChains {
        private final Map<PortKey, PortChains> byPort = new HashMap<>();
        private final Target markMasquerade = Target.jump(KUBE_MARK_MASQ);
        /** {@code -s <pod>/32}, by address. */
        private final Map<Ipv4Address, List<Match>> fromPod = new HashMap<>();
        /** {@code -m statistic --probability 1/n}, by n. */
        private final Map<Integer, List<Match>> oneIn = new HashMap<>();

        /** Port names by the service's namespace and name: see {@link PortNames}. */
        private final Map<String, Map<String, PortNames>> portNames = new HashMap<>();

        /**
         * The port names of {@code service}, made for the first service of its namespace and name
         * and ports and taken by the same service of every other cluster; a service of that name with
         * other ports (rare) gets names of its own.
         */
        PortNames portNames(Service service) {
            Map<String, PortNames> inNamespace = portNames.computeIfAbsent(service.namespace(), n -> new HashMap<>());
            PortNames known = inNamespace.get(service.name());
            if (known != null && known.namesPortsOf(service)) {
                return known;
            }
            PortNames made = new PortNames(service);
            if (known == null) {
                inNamespace.put(service.name(), made);
            }
            return made;
        }

        PortChains chains(PortKey key) {
            PortChains known = byPort.get(key);
            if (known == null) {
                known = build(key);
                byPort.put(key, known);
            }
            return known;
        }

        private List<Match> fromPod(Ipv4Address pod) {
            return fromPod.computeIfAbsent(pod, p -> List.of(new Match.Source(Ipv4Prefix.host(p))));
        }

        private List<Match> oneIn(int remaining) {
            return remaining > 1 ? oneIn.computeIfAbsent(remaining, n -> List.of(new Match.RandomProbability(1.0 / n))) : List.of();
        }

        private PortChains build(PortKey key) {
            ServicePort port = key.port();
            String name = key.portName();
            String svcChain = chainName("KUBE-SVC-", name, port);
            List<Chain> chains = new ArrayList<>(key.endpoints().size() + 2);
            List<Rule> svc = new ArrayList<>(key.endpoints().size() + 1);
            String entryChain;
            Optional<String> entryComment;
            if (key.external()) {
                entryChain = chainName("KUBE-EXT-", name, port);
                entryComment = Optional.of(name + " external IP");
                chains.add(new Chain(entryChain, List.of(new Rule(List.of(), markMasquerade,
                        Optional.of("masquerade traffic for " + name + " external destinations")), Rule.of(Target.jump(svcChain)))));
            } else {
                entryChain = svcChain;
                entryComment = Optional.of(name + " cluster IP");
                if (key.clusterCidr().isPresent()) {
                    svc.add(new Rule(List.of(new Match.Source(key.clusterCidr().get(), true),
                            new Match.Destination(Ipv4Prefix.host(key.clusterIp().orElseThrow())), new Match.ProtocolIs(port.protocol()),
                            new Match.DestinationPort(port.port())), markMasquerade, entryComment));
                }
            }
            List<Chain> endpointChains = endpointChains(svc, name, port, key.endpoints());
            chains.add(new Chain(svcChain, svc));
            chains.addAll(endpointChains);
            return new PortChains(entryChain, entryComment, List.copyOf(chains));
        }

        /** The port's KUBE-SEP chains, one per endpoint, and the rules of {@code svc} that pick one. */
        private List<Chain> endpointChains(List<Rule> svc, String portName, ServicePort port, List<Ipv4Address> endpoints) {
            // The endpoint rules of a port all carry the port name as comment: one Optional for all of them.
            Optional<String> comment = Optional.of(portName);
            List<Match> protocol = List.of(new Match.ProtocolIs(port.protocol()));
            OptionalInt targetPort = OptionalInt.of(port.targetPort());
            // kube-proxy's KUBE-SEP- chain: base32(sha256(port name + protocol + "ip:targetPort")).
            // The same first bytes for every endpoint of the port: encoded once, and hashed before each endpoint's own.
            byte[] hashedPrefix = (portName + port.protocol().lowerName()).getBytes(StandardCharsets.UTF_8);
            List<Chain> chains = new ArrayList<>(endpoints.size());
            for (int i = 0; i < endpoints.size(); i++) {
                Ipv4Address pod = endpoints.get(i);
                String ipAndPort = pod + ":" + port.targetPort();
                String sepChain = hashedChainName("KUBE-SEP-", sha256(hashedPrefix, ipAndPort));
                svc.add(new Rule(oneIn(endpoints.size() - i), Target.jump(sepChain), Optional.of(portName + " -> " + ipAndPort)));
                chains.add(new Chain(sepChain, List.of(new Rule(fromPod(pod), markMasquerade, comment),
                        new Rule(protocol, new Target.Dnat(pod, targetPort), comment))));
            }
            return chains;
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
