package dev.sluice.bench;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fault-injecting HTTP proxy in front of the API server (127.0.0.1 only). Of the writes (POST, PUT, PATCH,
 * DELETE), a share fails: 409 Conflict, 500 and 429 with Retry-After are answered without forwarding, and a fourth
 * kind, a 500 after the write was applied, forwards it and replaces the answer (the client cannot tell whether its
 * write happened). Every request may be delayed, and watches (HTTP streams and WebSockets) are cut after a random
 * time. {@code GET /bench/faults} answers the counts.
 * <p>
 * {@code java ... dev.sluice.bench.FaultProxy LISTEN_PORT UPSTREAM_PORT WRITE_FAILURE_SHARE MAX_LATENCY_MS
 * WATCH_CUT_MIN_MS WATCH_CUT_MAX_MS SEED}
 */
public final class FaultProxy implements AutoCloseable {

    /** What to inject. A watch cut range with max 0 leaves watches alone. */
    public record Plan(double writeFailureShare, long maxLatencyMillis, long watchCutMinMillis, long watchCutMaxMillis,
                       long seed) {
        public static final Plan NONE = new Plan(0, 0, 0, 0, 1);
    }

    /** Faults injected so far. */
    public record Counts(long requests, long writes, long conflicts, long serverErrors, long throttled,
                         long serverErrorsAfterApply, long delayed, long watchesCut) {
        public long faults() {
            return conflicts + serverErrors + throttled + serverErrorsAfterApply + watchesCut;
        }

        public String json() {
            return String.format(Locale.ROOT, "{\"requests\": %d, \"writes\": %d, \"conflicts\": %d, \"serverErrors\": %d, "
                            + "\"throttled\": %d, \"serverErrorsAfterApply\": %d, \"delayed\": %d, \"watchesCut\": %d, \"faults\": %d}",
                    requests, writes, conflicts, serverErrors, throttled, serverErrorsAfterApply, delayed, watchesCut, faults());
        }
    }

