package io.periscope.dataplane.ipsec;

import io.periscope.plan.cable.IpsecConnection;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A gateway's Libreswan connections as {@code ipsec.conf} text, one {@code conn} section each, saying
 * what upstream's driver says to pluto through whack: {@code --psk} ({@code authby=secret}),
 * {@code --encrypt} (tunnel-mode ESP), {@code --forceencaps} ({@code encapsulation=yes}) when upstream
 * passes it (NAT, or forced) and otherwise nothing (Libreswan's {@code encapsulation=auto}), the ids,
 * hosts, clients and IKE ports of both ends, then {@code --route} and {@code --initiate}
 * ({@code auto=start}). Proposals appear only when a connection policy set them; otherwise Libreswan's
 * defaults apply, as upstream leaves them. Pure text: writing the file and running pluto are the
 * caller's side effects (this kernel has no XFRM, so the lab cannot run it).
 */
public final class IpsecConfRenderer {

    private IpsecConfRenderer() {
    }

    public static String render(List<IpsecConnection> connections) {
        StringBuilder text = new StringBuilder();
        for (IpsecConnection c : connections) {
            if (!text.isEmpty()) {
                text.append('\n');
            }
            text.append("conn ").append(c.name()).append('\n');
            option(text, "auto", "start");
            option(text, "type", "tunnel");
            option(text, "authby", "secret");
            option(text, "left", c.left().toString());
            option(text, "leftid", c.leftId().toString());
            option(text, "leftsubnet", c.leftSubnet().toString());
            option(text, "leftikeport", Integer.toString(c.leftIkePort()));
            option(text, "right", c.right().toString());
            option(text, "rightid", c.rightId().toString());
            option(text, "rightsubnet", c.rightSubnet().toString());
            option(text, "rightikeport", Integer.toString(c.rightIkePort()));
            // Why, beside the setting: bare ESP (IP protocol 50) and ESP in UDP cross firewalls differently.
            text.append("\t# ").append(c.encapsulation().why()).append('\n');
            option(text, "encapsulation", c.forceEncapsulation() ? "yes" : "auto");
            option(text, "dpdaction", IpsecConnection.DPD_ACTION);
            option(text, "dpddelay", Integer.toString(IpsecConnection.DPD_DELAY_SECONDS));
            c.ike().ifPresent(ike -> option(text, "ike", ike));
            c.esp().ifPresent(esp -> option(text, "esp", esp));
        }
        return text.toString();
    }

    /**
     * {@code ipsec.secrets}: upstream's single line {@code %any %any : PSK "..."} per pre-shared key the
     * connections name. {@code keyById} gives the key for an id; it comes from whoever generated the
     * keys, never from the plan.
     */
    public static String renderSecrets(List<IpsecConnection> connections, Function<String, String> keyById) {
        Set<String> ids = new LinkedHashSet<>();
        connections.forEach(c -> ids.add(c.psk()));
        StringBuilder text = new StringBuilder();
        for (String id : ids) {
            String key = keyById.apply(id);
            if (key == null || key.isEmpty() || key.contains("\"") || key.contains("\n")) {
                throw new IllegalArgumentException("pre-shared key '" + id + "' is missing or cannot be quoted in ipsec.secrets");
            }
            text.append("%any %any : PSK \"").append(key).append("\"\n");
        }
        return text.toString();
    }

    private static void option(StringBuilder text, String key, String value) {
        text.append('\t').append(key).append('=').append(value).append('\n');
    }
}
