package dev.sluice.controller.write;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * core/v1 Events on Workloads and jobs, as {@code kubectl describe} shows them, correlated as client-go's recorder
 * does ({@code EventCorrelator}): an event equal to one recorded within the last {@link #WINDOW} (same object, type,
 * reason and message) is not a new Event but the earlier one with its {@code count} raised and {@code lastTimestamp}
 * moved (a JSON patch, guarded by its resourceVersion). Events wait for one background thread, keyed: a repeat of an
 * event still waiting is folded into it (one request for both), so an event storm costs one request per distinct
 * event, not per occurrence. When the backlog of distinct events is full further ones are dropped and counted in the
 * log and in {@code sluice_events_dropped_total}, as client-go's broadcaster drops them. Requests are paced by an
 * {@link EventRate} (client-go's limiter; Kueue's default 20 per second); while the sender waits for the rate, repeats
 * keep folding into the waiting events. A failed event is counted ({@code sluice_api_write_failures_total},
 * resource {@code events}); one the server refused (e.g. 403) is logged at WARN, at most once a minute.
 */
public final class EventRecorder implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EventRecorder.class);
    static final String COMPONENT = "sluice-controller";
    /** Distinct events waiting to be sent. */
    static final int BACKLOG = 1000;
    /** client-go's: an equal event within this window is the same Event, counted. */
    static final Duration WINDOW = Duration.ofMinutes(10);
    /** Events remembered for correlation (client-go's LRU holds 4,096). */
    static final int REMEMBERED = 4096;

    /** What makes two events the same Event. */
    record Key(String namespace, String kind, String name, String uid, String type, String reason, String message) {
    }

    /**
     * An Event waiting to be sent: created, or (patch) the count of the one sent before raised; {@code count} is the
     * occurrences folded into it.
     */
    private static final class Pending {
        final Event event;
        int count;
        String lastTimestamp;
        final boolean patch;

        Pending(Event event, int count, String lastTimestamp, boolean patch) {
            this.event = event;
            this.count = count;
            this.lastTimestamp = lastTimestamp;
            this.patch = patch;
        }
    }

    /** An Event as the API server last answered it. */
    private record Sent(String name, String resourceVersion, int count, Instant at) {
    }

    private final KubernetesClient client;
    private final dev.sluice.metrics.AdmissionEvents metrics;
    private final Clock clock;
    private final Object lock = new Object();
    private final LinkedHashMap<Key, Pending> waiting = new LinkedHashMap<>();
    private final LinkedHashMap<Key, Sent> sent = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Sent> eldest) {
            return size() > REMEMBERED;
        }
    };
    private final Thread sender;
    /** The event being sent now (sender thread), so that a repeat meanwhile counts on it. */
    private Key inFlight;
    private volatile boolean open = true;
    private volatile long lastWarnedMillis;
    private final EventRate.Bucket rate;
    private final int backlog;
    private long droppedSinceLog;
    private long lastDropLogMillis;
    private long folded;
    private long dropped;
    private long requests;

    /** Events on Workloads are also kept here for the dashboard (recent admissions, preemptions, histories). */
    private final dev.sluice.dashboard.Journal journal;

    EventRecorder(KubernetesClient client, dev.sluice.metrics.AdmissionEvents metrics,
            dev.sluice.dashboard.Journal journal) {
        this(client, metrics, journal, Clock.systemUTC(), EventRate.KUEUE_DEFAULT);
    }

    public EventRecorder(KubernetesClient client, dev.sluice.metrics.AdmissionEvents metrics,
            dev.sluice.dashboard.Journal journal, EventRate rate) {
        this(client, metrics, journal, Clock.systemUTC(), rate);
    }

    EventRecorder(KubernetesClient client, dev.sluice.metrics.AdmissionEvents metrics,
            dev.sluice.dashboard.Journal journal, Clock clock) {
        this(client, metrics, journal, clock, EventRate.UNLIMITED);
    }

    EventRecorder(KubernetesClient client, dev.sluice.metrics.AdmissionEvents metrics,
            dev.sluice.dashboard.Journal journal, Clock clock, EventRate rate) {
        this(client, metrics, journal, clock, rate, BACKLOG);
    }

    EventRecorder(KubernetesClient client, dev.sluice.metrics.AdmissionEvents metrics,
            dev.sluice.dashboard.Journal journal, Clock clock, EventRate rate, int backlog) {
        this.rate = rate.bucket(System::nanoTime);
        this.backlog = backlog;
        this.client = client;
        this.metrics = metrics;
        this.journal = journal;
        this.clock = clock;
        this.sender = new Thread(this::send, "sluice-events");
        sender.setDaemon(true);
        sender.start();
    }

    public void normal(HasMetadata about, String reason, String message) {
        record(about, "Normal", reason, message);
    }

    public void warning(HasMetadata about, String reason, String message) {
        record(about, "Warning", reason, message);
    }

    /** A preemption's event; the journal keeps who preempted. */
    public void preempted(HasMetadata about, String reason, String message, dev.sluice.engine.WorkloadKey preemptor) {
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
        Key key = new Key(namespace, about.getKind(), meta.getName(), meta.getUid(), type, reason, message);
        Instant now = clock.instant();
        String timestamp = now.truncatedTo(ChronoUnit.SECONDS).toString();
        synchronized (lock) {
            Pending already = waiting.get(key);
            if (already != null) {
                already.count++;
                already.lastTimestamp = timestamp;
                folded++;
                return;
            }
            if (waiting.size() >= backlog) {
                dropped(reason);
                return;
            }
            // counted on an earlier Event when one was sent within the window, or is being sent now
            Sent before = sent.get(key);
            boolean repeat = key.equals(inFlight)
                    || before != null && Duration.between(before.at(), now).compareTo(WINDOW) < 0;
            Event event = new EventBuilder()
                    .withNewMetadata().withNamespace(namespace).withName(newName(meta.getName())).endMetadata()
                    .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion(about.getApiVersion())
                            .withKind(about.getKind()).withNamespace(meta.getNamespace()).withName(meta.getName())
                            .withUid(meta.getUid()).withResourceVersion(meta.getResourceVersion()).build())
                    .withType(type).withReason(reason).withMessage(message)
                    .withFirstTimestamp(timestamp).withLastTimestamp(timestamp).withCount(1)
                    .withNewSource().withComponent(COMPONENT).endSource()
                    .withReportingComponent(COMPONENT)
                    .build();
            waiting.put(key, new Pending(event, 1, timestamp, repeat));
            lock.notifyAll();
        }
    }

    private void send() {
        while (true) {
            Key key;
            Pending p;
            synchronized (lock) {
                while (open && waiting.isEmpty()) {
                    try {
                        lock.wait(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (waiting.isEmpty()) {
                    return; // closed, and what was recorded before is sent
                }
                long wait = open ? rate.take() : 0; // once closed, what waits goes out at once
                if (wait > 0) {
                    try {
                        lock.wait(Math.max(1, wait / 1_000_000), (int) (wait % 1_000_000));
                    } catch (InterruptedException e) {
                        return;
                    }
                    continue;
                }
                Iterator<Map.Entry<Key, Pending>> first = waiting.entrySet().iterator();
                Map.Entry<Key, Pending> e = first.next();
                first.remove();
                key = e.getKey();
                p = e.getValue();
                requests++;
                inFlight = key;
            }
            Sent before;
            synchronized (lock) {
                before = p.patch ? sent.get(key) : null;
            }
            Sent result = before != null ? patch(key, p, before) : create(key, p);
            synchronized (lock) {
                if (result != null) {
                    sent.put(key, result);
                } else {
                    sent.remove(key);
                }
                inFlight = null;
            }
        }
    }

    private Sent create(Key key, Pending p) {
        p.event.setCount(p.count);
        p.event.setLastTimestamp(p.lastTimestamp);
        try {
            Event created = client.v1().events().inNamespace(key.namespace()).resource(p.event).create();
            return new Sent(created.getMetadata().getName(), created.getMetadata().getResourceVersion(), p.count,
                    clock.instant());
        } catch (KubernetesClientException e) {
            failed(key, "create", e);
            return null;
        }
    }

    /** The earlier Event counted up; if it is gone (expired) or changed, a new one is created instead. */
    private Sent patch(Key key, Pending p, Sent before) {
        int count = before.count() + p.count;
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        patch.addObject().put("op", "replace").put("path", "/metadata/resourceVersion").put("value", before.resourceVersion());
        patch.addObject().put("op", "replace").put("path", "/count").put("value", count);
        patch.addObject().put("op", "replace").put("path", "/lastTimestamp").put("value", p.lastTimestamp);
        try {
            // named by an object: fabric8 patches one named alone only after reading it (Writes.stub)
            Event patched = client.v1().events().inNamespace(key.namespace())
                    .resource(Writes.named(new Event(), key.namespace(), before.name()))
                    .patch(PatchContext.of(PatchType.JSON), patch.toString());
            return new Sent(patched.getMetadata().getName(), patched.getMetadata().getResourceVersion(), count,
                    before.at());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || Writes.isConflict(e)) {
                return create(key, p);
            }
            failed(key, "patch", e);
            return null;
        }
    }

    /** Under the lock. Counted at once; said in the log at most once a minute, with how many since. */
    private void dropped(String reason) {
        dropped++;
        droppedSinceLog++;
        metrics.eventsDropped(1);
        long nowMillis = System.currentTimeMillis();
        if (nowMillis - lastDropLogMillis >= 60_000) {
            LOG.infof("%d events dropped (latest: %s): %d distinct events were already waiting to be written at "
                    + "sluice.events.qps; the Workloads' conditions still say the same (repeated at most once a minute)",
                    droppedSinceLog, reason, backlog);
            lastDropLogMillis = nowMillis;
            droppedSinceLog = 0;
        }
    }

    private static String newName(String object) {
        return object + "." + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    private void failed(Key key, String verb, KubernetesClientException e) {
        metrics.writeFailed("events", verb, e.getCode());
        long nowMillis = System.currentTimeMillis();
        if (WriteFailures.isRefusal(e) && nowMillis - lastWarnedMillis > 60_000) {
            lastWarnedMillis = nowMillis;
            LOG.warnf("event %s on %s/%s not recorded: the API server answered %s (repeated at most once a minute)",
                    key.reason(), key.namespace(), key.name(), WriteFailures.describe(e));
        } else {
            LOG.debugf("event %s on %s/%s not recorded: %s", key.reason(), key.namespace(), key.name(), e.getMessage());
        }
    }

    /** Occurrences folded into an Event already waiting, events dropped (backlog full), and requests made. */
    record Counts(long folded, long dropped, long requests) {
    }

    Counts counts() {
        synchronized (lock) {
            return new Counts(folded, dropped, requests);
        }
    }

    /**
     * Nothing waits and nothing is being sent: every event recorded so far is written and remembered for correlation
     * (for tests, which must not record the next event while the last one is still in flight).
     */
    boolean idle() {
        synchronized (lock) {
            return waiting.isEmpty() && inFlight == null;
        }
    }

    /** Events waiting to be sent. */
    int waiting() {
        synchronized (lock) {
            return waiting.size();
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            open = false; // what waits is still sent, then the thread ends
            lock.notifyAll();
        }
    }
}
