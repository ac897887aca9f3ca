package dev.sluice.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.OperatorLifecycle;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.QueueObjects;
import dev.sluice.controller.ControllerRuntime;
import dev.sluice.controller.LiveState;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.forecast.ForecastService;
import io.fabric8.kubernetes.api.model.Condition;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The read-only dashboard on the management interface: {@code /dashboard/} (plain HTML, JS and CSS from the jar) and
 * its two JSON reads, {@code /dashboard/api/state} and {@code /dashboard/api/workload?namespace=&name=}. Only GET is
 * served: there is no write action. The state is built between two engine passes (as the visibility API's lists)
 * and reused for {@code sluice.dashboard.refresh}, so any number of open pages costs the engine one look per period.
 */
@ApplicationScoped
public class DashboardRoutes {
    private static final Logger LOG = Logger.getLogger(DashboardRoutes.class);
    static final String BASE = "/dashboard";
    private static final Map<String, String> FILES = DashboardFiles.TYPES;

    private final OperatorLifecycle lifecycle;
    private final ControllerRuntime runtime;
    private final ForecastService forecasts;
    private final boolean enabled;
    private final long refreshMillis;
    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, byte[]> files = new HashMap<>();
    private volatile Cached cached;

    private record Cached(long atNanos, int code, byte[] body) {
    }

    public DashboardRoutes(OperatorLifecycle lifecycle, ControllerRuntime runtime, ForecastService forecasts,
            @ConfigProperty(name = "sluice.dashboard.enabled", defaultValue = "false") boolean enabled,
            @ConfigProperty(name = "sluice.dashboard.refresh", defaultValue = "2s") java.time.Duration refresh) {
        this.lifecycle = lifecycle;
        this.runtime = runtime;
        this.forecasts = forecasts;
        this.enabled = enabled;
        this.refreshMillis = refresh.toMillis();
    }

    void routes(@Observes ManagementInterface management) {
        if (!enabled || !lifecycle.mode().runsController()) {
            return;
        }
        files.putAll(DashboardFiles.load());
        Router router = management.router();
        router.route(BASE + "*").order(-10).handler(ctx -> {
            if (ctx.request().method() != HttpMethod.GET && ctx.request().method() != HttpMethod.HEAD) {
                ctx.response().setStatusCode(405).putHeader("Allow", "GET, HEAD").end(DashboardFiles.READ_ONLY);
                return;
            }
            DashboardFiles.HEADERS.forEach(ctx.response()::putHeader);
            ctx.next();
        });
        router.get(BASE + "/").handler(ctx -> file(ctx, "index.html"));
        FILES.keySet().forEach(f -> router.get(BASE + "/" + f).handler(ctx -> file(ctx, f)));
        router.get(BASE + "/api/state").blockingHandler(this::state, false);
        router.get(BASE + "/api/workload").blockingHandler(this::workload, false);
        LOG.infof("dashboard on the management interface at %s/", BASE);
    }

    private void file(RoutingContext ctx, String name) {
        ctx.response().putHeader("Content-Type", FILES.get(name)).putHeader("Cache-Control", "no-cache")
                .end(io.vertx.core.buffer.Buffer.buffer(files.get(name)));
    }

    private void state(RoutingContext ctx) {
        Cached c = cached;
        long now = System.nanoTime();
        if (c == null || now - c.atNanos() > TimeUnit.MILLISECONDS.toNanos(refreshMillis)) {
            Answer a = read(st -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("refreshMillis", refreshMillis);
                m.putAll(DashboardState.of(source(st)));
                return m;
            });
            c = new Cached(now, a.code(), a.body());
            cached = c;
        }
        send(ctx, c.code(), c.body());
    }

    private void workload(RoutingContext ctx) {
        String ns = ctx.request().getParam("namespace");
        String name = ctx.request().getParam("name");
        if (ns == null || ns.isBlank() || name == null || name.isBlank()) {
            send(ctx, 400, bytes(Map.of("message", "both query parameters namespace and name are needed, e.g. "
                    + BASE + "/api/workload?namespace=default&name=job-sample-1a2b3")));
            return;
        }
        Answer a = read(st -> DashboardState.workload(source(st), ns, name));
        if (a.code() == 200 && "null".equals(new String(a.body(), java.nio.charset.StandardCharsets.UTF_8))) {
            a = new Answer(404, bytes(Map.of("message", "Workload " + ns + "/" + name
                    + " is neither queued nor in the recent history")));
        }
        send(ctx, a.code(), a.body());
    }

    private record Answer(int code, byte[] body) {
    }

    private Answer read(Function<LiveState, Object> reader) {
        try {
            return new Answer(200, bytes(runtime.read(reader).get(10, TimeUnit.SECONDS)));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ControllerRuntime.NotLeadingException) {
                return new Answer(503, bytes(Map.of("standby", true, "message",
                        "this replica does not lead; the leader's dashboard shows the queues")));
            }
            LOG.warnf(e.getCause(), "the dashboard could not read the engine");
            return new Answer(500, bytes(Map.of("message", "the dashboard could not read the engine: " + e.getCause())));
        } catch (java.util.concurrent.TimeoutException e) {
            return new Answer(503, bytes(Map.of("message", "the engine did not answer within 10 s; try again")));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(503, bytes(Map.of("message", "interrupted")));
        }
    }

    private DashboardState.Source source(LiveState st) {
        Map<String, ClusterQueueSpec> specs = new HashMap<>();
        for (ClusterQueue cq : st.clusterQueues()) {
            try {
                specs.put(cq.getMetadata().getName(), QueueObjects.clusterQueue(cq));
            } catch (RuntimeException e) {
                // an invalid ClusterQueue is shown without quotas (its status says why)
            }
        }
        ForecastService.Published published = forecasts.latest();
        return new DashboardState.Source(st.engine(), specs, key -> reason(st, key),
                key -> published.forecasts().get(key), runtime.journal(), st.nowMillis());
    }

    /** The reason of the Workload's QuotaReserved=False condition (Kueue's words), if written. */
    private static String reason(LiveState st, WorkloadKey key) {
        Workload wl = st.workload(key).orElse(null);
        if (wl == null || wl.getStatus() == null || wl.getStatus().getConditions() == null) {
            return null;
        }
        for (Condition c : wl.getStatus().getConditions()) {
            if ("QuotaReserved".equals(c.getType()) && "False".equals(c.getStatus())) {
                return c.getReason();
            }
        }
        return null;
    }

    private void send(RoutingContext ctx, int code, byte[] body) {
        ctx.response().setStatusCode(code).putHeader("Content-Type", "application/json")
                .putHeader("Cache-Control", "no-store").end(io.vertx.core.buffer.Buffer.buffer(body));
    }

    private byte[] bytes(Object o) {
        try {
            return json.writeValueAsBytes(o);
        } catch (IOException e) {
            throw new IllegalStateException("the dashboard state cannot be written as JSON", e);
        }
    }
}
