package dev.sluice.bench;

import java.net.URI;
import java.net.http.WebSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One watch on every Workload, feeding the runner and the auditor in the API server's order from a single decoding
 * of each event ({@link WorkloadJson}). The test API server, like fabric8's mock, serves watches as WebSockets and
 * starts each with ADDED for every stored object, in the order of their resource versions. When the watch ends before
 * {@link #close}, a LIST reports the Workloads deleted meanwhile (each then handed over as a DELETED event, which has no
 * resource version to be ordered by) and the watch is opened again from the last resource version seen: the server
 * sends each object changed since once, as it is now, in the order of those changes (states within the gap are not
 * seen; {@link #reopened} counts the gaps).
 */
final class WorkloadWatch implements AutoCloseable {

    private final WorkloadApi api;
    private final Consumer<WorkloadJson.Event> handler;
    private final Set<String> known = ConcurrentHashMap.newKeySet();
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong reopened = new AtomicLong();
    private volatile boolean closed;
    private volatile WebSocket socket;
    /** The resource version of the newest change handed over (0: none yet). */
    private volatile long lastVersion;

    WorkloadWatch(WorkloadApi api, Consumer<WorkloadJson.Event> handler) {
        this.api = api;
        this.handler = handler;
    }

    /** Opens the watch; returns once the API server accepted it. */
    WorkloadWatch start() throws Exception {
        socket = open().get(30, TimeUnit.SECONDS);
        return this;
    }

    long events() {
        return events.get();
    }

    long reopened() {
        return reopened.get();
    }

    private CompletableFuture<WebSocket> open() {
        URI uri = URI.create(api.url().replaceFirst("^http", "ws") + WorkloadApi.PREFIX + "workloads?watch=true"
                + (lastVersion > 0 ? "&resourceVersion=" + lastVersion : ""));
        return api.http().newWebSocketBuilder().header("User-Agent", ApiServer.BENCH_AGENT).buildAsync(uri, new Listener());
    }

    private void deliver(String text) {
        WorkloadJson.Event e = WorkloadJson.event(text);
        if (!e.isChange()) {
            return;
        }
        events.incrementAndGet();
        try {
            lastVersion = Math.max(lastVersion, Long.parseLong(e.workload().resourceVersion()));
        } catch (NumberFormatException | NullPointerException notANumber) {
            // ordered by the auditor only where it is one
        }
        if ("DELETED".equals(e.type())) {
            known.remove(e.workload().key());
        } else {
            known.add(e.workload().key());
        }
        handler.accept(e);
    }

    /** The watch ended on its own: report what was deleted meanwhile, then watch again. */
    private void reopen() {
        if (closed) {
            return;
        }
        reopened.incrementAndGet();
        Thread t = new Thread(() -> {
            while (!closed) {
                try {
                    Set<String> stored = new HashSet<>();
                    for (WorkloadView wl : WorkloadJson.list(api.list())) {
                        stored.add(wl.key());
                    }
                    for (String key : Set.copyOf(known)) {
                        if (!stored.contains(key)) {
                            String[] nsName = key.split("/", 2);
                            known.remove(key);
                            handler.accept(new WorkloadJson.Event("DELETED",
                                    new WorkloadView(nsName[0], nsName[1], null, 0, null, java.util.List.of())));
                        }
                    }
                    socket = open().get(30, TimeUnit.SECONDS);
                    return;
                } catch (Exception e) {
                    System.err.println("Workload watch: reopening failed (" + e + "); trying again");
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }, "workload-watch-reopen");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        closed = true;
        WebSocket s = socket;
        if (s != null) {
            s.abort();
        }
    }

    /** Events arrive one at a time (the next is requested once this one is handled), possibly in fragments. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public void onOpen(WebSocket webSocket) {
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            try {
                if (!last) {
                    partial.append(data);
                } else if (partial.length() > 0) {
                    partial.append(data);
                    String text = partial.toString();
                    partial.setLength(0);
                    deliver(text);
                } else {
                    deliver(data.toString());
                }
            } catch (RuntimeException e) {
                // a broken event must not stop the watch silently: it is reported, and the auditor's end check
                // (every Workload Finished) fails the run if a change was missed
                System.err.println("Workload watch: " + e);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            reopen();
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            if (!closed) {
                System.err.println("Workload watch failed: " + error);
            }
            reopen();
        }
    }
}
