package io.periscope.lab.dns;

import io.periscope.model.net.Ipv4Address;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The resolver configuration of one pod namespace, where {@code ip netns exec} finds it: every file
 * under {@code /etc/netns/NS/} is bind-mounted over its namesake in {@code /etc} for the command it
 * runs. Two files, as a pod has them:
 * <ul>
 * <li>{@code resolv.conf}: the cluster's DNS Service as the only name server;</li>
 * <li>{@code nsswitch.conf} with {@code hosts: files dns}. The machine's own may send {@code .local}
 *     names to multicast DNS and stop there ({@code mdns4_minimal [NOTFOUND=return]}, Debian's default
 *     with libnss-mdns), which would keep every {@code clusterset.local} name from the DNS server.</li>
 * </ul>
 *
 * @param etcNetns {@code /etc/netns} on a real machine ({@link #SYSTEM}); a temporary directory in tests
 */
public record PodResolverFiles(Path etcNetns) {

    public static final PodResolverFiles SYSTEM = new PodResolverFiles(Path.of("/etc/netns"));

    static final String RESOLV_CONF = "resolv.conf";
    static final String NSSWITCH_CONF = "nsswitch.conf";
    private static final List<String> FILES = List.of(RESOLV_CONF, NSSWITCH_CONF);

    public Path directory(String namespace) {
        return etcNetns.resolve(namespace);
    }

    public void write(String namespace, Ipv4Address nameServer) {
        Path directory = directory(namespace);
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(RESOLV_CONF), "# written by periscope's lab for pod namespace " + namespace + "\n"
                    + "nameserver " + nameServer + "\noptions ndots:5 timeout:1 attempts:2\n");
            Files.writeString(directory.resolve(NSSWITCH_CONF), "# written by periscope's lab: a pod's name lookup\n"
                    + "hosts: files dns\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the resolver files of " + namespace + " under " + directory, e);
        }
    }

    /**
     * Removes the two files {@link #write} creates, then the namespace's directory if that left it
     * empty; anything else someone put there stays, and so does its directory. A namespace without
     * files is left alone, so removal can be repeated.
     *
     * @return whether there was something to remove
     */
    public boolean remove(String namespace) {
        Path directory = directory(namespace);
        if (!Files.isDirectory(directory)) {
            return false;
        }
        try {
            boolean removed = false;
            for (String file : FILES) {
                removed |= Files.deleteIfExists(directory.resolve(file));
            }
            try {
                Files.deleteIfExists(directory);
            } catch (DirectoryNotEmptyException someoneElses) {
                // Files the lab did not write: not the lab's to remove.
            }
            return removed;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the resolver files of " + namespace + " under " + directory, e);
        }
    }
}
