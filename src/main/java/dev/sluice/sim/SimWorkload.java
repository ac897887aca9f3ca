package dev.sluice.sim;

import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadSpec;

/**
 * One workload of a simulation: what the engine is given, and what the simulator needs around it.
 *
 * @param index         input order (also creation order)
 * @param job           {@code Kind/namespace/name} of the object it stands for (a bare Workload stands for itself)
 * @param priorityClass name of its priority class, or {@code priority=<value>} when it names none
 * @param workloadClass the benchmark's workload class (small, medium, large), null for manifests
 * @param readyAfterMillis how long after each admission its pods are all ready; {@link #NEVER} when they never are
 * @param readyLostAfterMillis how long after they got ready a pod fails and is not replaced (readiness lost until the
 *                             recovery timeout evicts it); {@link #NEVER} when readiness is kept
 */
public record SimWorkload(int index, String job, WorkloadSpec spec, long submitAtMillis, long durationMillis,
                          String priorityClass, String workloadClass, long readyAfterMillis, long readyLostAfterMillis) {

    /** Pods that never get ready (annotation value {@code never}). */
    public static final long NEVER = -1;

    public SimWorkload(int index, String job, WorkloadSpec spec, long submitAtMillis, long durationMillis,
                       String priorityClass, String workloadClass) {
        this(index, job, spec, submitAtMillis, durationMillis, priorityClass, workloadClass, 0);
    }

    public SimWorkload(int index, String job, WorkloadSpec spec, long submitAtMillis, long durationMillis,
                       String priorityClass, String workloadClass, long readyAfterMillis) {
        this(index, job, spec, submitAtMillis, durationMillis, priorityClass, workloadClass, readyAfterMillis, NEVER);
    }

    /** Its readiness is lost before it finishes: it never finishes (its failed pod is not replaced). */
    public boolean losesReadiness() {
        return readyLostAfterMillis != NEVER && readyLostAfterMillis < durationMillis;
    }

    public WorkloadKey key() {
        return spec.key();
    }
}
