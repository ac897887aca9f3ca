package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.v1beta2.TopologyAnnotations;
import dev.sluice.controller.tas.TasStart;
import dev.sluice.engine.tas.PodSetTopologyRequest;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Starting a pod set placed by topology gives its template what Kueue v0.19's FromAssignment gives it (the topology
 * gate, the Workload's name, the unconstrained annotation for implicit TAS), beside the flavor's labels; the restore
 * after a stop takes all of it off again.
 */
class TopologyStartRestoreTest {
    private final JobKinds kinds = JobKinds.standard();

    @Test
    void aJobSetPlacedByTopologyStartsGatedAndIsRestoredUngated() {
        GenericKubernetesResource js = Manifests.one("jobsets-multislice-standard.yaml", "multislice-3slice");
        JobKind kind = kinds.forJob(js).orElseThrow();
        kind.hold(js);
        List<PodSetTemplate> originals = kind.podSets(js);
        PodSetStart st = TasStart.withTopology(new PodSetStart("slice", Map.of("pool", "a"), List.of(), null),
                "jobset-multislice-3slice-1a2b3", true, PodSetTopologyRequest.ofRequired("cloud.google.com/gce-topology-block"));
        kind.start(js, List.of(st));

        PodSetTemplate started = kind.podSets(js).get(0);
        assertThat(started.template().getSpec().getSchedulingGates()).extracting(PodSchedulingGate::getName)
                .containsExactly(WellKnown.TOPOLOGY_GATE);
        assertThat(started.template().getMetadata().getAnnotations())
                .containsEntry(WellKnown.WORKLOAD, "jobset-multislice-3slice-1a2b3")
                .doesNotContainKey(TopologyAnnotations.UNCONSTRAINED);
        assertThat(started.template().getSpec().getNodeSelector()).containsEntry("pool", "a");

        kind.hold(js);
        kind.restore(js, originals);
        assertThat(kind.podSets(js)).isEqualTo(originals);
        PodSetTemplate restored = kind.podSets(js).get(0);
        assertThat(restored.template().getSpec().getSchedulingGates()).isNullOrEmpty();
        var meta = restored.template().getMetadata();
        assertThat(meta == null || meta.getAnnotations() == null || !meta.getAnnotations().containsKey(WellKnown.WORKLOAD))
                .as("no Workload annotation after the restore").isTrue();
    }

    @Test
    void implicitTopologyAddsTheUnconstrainedAnnotationAndTheGateOnce() {
        GenericKubernetesResource job = Manifests.load("job-queued.yaml").get(0);
        JobKind kind = kinds.forJob(job).orElseThrow();
        PodSetStart st = TasStart.withTopology(new PodSetStart("main", Map.of(), List.of(), null), "job-x", true, null);
        kind.start(job, List.of(st));
        kind.hold(job);
        kind.start(job, List.of(st));
        var template = kind.podSets(job).get(0).template();
        assertThat(template.getSpec().getSchedulingGates()).extracting(PodSchedulingGate::getName)
                .containsExactly(WellKnown.TOPOLOGY_GATE);
        assertThat(template.getMetadata().getAnnotations()).containsEntry(TopologyAnnotations.UNCONSTRAINED, "true")
                .containsEntry(WellKnown.WORKLOAD, "job-x");
    }

    @Test
    void aPodSetWithoutTopologyAssignmentGetsNothingMore() {
        PodSetStart base = new PodSetStart("main", Map.of("a", "b"), List.of(), null);
        assertThat(TasStart.withTopology(base, "wl", false, PodSetTopologyRequest.ofRequired("rack"))).isSameAs(base);
    }

    /** Kueue's TestIsTAS, case by case. */
    @Test
    void isTas() {
        assertThat(TasStart.isTas(Map.of())).as("no annotations").isFalse();
        assertThat(TasStart.isTas(Map.of(TopologyAnnotations.PREFERRED, "x"))).as("PodSetPreferredTopologyAnnotation").isTrue();
        assertThat(TasStart.isTas(Map.of(TopologyAnnotations.REQUIRED, "x"))).as("PodSetRequiredTopologyAnnotation").isTrue();
        assertThat(TasStart.isTas(Map.of(TopologyAnnotations.SLICE_REQUIRED, "x")))
                .as("PodSetSliceRequiredTopologyAnnotation").isTrue();
        assertThat(TasStart.isTas(Map.of(TopologyAnnotations.SLICE_REQUIRED_CONSTRAINTS, "x")))
                .as("PodSetSliceRequiredTopologyConstraintsAnnotation").isTrue();
        assertThat(TasStart.isTas(Map.of(TopologyAnnotations.UNCONSTRAINED, "true")))
                .as("PodSetUnconstrainedTopologyAnnotation").isTrue();
        assertThat(TasStart.isTas(Map.of("example.com/other", "x"))).as("unrelated annotation").isFalse();
    }
}
