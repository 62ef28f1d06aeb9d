package io.periscope.lab.dns;

import io.periscope.model.net.Ipv4Address;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The resolver configuration of one pod namespace, where {@code ip netns exec} finds it: every file
 * under {@code /etc/netns/NS/} is bind-mounted over its namesake in {@code /etc} for the command it
 * runs. Two files, as a pod has them:
 * <ul>
 * <li>{@code resolv.conf}: the cluster's DNS server as the only name server;</li>
 * <li>{@code nsswitch.conf} with {@code hosts: files dns}. The machine's own may send {@code .local}
 *     names to multicast DNS and stop there ({@code mdns4_minimal [NOTFOUND=return]}, Debian's default
 *     with libnss-mdns), which would keep every {@code clusterset.local} name from the DNS server.</li>
 * </ul>
 */
public final class PodResolverFiles {

    static final Path NETNS_ETC = Path.of("/etc/netns");

    private PodResolverFiles() {
    }

    public static void write(String namespace, Ipv4Address nameServer) {
        Path directory = NETNS_ETC.resolve(namespace);
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve("resolv.conf"), "# written by periscope's lab for pod namespace " + namespace + "\n"
                    + "nameserver " + nameServer + "\noptions ndots:5 timeout:1 attempts:2\n");
            Files.writeString(directory.resolve("nsswitch.conf"), "# written by periscope's lab: a pod's name lookup\n"
                    + "hosts: files dns\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the resolver files of " + namespace + " under " + directory, e);
        }
    }

    /** Removes what {@link #write} created, and nothing else; a namespace without files is left alone. */
    public static void remove(String namespace) {
        Path directory = NETNS_ETC.resolve(namespace);
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the resolver files of " + namespace + " under " + directory, e);
        }
    }
}
