package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The queue-label way: a seed stripped of its ack-kube-queue hold, labelled, held by hold() (the kind's own way),
 * started, then restored: held the same way and exactly as after hold().
 */
class LabelWayRoundTripTest {
    private static final Toleration SPOT = new TolerationBuilder()
            .withKey("cloud.google.com/gke-spot").withOperator("Equal").withValue("true").withEffect("NoSchedule")
            .build();

    private final JobKinds kinds = JobKinds.standard();

    @ParameterizedTest(name = "{0} is held by {1}")
    @CsvSource({
        "tfjob-queued.yaml, spec.runPolicy.suspend",
        "pytorchjob-queued.yaml, spec.runPolicy.suspend",
        "mpijob-queued.yaml, spec.runPolicy.suspend",
        "rayjob-queued.yaml, spec.suspend",
        "spark-queued.yaml, annotation",
        "argo-workflow-queued.yaml, spec.suspend",
        "job-queued.yaml, spec.suspend",
    })
    void holdStartRestore(String file, String way) {
        GenericKubernetesResource job = unheld(file);
        JobKind kind = kinds.forJob(job).orElseThrow();
        assertThat(kind.isSuspended(job)).isFalse();
        assertThat(kind.heldTheAckWay(job)).isFalse();

        kind.hold(job);
        assertThat(kind.isSuspended(job)).isTrue();
        assertThat(holdValue(job, way)).isEqualTo(way.equals("annotation") ? "true" : true);
        assertThat(kind.heldTheAckWay(job)).as("a labelled job is not held the ack way").isFalse();
        GenericKubernetesResource held = Manifests.copy(job);
        List<PodSetTemplate> originals = kind.podSets(job);

        kind.start(job, AckSeedsTest.starts(kind, job, Map.of("pool", "spot-a"), List.of(SPOT)));
        assertThat(kind.isSuspended(job)).isFalse();
        assertThat(holdValue(job, way)).isEqualTo(way.equals("annotation") ? "false" : false);
        assertThat(kind.podSets(job)).allSatisfy(ps -> {
            assertThat(ps.template().getSpec().getNodeSelector()).containsEntry("pool", "spot-a");
            assertThat(ps.template().getSpec().getTolerations()).containsExactly(SPOT);
        });

        kind.restore(job, originals);
        assertThat(kind.isSuspended(job)).isTrue();
        assertThat(holdValue(job, way)).isEqualTo(way.equals("annotation") ? "true" : true);
        assertThat(kind.podSets(job)).isEqualTo(originals);
        assertThat(AckSeedsTest.canonical(job)).isEqualTo(AckSeedsTest.canonical(held));
    }

    /** The seed without any hold, with a queue label. */
    private static GenericKubernetesResource unheld(String file) {
        GenericKubernetesResource job = Manifests.ackSeed(file);
        if (job.getMetadata().getAnnotations() != null) {
            job.getMetadata().getAnnotations().remove(WellKnown.ACK_SUSPEND);
        }
        Map<String, Object> spec = job.get("spec");
        spec.remove("suspend");
        spec.remove("runPolicy");
        job.getMetadata().setLabels(new HashMap<>(Map.of(WellKnown.QUEUE_NAME, "user-queue")));
        return job;
    }

    private static Object holdValue(GenericKubernetesResource job, String way) {
        return switch (way) {
            case "annotation" -> job.getMetadata().getAnnotations().get(WellKnown.ACK_SUSPEND);
            case "spec.suspend" -> AckSeedsTest.suspendField(job, List.of("spec"));
            default -> AckSeedsTest.suspendField(job, List.of("spec", "runPolicy"));
        };
    }
}
