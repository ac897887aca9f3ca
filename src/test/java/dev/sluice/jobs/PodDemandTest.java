package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodDemandTest {

    private static PodSpec spec(String yaml) {
        try {
            return Manifests.YAML.readValue(yaml, PodSpec.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void containersAddUp() {
        PodSpec s = spec("""
                containers:
                - name: a
                  resources: {requests: {cpu: 500m, memory: 1Gi}}
                - name: b
                  resources: {requests: {cpu: "1.5", memory: 512Mi}}
                """);
        assertThat(PodDemand.of(s)).containsExactly(
                Map.entry("cpu", new BigDecimal("2")),
                Map.entry("memory", new BigDecimal(1536L * 1024 * 1024)));
    }

    @Test
    void largestInitContainerWinsWhenItExceedsTheSum() {
        PodSpec s = spec("""
                initContainers:
                - name: big-init
                  resources: {requests: {cpu: "3"}}
                - name: small-init
                  resources: {requests: {cpu: "1", memory: 4Gi}}
                containers:
                - name: a
                  resources: {requests: {cpu: "1", memory: 1Gi}}
                - name: b
                  resources: {requests: {cpu: "1"}}
                """);
        // cpu: max(1+1, 3) = 3; memory: max(1Gi, 4Gi) = 4Gi
        assertThat(PodDemand.of(s)).containsExactly(
                Map.entry("cpu", new BigDecimal("3")),
                Map.entry("memory", new BigDecimal(4L << 30)));
    }

    @Test
    void sidecarsRunAlongsideTheMainContainersAndLaterInits() {
        PodSpec s = spec("""
                initContainers:
                - name: sidecar
                  restartPolicy: Always
                  resources: {requests: {cpu: 500m}}
                - name: init-after-sidecar
                  resources: {requests: {cpu: "2"}}
                containers:
                - name: main
                  resources: {requests: {cpu: "1"}}
                """);
        // running: 1 + 0.5 sidecar = 1.5; init phase: 2 + 0.5 sidecar = 2.5
        assertThat(PodDemand.of(s)).containsExactly(Map.entry("cpu", new BigDecimal("2.5")));
    }

    @Test
    void overheadIsAddedOnTop() {
        PodSpec s = spec("""
                overhead: {cpu: 250m, memory: 120Mi}
                initContainers:
                - name: init
                  resources: {requests: {cpu: "2"}}
                containers:
                - name: main
                  resources: {requests: {cpu: "1"}}
                """);
        assertThat(PodDemand.of(s)).containsExactly(
                Map.entry("cpu", new BigDecimal("2.25")),
                Map.entry("memory", new BigDecimal(120L * 1024 * 1024)));
    }

    @Test
    void aLimitWithoutRequestCountsTheLimitButARequestWins() {
        PodSpec s = spec("""
                containers:
                - name: limits-only
                  resources: {limits: {nvidia.com/gpu: 2, cpu: "4"}}
                - name: both
                  resources: {requests: {cpu: 100m}, limits: {cpu: "8"}}
                """);
        assertThat(PodDemand.of(s)).containsExactly(
                Map.entry("cpu", new BigDecimal("4.1")),
                Map.entry("nvidia.com/gpu", new BigDecimal("2")));
    }

    @Test
    void mixedUnitsAreExact() {
        PodSpec s = spec("""
                containers:
                - name: a
                  resources: {requests: {memory: 1G, cpu: 1m, ephemeral-storage: 1e3}}
                - name: b
                  resources: {requests: {memory: 1Mi, cpu: "0.0005", ephemeral-storage: 1k}}
                """);
        assertThat(PodDemand.of(s)).containsExactly(
                Map.entry("cpu", new BigDecimal("0.0015")),
                Map.entry("ephemeral-storage", new BigDecimal("2000")),
                Map.entry("memory", new BigDecimal(1_000_000_000L + 1_048_576L)));
        // 1.5 millicores rounds up to 2
        assertThat(PodDemand.milliOf(s)).containsEntry("cpu", 2L).containsEntry("ephemeral-storage", 2_000_000L);
    }

    @Test
    void milliRoundsUpLikeKubernetesMilliValue() {
        assertThat(PodDemand.milli(new Quantity("100m"))).isEqualTo(100);
        assertThat(PodDemand.milli(new Quantity("0.0001"))).isEqualTo(1);
        assertThat(PodDemand.milli(new Quantity("1Ki"))).isEqualTo(1_024_000);
        assertThat(PodDemand.milli(new BigDecimal("2.0001"))).isEqualTo(2001);
        assertThat(PodDemand.milli(BigDecimal.ZERO)).isZero();
        assertThatThrownBy(() -> PodDemand.milli(new Quantity("20E")))
                .isInstanceOf(ArithmeticException.class).hasMessageContaining("too large");
    }

    @Test
    void noResourcesMeansNoDemand() {
        assertThat(PodDemand.of(spec("containers: [{name: a}]"))).isEmpty();
    }

    @Test
    void badQuantityNamesTheField() {
        PodSpec s = spec("""
                containers:
                - name: a
                - name: b
                  resources: {requests: {cpu: "-1"}}
                """);
        assertThatThrownBy(() -> PodDemand.of(s))
                .isInstanceOf(InvalidJobException.class)
                .hasMessageContaining("containers[1].resources.requests.cpu")
                .hasMessageContaining("negative");
    }
}
