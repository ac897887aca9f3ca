package dev.sluice;

import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobKinds;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.config.Config;

/**
 * The job kinds switched on, from {@code sluice.integrations.<name>.enabled} (like ack-kube-queue's
 * {@code extension.<kind>.enable}); defaults as the Helm chart: {@code job} and {@code jobset} on, the others off.
 * Used by the controller and the webhooks; {@code simulate} runs without Quarkus and accepts every kind.
 * Also carries {@code sluice.kube-queue-compat}: whether jobs held the ack-kube-queue way are queued.
 */
@ApplicationScoped
public class Integrations {

    /** Kinds switched on when their property is not set. */
    public static final Set<String> ON_BY_DEFAULT = Set.of("job", "jobset");

    private final JobKinds kinds;
    private final boolean kubeQueueCompat;

    @Inject
    public Integrations(Config config) {
        this(name -> config.getOptionalValue(property(name), Boolean.class).orElse(ON_BY_DEFAULT.contains(name)),
                config.getOptionalValue("sluice.kube-queue-compat", Boolean.class).orElse(true));
    }

    /** For tests and tools: {@code enabled} answers for each integration name. */
    public Integrations(java.util.function.Predicate<String> enabled, boolean kubeQueueCompat) {
        List<String> on = new ArrayList<>();
        for (JobKind kind : JobKinds.standard().all()) {
            if (enabled.test(kind.integrationName())) {
                on.add(kind.integrationName());
            }
        }
        this.kinds = JobKinds.only(on);
        this.kubeQueueCompat = kubeQueueCompat;
    }

    public static String property(String integrationName) {
        return "sluice.integrations." + integrationName + ".enabled";
    }

    /** The kinds switched on, in the standard order. */
    public JobKinds kinds() {
        return kinds;
    }

    /** Whether a job submitted already held, without a queue label, joins its namespace's LocalQueue default. */
    public boolean kubeQueueCompat() {
        return kubeQueueCompat;
    }
}
