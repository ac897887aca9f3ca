package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Pod sets, demand and priority of the tutorial's seed manifests. */
class SeedPodSetsTest {
    private final JobKinds kinds = JobKinds.standard();

    @ParameterizedTest
    @ValueSource(strings = {"jobsets-multislice-autopilot.yaml", "jobsets-multislice-standard.yaml"})
    void multisliceJobSetsHaveOneSlicePodSetOfTwoPodsPerSlice(String file) {
        List<GenericKubernetesResource> jobSets = Manifests.load(file);
        assertThat(jobSets).extracting(r -> r.getMetadata().getName())
                .containsExactly("multislice-1slice", "multislice-2slice", "multislice-3slice");
        int[] expectedCounts = {2, 4, 6};
        for (int i = 0; i < jobSets.size(); i++) {
            GenericKubernetesResource js = jobSets.get(i);
            JobKind kind = kinds.forJob(js).orElseThrow();
            assertThat(kind).isInstanceOf(JobSetKind.class);
            List<PodSetTemplate> podSets = kind.podSets(js);
            assertThat(podSets).singleElement().satisfies(ps -> {
                assertThat(ps.name()).isEqualTo("slice");
                assertThat(ps.minCount()).isNull();
                assertThat(ps.template().getSpec().getNodeSelector())
                        .containsEntry("cloud.google.com/gke-tpu-topology", "2x4");
            });
            assertThat(podSets.get(0).count()).isEqualTo(expectedCounts[i]);
            // limits only: the limit counts as the request
            assertThat(PodDemand.of(podSets.get(0).template().getSpec()))
                    .containsExactly(Map.entry("google.com/tpu", new BigDecimal("4")));
            assertThat(PodDemand.milliOf(podSets.get(0).template().getSpec()))
                    .containsExactly(Map.entry("google.com/tpu", 4000L));
            assertThat(kind.priorityClassName(js)).isEmpty();
            assertThat(kind.isSuspended(js)).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jobset-low-priority-autopilot.yaml", "jobset-low-priority-standard.yaml"})
    void lowPriorityJobSetNamesItsPriorityClass(String file) {
        GenericKubernetesResource js = Manifests.one(file, "low-priority");
        JobKind kind = kinds.forJob(js).orElseThrow();
        assertThat(kind.priorityClassName(js)).contains("low-priority");
        assertThat(kind.podSets(js)).singleElement()
                .satisfies(ps -> assertThat(ps.count()).isEqualTo(2));
    }

    @Test
    void ackJobSeedIsOneMainPodWithCpuAndMemory() {
        GenericKubernetesResource job = Manifests.load("job-queued.yaml").get(0);
        JobKind kind = kinds.forJob(job).orElseThrow();
        assertThat(kind).isInstanceOf(BatchJobKind.class);
        assertThat(kind.isSuspended(job)).isTrue();
        List<PodSetTemplate> podSets = kind.podSets(job);
        assertThat(podSets).singleElement().satisfies(ps -> {
            assertThat(ps.name()).isEqualTo("main");
            assertThat(ps.count()).isEqualTo(1);
        });
        assertThat(PodDemand.of(podSets.get(0).template().getSpec())).containsExactly(
                Map.entry("cpu", new BigDecimal("1")),
                Map.entry("memory", new BigDecimal(200L * 1024 * 1024)));
        assertThat(kind.priorityClassName(job)).isEmpty();
    }

    @Test
    void podSetsAreCopiesNotViewsOfTheJob() {
        GenericKubernetesResource js = Manifests.one("jobsets-multislice-autopilot.yaml", "multislice-1slice");
        JobKind kind = kinds.forJob(js).orElseThrow();
        kind.podSets(js).get(0).template().getSpec().getNodeSelector().put("changed", "yes");
        assertThat(kind.podSets(js).get(0).template().getSpec().getNodeSelector()).doesNotContainKey("changed");
    }
}
