package io.periscope.plan.dns;

/** What the resolver made of one exporting cluster for one question, kept to explain the answer. */
public record ClusterVerdict(String cluster, Verdict verdict) {

    public boolean answers() {
        return verdict == Verdict.ANSWERS;
    }

    public enum Verdict {
        ANSWERS(true, "answers"),
        NOT_THIS_TURN(true, "exports it too; the answer rotates among the exporting clusters and another cluster's turn came"),
        NOT_PREFERRED(true, "exports it too, but the asking cluster's own export is preferred"),
        KEPT_APART(false, "the connectivity policy keeps it apart from the asking cluster"),
        GATEWAYS_DOWN(false, "all of its gateways are down"),
        OWN_GATEWAYS_DOWN(false, "all of the asking cluster's own gateways are down, so no other cluster is reachable"),
        NO_READY_ENDPOINTS(false, "it exports the service but none of its endpoints there is ready"),
        NO_ADDRESS(false, "it exports the service but has no address for it (no ready backend, or no global IP allocated yet)");

        private final boolean eligible;
        private final String reason;

        Verdict(boolean eligible, String reason) {
            this.eligible = eligible;
            this.reason = reason;
        }

        /** Whether the cluster could have answered (it answers, or another eligible cluster was chosen). */
        public boolean eligible() {
            return eligible;
        }

        public String reason() {
            return reason;
        }
    }
}
