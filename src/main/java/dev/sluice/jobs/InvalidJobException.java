package dev.sluice.jobs;

/**
 * A job manifest Sluice cannot read: names the job, the field (a path such as
 * {@code spec.replicatedJobs[0].replicas}), what is wrong and how to fix it.
 */
public class InvalidJobException extends RuntimeException {
    private final String job;
    private final String field;
    private final String problem;
    private final String fix;

    public InvalidJobException(String job, String field, String problem, String fix) {
        super(compose(job, field, problem, fix));
        this.job = job;
        this.field = field;
        this.problem = problem;
        this.fix = fix;
    }

    private static String compose(String job, String field, String problem, String fix) {
        StringBuilder sb = new StringBuilder();
        if (job != null && !job.isEmpty()) {
            sb.append(job).append(": ");
        }
        sb.append(field).append(": ").append(problem);
        if (fix != null && !fix.isEmpty()) {
            sb.append("; ").append(fix);
        }
        return sb.toString();
    }

    /** The job as {@code Kind namespace/name}, or null when not known (e.g. a bare pod spec). */
    public String job() {
        return job;
    }

    /** Path of the offending field, relative to the job object. */
    public String field() {
        return field;
    }

    public String problem() {
        return problem;
    }

    public String fix() {
        return fix;
    }

    /** The same problem seen from an enclosing object: prefixes the field path and names the job. */
    public InvalidJobException under(String job, String pathPrefix) {
        String path = pathPrefix == null || pathPrefix.isEmpty() ? field : pathPrefix + "." + field;
        InvalidJobException e = new InvalidJobException(job, path, problem, fix);
        e.initCause(this);
        return e;
    }
}
