package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The chart renders the kueue.x-k8s.io CRDs wired to its own conversion webhook, in both TLS modes. */
class ChartCrdsTest {

    static final List<String> CRDS = List.of("clusterqueues.kueue.x-k8s.io", "cohorts.kueue.x-k8s.io",
            "localqueues.kueue.x-k8s.io", "resourceflavors.kueue.x-k8s.io", "topologies.kueue.x-k8s.io",
            "workloadpriorityclasses.kueue.x-k8s.io", "workloads.kueue.x-k8s.io",
            "admissionchecks.kueue.x-k8s.io", "provisioningrequestconfigs.kueue.x-k8s.io",
            "multikueueconfigs.kueue.x-k8s.io", "multikueueclusters.kueue.x-k8s.io");

    @Test
    void withCertManagerTheCaInjectorFillsTheConversionWebhooksCa() {
        Chart.Rendered r = Chart.render(Chart.values("fullnameOverride", "queues"));
        List<CustomResourceDefinition> crds = r.all(CustomResourceDefinition.class);
        assertThat(crds).extracting(c -> c.getMetadata().getName()).containsExactlyInAnyOrderElementsOf(CRDS);
        for (CustomResourceDefinition crd : crds) {
            assertThat(crd.getSpec().getConversion().getStrategy()).isEqualTo("Webhook");
            assertThat(crd.getSpec().getConversion().getWebhook().getConversionReviewVersions()).containsExactly("v1");
            WebhookClientConfig config = crd.getSpec().getConversion().getWebhook().getClientConfig();
            assertThat(config.getService().getName()).isEqualTo("queues-webhook");
            assertThat(config.getService().getNamespace()).isEqualTo(Chart.NAMESPACE);
            assertThat(config.getService().getPath()).isEqualTo("/convert");
            assertThat(config.getService().getPort()).isEqualTo(443);
            assertThat(config.getCaBundle()).as("cert-manager fills it").isNull();
            assertThat(crd.getMetadata().getAnnotations())
                    .containsEntry("cert-manager.io/inject-ca-from", Chart.NAMESPACE + "/queues-webhook")
                    .containsEntry("helm.sh/resource-policy", "keep");
            assertThat(crd.getSpec().getVersions()).extracting(v -> v.getName() + (v.getStorage() ? "*" : ""))
                    .containsExactlyInAnyOrder("v1beta2*", "v1beta1");
        }
    }

    @Test
    void withTheHelmCertificateTheCrdsCarryItsCa() {
        Chart.Rendered r = Chart.render(Chart.values("webhook.tls.certManager", false));
        String ca = r.all(Secret.class).stream().filter(s -> s.getData() != null && s.getData().containsKey("ca.crt"))
                .findFirst().orElseThrow().getData().get("ca.crt");
        List<CustomResourceDefinition> crds = r.all(CustomResourceDefinition.class);
        assertThat(crds).hasSize(CRDS.size());
        for (CustomResourceDefinition crd : crds) {
            WebhookClientConfig config = crd.getSpec().getConversion().getWebhook().getClientConfig();
            assertThat(config.getCaBundle()).as(crd.getMetadata().getName()).isEqualTo(ca);
            assertThat(config.getService().getName()).isEqualTo("sluice-webhook");
            assertThat(crd.getMetadata().getAnnotations()).doesNotContainKey("cert-manager.io/inject-ca-from");
        }
    }

    @Test
    void theWebhookServiceReachesPodsBeforeTheyAreReady() {
        // a controller pod is ready only once its caches are synced, which may need its own conversion webhook
        assertThat(Chart.render().one(io.fabric8.kubernetes.api.model.Service.class, "sluice-webhook").getSpec()
                .getPublishNotReadyAddresses()).isTrue();
    }

    @Test
    void crdsCanBeLeftOutAndLetGoOnUninstall() {
        assertThat(Chart.render(Chart.values("crds.install", false)).all(CustomResourceDefinition.class)).isEmpty();
        assertThat(Chart.render(Chart.values("crds.keep", false)).all(CustomResourceDefinition.class))
                .allSatisfy(crd -> assertThat(crd.getMetadata().getAnnotations()).doesNotContainKey("helm.sh/resource-policy"));
    }
}
