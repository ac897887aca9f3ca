package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BatchJobKindTest {
    private final BatchJobKind kind = new BatchJobKind();

    private static GenericKubernetesResource job(String specExtra) {
        return Manifests.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: train, namespace: team-a}
                spec:
                %s
                  template:
                    spec:
                      containers: [{name: c, resources: {requests: {cpu: "1"}}}]
                """.formatted(specExtra));
    }

    @ParameterizedTest(name = "parallelism={0} completions={1} -> {2}")
    @CsvSource(nullValues = "-", value = {
        "-, -, 1",
        "3, -, 3",
        "3, 5, 3",
        "5, 3, 3",
        "-, 4, 1",
        "0, 2, 0",
    })
    void countIsParallelismLoweredToCompletions(Integer parallelism, Integer completions, int expected) {
        StringBuilder extra = new StringBuilder();
        if (parallelism != null) {
            extra.append("  parallelism: ").append(parallelism).append('\n');
        }
        if (completions != null) {
            extra.append("  completions: ").append(completions).append('\n');
        }
        assertThat(kind.podSets(job(extra.toString()))).singleElement()
                .satisfies(ps -> assertThat(ps.count()).isEqualTo(expected));
    }

    @Test
    void nonNumericParallelismNamesFieldAndFix() {
        assertThatThrownBy(() -> kind.podSets(job("  parallelism: two")))
                .isInstanceOf(InvalidJobException.class)
                .hasMessage("Job team-a/train: spec.parallelism: must be a whole number >= 0, found \"two\"; "
                        + "set it to a count such as 1, or remove it to use the default")
                .satisfies(e -> assertThat(((InvalidJobException) e).field()).isEqualTo("spec.parallelism"));
    }

    @Test
    void negativeCompletionsRejected() {
        assertThatThrownBy(() -> kind.podSets(job("  completions: -1")))
                .isInstanceOf(InvalidJobException.class).hasMessageContaining("spec.completions");
    }

    @Test
    void missingTemplateRejected() {
        GenericKubernetesResource j = Manifests.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: t}
                spec: {parallelism: 1}
                """);
        assertThatThrownBy(() -> kind.podSets(j))
                .isInstanceOf(InvalidJobException.class).hasMessageContaining("spec.template: is missing");
    }

    @Test
    void badQuantityInTemplateNamesFullPath() {
        GenericKubernetesResource j = Manifests.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: t}
                spec:
                  template:
                    spec:
                      containers: [{name: c, resources: {limits: {memory: lots}}}]
                """);
        assertThatThrownBy(() -> kind.podSets(j))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("Job t: spec.template.spec.containers[0].resources.limits.memory")
                .hasMessageContaining("\"lots\" is not a quantity");
    }

    @Test
    void templateWithWrongShapeRejected() {
        GenericKubernetesResource j = Manifests.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: t}
                spec:
                  template:
                    spec:
                      containers: "not a list"
                """);
        assertThatThrownBy(() -> kind.podSets(j))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.template: is not a valid pod template");
    }

    @Test
    void holdSuspends() {
        GenericKubernetesResource j = job("  parallelism: 2");
        assertThat(kind.isSuspended(j)).isFalse();
        kind.hold(j);
        assertThat(kind.isSuspended(j)).isTrue();
        assertThat(j.<Boolean>get("spec", "suspend")).isTrue();
    }

    @Test
    void suspendMustBeABoolean() {
        assertThatThrownBy(() -> kind.isSuspended(job("  suspend: \"yes\"")))
                .isInstanceOf(InvalidJobException.class).hasMessageContaining("spec.suspend");
    }

    @Test
    void finishedOnCompleteOrFailedTrue() {
        GenericKubernetesResource j = job("");
        assertThat(kind.finished(j)).isEmpty();
        j.setAdditionalProperty("status", Manifests.parse("""
                status:
                  conditions:
                  - {type: Suspended, status: "False"}
                  - {type: Complete, status: "False"}
                """).getAdditionalProperties().get("status"));
        assertThat(kind.finished(j)).isEmpty();

        j.setAdditionalProperty("status", Manifests.parse("""
                status:
                  conditions:
                  - {type: SuccessCriteriaMet, status: "True"}
                  - {type: Complete, status: "True", reason: CompletionsReached, message: Reached expected number of succeeded pods}
                """).getAdditionalProperties().get("status"));
        assertThat(kind.finished(j)).contains(
                new JobFinish(true, "CompletionsReached", "Reached expected number of succeeded pods"));

        j.setAdditionalProperty("status", Manifests.parse("""
                status:
                  conditions:
                  - {type: Failed, status: "True"}
                """).getAdditionalProperties().get("status"));
        assertThat(kind.finished(j)).contains(new JobFinish(false, "Failed", "Job team-a/train failed"));
    }

    @Test
    void activeWhenPodsRun() {
        GenericKubernetesResource j = job("");
        assertThat(kind.isActive(j)).isFalse();
        j.setAdditionalProperty("status", new java.util.LinkedHashMap<>(java.util.Map.of("active", 0)));
        assertThat(kind.isActive(j)).isFalse();
        j.setAdditionalProperty("status", new java.util.LinkedHashMap<>(java.util.Map.of("active", 2)));
        assertThat(kind.isActive(j)).isTrue();
    }

    @Test
    void priorityClassFromTemplate() {
        GenericKubernetesResource j = Manifests.parse("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: t}
                spec:
                  template:
                    spec:
                      priorityClassName: high
                      containers: [{name: c}]
                """);
        assertThat(kind.priorityClassName(j)).contains("high");
    }
}
