package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Kinds built on a KubeRay RayClusterSpec (RayJob's {@code spec.rayClusterSpec}, RayCluster's {@code spec}): pod set
 * {@code head} (1 pod, {@code headGroupSpec}) and one per worker group ({@code workerGroupSpecs[i].groupName} in lower
 * case, as Kueue's {@code raycluster.BuildPodSets} names them), count = {@code replicas} (default 1) ×
 * {@code numOfHosts} (default 1). Held by {@code spec.suspend}.
 */
abstract class RayGroupsKind extends PodTemplateJobKind {
    static final String HEAD = "head";

    @Override
    public String group() {
        return "ray.io";
    }

    @Override
    public String version() {
        return "v1";
    }

    /** The RayClusterSpec inside the job, never null. */
    protected abstract Map<String, Object> clusterSpec(GenericKubernetesResource job, String ref);

    /** Its path, e.g. {@code spec.rayClusterSpec}. */
    protected abstract String clusterPath();

    @Override
    protected List<RawPodSet> rawPodSets(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        String at = clusterPath();
        Map<String, Object> cluster = clusterSpec(job, ref);
        Map<String, Object> head = RawTree.object(cluster, "headGroupSpec", ref, at + ".headGroupSpec");
        Map<String, Object> headTemplate = RawTree.object(head, "template", ref, at + ".headGroupSpec.template");
        if (headTemplate == null) {
            throw new InvalidJobException(ref, at + ".headGroupSpec.template", "is missing",
                    "give the head group a pod template");
        }
        List<RawPodSet> out = new ArrayList<>();
        out.add(new RawPodSet(HEAD, headTemplate, at + ".headGroupSpec.template", 1));
        Set<String> names = new HashSet<>(Set.of(HEAD));
        List<Object> groups = workerGroups(cluster, ref);
        if (groups.size() + 1 > PodSetTemplate.MAX_PER_WORKLOAD) {
            throw new InvalidJobException(ref, at + ".workerGroupSpecs", "has " + groups.size() + " groups: with the "
                    + "head that is more than the " + PodSetTemplate.MAX_PER_WORKLOAD + " pod sets a Workload holds",
                    "use at most " + (PodSetTemplate.MAX_PER_WORKLOAD - 1) + " worker groups");
        }
        for (int i = 0; i < groups.size(); i++) {
            String path = groupPath(i);
            Map<String, Object> group = RawTree.element(groups, i, ref, path);
            String groupName = RawTree.string(group, "groupName", ref, path + ".groupName");
            if (groupName == null || groupName.isEmpty()) {
                throw new InvalidJobException(ref, path + ".groupName", "is missing", "name every worker group");
            }
            String name = groupName.toLowerCase(Locale.ROOT);
            if (!names.add(name)) {
                throw new InvalidJobException(ref, path + ".groupName", "\"" + groupName
                        + "\" names the same pod set as the head or another group",
                        "give each worker group its own name (not \"head\"; case does not count)");
            }
            Map<String, Object> template = RawTree.object(group, "template", ref, path + ".template");
            if (template == null) {
                throw new InvalidJobException(ref, path + ".template", "is missing",
                        "give the worker group a pod template");
            }
            long count = (long) replicas(group, ref, path) * hosts(group, ref, path);
            if (count > Integer.MAX_VALUE) {
                throw new InvalidJobException(ref, path + ".replicas", "replicas × numOfHosts is " + count
                        + ", more than a pod set can count", "lower replicas or numOfHosts");
            }
            out.add(new RawPodSet(name, template, path + ".template", (int) count));
        }
        return out;
    }

    /**
     * Kueue's raycluster.ValidateCreate: a queued cluster may not autoscale (without workload slicing, which Sluice
     * does not do): once its quota is reserved it must not grow.
     */
    protected void refuseAutoscaling(Map<String, Object> cluster, String ref, String kind) {
        String path = clusterPath() + ".enableInTreeAutoscaling";
        if (RawTree.flag(cluster, "enableInTreeAutoscaling", ref, path)) {
            throw new InvalidJobException(ref, path, "is true: a queued " + kind + " may not autoscale (its quota is "
                    + "reserved for the pods it asks for)",
                    "set it to false or remove it, and give each worker group the replicas it needs");
        }
    }

    protected String groupPath(int i) {
        return clusterPath() + ".workerGroupSpecs[" + i + "]";
    }

    protected List<Object> workerGroups(Map<String, Object> cluster, String ref) {
        List<Object> groups = RawTree.list(cluster, "workerGroupSpecs", ref, clusterPath() + ".workerGroupSpecs");
        return groups == null ? List.of() : groups;
    }

    protected static int replicas(Map<String, Object> group, String ref, String path) {
        Integer replicas = RawTree.count(group, "replicas", ref, path + ".replicas");
        return replicas == null ? 1 : replicas;
    }

    protected static int hosts(Map<String, Object> group, String ref, String path) {
        Integer hosts = RawTree.count(group, "numOfHosts", ref, path + ".numOfHosts");
        if (hosts != null && hosts == 0) {
            throw new InvalidJobException(ref, path + ".numOfHosts", "is 0", "set it to 1 or more, or remove it");
        }
        return hosts == null ? 1 : hosts;
    }
}
