package dev.sluice.controller;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.jboss.logging.Logger;

/** core/v1 Events on Workloads and jobs, as {@code kubectl describe} shows them; a failed event is only logged. */
final class EventRecorder {

    private static final Logger LOG = Logger.getLogger(EventRecorder.class);
    static final String COMPONENT = "sluice-controller";

    private final KubernetesClient client;

    EventRecorder(KubernetesClient client) {
        this.client = client;
    }

    void normal(HasMetadata about, String reason, String message) {
        record(about, "Normal", reason, message);
    }

    void warning(HasMetadata about, String reason, String message) {
        record(about, "Warning", reason, message);
    }

    private void record(HasMetadata about, String type, String reason, String message) {
        var meta = about.getMetadata();
        String namespace = meta.getNamespace() == null ? "default" : meta.getNamespace();
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        var event = new EventBuilder()
                .withNewMetadata().withNamespace(namespace)
                .withName(meta.getName() + "." + UUID.randomUUID().toString().replace("-", "").substring(0, 16))
                .endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion(about.getApiVersion())
                        .withKind(about.getKind()).withNamespace(meta.getNamespace()).withName(meta.getName())
                        .withUid(meta.getUid()).withResourceVersion(meta.getResourceVersion()).build())
                .withType(type).withReason(reason).withMessage(message)
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .withNewSource().withComponent(COMPONENT).endSource()
                .withReportingComponent(COMPONENT)
                .build();
        try {
            client.v1().events().inNamespace(namespace).resource(event).create();
        } catch (KubernetesClientException e) {
            LOG.debugf("event %s on %s/%s not recorded: %s", reason, namespace, meta.getName(), e.getMessage());
        }
    }
}
