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
import dev.sluice.visibility.StandbyState;
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
import java.util.function.BiFunction;
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
    private final StandbyState standby;
    /** A standby shows no history: what it journaled while it led is stale, and the leader records the rest. */
    private static final Journal NO_HISTORY = new Journal(1, 1, 1);
    static final String STANDBY_NOTE = "Standby view: this replica does not lead. The queues are rebuilt from the "
            + "cluster every few seconds, as a new leader would order them; recent events, histories and forecasts "
            + "are on the leader's dashboard.";
    private final boolean enabled;
    private final long refreshMillis;
    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, byte[]> files = new HashMap<>();
    private volatile Cached cached;

    private record Cached(long atNanos, int code, byte[] body) {
    }

    public DashboardRoutes(OperatorLifecycle lifecycle, ControllerRuntime runtime, ForecastService forecasts,
            StandbyState standby, @ConfigProperty(name = "sluice.dashboard.enabled", defaultValue = "false") boolean enabled,
            @ConfigProperty(name = "sluice.dashboard.refresh", defaultValue = "2s") java.time.Duration refresh) {
        this.lifecycle = lifecycle;
        this.runtime = runtime;
        this.forecasts = forecasts;
        this.standby = standby;
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
        // the page's links are relative: the bare address is sent to the one with the slash, as the simulator does
        router.get(BASE).handler(ctx -> { // Vert.x matches this route for the address with the slash too
            if (BASE.equals(ctx.request().path())) {
                ctx.response().setStatusCode(301).putHeader("Location", BASE + "/").end();
            } else {
                ctx.next();
            }
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
            Answer a = read(this::state);
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
        Answer a = read((src, onStandby) -> DashboardState.workload(src, ns, name));
        if (a.code() == 200 && "null".equals(new String(a.body(), java.nio.charset.StandardCharsets.UTF_8))) {
            a = new Answer(404, bytes(Map.of("message", "Workload " + ns + "/" + name
                    + " is neither queued nor in the recent history")));
        }
        send(ctx, a.code(), a.body());
    }

    private record Answer(int code, byte[] body) {
    }

    /** The page's state: the engine's picture, and whether it is the leader's live one or a standby's copy. */
    Map<String, Object> state(DashboardState.Source src, boolean onStandby) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("refreshMillis", refreshMillis);
        m.put("view", onStandby ? "standby" : "live");
        if (onStandby) {
            m.put("viewNote", STANDBY_NOTE);
        }
        m.putAll(DashboardState.of(src));
        return m;
    }

    /** Reads on the engine thread; on a replica that does not lead, from its own rebuilt copy (as visibility does). */
    private Answer read(BiFunction<DashboardState.Source, Boolean, Object> reader) {
        try {
            return new Answer(200, bytes(runtime.read(st -> reader.apply(source(st), false)).get(10, TimeUnit.SECONDS)));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ControllerRuntime.NotLeadingException) {
                return readStandby(reader);
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

    private Answer readStandby(BiFunction<DashboardState.Source, Boolean, Object> reader) {
        try {
            return new Answer(200, bytes(reader.apply(standbySource(standby.current()), true)));
        } catch (RuntimeException e) {
            LOG.warnf(e, "the standby dashboard could not rebuild the queues from the cluster");
            return new Answer(503, bytes(Map.of("standby", true, "message", "this replica does not lead and could "
                    + "not read the queues from the API server (" + e.getMessage() + "); the leader's dashboard "
                    + "shows them")));
        }
    }

    /** A standby's picture: its rebuilt engine, the ClusterQueues and Workloads it was built from, no forecast. */
    DashboardState.Source standbySource(StandbyState.Snapshot snap) {
        return new DashboardState.Source(snap.engine(), specs(snap.clusterQueues()),
                key -> reason(snap.workload(key).orElse(null)), key -> null, NO_HISTORY, System.currentTimeMillis());
    }

    private DashboardState.Source source(LiveState st) {
        ForecastService.Published published = forecasts.latest();
        return new DashboardState.Source(st.engine(), specs(st.clusterQueues()),
                key -> reason(st.workload(key).orElse(null)), key -> published.forecasts().get(key), runtime.journal(),
                st.nowMillis());
    }

    private static Map<String, ClusterQueueSpec> specs(Iterable<ClusterQueue> clusterQueues) {
        Map<String, ClusterQueueSpec> specs = new HashMap<>();
        for (ClusterQueue cq : clusterQueues) {
            try {
                specs.put(cq.getMetadata().getName(), QueueObjects.clusterQueue(cq));
            } catch (RuntimeException e) {
                // an invalid ClusterQueue is shown without quotas (its status says why)
            }
        }
        return specs;
    }

    /** The reason of the Workload's QuotaReserved=False condition (Kueue's words), if written. */
    private static String reason(Workload wl) {
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
