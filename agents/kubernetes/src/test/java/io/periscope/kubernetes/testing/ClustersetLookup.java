package io.periscope.kubernetes.testing;

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

/** Asks a DNS server over UDP with the JDK's own DNS client (JNDI's DNS provider), independent of the server's netty codec. */
public final class ClustersetLookup {

    private ClustersetLookup() {
    }

    /** The A records' addresses, in answer order; empty when the name does not exist (NXDOMAIN). */
    public static Optional<List<String>> a(InetSocketAddress server, String name) {
        Hashtable<String, String> env = new Hashtable<>();
        env.put("java.naming.factory.initial", "com.sun.jndi.dns.DnsContextFactory");
        env.put("java.naming.provider.url", "dns://" + server.getHostString() + ":" + server.getPort());
        env.put("com.sun.jndi.dns.timeout.initial", "1000");
        env.put("com.sun.jndi.dns.timeout.retries", "2");
        try {
            DirContext context = new InitialDirContext(env);
            try {
                Attribute records = context.getAttributes(name + ".", new String[] {"A"}).get("A");
                List<String> addresses = new ArrayList<>();
                if (records != null) {
                    NamingEnumeration<?> values = records.getAll();
                    while (values.hasMore()) {
                        addresses.add(values.next().toString());
                    }
                }
                return Optional.of(addresses);
            } catch (NameNotFoundException nxdomain) {
                return Optional.empty();
            } finally {
                context.close();
            }
        } catch (NamingException e) {
            throw new AssertionError("no answer from " + server + " for " + name + ": " + e, e);
        }
    }
}
