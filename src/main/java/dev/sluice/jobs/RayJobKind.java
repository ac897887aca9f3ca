package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ray.io/v1} RayJob (KubeRay): pod set {@code head} (1 pod, {@code spec.rayClusterSpec.headGroupSpec})
 * and one per worker group ({@code workerGroupSpecs[i].groupName} in lower case, as Kueue names them), count =
 * {@code replicas} (default 1) × {@code numOfHosts} (default 1), minCount = {@code minReplicas} × numOfHosts
 * when set, so that the group may be admitted partially; partial admission lowers {@code replicas}. Held by
 * {@code spec.suspend}: KubeRay creates no RayCluster until it is released. The submitter Job of
 * {@code submissionMode: K8sJobMode} is not counted (DESIGN: head and worker groups only).
 */
public final class RayJobKind extends RayGroupsKind {
    public static final String HEAD = RayGroupsKind.HEAD;

    @Override
    public String kind() {
        return "RayJob";
    }

    @Override
    public String plural() {
        return "rayjobs";
    }

    @Override
    public List<PodSetTemplate> podSets(GenericKubernetesResource job) {
        List<PodSetTemplate> full = super.podSets(job);
        List<Integer> mins = minCounts(job);
        List<PodSetTemplate> out = new ArrayList<>();
        for (int i = 0; i < full.size(); i++) {
            PodSetTemplate ps = full.get(i);
            out.add(new PodSetTemplate(ps.name(), ps.count(), mins.get(i), ps.template()));
        }
        return List.copyOf(out);
    }

    /** minCount per pod set, in the order of {@link #rawPodSets}; null where there is none. */
    private List<Integer> minCounts(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        List<Integer> out = new ArrayList<>();
        out.add(null);
        List<Object> groups = workerGroups(clusterSpec(job, ref), ref);
        for (int i = 0; i < groups.size(); i++) {
            String path = "spec.rayClusterSpec.workerGroupSpecs[" + i + "]";
            Map<String, Object> group = RawTree.element(groups, i, ref, path);
            Integer min = RawTree.count(group, "minReplicas", ref, path + ".minReplicas");
            // at most the count: a partial start may have lowered replicas below minReplicas
            int replicas = replicas(group, ref, path);
            if (min != null && min > replicas) {
                min = replicas;
            }
            out.add(min == null ? null : min * hosts(group, ref, path));
        }
        return out;
    }

    @Override
    protected void setCount(GenericKubernetesResource job, RawPodSet podSet, int count) {
        String ref = Models.ref(job);
        if (HEAD.equals(podSet.name())) {
            throw new IllegalArgumentException(ref + ": the head pod set cannot start partially");
        }
        List<Object> groups = workerGroups(clusterSpec(job, ref), ref);
        for (int i = 0; i < groups.size(); i++) {
            String path = "spec.rayClusterSpec.workerGroupSpecs[" + i + "]";
            Map<String, Object> group = RawTree.element(groups, i, ref, path);
            if (podSet.template() == group.get("template")) {
                int hosts = hosts(group, ref, path);
                if (count % hosts != 0) {
                    throw new IllegalArgumentException(ref + ": pod set " + podSet.name() + " cannot start with "
                            + count + " pods: not a multiple of numOfHosts " + hosts);
                }
                group.put("replicas", count / hosts);
                return;
            }
        }
        throw new IllegalStateException("pod set " + podSet.name() + " not found in " + ref);
    }

    @Override
    protected boolean supportsPartialCount() {
        return true;
    }

    /**
     * {@code status.jobDeploymentStatus} Complete or Failed (Kueue's rule); succeeded when
     * {@code status.jobStatus} is SUCCEEDED. Reason: the job status; message: {@code status.message}.
     */
    @Override
    public Optional<JobFinish> finished(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> status = status(job);
        String deployment = RawTree.string(status, "jobDeploymentStatus", ref, "status.jobDeploymentStatus");
        if (!"Complete".equals(deployment) && !"Failed".equals(deployment)) {
            return Optional.empty();
        }
        String jobStatus = RawTree.string(status, "jobStatus", ref, "status.jobStatus");
        String message = RawTree.string(status, "message", ref, "status.message");
        boolean succeeded = "SUCCEEDED".equals(jobStatus);
        String reason = jobStatus == null || jobStatus.isEmpty() ? deployment : jobStatus;
        return Optional.of(new JobFinish(succeeded, reason,
                message == null || message.isEmpty() ? ref + (succeeded ? " succeeded" : " failed") : message));
    }

    /**
     * A RayCluster may have pods unless {@code status.jobDeploymentStatus} is empty (nothing deployed yet),
     * Suspended, Complete or Failed.
     */
    @Override
    public boolean isActive(GenericKubernetesResource job) {
        String deployment = RawTree.string(status(job), "jobDeploymentStatus", Models.ref(job),
                "status.jobDeploymentStatus");
        return deployment != null && !deployment.isEmpty()
                && !List.of("Suspended", "Complete", "Failed").contains(deployment);
    }

    /**
     * {@code status.rayClusterStatus.state} is {@code ready}: KubeRay marks its RayCluster ready once the head and every
     * worker pod run and are ready (Kueue's rule).
     */
    @Override
    public boolean podsReady(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> cluster = RawTree.object(status(job), "rayClusterStatus", ref, "status.rayClusterStatus");
        return "ready".equals(RawTree.string(cluster, "state", ref, "status.rayClusterStatus.state"));
    }

    @Override
    protected String clusterPath() {
        return "spec.rayClusterSpec";
    }

    @Override
    protected Map<String, Object> clusterSpec(GenericKubernetesResource job, String ref) {
        Map<String, Object> cluster = RawTree.object(spec(job), "rayClusterSpec", ref, "spec.rayClusterSpec");
        if (cluster == null) {
            throw new InvalidJobException(ref, "spec.rayClusterSpec", "is missing",
                    "give the RayJob a rayClusterSpec (a RayJob using an existing cluster by clusterSelector is "
                            + "not queued: remove the queue label or the suspend)");
        }
        return cluster;
    }
}
