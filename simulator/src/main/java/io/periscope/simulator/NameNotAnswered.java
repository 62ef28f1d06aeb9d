package io.periscope.simulator;

/**
 * A well-formed clusterset name that Lighthouse would not answer: nobody exports the service, the
 * cluster named does not export it, or the headless service has no such pod. A client asking gets no
 * address and sends nothing, so the flow is traced as {@code unreachable} (docs/topology.md: "a flow
 * to a service nobody exports is a fair question"), never refused.
 */
public final class NameNotAnswered extends FlowResolutionException {

    private static final long serialVersionUID = 1L;

    private final String answerMissing;

    /**
     * @param message       the whole message, naming the flow
     * @param answerMissing why nothing answers, without the flow's name: what a trace's reason shows
     */
    public NameNotAnswered(String message, String answerMissing) {
        super(message);
        this.answerMissing = answerMissing;
    }

    /** "nothing answers 'x.y.svc.clusterset.local': no cluster exports service y/x (exported: none)". */
    public String answerMissing() {
        return answerMissing;
    }
}
