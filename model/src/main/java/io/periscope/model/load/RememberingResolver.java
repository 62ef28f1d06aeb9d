package io.periscope.model.load;

import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

import java.util.HashMap;
import java.util.Map;

/**
 * SnakeYAML's resolver, remembering the tag of each plain scalar it resolved. Resolving a plain scalar
 * tries a regular expression per implicit type its first character could start (an address tries int,
 * float and timestamp), and a topology writes the same few dozen field names and values (name, ip,
 * gateway, true, the namespaces, the nodes) thousands of times: a tenth of reading a 1.5 MB file went
 * there. A tag depends on the text alone, so the one remembered is the one SnakeYAML would give.
 * Short texts only, and a bounded number of them: a file of unique long values costs no memory.
 */
final class RememberingResolver extends Resolver {

    private static final int LONGEST = 40;
    private static final int MOST = 8_192;

    private final Map<String, Tag> plain = new HashMap<>();

    @Override
    public Tag resolve(NodeId kind, String value, boolean implicit) {
        if (kind != NodeId.scalar || !implicit || value.length() > LONGEST) {
            return super.resolve(kind, value, implicit);
        }
        Tag known = plain.get(value);
        if (known == null) {
            known = super.resolve(kind, value, implicit);
            if (plain.size() < MOST) {
                plain.put(value, known);
            }
        }
        return known;
    }
}
