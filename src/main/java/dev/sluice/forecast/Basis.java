package dev.sluice.forecast;

/**
 * Where an expected run time comes from, surest first. A forecast is as sure as the least sure estimate it rests on.
 */
public enum Basis {
    /** {@code sluice.dev/expected-duration} on the job (or the Workload). */
    annotation("the expected-duration annotations"),
    /** The job's {@code activeDeadlineSeconds}: an upper bound, so the forecast is late rather than early. */
    activeDeadlineSeconds("the jobs' activeDeadlineSeconds"),
    /** Median run time of finished workloads of the same LocalQueue and priority. */
    history("observed run times"),
    /** No estimate: nothing after it can be forecast. */
    unknown("unknown run times");

    private final String words;

    Basis(String words) {
        this.words = words;
    }

    /** As a person reads it: "from observed run times". */
    public String words() {
        return words;
    }

    /** The less sure of the two. */
    Basis weaker(Basis other) {
        return other.ordinal() > ordinal() ? other : this;
    }
}
