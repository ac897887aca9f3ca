package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code batch/v1} Job: one pod set {@code main} from {@code spec.template}, count = parallelism (default 1)
 * lowered to completions when smaller; held by {@code spec.suspend}. Partial admission lowers parallelism.
 */
public final class BatchJobKind extends PodTemplateJobKind {
    public static final String POD_SET = "main";

    @Override
    public String group() {
        return "batch";
    }

    @Override
    public String version() {
        return "v1";
    }

    @Override
    public String kind() {
        return "Job";
    }

    @Override
    public String plural() {
        return "jobs";
    }

    @Override
    public PodIndexLabels podIndexLabels(GenericKubernetesResource job, PodSetTemplate podSet) {
        return new PodIndexLabels(PodIndexLabels.JOB_COMPLETION_INDEX, null, null);
    }

    @Override
    protected List<RawPodSet> rawPodSets(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> spec = spec(job);
        if (spec == null) {
            throw new InvalidJobException(ref, "spec", "is missing", "give the Job a spec with a pod template");
        }
        Map<String, Object> template = RawTree.object(spec, "template", ref, "spec.template");
        if (template == null) {
            throw new InvalidJobException(ref, "spec.template", "is missing", "give the Job a pod template");
        }
        return List.of(new RawPodSet(POD_SET, template, "spec.template", jobPodCount(spec, ref, "spec")));
    }

    @Override
    protected void setCount(GenericKubernetesResource job, RawPodSet podSet, int count) {
        specOrCreate(job).put("parallelism", count);
    }

    @Override
    protected boolean supportsPartialCount() {
        return true;
    }

    /** Complete or Failed condition with status True. */
    @Override
    public Optional<JobFinish> finished(GenericKubernetesResource job) {
        return Conditions.terminal(job, "Complete", "Failed");
    }

    /**
     * The API server accepts a change of a Job's template only while the Job is suspended and not started (no
     * {@code status.startTime}; {@code pkg/registry/batch/job/strategy.go}) and, from 1.36, has no active pods: the
     * start time is cleared first, then the Job controller's report that its pods are gone is waited for.
     */
    @Override
    public Optional<RestoreWait> restoreWait(GenericKubernetesResource job) {
        Map<String, Object> status = status(job);
        if (status != null && status.get("startTime") != null) {
            return Optional.of(RestoreWait.START_TIME);
        }
        return isActive(job) ? Optional.of(RestoreWait.ACTIVE_PODS) : Optional.empty();
    }

    /** {@code status.active > 0}. */
    @Override
    public boolean isActive(GenericKubernetesResource job) {
        Integer active = RawTree.count(status(job), "active", Models.ref(job), "status.active");
        return active != null && active > 0;
    }

    /**
     * {@code status.ready + status.succeeded + len(status.uncountedTerminatedPods.succeeded)} reaches the pod count,
     * {@code spec.parallelism} (default 1) lowered to {@code spec.completions} (Kueue's rule).
     */
    @Override
    public boolean podsReady(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> spec = spec(job);
        int wanted = spec == null ? 1 : jobPodCount(spec, ref, "spec");
        Map<String, Object> status = status(job);
        Integer ready = RawTree.count(status, "ready", ref, "status.ready");
        Integer succeeded = RawTree.count(status, "succeeded", ref, "status.succeeded");
        Map<String, Object> uncounted = RawTree.object(status, "uncountedTerminatedPods", ref,
                "status.uncountedTerminatedPods");
        List<Object> uncountedSucceeded = RawTree.list(uncounted, "succeeded", ref,
                "status.uncountedTerminatedPods.succeeded");
        long done = (ready == null ? 0 : ready) + (succeeded == null ? 0 : succeeded)
                + (uncountedSucceeded == null ? 0 : uncountedSucceeded.size());
        return done >= wanted;
    }
}
