package io.periscope.plan.dns;

/** What the resolver made of one exporting cluster for one question, kept to explain the answer. */
public record ClusterVerdict(String cluster, Verdict verdict) {

    public boolean answers() {
        return verdict == Verdict.ANSWERS;
    }

    public enum Verdict {
        ANSWERS(true, false, "answers"),
        NOT_THIS_TURN(true, false, "exports it too; the answer rotates among the exporting clusters and another cluster's turn came"),
        NOT_PREFERRED(true, false, "exports it too, but the asking cluster's own export is preferred"),
        KEPT_APART(false, true, "the connectivity policy keeps it apart from the asking cluster"),
        GATEWAYS_DOWN(false, true, "all of its gateways are down"),
        OWN_GATEWAYS_DOWN(false, true, "all of the asking cluster's own gateways are down, so no other cluster is reachable"),
        NO_READY_ENDPOINTS(false, false, "it exports the service but none of its endpoints there is ready"),
        NO_ADDRESS(false, false, "it exports the service but has no address for it (no ready backend, or no global IP allocated yet)");

        private final boolean eligible;
        private final boolean periscopesOwn;
        private final String reason;

        Verdict(boolean eligible, boolean periscopesOwn, String reason) {
            this.eligible = eligible;
            this.periscopesOwn = periscopesOwn;
            this.reason = reason;
        }

        /**
         * Whether leaving the cluster out is Periscope's own check, judged from the plan (the connectivity policy,
         * gateway health), rather than Lighthouse's. Lighthouse only skips, for a name without a cluster, a cluster
         * the local Gateway does not report connected (coredns/gateway/controller.go, IsConnected), and never for a
         * cluster-qualified name; it knows no connectivity policy.
         */
        public boolean periscopesOwn() {
            return periscopesOwn;
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
