package dev.sluice.forecast;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.OperatorLifecycle;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.ControllerRuntime;
import dev.sluice.engine.WorkloadKey;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The admission forecast of the leader, recomputed every period (never on every change): one short capture on the
 * engine thread, then the copy is built and run forward on this service's own low-priority thread within a CPU
 * budget. The result is published for the visibility API and written, at most maxWrites per period and heads of
 * queue first, to each waiting Workload's annotation {@value #ANNOTATION} (shown by {@code kubectl describe}); a
 * Workload is rewritten only when its forecast moved noticeably, and admitted ones lose the annotation.
 */
@ApplicationScoped
public class ForecastService {
    public static final String ANNOTATION = "sluice.dev/forecast";
    private static final Logger LOG = Logger.getLogger(ForecastService.class);

    /** The latest forecast: per waiting workload, computed at atMillis. */
    public record Published(Map<WorkloadKey, Forecast> forecasts, long atMillis, long cpuNanos) {
        static final Published NONE = new Published(Map.of(), 0, 0);
    }

    private final ControllerRuntime runtime;
    private final KubernetesClient client;
    private final OperatorLifecycle lifecycle;
    private final boolean enabled;
    private final Duration period;
    private final int maxWrites;
    private final ForwardRun.Budget budget;
    private final LiveCapture capture = new LiveCapture();
    private final Map<WorkloadKey, Forecast> written = new HashMap<>();
    private volatile Published latest = Published.NONE;
    private ScheduledExecutorService timer;

    public ForecastService(ControllerRuntime runtime, KubernetesClient client, OperatorLifecycle lifecycle,
            @ConfigProperty(name = "sluice.forecast.enabled", defaultValue = "true") boolean enabled,
            @ConfigProperty(name = "sluice.forecast.period", defaultValue = "30s") Duration period,
            @ConfigProperty(name = "sluice.forecast.max-writes", defaultValue = "100") int maxWrites,
            @ConfigProperty(name = "sluice.forecast.cpu-budget", defaultValue = "2s") Duration cpuBudget) {
        this.runtime = runtime;
        this.client = client;
        this.lifecycle = lifecycle;
        this.enabled = enabled;
        this.period = period;
        this.maxWrites = maxWrites;
        this.budget = new ForwardRun.Budget(ForwardRun.Budget.DEFAULT.maxFinishes(),
                ForwardRun.Budget.DEFAULT.horizonMillis(), cpuBudget.toNanos());
    }

    void onStart(@Observes StartupEvent event) {
        if (!enabled || !lifecycle.mode().runsController()) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-forecast");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY); // the engine thread comes first
            return t;
        });
        timer.scheduleWithFixedDelay(this::runOnce, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    void onStop(@Observes ShutdownEvent event) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    public Published latest() {
        return latest;
    }

    /** One forecast: capture, run forward, publish, write. Public for tests. */
    public void runOnce() {
        try {
            LiveCapture.Result r = runtime.read(st -> capture.capture(st, ANNOTATION)).get(30, TimeUnit.SECONDS);
            long cpu0 = ForwardRunCpu.now();
            Map<WorkloadKey, Forecast> f = Forecasts.compute(r.capture(), budget);
            latest = new Published(Map.copyOf(f), r.capture().nowMillis(), ForwardRunCpu.now() - cpu0);
            write(r, f);
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof ControllerRuntime.NotLeadingException)) {
                LOG.warnf(e.getCause(), "the forecast failed; trying again in %s", period);
            }
            latest = Published.NONE; // a standby forecasts nothing (the leader does)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warnf(e, "the forecast failed; trying again in %s", period);
        }
    }

    private void write(LiveCapture.Result r, Map<WorkloadKey, Forecast> forecasts) {
        long now = r.capture().nowMillis();
        List<Map.Entry<WorkloadKey, LiveCapture.Annotated>> todo = new ArrayList<>(r.annotations().entrySet());
        // heads of queue first: their forecast matters most and changes least
        todo.sort(Comparator.comparingInt(e -> forecasts.containsKey(e.getKey()) ? forecasts.get(e.getKey()).position()
                : -1));
        int writes = 0;
        written.keySet().retainAll(r.annotations().keySet());
        for (Map.Entry<WorkloadKey, LiveCapture.Annotated> e : todo) {
            if (writes >= maxWrites) {
                break;
            }
            WorkloadKey key = e.getKey();
            LiveCapture.Annotated a = e.getValue();
            Forecast f = forecasts.get(key);
            String text = a.waiting() && f != null ? f.describe(now) : null;
            // every request counts against max-writes, answered or not: a conflict (the Workload moved since the
            // capture) is still a request, and counting only successes let a busy run send thousands
            if (!a.waiting() || f == null) {
                if (a.value() != null) {
                    patch(key, a, null);
                    writes++;
                }
                written.remove(key);
                continue;
            }
            if (a.value() != null && !moved(written.get(key), f, now)) {
                continue;
            }
            writes++;
            if (patch(key, a, text)) {
                written.put(key, f);
            }
        }
    }

    /** Worth a write: new position or basis, a start time now known or unknown, or moved by over max(1 min, 10%). */
    static boolean moved(Forecast before, Forecast now, long nowMillis) {
        if (before == null || before.position() != now.position() || before.basis() != now.basis()
                || !before.clusterQueue().equals(now.clusterQueue())
                || (before.startAtMillis() == null) != (now.startAtMillis() == null)) {
            return true;
        }
        if (now.startAtMillis() == null) {
            return false;
        }
        long shift = Math.abs(now.startAtMillis() - before.startAtMillis());
        return shift > Math.max(60_000, (now.startAtMillis() - nowMillis) / 10);
    }

    /** A JSON patch of the annotation with the resourceVersion precondition; a conflict waits for the next period. */
    private boolean patch(WorkloadKey key, LiveCapture.Annotated a, String text) {
        String resourceVersion = a.resourceVersion();
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        patch.addObject().put("op", "replace").put("path", "/metadata/resourceVersion").put("value", resourceVersion);
        String path = "/metadata/annotations/" + ANNOTATION.replace("~", "~0").replace("/", "~1");
        if (text == null) {
            patch.addObject().put("op", "remove").put("path", path);
        } else {
            if (!a.hasAnnotations()) {
                ObjectNode op = patch.addObject().put("op", "add").put("path", "/metadata/annotations");
                op.putObject("value").put(ANNOTATION, text);
            } else {
                patch.addObject().put("op", "add").put("path", path).put("value", text);
            }
        }
        try {
            // named by an object: fabric8 patches one named alone only after reading it
            client.resources(Workload.class).inNamespace(key.namespace()).resource(ControllerRuntime.patchTarget(key))
                    .patch(PatchContext.of(PatchType.JSON), patch.toString());
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409 && e.getCode() != 404) {
                LOG.warnf("writing the forecast of Workload %s failed: %s", key, e.getMessage());
            }
            return false;
        }
    }
}