    private enum Fault { CONFLICT, SERVER_ERROR, THROTTLED, SERVER_ERROR_AFTER_APPLY }

    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "transfer-encoding", "upgrade",
            "content-length", "host");

    private final Plan plan;
    private final int upstreamPort;
    private final Random random;
    private final Vertx vertx = Vertx.vertx();
    private final HttpClient client;
    private HttpServer server;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    private final AtomicLong serverErrors = new AtomicLong();
    private final AtomicLong throttled = new AtomicLong();
    private final AtomicLong afterApply = new AtomicLong();
    private final AtomicLong delayed = new AtomicLong();
    private final AtomicLong watchesCut = new AtomicLong();

    public FaultProxy(int upstreamPort, Plan plan) {
        this.upstreamPort = upstreamPort;
        this.plan = plan;
        this.random = new Random(plan.seed());
        this.client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1")
                .setDefaultPort(upstreamPort).setMaxPoolSize(256).setMaxWebSockets(256));
    }

    /** Starts listening on 127.0.0.1:{@code port} (0: any free port); returns the port. */
    public int start(int port) throws Exception {
        server = vertx.createHttpServer().requestHandler(this::handle).listen(port, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return server.actualPort();
    }

    public Counts counts() {
        return new Counts(requests.get(), writes.get(), conflicts.get(), serverErrors.get(), throttled.get(),
                afterApply.get(), delayed.get(), watchesCut.get());
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
    }

    private synchronized double nextDouble() {
        return random.nextDouble();
    }

    private synchronized long nextLong(long min, long max) {
        return max <= min ? min : min + (long) (random.nextDouble() * (max - min));
    }

    private void handle(HttpServerRequest req) {
        if (req.path().equals("/bench/faults")) {
            req.response().putHeader("Content-Type", "application/json").end(counts().json());
            return;
        }
        requests.incrementAndGet();
        req.pause();
        boolean webSocket = "websocket".equalsIgnoreCase(req.getHeader("Upgrade"));
        Runnable forward = () -> {
            if (webSocket) {
                webSocket(req);
            } else {
                http(req);
            }
        };
        long delay = plan.maxLatencyMillis() > 0 ? nextLong(0, plan.maxLatencyMillis()) : 0;
        if (delay > 0) {
            delayed.incrementAndGet();
            vertx.setTimer(delay, t -> forward.run());
        } else {
            forward.run();
        }
    }

    private Fault fault(String method) {
        if (!WRITES.contains(method)) {
            return null;
        }
        writes.incrementAndGet();
        if (plan.writeFailureShare() <= 0 || nextDouble() >= plan.writeFailureShare()) {
            return null;
        }
        return Fault.values()[(int) nextLong(0, Fault.values().length)];
    }

    private void http(HttpServerRequest req) {
        Fault fault = fault(req.method().name());
        if (fault != null && fault != Fault.SERVER_ERROR_AFTER_APPLY) {
            req.resume();
            switch (fault) {
                case CONFLICT -> {
                    conflicts.incrementAndGet();
                    fail(req.response(), 409, "Conflict");
                }
                case SERVER_ERROR -> {
                    serverErrors.incrementAndGet();
                    fail(req.response(), 500, "InternalError");
                }
                default -> {
                    throttled.incrementAndGet();
                    req.response().putHeader("Retry-After", "1");
                    fail(req.response(), 429, "TooManyRequests");
                }
            }
            return;
        }
        RequestOptions options = new RequestOptions().setMethod(req.method()).setURI(req.uri())
                .setHeaders(copy(req.headers()));
        HttpConnection connection = req.connection();
        boolean watch = isWatch(req.uri());
        client.request(options)
                .compose(up -> {
                    String length = req.getHeader("Content-Length");
                    if (length != null) {
                        up.putHeader("Content-Length", length);
                    } else if (WRITES.contains(req.method().name())) {
                        up.setChunked(true);
                    }
                    return up.send(req);
                })
                .onSuccess(resp -> {
                    HttpServerResponse out = req.response();
                    if (fault == Fault.SERVER_ERROR_AFTER_APPLY) {
                        afterApply.incrementAndGet();
                        resp.body().onComplete(b -> fail(out, 500, "InternalError"));
                        return;
                    }
                    out.setStatusCode(resp.statusCode());
                    out.headers().addAll(copy(resp.headers()));
                    String length = resp.getHeader("Content-Length");
                    if (length != null) {
                        out.putHeader("Content-Length", length);
                    } else {
                        out.setChunked(true);
                    }
                    if (watch && plan.watchCutMaxMillis() > 0) {
                        vertx.setTimer(nextLong(plan.watchCutMinMillis(), plan.watchCutMaxMillis()), t -> {
                            if (!out.ended() && !out.closed()) {
                                watchesCut.incrementAndGet();
                                connection.close();
                            }
                        });
                    }
                    resp.pipeTo(out);
                })
                .onFailure(e -> {
                    if (!req.response().ended() && !req.response().closed()) {
                        fail(req.response(), 502, "BadGateway");
                    }
                });
    }

    private void webSocket(HttpServerRequest req) {
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(upstreamPort)
                .setURI(req.uri());
        req.headers().forEach((k, v) -> {
            String lower = k.toLowerCase(Locale.ROOT);
            if (!lower.startsWith("sec-websocket") && !HOP_BY_HOP.contains(lower)) {
                options.addHeader(k, v);
            }
        });
        String protocols = req.getHeader("Sec-WebSocket-Protocol");
        if (protocols != null) {
            options.setSubProtocols(List.of(protocols.split("\\s*,\\s*")));
        }
        HttpConnection connection = req.connection();
        client.webSocket(options).onSuccess(up -> {
            // the API server may send at once (a watch's first events); held until the client's side is open, else
            // they are dropped: the watch would miss what changed while it was down, and nothing tells the client
            up.pause();
            long delay = plan.maxLatencyMillis() > 0 ? nextLong(0, plan.maxLatencyMillis()) : 0;
            if (delay > 0) {
                vertx.setTimer(delay, t -> joinWebSockets(req, up, connection));
            } else {
                joinWebSockets(req, up, connection);
            }
        }).onFailure(e -> {
            req.resume();
            fail(req.response(), 502, "BadGateway");
        });
    }

    /** The client's side of a proxied WebSocket, joined to the API server's, which is paused until then. */
    private void joinWebSockets(HttpServerRequest req, WebSocket up, HttpConnection connection) {
        req.toWebSocket().onSuccess(down -> {
            up.textMessageHandler(down::writeTextMessage);
            up.binaryMessageHandler(down::writeBinaryMessage);
            down.textMessageHandler(up::writeTextMessage);
            down.binaryMessageHandler(up::writeBinaryMessage);
            up.closeHandler(v -> {
                if (!down.isClosed()) {
                    down.close();
                }
            });
            down.closeHandler(v -> {
                if (!up.isClosed()) {
                    up.close();
                }
            });
            if (isWatch(req.uri()) && plan.watchCutMaxMillis() > 0) {
                vertx.setTimer(nextLong(plan.watchCutMinMillis(), plan.watchCutMaxMillis()), t -> {
                    if (!down.isClosed()) {
                        watchesCut.incrementAndGet();
                        connection.close(); // abruptly, no close frame
                        up.close();
                    }
                });
            }
            up.resume();
        }).onFailure(e -> up.close());
    }

    static boolean isWatch(String uri) {
        return uri.contains("watch=true") || uri.contains("watch=1");
    }

    private static MultiMap copy(MultiMap headers) {
        MultiMap out = MultiMap.caseInsensitiveMultiMap();
        headers.forEach((k, v) -> {
            if (!HOP_BY_HOP.contains(k.toLowerCase(Locale.ROOT))) {
                out.add(k, v);
            }
        });
        return out;
    }

    private static void fail(HttpServerResponse out, int code, String reason) {
        out.setStatusCode(code).putHeader("Content-Type", "application/json")
                .end(Buffer.buffer("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"injected by the bench fault proxy\",\"reason\":\"" + reason + "\",\"code\":" + code + "}"));
    }

    public static void main(String[] args) throws Exception {
        BenchLogging.quiet();
        int listen = Integer.parseInt(args[0]);
        int upstream = Integer.parseInt(args[1]);
        Plan plan = new Plan(Double.parseDouble(args[2]), Long.parseLong(args[3]), Long.parseLong(args[4]),
                Long.parseLong(args[5]), Long.parseLong(args[6]));
        FaultProxy proxy = new FaultProxy(upstream, plan);
        int port = proxy.start(listen);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("fault proxy: " + proxy.counts().json())));
        System.out.println("fault proxy listening on http://127.0.0.1:" + port + " -> 127.0.0.1:" + upstream + " " + plan);
        new CountDownLatch(1).await();
    }
}
