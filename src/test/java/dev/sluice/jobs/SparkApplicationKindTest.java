package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SparkApplicationKindTest {
    private static final BigDecimal MI = new BigDecimal(1L << 20);
    private final SparkApplicationKind kind = new SparkApplicationKind();

    private static GenericKubernetesResource app(String specExtra, String executor) {
        return Manifests.parse("""
                apiVersion: sparkoperator.k8s.io/v1beta2
                kind: SparkApplication
                metadata: {name: pi, namespace: spark}
                spec:
                  type: Scala
                  image: apache/spark:3.5.0
                %s
                  driver: {cores: 1, memory: 512m}
                  executor:
                %s
                """.formatted(specExtra, executor));
    }

    @ParameterizedTest(name = "type={0} factor={1} memory={2} overhead={3} -> {4}Mi")
    @CsvSource(nullValues = "-", value = {
        "Scala, -, 512m, -, 896",      // 512 + max(51, 384)
        "Java, -, 8g, -, 9011",        // 8192 + 819 (trunc 819.2)
        "Python, -, 2g, -, 2867",      // 2048 + 819 (0.4 × 2048 = 819.2)
        "Python, -, 512m, -, 896",     // 0.4 × 512 = 204 < 384
        "Scala, '0.5', 2g, -, 3072",   // an explicit factor applies
        "Scala, -, 4096, -, 4505",     // no unit: MiB; 4096 + 409
        "Scala, -, 1g, 1g, 2048",      // explicit overhead
        "Scala, -, -, -, 1408",        // Spark's default 1g + 384
        "Scala, -, 2097152k, -, 2432", // 2048 + 384
    })
    void executorMemoryIsHeapPlusOverhead(String type, String factor, String memory, String overhead, long mib) {
        StringBuilder executor = new StringBuilder("    instances: 3\n");
        if (memory != null) {
            executor.append("    memory: \"").append(memory).append("\"\n");
        }
        if (overhead != null) {
            executor.append("    memoryOverhead: ").append(overhead).append('\n');
        }
        GenericKubernetesResource a = app(factor == null ? "" : "  memoryOverheadFactor: \"" + factor + "\"", executor.toString());
        a.<Map<String, Object>>get("spec").put("type", type);
        PodSetTemplate executors = kind.podSets(a).get(1);
        assertThat(executors.count()).isEqualTo(3);
        assertThat(PodDemand.of(executors.template().getSpec()))
                .containsEntry("memory", MI.multiply(BigDecimal.valueOf(mib)));
        // Spark sets the memory limit to the request
        assertThat(executors.template().getSpec().getContainers().get(0).getResources().getLimits().get("memory"))
                .hasToString(mib + "Mi");
    }

    @Test
    void cpuFromCoreRequestOrCoresGpuAndDefaults() {
        GenericKubernetesResource a = app("", """
                    coreRequest: 500m
                    coreLimit: "2"
                    cores: 2
                    gpu: {name: nvidia.com/gpu, quantity: 1}
                """);
        PodSetTemplate executors = kind.podSets(a).get(1);
        assertThat(executors.count()).as("Spark's default instances").isEqualTo(2);
        assertThat(PodDemand.of(executors.template().getSpec()))
                .containsEntry("cpu", new BigDecimal("0.5"))
                .containsEntry("nvidia.com/gpu", BigDecimal.ONE);
        assertThat(executors.template().getSpec().getContainers().get(0).getResources().getLimits().get("cpu"))
                .hasToString("2");
    }

    @Test
    void dynamicAllocationCountsMaxExecutorsAndNeedsIt() {
        GenericKubernetesResource a = app("  dynamicAllocation: {enabled: true, maxExecutors: 10}", "    cores: 1");
        assertThat(kind.podSets(a).get(1).count()).isEqualTo(10);
        GenericKubernetesResource noMax = app("  dynamicAllocation: {enabled: true}", "    cores: 1");
        assertThatThrownBy(() -> kind.podSets(noMax)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.dynamicAllocation.maxExecutors").hasMessageContaining("set maxExecutors");
    }

    @Test
    void badMemoryNamesTheField() {
        GenericKubernetesResource a = app("", "    memory: 1.5g");
        assertThatThrownBy(() -> kind.podSets(a)).isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("spec.executor.memory").hasMessageContaining("\"1.5g\" is not a JVM memory size");
    }

    @Test
    void anApplicationUsingSpecSuspendIsHeldAndReleasedByIt() {
        GenericKubernetesResource a = app("  suspend: true", "    instances: 1");
        assertThat(kind.isSuspended(a)).isTrue();
        assertThat(kind.heldTheAckWay(a)).isTrue();
        List<PodSetTemplate> originals = kind.podSets(a);
        kind.start(a, AckSeedsTest.starts(kind, a, Map.of(), List.of()));
        assertThat(a.<Boolean>get("spec", "suspend")).isFalse();
        assertThat(a.getMetadata().getAnnotations()).doesNotContainKey(WellKnown.ACK_SUSPEND);
        kind.restore(a, originals);
        assertThat(a.<Boolean>get("spec", "suspend")).isTrue();
        assertThat(a.getMetadata().getAnnotations()).doesNotContainKey(WellKnown.ACK_SUSPEND);
    }

    @Test
    void applicationNodeSelectorCountsForTheFlavorAndIsNotCopiedIntoTheRolesOnRestore() {
        GenericKubernetesResource a = app("  nodeSelector: {zone: a}", "    nodeSelector: {disk: ssd}");
        kind.hold(a);
        GenericKubernetesResource held = Manifests.copy(a);
        List<PodSetTemplate> originals = kind.podSets(a);
        assertThat(originals.get(1).template().getSpec().getNodeSelector())
                .containsExactlyInAnyOrderEntriesOf(Map.of("zone", "a", "disk", "ssd"));
        assertThatThrownBy(() -> kind.start(a, AckSeedsTest.starts(kind, a, Map.of("zone", "b"), List.of())))
                .isInstanceOf(StartConflictException.class);

        kind.start(a, AckSeedsTest.starts(kind, a, Map.of("pool", "p1"), List.of()));
        assertThat(a.<Map<String, Object>>get("spec", "driver", "nodeSelector")).containsExactly(Map.entry("pool", "p1"));
        assertThat(a.<Map<String, Object>>get("spec", "executor", "labels"))
                .containsExactly(Map.entry(WellKnown.POD_SET, "executor"));
        kind.restore(a, originals);
        assertThat(AckSeedsTest.canonical(a)).isEqualTo(AckSeedsTest.canonical(held));
    }
}
