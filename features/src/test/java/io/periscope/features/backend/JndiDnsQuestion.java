package io.periscope.features.backend;

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

/** One question to a DNS server with the JDK's own DNS client (JNDI's DNS provider), written independently of the server. */
final class JndiDnsQuestion {

    private JndiDnsQuestion() {
    }

    /** @return the records' data in answer order; empty when the name does not exist */
    static Optional<List<String>> ask(InetSocketAddress server, String name, String type) throws NamingException {
        Hashtable<String, String> env = new Hashtable<>();
        env.put("java.naming.factory.initial", "com.sun.jndi.dns.DnsContextFactory");
        env.put("java.naming.provider.url", "dns://" + server.getHostString() + ":" + server.getPort());
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
}
