package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    /** The kinds always on: batch/v1 Job and jobset.x-k8s.io/v1alpha2 JobSet. */
    public static JobKinds standard() {
        return new JobKinds(List.of(new BatchJobKind(), new JobSetKind()));
    }

    public Optional<JobKind> forApiVersionKind(String apiVersion, String kind) {
        return Optional.ofNullable(byKey.get(key(apiVersion, kind)));
    }

    public Optional<JobKind> forJob(GenericKubernetesResource job) {
        return forApiVersionKind(job.getApiVersion(), job.getKind());
    }

    /** All kinds in registration order. */
    public List<JobKind> all() {
        return List.copyOf(byKey.values());
    }

    private static String key(String apiVersion, String kind) {
        return apiVersion + "|" + kind;
    }
}
