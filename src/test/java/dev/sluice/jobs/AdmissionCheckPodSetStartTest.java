package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The labels and annotations admission checks add at start (their podSetUpdates), and a restore taking them away. */
class AdmissionCheckPodSetStartTest {

    private final JobKinds kinds = JobKinds.standard();

    @Test
    void startAddsTheChecksLabelsAndAnnotationsAndRestoreRemovesThem() {
        GenericKubernetesResource job = Manifests.load("job-queued.yaml").get(0);
        JobKind kind = kinds.forJob(job).orElseThrow();
        List<PodSetTemplate> originals = kind.podSets(job);
        kind.start(job, List.of(new PodSetStart("main", Map.of("zone", "z1"), List.of(), null,
                Map.of("capacity", "booked"), Map.of("example.com/booking", "b-1"), null)));
        var started = kind.podSets(job).get(0).template();
        assertThat(started.getMetadata().getLabels()).containsEntry("capacity", "booked")
                .containsEntry(WellKnown.POD_SET, "main");
        assertThat(started.getMetadata().getAnnotations()).containsEntry("example.com/booking", "b-1");
        assertThat(started.getSpec().getNodeSelector()).containsEntry("zone", "z1");

        kind.restore(job, originals);
        var restored = kind.podSets(job).get(0).template();
        assertThat(restored.getMetadata() == null || restored.getMetadata().getLabels() == null
                || !restored.getMetadata().getLabels().containsKey("capacity")).isTrue();
        assertThat(restored.getMetadata() == null || restored.getMetadata().getAnnotations() == null
                || !restored.getMetadata().getAnnotations().containsKey("example.com/booking")).isTrue();
    }

    @Test
    void aLabelTheTemplateHasWithAnotherValueIsAConflictAndTheJobIsLeftAsItWas() {
        GenericKubernetesResource job = Manifests.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: pi, namespace: default}
                spec:
                  suspend: true
                  template:
                    metadata: {labels: {capacity: none}}
                    spec:
                      restartPolicy: Never
                      containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
                """);
        JobKind kind = kinds.forJob(job).orElseThrow();
        GenericKubernetesResource before = Manifests.copy(job);
        assertThatThrownBy(() -> kind.start(job, List.of(new PodSetStart("main", Map.of(), List.of(), null,
                Map.of("capacity", "booked"), Map.of(), null)))).isInstanceOf(StartConflictException.class)
                .hasMessage("pod set main: invalid admission check PodSetUpdate: conflict for labels: conflict for "
                        + "key=capacity, value1=none, value2=booked");
        assertThat(job).isEqualTo(before);
    }
}
