package dev.sluice.jobs;

/**
 * The labels a kind's controller puts on its pods to number them (and, for kinds of replicated jobs, to number the
 * groups and say how many there are), which Kueue copies into a pod set's topology request; nulls when the kind has
 * none.
 */
public record PodIndexLabels(String podIndexLabel, String subGroupIndexLabel, Integer subGroupCount) {

    public static final PodIndexLabels NONE = new PodIndexLabels(null, null, null);
    /** batch/v1 Job's (an indexed Job's pods carry it). */
    public static final String JOB_COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
    /** JobSet's number of a replicated job's Job. */
    public static final String JOBSET_JOB_INDEX = "jobset.sigs.k8s.io/job-index";
    /** Kubeflow's and mpi-operator's replica number. */
    public static final String KUBEFLOW_REPLICA_INDEX = "training.kubeflow.org/replica-index";

    public boolean isNone() {
        return podIndexLabel == null && subGroupIndexLabel == null && subGroupCount == null;
    }
}
