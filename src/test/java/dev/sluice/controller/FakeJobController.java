package dev.sluice.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/** Plays the Job and JobSet controllers, which the test API server does not run: ends jobs by writing their status. */
public final class FakeJobController {

    private final KubernetesClient client;

    public FakeJobController(KubernetesClient client) {
        this.client = client;
    }

    /** The JobSet's terminal condition (Completed or Failed), as the JobSet controller writes it. */
    public void finishJobSet(String namespace, String name, boolean succeeded) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        retryOnConflict(() -> client.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
                .inNamespace(namespace).withName(name).editStatus(js -> {
                    js.getAdditionalProperties().put("status", Map.of("conditions", List.of(Map.of(
                            "type", succeeded ? "Completed" : "Failed", "status", "True",
                            "reason", succeeded ? "AllJobsCompleted" : "FailedJobs",
                            "message", succeeded ? "jobset completed successfully" : "jobset failed",
                            "lastTransitionTime", now))));
                    return js;
                }));
    }

    /** The Job's terminal condition (Complete or Failed), as the Job controller writes it. */
    public void finishJob(String namespace, String name, boolean succeeded) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        retryOnConflict(() -> client.batch().v1().jobs().inNamespace(namespace).withName(name).editStatus(job -> {
            job.setStatus(new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder()
                    .addNewCondition().withType(succeeded ? "Complete" : "Failed").withStatus("True")
                    .withReason(succeeded ? "Completed" : "BackoffLimitExceeded")
                    .withMessage(succeeded ? "Reached expected number of succeeded pods" : "Job has reached the specified backoff limit")
                    .withLastTransitionTime(now).endCondition().build());
            return job;
        }));
    }

    /** The Job's count of running pods ({@code status.active}), as the Job controller writes it. */
    public void activePods(String namespace, String name, int active) {
        retryOnConflict(() -> client.batch().v1().jobs().inNamespace(namespace).withName(name).editStatus(job -> {
            job.setStatus(new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder().withActive(active).build());
            return job;
        }));
    }

    /**
     * A real controller requeues a write that lost a race (409) and tries again on the newer object; Sluice writes the
     * same jobs (start, stop), so the fake does the same.
     */
    private static void retryOnConflict(Runnable write) {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 10) {
                    throw e;
                }
            }
        }
    }

}
