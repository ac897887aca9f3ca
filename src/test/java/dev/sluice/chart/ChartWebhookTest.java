package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The webhook configurations: selectors, policies, paths, and how the API server learns to trust Sluice. */
class ChartWebhookTest {

    @Test
    void jobEntriesOnlySeeLabeledObjectsOutsideExcludedNamespaces() {
        Chart.Rendered r = Chart.render(Chart.values("webhook.excludedNamespaces[0]", "kube-system",
                "webhook.excludedNamespaces[1]", "monitoring"));
        MutatingWebhookConfiguration m = r.one(MutatingWebhookConfiguration.class, "sluice");
        ValidatingWebhookConfiguration v = r.one(ValidatingWebhookConfiguration.class, "sluice");
        MutatingWebhook mutate = mutating(m, "mutate-jobs.sluice.dev");
        ValidatingWebhook validate = validating(v, "validate-jobs.sluice.dev");
        for (var selector : List.of(mutate.getObjectSelector(), validate.getObjectSelector())) {
            assertThat(selector.getMatchExpressions()).singleElement().satisfies(e -> {
                assertThat(e.getKey()).isEqualTo("kueue.x-k8s.io/queue-name");
                assertThat(e.getOperator()).isEqualTo("Exists");
            });
        }
        for (var selector : List.of(mutate.getNamespaceSelector(), validate.getNamespaceSelector())) {
            assertThat(selector.getMatchExpressions()).singleElement().satisfies(e -> {
                assertThat(e.getKey()).isEqualTo("kubernetes.io/metadata.name");
                assertThat(e.getOperator()).isEqualTo("NotIn");
                assertThat(e.getValues()).containsExactlyInAnyOrder("kube-system", "monitoring", Chart.NAMESPACE);
            });
        }
        assertThat(mutate.getClientConfig().getService().getPath()).isEqualTo("/mutate");
        assertThat(validate.getClientConfig().getService().getPath()).isEqualTo("/validate");
        assertThat(mutate.getRules()).allSatisfy(rule -> assertThat(rule.getOperations()).containsExactly("CREATE"));
        assertThat(validate.getRules()).allSatisfy(rule -> assertThat(rule.getOperations()).containsExactly("UPDATE"));
        assertThat(mutate.getRules()).extracting(rule -> rule.getApiGroups().get(0) + "/" + rule.getResources().get(0))
                .containsExactly("batch/jobs", "jobset.x-k8s.io/jobsets");
    }

    @Test
    void queueByDefaultEntryNeedsTheNamespaceLabelAndUnlabeledObjects() {
        MutatingWebhookConfiguration m = Chart.render(Chart.values("webhook.queueByDefaultLabel", "example.com/queued"))
                .one(MutatingWebhookConfiguration.class, "sluice");
        MutatingWebhook w = mutating(m, "mutate-default-queue.sluice.dev");
        assertThat(w.getClientConfig().getService().getPath()).isEqualTo("/mutate-default-queue");
        assertThat(w.getNamespaceSelector().getMatchLabels()).containsExactly(Map.entry("example.com/queued", "true"));
        assertThat(w.getObjectSelector().getMatchExpressions()).extracting(LabelSelectorRequirement::getOperator)
                .containsExactly("DoesNotExist");
    }

