package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code jobset.x-k8s.io/v1alpha2} JobSet: one pod set per replicated job (named after it), count = replicas
 * (default 1) × that Job template's pod count (the Job rule); held by {@code spec.suspend}. No partial
 * admission (as in Kueue).
 */
public final class JobSetKind extends PodTemplateJobKind {

    @Override
    public String group() {
        return "jobset.x-k8s.io";
    }

    @Override
    public String version() {
        return "v1alpha2";
    }

    @Override
    public String kind() {
        return "JobSet";
    }

    @Override
    public String plural() {
        return "jobsets";
    }

    /** Each replicated job's Jobs are a group: Kueue's JobSet integration names their index label and count. */
    @Override
    public PodIndexLabels podIndexLabels(GenericKubernetesResource job, PodSetTemplate podSet) {
        String ref = Models.ref(job);
        List<Object> replicated = RawTree.list(spec(job), "replicatedJobs", ref, "spec.replicatedJobs");
        int replicas = 1;
        for (int i = 0; replicated != null && i < replicated.size(); i++) {
            Map<String, Object> rj = RawTree.element(replicated, i, ref, "spec.replicatedJobs[" + i + "]");
            if (podSet.name().equals(RawTree.string(rj, "name", ref, "spec.replicatedJobs[" + i + "].name"))) {
                Integer r = RawTree.count(rj, "replicas", ref, "spec.replicatedJobs[" + i + "].replicas");
                replicas = r == null ? 1 : r;
            }
        }
        return new PodIndexLabels(PodIndexLabels.JOB_COMPLETION_INDEX, PodIndexLabels.JOBSET_JOB_INDEX, replicas);
    }

    @Override
    protected List<RawPodSet> rawPodSets(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        List<Object> replicated = RawTree.list(spec(job), "replicatedJobs", ref, "spec.replicatedJobs");
        if (replicated == null || replicated.isEmpty()) {
            throw new InvalidJobException(ref, "spec.replicatedJobs", "is missing or empty",
                    "list at least one replicated job with a name and a Job template");
        }
        List<RawPodSet> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < replicated.size(); i++) {
            String path = "spec.replicatedJobs[" + i + "]";
            Map<String, Object> rj = RawTree.element(replicated, i, ref, path);
            String name = RawTree.string(rj, "name", ref, path + ".name");
            if (name == null || name.isEmpty()) {
                throw new InvalidJobException(ref, path + ".name", "is missing", "name every replicated job");
            }
            if (!names.add(name)) {
                throw new InvalidJobException(ref, path + ".name", "\"" + name + "\" is used twice",
                        "give each replicated job its own name");
            }
            Integer replicas = RawTree.count(rj, "replicas", ref, path + ".replicas");
            Map<String, Object> jobSpec = RawTree.object(RawTree.object(rj, "template", ref, path + ".template"),
                    "spec", ref, path + ".template.spec");
            if (jobSpec == null) {
                throw new InvalidJobException(ref, path + ".template.spec", "is missing",
                        "give the replicated job a Job template with a spec");
            }
            Map<String, Object> template = RawTree.object(jobSpec, "template", ref, path + ".template.spec.template");
            if (template == null) {
                throw new InvalidJobException(ref, path + ".template.spec.template", "is missing",
                        "give the replicated job's Job a pod template");
            }
            long count = (long) (replicas == null ? 1 : replicas) * jobPodCount(jobSpec, ref, path + ".template.spec");
            if (count > Integer.MAX_VALUE) {
                throw new InvalidJobException(ref, path + ".replicas", "replicas × pods per Job is " + count
                        + ", more than a pod set can count", "lower replicas or parallelism");
            }
            out.add(new RawPodSet(name, template, path + ".template.spec.template", (int) count));
        }
        return out;
    }

    @Override
    protected void setCount(GenericKubernetesResource job, RawPodSet podSet, int count) {
        throw new UnsupportedOperationException("JobSet has no partial admission");
    }

    @Override
    protected boolean supportsPartialCount() {
        return false;
    }

    /** Completed or Failed condition with status True. */
    @Override
    public Optional<JobFinish> finished(GenericKubernetesResource job) {
        return Conditions.terminal(job, "Completed", "Failed");
    }

    /** Any {@code status.replicatedJobsStatus[].active > 0}. */
    @Override
    public boolean isActive(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        List<Object> statuses = RawTree.list(status(job), "replicatedJobsStatus", ref, "status.replicatedJobsStatus");
        if (statuses == null) {
            return false;
        }
        for (int i = 0; i < statuses.size(); i++) {
            String path = "status.replicatedJobsStatus[" + i + "]";
            Integer active = RawTree.count(RawTree.element(statuses, i, ref, path), "active", ref, path + ".active");
            if (active != null && active > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every child Job ready or done: the sum of {@code status.replicatedJobsStatus[].ready + .succeeded} reaches the sum
     * of {@code spec.replicatedJobs[].replicas} (default 1) (Kueue's rule; JobSet counts a child Job ready once all its
     * pods are ready or succeeded).
     */
    @Override
    public boolean podsReady(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        List<Object> replicated = RawTree.list(spec(job), "replicatedJobs", ref, "spec.replicatedJobs");
        long wanted = 0;
        if (replicated != null) {
            for (int i = 0; i < replicated.size(); i++) {
                String path = "spec.replicatedJobs[" + i + "]";
                Integer replicas = RawTree.count(RawTree.element(replicated, i, ref, path), "replicas", ref,
                        path + ".replicas");
                wanted += replicas == null ? 1 : replicas;
            }
        }
        List<Object> statuses = RawTree.list(status(job), "replicatedJobsStatus", ref, "status.replicatedJobsStatus");
        long ready = 0;
        if (statuses != null) {
            for (int i = 0; i < statuses.size(); i++) {
                String path = "status.replicatedJobsStatus[" + i + "]";
                Map<String, Object> st = RawTree.element(statuses, i, ref, path);
                Integer r = RawTree.count(st, "ready", ref, path + ".ready");
                Integer done = RawTree.count(st, "succeeded", ref, path + ".succeeded");
                ready += (r == null ? 0 : r) + (done == null ? 0 : done);
            }
        }
        return ready >= wanted;
    }
}
