package dev.sluice.controller.tas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ungater's patch of one pod: the topology gate off, other gates kept, the domain's labels added, guarded. */
@EnableKubernetesMockClient(crud = true)
class TopologyUngaterPatchTest {
    KubernetesMockServer server;
    KubernetesClient client;

    private Pod gated() {
        return client.pods().inNamespace("ns").resource(new PodBuilder().withNewMetadata().withName("p").withNamespace("ns")
                .endMetadata().withNewSpec().withSchedulingGates(new PodSchedulingGate(WellKnown.TOPOLOGY_GATE),
                        new PodSchedulingGate("example.com/other")).withNodeSelector(Map.of("pool", "tpu"))
                .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build()).create();
    }

    private void patch(Pod base, Map<String, String> selector) {
        client.pods().inNamespace("ns").withName("p").patch(PatchContext.of(PatchType.JSON),
                TopologyUngater.patch(base, selector).toString());
    }

    @Test
    void theGateGoesTheOtherStaysTheSelectorGrows() {
        Pod pod = gated();
        patch(pod, Map.of("rack", "r1", "block", "b1"));
        Pod after = client.pods().inNamespace("ns").withName("p").get();
        assertThat(after.getSpec().getSchedulingGates()).extracting(PodSchedulingGate::getName)
                .containsExactly("example.com/other");
        assertThat(after.getSpec().getNodeSelector()).containsExactlyInAnyOrderEntriesOf(
                Map.of("pool", "tpu", "rack", "r1", "block", "b1"));
    }

    @Test
    void theLastGateLeavesNoGates() {
        Pod pod = client.pods().inNamespace("ns").resource(new PodBuilder().withNewMetadata().withName("p")
                .withNamespace("ns").endMetadata().withNewSpec()
                .withSchedulingGates(new PodSchedulingGate(WellKnown.TOPOLOGY_GATE)).addNewContainer().withName("c")
                .withImage("busybox").endContainer().endSpec().build()).create();
        patch(pod, Map.of("kubernetes.io/hostname", "n1"));
        Pod after = client.pods().inNamespace("ns").withName("p").get();
        assertThat(after.getSpec().getSchedulingGates()).isNullOrEmpty();
        assertThat(after.getSpec().getNodeSelector()).containsEntry("kubernetes.io/hostname", "n1");
    }

    @Test
    void aPodThatChangedMeanwhileIsAConflict() {
        Pod stale = gated();
        client.pods().inNamespace("ns").withName("p").edit(p -> {
            p.getMetadata().setLabels(Map.of("changed", "yes"));
            return p;
        });
        assertThatThrownBy(() -> patch(stale, Map.of("rack", "r1")))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }
}
