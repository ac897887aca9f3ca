package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The batch kinds Sluice handles, looked up by apiVersion and kind. */
public final class JobKinds {
    private final Map<String, JobKind> byKey = new LinkedHashMap<>();

    /** A registry of the given kinds; two adapters for one apiVersion/kind is an error. */
    public JobKinds(List<? extends JobKind> kinds) {
        for (JobKind k : kinds) {
            JobKind previous = byKey.putIfAbsent(key(k.apiVersion(), k.kind()), k);
            if (previous != null) {
                throw new IllegalArgumentException("two adapters for " + k.apiVersion() + " " + k.kind() + ": "
                        + previous.getClass().getSimpleName() + " and " + k.getClass().getSimpleName());
            }
        }
    }

    /**
     * Every kind Sluice has an adapter for: batch/v1 Job, JobSet, TFJob, PyTorchJob, XGBoostJob, PaddleJob, JAXJob,
     * MPIJob, RayJob, RayCluster, RayService, SparkApplication, Argo Workflow and AppWrapper. Use {@link #only} for the ones switched on.
     */
    public static JobKinds standard() {
        return new JobKinds(List.of(new BatchJobKind(), new JobSetKind(), new TFJobKind(), new PyTorchJobKind(),
                new XGBoostJobKind(), new PaddleJobKind(), new JAXJobKind(), new MPIJobKind(), new RayJobKind(),
                new RayClusterKind(), new RayServiceKind(), new SparkApplicationKind(), new ArgoWorkflowKind(), new AppWrapperKind()));
    }

    /**
     * The standard kinds whose {@link JobKind#integrationName()} is listed (for the switches
     * {@code sluice.integrations.<name>.enabled}), in the standard order.
     *
     * @throws IllegalArgumentException a name no kind has (lists the known names)
     */
    public static JobKinds only(Collection<String> integrationNames) {
        List<JobKind> all = standard().all();
        Set<String> known = new TreeSet<>();
        all.forEach(k -> known.add(k.integrationName()));
        Set<String> unknown = new TreeSet<>(integrationNames);
        unknown.removeAll(known);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("no job kind is called " + unknown + "; the integrations are " + known);
        }
        return new JobKinds(all.stream().filter(k -> integrationNames.contains(k.integrationName())).toList());
    }

    public Optional<JobKind> forApiVersionKind(String apiVersion, String kind) {
        return Optional.ofNullable(byKey.get(key(apiVersion, kind)));
    }

    public Optional<JobKind> forJob(GenericKubernetesResource job) {
        return forApiVersionKind(job.getApiVersion(), job.getKind());
    }

    /**
     * Whether the job is controlled (an {@code ownerReferences} entry with {@code controller: true}) by an object of
     * one of these kinds, e.g. the RayCluster of a RayJob, which KubeRay labels as the RayJob: the owner's Workload
     * stands for it, so it is not queued itself (Kueue: a job whose owner Kueue manages).
     */
    public boolean controlledByOneOf(GenericKubernetesResource job) {
        if (job.getMetadata() == null || job.getMetadata().getOwnerReferences() == null) {
            return false;
        }
        return job.getMetadata().getOwnerReferences().stream().anyMatch(o -> Boolean.TRUE.equals(o.getController())
                && forApiVersionKind(o.getApiVersion(), o.getKind()).isPresent());
    }

    /** All kinds in registration order. */
    public List<JobKind> all() {
        return List.copyOf(byKey.values());
    }

    private static String key(String apiVersion, String kind) {
        return apiVersion + "|" + kind;
    }
}
