package dev.sluice.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.dashboard.DashboardFiles;
import dev.sluice.dashboard.DashboardState;
import dev.sluice.dashboard.Journal;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.Engine;
import dev.sluice.engine.WorkloadKey;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code simulate --serve}: the controller's dashboard over a simulated run, on 127.0.0.1 with the JDK's HTTP server
 * (the simulator runs before Quarkus boots, so there is no Vert.x router). The same page and the same JSON
 * ({@link DashboardState}) as the controller's, drawn from the simulation's engine between two instants, with the
 * simulator's timeline as the journal. Virtual time is paced to {@code speed} virtual seconds per wall second so a
 * person can watch; timestamps on the page are virtual (00:01:30 is 90 s into the run).
 */
final class SimDashboard implements Simulation.Watcher, AutoCloseable {
    static final String BASE = "/dashboard";
    /** How often the page polls: the run moves on between polls at any speed. */
    static final long REFRESH_MILLIS = 1_000;

    private final Simulation sim;
    private final Map<String, ClusterQueueSpec> specs = new HashMap<>();
    private final double speed;
    private final Journal journal = Journal.standard();
    private final Map<String, byte[]> files = DashboardFiles.load();
    private final ObjectMapper json = new ObjectMapper();
    private final HttpServer server;
    private final ExecutorService threads;
    private final long wallStartNanos = System.nanoTime();
    private volatile boolean ended;

    /** Binds 127.0.0.1:port (0 for any free port) and starts serving; the run is not started. */
    SimDashboard(Simulation sim, Scenario scenario, int port, double speed) throws IOException {
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("speed must be a positive number of virtual seconds per second, got "
                    + speed);
        }
        this.sim = sim.watch(this);
        this.speed = speed;
        scenario.clusterQueues().forEach(cq -> specs.put(cq.name(), cq));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        threads = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "sluice-sim-dashboard");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The address the page is at. */
    String url() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort()
                + BASE + "/";
    }

    /** Tells the page that the run is over (it keeps showing the final state). */
    void ended() {
        ended = true;
    }

    @Override
    public void event(SimEvent e, WorkloadKey preemptor) {
        if (e.type() == SimEvent.Type.Submitted) {
            return; // the controller's journal has no such event either: the Workload's creation is not one of Sluice's
        }
        boolean warning = switch (e.type()) {
            case Preempted, Evicted, Inadmissible, Deactivated, PodsNotReady -> true;
            default -> false;
        };
        journal.record(new Journal.Entry(e.timeMillis(), e.workload().namespace(), e.workload().name(),
                warning ? "Warning" : "Normal", reason(e.type()), e.message(),
                preemptor == null ? null : preemptor.toString()));
    }

    /** The reason the controller would record for the same step (Kueue's event reasons where it has one). */
    private static String reason(SimEvent.Type type) {
        return switch (type) {
            case Inadmissible -> "Pending";
            case Finished -> "Finished";
            case PodsNotReady -> "PodsNotReady";
            default -> type.name();
        };
    }

    @Override
    public void beforeInstant(long nextMillis) throws InterruptedException {
        long due = wallStartNanos + (long) (nextMillis * 1_000_000L / speed);
        long wait;
        while ((wait = due - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, Math.min(wait / 1_000_000L, 500)));
        }
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            String method = x.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                x.getResponseHeaders().set("Allow", "GET, HEAD");
                send(x, 405, "text/plain; charset=utf-8", DashboardFiles.READ_ONLY.getBytes(StandardCharsets.UTF_8));
                return;
            }
            DashboardFiles.HEADERS.forEach((k, v) -> x.getResponseHeaders().set(k, v));
            String path = x.getRequestURI().getPath();
            if (path.equals("/") || path.equals(BASE)) {
                x.getResponseHeaders().set("Location", BASE + "/");
                send(x, 302, "text/plain; charset=utf-8", new byte[0]);
            } else if (path.equals(BASE + "/")) {
                file(x, "index.html");
            } else if (path.startsWith(BASE + "/") && files.containsKey(path.substring(BASE.length() + 1))) {
                file(x, path.substring(BASE.length() + 1));
            } else if (path.equals(BASE + "/api/state")) {
                sendJson(x, 200, state());
            } else if (path.equals(BASE + "/api/workload")) {
                workload(x);
            } else {
                sendJson(x, 404, Map.of("message", "no such page: " + path + "; the dashboard is at " + BASE + "/"));
            }
        } catch (RuntimeException e) {
            sendJson(x, 500, Map.of("message", "the dashboard could not read the simulation: " + e));
        }
    }

    /** The controller's picture plus what says it is a simulation: virtual time, speed, and whether the run ended. */
    Map<String, Object> state() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("refreshMillis", REFRESH_MILLIS);
        m.put("view", "simulation");
        boolean over = ended;
        m.put("viewNote", "A simulated run (no cluster): virtual time at " + speedText() + "x"
                + (over ? "; the run has ended, this is its final state" : ""));
        m.putAll(sim.read(engine -> DashboardState.of(source(engine, sim.now()))));
        m.put("speed", speed);
        m.put("ended", over);
        return m;
    }

    private String speedText() {
        return speed == Math.rint(speed) ? Long.toString((long) speed) : Double.toString(speed);
    }

    private void workload(HttpExchange x) throws IOException {
        Map<String, String> q = query(x.getRequestURI().getRawQuery());
        String ns = q.get("namespace");
        String name = q.get("name");
        if (ns == null || ns.isBlank() || name == null || name.isBlank()) {
            sendJson(x, 400, Map.of("message", "both query parameters namespace and name are needed, e.g. " + BASE
                    + "/api/workload?namespace=default&name=jobset-multislice-3slice-8c695"));
            return;
        }
        Map<String, Object> w = sim.read(engine -> DashboardState.workload(source(engine, sim.now()), ns, name));
        if (w == null) {
            sendJson(x, 404, Map.of("message", "Workload " + ns + "/" + name
                    + " is neither queued nor in the recent history of the simulation"));
            return;
        }
        sendJson(x, 200, w);
    }

    private DashboardState.Source source(Engine engine, long nowMillis) {
        // no forecast: the simulation knows every duration, and shows when each workload actually starts
        return new DashboardState.Source(engine, specs,
                key -> engine.workload(key).map(w -> w.unadmittedReason() == null ? null
                        : w.spec().active() ? w.unadmittedReason().name() : "Deactivated").orElse(null),
                key -> null, journal, nowMillis);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private void file(HttpExchange x, String name) throws IOException {
        x.getResponseHeaders().set("Cache-Control", "no-cache");
        send(x, 200, DashboardFiles.TYPES.get(name), files.get(name));
    }

    private void sendJson(HttpExchange x, int code, Object body) throws IOException {
        x.getResponseHeaders().set("Cache-Control", "no-store");
        send(x, code, "application/json", json.writeValueAsBytes(body));
    }

    private static void send(HttpExchange x, int code, String type, byte[] body) throws IOException {
        x.getResponseHeaders().set("Content-Type", type);
        boolean head = x.getRequestMethod().equals("HEAD");
        x.sendResponseHeaders(code, head || body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
