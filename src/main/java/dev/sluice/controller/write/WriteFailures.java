package dev.sluice.controller.write;

import dev.sluice.metrics.AdmissionEvents;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Writes that failed. A refusal (400, 403, 404 of a path the server does not serve, 422, any 4xx but 409 Conflict, 429
 * and the object being gone) fails again if repeated unchanged, so it is never swallowed: it is logged at WARN with
 * the server's message and shown on the object as a Warning event {@code WriteRefused} (where {@code kubectl
 * describe} shows it), at most once a minute per object, operation and status code. Transient failures (5xx, 429, no
 * answer) are logged at INFO and retried. Every failure is counted in {@code sluice_api_write_failures_total}. Used
 * from the engine thread and the writer lanes.
 */
public final class WriteFailures {

    private static final Logger LOG = Logger.getLogger(WriteFailures.class);
    static final String EVENT_REASON = "WriteRefused";
    private static final long REPEAT_MILLIS = 60_000;
    private static final int REMEMBERED = 10_000;

    private final EventRecorder events;
    private final AdmissionEvents metrics;
    private final Clock clock;
    /** When each (object, operation, code) was last logged and told: bounded, oldest forgotten first. */
    private final Map<String, Long> told = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > REMEMBERED;
        }
    };

    public WriteFailures(EventRecorder events, AdmissionEvents metrics, Clock clock) {
        this.events = events;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** A 4xx that is not a conflict to converge on, a rate limit, or an object that is gone. */
    public static boolean isRefusal(KubernetesClientException e) {
        return e.getCode() >= 400 && e.getCode() < 500 && e.getCode() != 429 && !Writes.isConflict(e)
                && !Writes.isNotFound(e);
    }

    /**
     * Reports a failed write of {@code object}: {@code operation} says what Sluice tried in a user's words ("suspend
     * Job team-a/train"), {@code resource} and {@code verb} name the API call for the counter (e.g. {@code jobs},
     * {@code patch}). Returns the message shown, for a condition that names it too.
     */
    public String failed(HasMetadata object, String resource, String verb, String operation, KubernetesClientException e) {
        int code = e.getCode();
        metrics.writeFailed(resource, verb, code);
        String message = "could not " + operation + ": the API server answered " + describe(e)
                + "; Sluice retries with back-off";
        if (!isRefusal(e)) {
            LOG.infof("%s", message);
        } else if (firstInAWhile(key(object, operation, code))) {
            LOG.warnf("%s", message);
            if (object != null) {
                events.warning(object, EVENT_REASON, message);
            }
        } else {
            LOG.debugf("%s", message);
        }
        return message;
    }

    /**
     * What the API server answered, in its words: "HTTP 422 (Invalid): Job.batch "low" is invalid: ...", then the
     * causes its Status lists (the field and, where the message does not already say it, the cause's message and
     * reason), then what was sent when the write says so ({@link RefusedWrite}: a patch that does not apply is answered
     * with a generic message that names neither the field nor the operation). The client's own failure when no answer
     * came.
     */
    public static String describe(KubernetesClientException e) {
        if (e.getCode() <= 0) {
            return "nothing (" + e.getMessage() + ")";
        }
        var status = e.getStatus();
        String reason = status == null || status.getReason() == null ? "" : " (" + status.getReason() + ")";
        String message = Writes.serverMessage(e);
        StringBuilder b = new StringBuilder("HTTP ").append(e.getCode()).append(reason).append(": ").append(message);
        var causes = status == null || status.getDetails() == null ? null : status.getDetails().getCauses();
        if (causes != null && !causes.isEmpty()) {
            b.append(" (causes: ");
            for (int i = 0; i < causes.size(); i++) {
                var c = causes.get(i);
                b.append(i == 0 ? "" : "; ").append(c.getField() == null || c.getField().isEmpty() ? "-" : c.getField());
                boolean said = c.getMessage() == null || c.getMessage().isEmpty() || message.contains(c.getMessage());
                if (!said) {
                    b.append(": ").append(c.getMessage());
                }
                if (c.getReason() != null && !c.getReason().isEmpty()) {
                    b.append(" [").append(c.getReason()).append(']');
                }
            }
            b.append(')');
        }
        if (e instanceof RefusedWrite refused) {
            b.append("; sent: ").append(refused.sent());
        }
        return b.toString();
    }

    private synchronized boolean firstInAWhile(String key) {
        long now = clock.millis();
        Long last = told.get(key);
        if (last != null && now - last < REPEAT_MILLIS) {
            return false;
        }
        told.put(key, now);
        return true;
    }

    private static String key(HasMetadata object, String operation, int code) {
        String uid = object == null || object.getMetadata() == null ? "" : String.valueOf(object.getMetadata().getUid());
        return uid + "|" + operation + "|" + code;
    }
}