    @Test
    void everyEntryFailsClosedHasNoSideEffectsAndAnswersQuickly() {
        Chart.Rendered r = Chart.render(Chart.values("integrations.rayjob", true));
        List<Object[]> entries = new ArrayList<>();
        r.one(MutatingWebhookConfiguration.class, "sluice").getWebhooks().forEach(w -> entries.add(new Object[] {
                w.getName(), w.getFailurePolicy(), w.getSideEffects(), w.getAdmissionReviewVersions(), w.getTimeoutSeconds(),
                w.getClientConfig().getService() }));
        r.one(ValidatingWebhookConfiguration.class, "sluice").getWebhooks().forEach(w -> entries.add(new Object[] {
                w.getName(), w.getFailurePolicy(), w.getSideEffects(), w.getAdmissionReviewVersions(), w.getTimeoutSeconds(),
                w.getClientConfig().getService() }));
        assertThat(entries).extracting(e -> e[0]).containsExactlyInAnyOrder("mutate-jobs.sluice.dev",
                "mutate-default-queue.sluice.dev", "validate-jobs.sluice.dev", "validate-queues.sluice.dev");
        for (Object[] e : entries) {
            assertThat(e[1]).as("%s failurePolicy", e[0]).isEqualTo("Fail");
            assertThat(e[2]).as("%s sideEffects", e[0]).isEqualTo("None");
            assertThat(e[3]).as("%s admissionReviewVersions", e[0]).isEqualTo(List.of("v1"));
            assertThat((Integer) e[4]).as("%s timeoutSeconds", e[0]).isBetween(1, 10);
            var svc = (io.fabric8.kubernetes.api.model.admissionregistration.v1.ServiceReference) e[5];
            assertThat(svc.getName()).isEqualTo("sluice-webhook");
            assertThat(svc.getNamespace()).isEqualTo(Chart.NAMESPACE);
            assertThat(svc.getPort()).isEqualTo(443);
        }
        assertThat(mutating(r.one(MutatingWebhookConfiguration.class, "sluice"), "mutate-jobs.sluice.dev").getRules())
                .anySatisfy(rule -> assertThat(rule.getResources()).containsExactly("rayjobs"));
    }

    @Test
    void queueObjectsHaveTheirOwnValidatingEntry() {
        ValidatingWebhook w = validating(Chart.render().one(ValidatingWebhookConfiguration.class, "sluice"),
                "validate-queues.sluice.dev");
        assertThat(w.getObjectSelector()).isNull();
        assertThat(w.getRules()).flatExtracting(rule -> rule.getResources()).containsExactlyInAnyOrder(
                "clusterqueues", "resourceflavors", "workloadpriorityclasses", "cohorts", "topologies", "localqueues");
        assertThat(w.getRules()).allSatisfy(rule -> {
            assertThat(rule.getApiGroups()).containsExactly("kueue.x-k8s.io");
            assertThat(rule.getApiVersions()).containsExactlyInAnyOrder("v1beta1", "v1beta2");
            assertThat(rule.getOperations()).containsExactlyInAnyOrder("CREATE", "UPDATE");
        });
    }

    @Test
    void certManagerIssuesTheCertificateAndInjectsTheCa() {
        Chart.Rendered r = Chart.render();
        String inject = Chart.NAMESPACE + "/sluice-webhook";
        assertThat(r.one(MutatingWebhookConfiguration.class, "sluice").getMetadata().getAnnotations())
                .containsEntry("cert-manager.io/inject-ca-from", inject);
        assertThat(r.one(ValidatingWebhookConfiguration.class, "sluice").getMetadata().getAnnotations())
                .containsEntry("cert-manager.io/inject-ca-from", inject);
        GenericKubernetesResource cert = r.one(GenericKubernetesResource.class, "sluice-webhook");
        assertThat(cert.getKind()).isEqualTo("Certificate");
        assertThat(cert.<String>get("spec", "secretName")).isEqualTo("sluice-webhook-tls");
        assertThat(cert.<List<String>>get("spec", "dnsNames")).contains("sluice-webhook.sluice-system.svc");
        assertThat(r.all(Secret.class)).isEmpty();
        assertThat(r.one(MutatingWebhookConfiguration.class, "sluice").getWebhooks())
                .allSatisfy(w -> assertThat(w.getClientConfig().getCaBundle()).isNull());
    }

