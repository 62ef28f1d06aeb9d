package io.periscope.lab.agent;

import java.util.List;

/**
 * Keeps one layer of one node's plan in that node's kernel, level-driven: each reconcile reads what
 * the node holds, compares it with the layer and changes only the difference.
 */
public interface LayerAgent {

    /** Brings the node to the layer. @return the programs it ran (none when nothing differed) */
    List<String> reconcile();

    /** What the node still lacks or holds too much of, as read from its kernel, one line per change; empty once converged. */
    List<String> pendingChanges();
}
