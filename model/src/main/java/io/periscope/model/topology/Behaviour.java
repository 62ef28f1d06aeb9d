package io.periscope.model.topology;

/**
 * Whose word decides where the seed documents and upstream Submariner disagree. The seeds are the
 * specification, so {@code SEEDS} is the default; {@code UPSTREAM} lets a user see what the Submariner
 * they deploy would do instead. Only the places listed in docs/plan.md ("Where the seeds and upstream
 * disagree") depend on it; everywhere else the seeds and upstream agree, or the seeds are silent and
 * Periscope follows upstream either way.
 */
public enum Behaviour {
    /** As the seed documents describe it. */
    SEEDS("seeds"),
    /** As upstream Submariner (the commit docs/plan.md names) programs it. */
    UPSTREAM("upstream");

    private final String yamlName;

    Behaviour(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }
}