    @Test
    void withoutCertManagerHelmSignsTheCertificateAndSetsTheCaBundle() throws Exception {
        Chart.Rendered r = Chart.render(Chart.values("webhook.tls.certManager", false));
        assertThat(r.objects()).noneMatch(o -> o.getApiVersion().startsWith("cert-manager.io"));
        Secret secret = r.one(Secret.class, "sluice-webhook-tls");
        assertThat(secret.getType()).isEqualTo("kubernetes.io/tls");
        X509Certificate ca = x509(secret.getData().get("ca.crt"));
        X509Certificate serving = x509(secret.getData().get("tls.crt"));
        serving.verify(ca.getPublicKey());
        List<Object> sans = serving.getSubjectAlternativeNames().stream().map(san -> san.get(1)).map(Object.class::cast).toList();
        assertThat(sans).contains("sluice-webhook.sluice-system.svc");
        assertThat(r.one(MutatingWebhookConfiguration.class, "sluice").getMetadata().getAnnotations()).isNullOrEmpty();
        List<String> bundles = new ArrayList<>();
        r.one(MutatingWebhookConfiguration.class, "sluice").getWebhooks().forEach(w -> bundles.add(w.getClientConfig().getCaBundle()));
        r.one(ValidatingWebhookConfiguration.class, "sluice").getWebhooks().forEach(w -> bundles.add(w.getClientConfig().getCaBundle()));
        assertThat(bundles).hasSize(4).containsOnly(secret.getData().get("ca.crt"));
    }

    /** The chart's entries say what webhooks/ (the plain manifests of the webhook branch) says, for the default install. */
    @Test
    void matchesThePlainWebhookManifests() throws Exception {
        Path dir = Path.of("webhooks");
        assumeTrue(Files.isRegularFile(dir.resolve("mutating-webhook-configuration.yaml")), "webhooks/ not merged yet");
        Chart.Rendered r = Chart.render();
        MutatingWebhookConfiguration plainM = Serialization.unmarshal(
                Files.readString(dir.resolve("mutating-webhook-configuration.yaml")), MutatingWebhookConfiguration.class);
        ValidatingWebhookConfiguration plainV = Serialization.unmarshal(
                Files.readString(dir.resolve("validating-webhook-configuration.yaml")), ValidatingWebhookConfiguration.class);
        MutatingWebhookConfiguration m = r.one(MutatingWebhookConfiguration.class, "sluice");
        ValidatingWebhookConfiguration v = r.one(ValidatingWebhookConfiguration.class, "sluice");
        assertThat(m.getMetadata().getAnnotations()).isEqualTo(plainM.getMetadata().getAnnotations());
        assertThat(m.getWebhooks()).usingRecursiveFieldByFieldElementComparatorIgnoringFields("namespaceSelector")
                .containsExactlyElementsOf(plainM.getWebhooks());
        assertThat(v.getWebhooks()).usingRecursiveFieldByFieldElementComparatorIgnoringFields("namespaceSelector")
                .containsExactlyElementsOf(plainV.getWebhooks());
        for (int i = 0; i < m.getWebhooks().size(); i++) {
            assertThat(m.getWebhooks().get(i).getNamespaceSelector().getMatchLabels())
                    .isEqualTo(plainM.getWebhooks().get(i).getNamespaceSelector().getMatchLabels());
            assertThat(m.getWebhooks().get(i).getNamespaceSelector().getMatchExpressions().get(0).getValues())
                    .containsExactlyInAnyOrderElementsOf(plainM.getWebhooks().get(i).getNamespaceSelector()
                            .getMatchExpressions().get(0).getValues());
        }
    }

    static X509Certificate x509(String base64Pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode(base64Pem)));
    }

    static MutatingWebhook mutating(MutatingWebhookConfiguration c, String name) {
        return c.getWebhooks().stream().filter(w -> w.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no webhook " + name));
    }

    static ValidatingWebhook validating(ValidatingWebhookConfiguration c, String name) {
        return c.getWebhooks().stream().filter(w -> w.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no webhook " + name));
    }
}
