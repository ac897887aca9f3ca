package dev.sluice.controller;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * core/v1 Events on Workloads and jobs, as {@code kubectl describe} shows them. Sent from one background thread so
 * the engine loop never waits for them; when the backlog is full (an event storm) further events are dropped and
 * counted in the log, as client-go's recorder does. A failed event is counted ({@code sluice_api_write_failures_total},
 * resource {@code events}); one the server refused (e.g. 403: the Role lacks {@code create} on events) is logged at
 * WARN, at most once a minute.
 */
final class EventRecorder implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EventRecorder.class);
    static final String COMPONENT = "sluice-controller";
    private static final int BACKLOG = 1000;

    private final KubernetesClient client;
    private final dev.sluice.metrics.AdmissionEvents metrics;
    private volatile long lastWarnedMillis;
    private final ThreadPoolExecutor sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(BACKLOG), r -> {
                Thread t = new Thread(r, "sluice-events");
                t.setDaemon(true);
                return t;
            }, (r, executor) -> LOG.debug("event backlog full; event dropped"));

    /** Events on Workloads are also kept here for the dashboard (recent admissions, preemptions, histories). */
    private final dev.sluice.dashboard.Journal journal;

    EventRecorder(KubernetesClient client, dev.sluice.metrics.AdmissionEvents metrics,
            dev.sluice.dashboard.Journal journal) {
        this.client = client;
        this.metrics = metrics;
        this.journal = journal;
    }

    void normal(HasMetadata about, String reason, String message) {
        record(about, "Normal", reason, message);
    }

    void warning(HasMetadata about, String reason, String message) {
        record(about, "Warning", reason, message);
    }

    /** A preemption's event; the journal keeps who preempted. */
    void preempted(HasMetadata about, String reason, String message, dev.sluice.engine.WorkloadKey preemptor) {
        journal(about, "Normal", reason, message, preemptor == null ? null : preemptor.toString());
        send(about, "Normal", reason, message);
    }

    private void record(HasMetadata about, String type, String reason, String message) {
        journal(about, type, reason, message, null);
        send(about, type, reason, message);
    }

    private void journal(HasMetadata about, String type, String reason, String message, String preemptor) {
        if (about instanceof dev.sluice.api.v1beta2.Workload) {
            journal.record(new dev.sluice.dashboard.Journal.Entry(System.currentTimeMillis(),
                    about.getMetadata().getNamespace(), about.getMetadata().getName(), type, reason, message, preemptor));
        }
    }

    private void send(HasMetadata about, String type, String reason, String message) {
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
        sender.execute(() -> {
            try {
                client.v1().events().inNamespace(namespace).resource(event).create();
            } catch (KubernetesClientException e) {
                metrics.writeFailed("events", "create", e.getCode());
                long nowMillis = System.currentTimeMillis();
                if (WriteFailures.isRefusal(e) && nowMillis - lastWarnedMillis > 60_000) {
                    lastWarnedMillis = nowMillis;
                    LOG.warnf("event %s on %s/%s not recorded: the API server answered %s (repeated at most once a "
                            + "minute)", reason, namespace, meta.getName(), WriteFailures.describe(e));
                } else {
                    LOG.debugf("event %s on %s/%s not recorded: %s", reason, namespace, meta.getName(), e.getMessage());
                }
            }
        });
    }

    @Override
    public void close() {
        sender.shutdown();
    }
}
